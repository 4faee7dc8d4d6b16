/**
 * The bookings contract's texts (bookingMessages) in the UI language, for the setup screens and
 * the calendar page alike: fixed texts keyed like bookingMessages under `bookings.messages`; the
 * ones with a value ("This staff member has 3 upcoming booking(s)…") matched by their English
 * template and filled into the Spanish one under `bookings.templates`.
 */
import { bookingMessages } from '@agentdesk/functions/contract';
import i18n from '../../i18n';
import { serverMessageOf } from '../../api/client';
import { contractTexts } from '../../i18n/contractTexts';
import { compilePatterns, fillPattern, type CompiledPattern } from '../../i18n/patterns';
import { bookingStrings } from './i18n';

const texts = contractTexts([{ prefix: 'bookings.messages', contract: bookingMessages, keys: bookingStrings.en.messages }]);

type TemplateKey = keyof typeof bookingStrings.en.templates;
const templateKeys = Object.keys(bookingStrings.en.templates) as TemplateKey[];
/** English template (the contract's function called with `{{0}}`) → the language's template. */
const patterns = (language: 'en' | 'es'): CompiledPattern[] =>
  compilePatterns(
    Object.fromEntries(templateKeys.map((key) => [(bookingMessages[key] as (value: string) => string)('{{0}}'), bookingStrings[language].templates[key]])),
  );
const PATTERNS: Record<string, CompiledPattern[]> = { es: patterns('es') };

/** A bookings contract text (English) in the UI language; unknown texts go through the app's translator. */
export function translateBookingText(text: string | undefined): string {
  if (!text) return '';
  if (texts.isKnown(text)) return texts.translate(text);
  const lang = i18n.language.slice(0, 2);
  return (PATTERNS[lang] && fillPattern(PATTERNS[lang], text, (value) => value)) ?? texts.translate(text);
}

/** The server's message (translated) when there is one, else the fallback. */
export function bookingErrorText(err: unknown, fallback: string): string {
  const server = serverMessageOf(err);
  return server ? translateBookingText(server) : fallback;
}
