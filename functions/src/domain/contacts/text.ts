/**
 * Text rules of contacts: E.164 phone normalisation, the search tokens a contact is indexed
 * under and the terms a search query is reduced to. Pure functions (unit-tested).
 *
 * Search is word-prefix: a query term matches a contact when it is the beginning of one of the
 * contact's tokens. Tokens and terms are normalised the same way: NFD, diacritics stripped,
 * lower case ("José" → "jose"), so "jose" finds "José" and "JOSÉ" finds "jose".
 */
import { parsePhoneNumberFromString as parseWithMetadata, type CountryCode } from 'libphonenumber-js/core';
import { phoneMetadata } from './phone-metadata.js';
// phone.js, not contacts.js: the integrations' bundles need the phone rules, not the contacts schemas.
import { looksLikePhone, phoneInvalidWithExample } from '../../contract/phone.js';
import { PHONE_EXAMPLES } from '../../contract/phone-examples.js';

/** Tokens longer than this are cut (a longer query term is cut the same way, so it still matches). */
export const MAX_TOKEN_LENGTH = 40;
/** At most this many tokens per contact, so one contact's items fit one TransactWriteItems (100 items). */
export const MAX_TOKENS_PER_CONTACT = 40;
/** Phone suffixes shorter than this are not indexed ("0123" finds the number, "123" does not). */
export const MIN_PHONE_SUFFIX = 4;

const parsePhoneNumberFromString = (text: string, options?: { defaultCountry?: CountryCode }) =>
  parseWithMetadata(text, options ?? {}, phoneMetadata);

/** NFD + strip combining marks + lower case. */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

const words = (text: string) => fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const cut = (token: string) => token.slice(0, MAX_TOKEN_LENGTH);

/**
 * E.164 of a phone number as typed, or null when it is not a valid number. A number without a
 * country prefix is read in `defaultCountry`; a leading international "00" counts as "+".
 */
export function toE164(input: string, defaultCountry: string): string | null {
  const trimmed = input.trim();
  if (!trimmed || !looksLikePhone(trimmed.replace(/^00/, '+'))) return null;
  const text = /^00[1-9]/.test(trimmed) ? `+${trimmed.slice(2)}` : trimmed;
  const parsed = parsePhoneNumberFromString(text, { defaultCountry: defaultCountry.toUpperCase() as CountryCode });
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * E.164 of a business's own number (WhatsApp, Twilio setup) typed in the account's `country`:
 * a valid number at home ("911 22 23 33" in ES), or with its country code and no + ("34 612 345
 * 678"); failing those, a number of possible length is kept, because the providers' test numbers
 * (Meta's +1 555…, Twilio's +1 500…) are real endpoints that no numbering plan calls valid.
 */
export function businessNumberE164(input: string, country: string): string | null {
  const valid = toE164(input, country);
  if (valid) return valid;
  const trimmed = input.trim();
  if (!looksLikePhone(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  const international = /^(\+|00[1-9])/.test(trimmed) ? `+${digits.replace(/^00/, '')}` : null;
  if (!international) {
    const withCode = toE164(`+${digits}`, country);
    if (withCode) return withCode;
  }
  const parsed = international
    ? parsePhoneNumberFromString(international)
    : parsePhoneNumberFromString(trimmed, { defaultCountry: country.toUpperCase() as CountryCode });
  return parsed?.isPossible() ? parsed.number : null;
}

/**
 * The invalid-phone message for an account in `country`: SPEC's text plus how a number is typed
 * there ("Please enter a valid phone number, e.g. 612 34 56 78 or +34 612 34 56 78").
 */
export function phoneInvalidFor(country: string): string {
  const row = PHONE_EXAMPLES[country.toUpperCase()];
  return phoneInvalidWithExample(row ? { national: row[1], international: row[2] } : undefined);
}

/** The digits a contact's phone number is found by: every suffix of its E.164 digits of 4+ digits. */
export function phoneTokens(e164: string): string[] {
  const digits = e164.replace(/\D/g, '');
  const out: string[] = [];
  for (let start = 0; digits.length - start >= MIN_PHONE_SUFFIX; start++) out.push(digits.slice(start));
  return out;
}

/** The e-mail whole, its local part, its domain, and the words of both. */
export function emailTokens(email: string): string[] {
  const folded = fold(email.trim());
  if (!folded) return [];
  const at = folded.lastIndexOf('@');
  const local = at > 0 ? folded.slice(0, at) : folded;
  const domain = at > 0 ? folded.slice(at + 1) : '';
  return [folded, local, domain, ...words(local), ...words(domain)].filter(Boolean).map((t) => t.replace(/#/g, ''));
}

/**
 * The search tokens of a contact: name words first (what people search most), then the e-mail,
 * then the phone suffixes; unique, cut to MAX_TOKEN_LENGTH, at most MAX_TOKENS_PER_CONTACT.
 */
export function contactTokens(contact: { name: string; email: string; phoneNumber: string }): string[] {
  const tokens = new Set<string>();
  const add = (list: string[]) => {
    for (const t of list) if (t && tokens.size < MAX_TOKENS_PER_CONTACT) tokens.add(cut(t));
  };
  const nameWords = words(contact.name);
  // The phone's suffixes and the e-mail are reserved room first: a long name cannot push them out.
  const phone = contact.phoneNumber ? phoneTokens(contact.phoneNumber) : [];
  const email = emailTokens(contact.email);
  add(nameWords.slice(0, Math.max(0, MAX_TOKENS_PER_CONTACT - phone.length - new Set(email).size)));
  add(email);
  add(phone);
  return [...tokens];
}

/**
 * The terms of a search query. A query that looks like a phone number ("+1 (415) 555-01",
 * "555 0123") is one term of digits (its national digits when it parses as a full number, so
 * "07700 900123" finds +447700900123 with default country GB); anything else is its words.
 */
export function searchTerms(query: string, defaultCountry: string): string[] {
  const trimmed = query.trim();
  if (!trimmed) return [];
  if (/\d/.test(trimmed) && /^\+?[\d\s().\-/]+$/.test(trimmed)) {
    const digits = trimmed.replace(/\D/g, '');
    const parsed = digits.length >= 8 ? toE164(trimmed, defaultCountry) : null;
    if (parsed && !trimmed.startsWith('+')) {
      // National input: the national significant number is a suffix of the stored digits.
      const national = parsePhoneNumberFromString(parsed)?.nationalNumber;
      if (national) return [cut(national)];
    }
    return [cut(digits)];
  }
  // An e-mail address (or its beginning) is one term: a prefix of the whole e-mail token.
  if (trimmed.includes('@') && !/\s/.test(trimmed)) return [cut(fold(trimmed).replace(/#/g, ''))];
  return [...new Set(words(trimmed).map(cut))];
}

/** Does every term begin one of the tokens? */
export const matchesAll = (tokens: readonly string[], terms: readonly string[]) =>
  terms.every((term) => tokens.some((token) => token.startsWith(term)));
