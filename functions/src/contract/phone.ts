/**
 * Country per account (issue 19): the profile's `country` is the country a phone number typed
 * without a prefix belongs to ("600 111 333" with ES → +34600111333); the deployment's
 * CONTACTS_DEFAULT_COUNTRY is only the fallback of profiles that never chose one. Browser-safe
 * and metadata-free (the sign-up form presets the country with it): the examples per country are
 * in phone-examples.ts, imported only where a phone is typed.
 */
import { PHONE_COUNTRIES } from './phone-countries.js';

export { PHONE_COUNTRIES };

const COUNTRY_SET = new Set(PHONE_COUNTRIES);

/** Whether `code` (upper case) is a country the server parses phone numbers of. */
export const isPhoneCountry = (code: string): boolean => COUNTRY_SET.has(code);

/** A bare language's usual country, for locales without a region ("es" → ES). */
const LANGUAGE_COUNTRY: Record<string, string> = { es: 'ES', en: 'US', pt: 'BR', fr: 'FR', de: 'DE', it: 'IT' };

/**
 * The country a browser locale implies, for the sign-up preset: "es-ES" → ES, "es-MX" → MX,
 * "en-US" → US, "es" → ES; a region that is not a phone country ("es-419") falls back to the
 * language's country; undefined when nothing fits.
 */
export function countryFromLocale(locale: string | undefined | null): string | undefined {
  if (!locale) return undefined;
  let region: string | undefined;
  let language: string | undefined;
  try {
    const parsed = new Intl.Locale(locale.replace(/_/g, '-'));
    region = parsed.region;
    language = parsed.language;
  } catch {
    [language, region] = locale.split(/[-_]/);
  }
  const fromRegion = region?.toUpperCase();
  if (fromRegion && isPhoneCountry(fromRegion)) return fromRegion;
  return language ? LANGUAGE_COUNTRY[language.toLowerCase()] : undefined;
}

/**
 * What a phone number may look like before the server parses it: an optional leading +,
 * digits and the usual separators (space . - ( ) /), 6 to 16 digits in all.
 */
export const PHONE_INPUT_RE = /^\+?[\d\s().\-/]+$/;
export const looksLikePhone = (value: string): boolean => {
  if (!PHONE_INPUT_RE.test(value)) return false;
  const digits = value.replace(/\D/g, '').length;
  return digits >= 6 && digits <= 16;
};

/** SPEC §5's text: the start of every invalid-phone message. */
export const PHONE_INVALID = 'Please enter a valid phone number';

/**
 * The server's invalid-phone message naming the expected form in the account's country, e.g.
 * "Please enter a valid phone number, e.g. 612 34 56 78 or +34 612 34 56 78". English, like every
 * API message: the UI translates it with parsePhoneInvalid.
 */
export function phoneInvalidWithExample(example: { national: string; international: string } | undefined): string {
  return example?.national ? `${PHONE_INVALID}, e.g. ${example.national} or ${example.international}` : PHONE_INVALID;
}

const WITH_EXAMPLE_RE = /^Please enter a valid phone number, e\.g\. (.+) or (\+.+)$/;

/** The examples of a phoneInvalidWithExample text (for its translation), else null. */
export function parsePhoneInvalid(text: string): { national: string; international: string } | null {
  const match = WITH_EXAMPLE_RE.exec(text);
  return match ? { national: match[1]!, international: match[2]! } : null;
}
