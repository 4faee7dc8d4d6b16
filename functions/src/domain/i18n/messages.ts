/**
 * Texts the server itself renders for the user (e-mails, WhatsApp texts): one place for the
 * language rule, the date format and the enum words, and a typed catalogue helper so every
 * feature's Spanish has exactly the English keys (the compiler checks it). Texts the UI shows
 * (stored failure reasons, API messages) stay English codes/texts the UI translates.
 */
import type { Language } from '../../contract/auth.js';
import type { SENTIMENTS, URGENCIES } from '../../contract/voice.js';

export type { Language };
type Sentiment = (typeof SENTIMENTS)[number];
type Urgency = (typeof URGENCIES)[number];

/** A profile's language as a catalogue language: Spanish for 'es', English for anything else. */
export function languageOf(value: unknown): Language {
  return value === 'es' ? 'es' : 'en';
}

/** Every catalogue made so far, for the test that checks each Spanish text is Spanish (not the English). */
const catalogues: Record<Language, unknown>[] = [];
export const registeredCatalogues = (): readonly Record<Language, unknown>[] => catalogues;

/** One feature's texts in every language; Spanish must have the English keys and types. */
export function catalogue<T>(en: T, es: NoInfer<T>): (language: unknown) => T {
  const texts: Record<Language, T> = { en, es };
  catalogues.push(texts);
  return (language) => texts[languageOf(language)];
}

const LOCALES: Record<Language, string> = { en: 'en-US', es: 'es-ES' };

/**
 * A moment as the user reads it, in their profile's time zone: "Nov 26, 2026, 10:15 AM" /
 * "26 nov 2026, 10:15". UTC (the default of a profile that never chose a zone) is named, so
 * nobody takes it for local time; an unknown zone falls back to UTC.
 */
export function formatDateTime(value: string | Date, language: unknown, timeZone: string | undefined): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  const locale = LOCALES[languageOf(language)];
  const zone = timeZone || 'UTC';
  try {
    const text = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(date);
    return zone === 'UTC' ? `${text} UTC` : text;
  } catch {
    return `${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
  }
}

/** The analysis' enum values as words (the UI has the same words in its voiceCalls strings). */
export const enumWords = catalogue<{ sentiment: Record<Sentiment, string>; urgency: Record<Urgency, string> }>(
  {
    sentiment: { positive: 'positive', negative: 'negative', mixed: 'mixed', neutral: 'neutral' },
    urgency: { critical: 'critical', high: 'high', medium: 'medium', low: 'low' },
  },
  {
    sentiment: { positive: 'positivo', negative: 'negativo', mixed: 'mixto', neutral: 'neutral' },
    urgency: { critical: 'crítica', high: 'alta', medium: 'media', low: 'baja' },
  },
);
