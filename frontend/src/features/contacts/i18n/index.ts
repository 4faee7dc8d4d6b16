/**
 * The contacts screens' strings (en, es), registered with i18next when a contacts chunk loads, so
 * the login route does not carry them. Import this module from every contacts entry point.
 */
import i18n, { errorMessage, translateMessage } from '../../../i18n';
import { ApiError } from '../../../api/client';
import en from './en.json';
import es from './es.json';
/** Spanish for the contacts calls' fixed server messages, by English text. */
import esServer from './es-server.json';

i18n.addResourceBundle('en', 'translation', { contacts: en }, true, false);
i18n.addResourceBundle('es', 'translation', { contacts: es }, true, false);
i18n.addResourceBundle('es', 'server', esServer, true, false);

export const contactStrings = { en, es, esServer };

const DUPLICATE_RE = /^A contact with this phone number already exists: (.+)$/s;
const CONTACT_LIMIT_RE = /^Contact limit reached: your plan allows (.+) contacts\. Upgrade your plan to add more\.$/s;
/** whatsappMessages.importDone(n). */
const WHATSAPP_IMPORT_RE = /^(\d+) contacts? imported from WhatsApp$/;
const CONTACT_LIMIT_ES = 'Has alcanzado el límite de contactos: tu plan permite {{limit}} contactos. Mejora tu plan para añadir más.';

/** A contacts server message in the UI language (fixed texts, plus the three with a value inside). */
export function translateContactMessage(text: string): string {
  const imported = WHATSAPP_IMPORT_RE.exec(text);
  if (imported) return i18n.t('contacts.whatsappImport.done', { count: Number(imported[1]) });
  const duplicate = DUPLICATE_RE.exec(text);
  if (duplicate) return i18n.t('contacts.duplicate', { label: duplicate[1] });
  const limit = CONTACT_LIMIT_RE.exec(text);
  if (limit && i18n.language === 'es') return i18n.t(CONTACT_LIMIT_ES, { limit: limit[1], defaultValue: CONTACT_LIMIT_ES, keySeparator: false, nsSeparator: false });
  return translateMessage(text);
}

/** The server's message for a failed contacts call (translated when known), else the fallback. */
export function contactErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.serverMessage) return translateContactMessage(err.serverMessage);
  return errorMessage(err, fallback);
}
