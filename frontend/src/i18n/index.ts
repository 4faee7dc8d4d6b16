/**
 * i18next with English and Spanish bundled (both are small). Every visible string goes
 * through `t`; the spec's English texts are the English values. The signed-in user's
 * language setting wins; visitors get their last choice or the browser's language.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { messages as contractMessages, parsePhoneInvalid } from '@agentdesk/functions/contract';
import en from './en.json';
import es from './es.json';
import { serverMessageOf } from '../api/client';
import { compilePatterns, fillPattern, type CompiledPattern } from './patterns';
import { formatCounts, readManyAsOther } from './plurals';

export type AppLanguage = 'en' | 'es';
export const LANGUAGES: readonly AppLanguage[] = ['en', 'es'];
const STORAGE_KEY = 'agentdesk.language';

function initialLanguage(): AppLanguage {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    if (stored === 'en' || stored === 'es') return stored;
  } catch {
    // ignore
  }
  return typeof navigator !== 'undefined' && navigator.language?.toLowerCase().startsWith('es') ? 'es' : 'en';
}

const { serverMessages: esServer, ...esTranslation } = es;

void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: en },
    es: { translation: esTranslation, server: esServer },
  },
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: LANGUAGES as AppLanguage[],
  // alwaysFormat: counts are formatted in the UI language without `, number` (formatCounts).
  interpolation: { escapeValue: false, alwaysFormat: true },
  returnNull: false,
  initAsync: false,
});
readManyAsOther(i18n);
formatCounts(i18n);

function applyLanguage(lng: string) {
  document.documentElement.lang = lng;
}
applyLanguage(i18n.language);
i18n.on('languageChanged', applyLanguage);

/** The UI's language now (the visitor's choice, their browser's, or the signed-in account's). */
export function currentLanguage(): AppLanguage {
  return i18n.language?.startsWith('es') ? 'es' : 'en';
}

/** Switches the UI language and remembers it for the next visit. */
export function setLanguage(lng: AppLanguage): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, lng);
  } catch {
    // ignore
  }
  if (i18n.language !== lng) void i18n.changeLanguage(lng);
}

const contractKeyByText = new Map<string, string>(Object.entries(contractMessages).map(([key, text]) => [text, key]));

/**
 * Translates a message that arrives as English text: a contract validation message (zod)
 * or a server message. Unknown texts are shown as they are.
 */
export function translateMessage(text: string | undefined): string {
  if (!text) return '';
  const key = contractKeyByText.get(text);
  if (key) return i18n.t(`validation.${key}`);
  // The server's invalid-phone message names the account country's form (issue 19).
  const phoneExample = parsePhoneInvalid(text);
  if (phoneExample) return i18n.t('validation.phoneInvalidExample', phoneExample);
  const translated = serverText(text);
  return translated !== text ? translated : (serverPattern(text) ?? text);
}

/** A server text (English) in the UI language, from the `server` namespace; the text itself when unknown. */
export const serverText = (text: string): string => i18n.t(text, { ns: 'server', keySeparator: false, nsSeparator: false, defaultValue: text });

/** The sign-in pages' texts with values ("… try again in 30 seconds."): es.json's serverMessages templates. */
const SIGN_IN_PATTERNS: Record<string, CompiledPattern[]> = { es: compilePatterns(esServer) };
const signInPattern = (text: string) => fillPattern(SIGN_IN_PATTERNS[i18n.language.slice(0, 2)] ?? [], text, serverText);

/** Server texts with values ("The page returned HTTP 404"): the app's are added by i18n/serverTexts.ts with the signed-in shell; null = none matches. */
let serverPattern: (text: string) => string | null = signInPattern;

export function setServerPatterns(translate: (text: string) => string | null): void {
  serverPattern = (text) => translate(text) ?? signInPattern(text);
}

export default i18n;

/** The server's message for a failed call (translated when known), else the caller's fallback text. */
export function errorMessage(err: unknown, fallback: string): string {
  const server = serverMessageOf(err);
  return server ? translateMessage(server) : fallback;
}
