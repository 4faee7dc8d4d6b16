/**
 * Text rules of contacts: E.164 phone normalisation, the search tokens a contact is indexed
 * under and the terms a search query is reduced to. Pure functions (unit-tested).
 *
 * Search is word-prefix: a query term matches a contact when it is the beginning of one of the
 * contact's tokens. Tokens and terms are normalised the same way: NFD, diacritics stripped,
 * lower case ("José" → "jose"), so "jose" finds "José" and "JOSÉ" finds "jose". A phone number
 * is found by its beginning (the E.164 prefix of its guard item) or its end (one token, its digits
 * reversed behind REVERSED_MARK) instead of one token per suffix: each token is one item written
 * with the contact, and an import's speed is its number of items (issue 19).
 */
import { getCountryCallingCode as callingCodeWithMetadata, parsePhoneNumberFromString as parseWithMetadata, type CountryCode } from 'libphonenumber-js/core';
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

/** The calling code of a country ("34" for ES); '' for a code libphonenumber does not know. */
function callingCode(country: string): string {
  try {
    return callingCodeWithMetadata(country.toUpperCase() as CountryCode, phoneMetadata);
  } catch {
    return '';
  }
}

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
 * An E.164 number as a spreadsheet keeps it: the country code apart ("+34 612345678"), so Excel
 * reads text, not the number 34612345678; anything that does not parse is written as it is.
 */
export function phoneForSheet(e164: string): string {
  if (!e164) return '';
  const parsed = parsePhoneNumberFromString(e164);
  return parsed ? `+${parsed.countryCallingCode} ${parsed.nationalNumber}` : e164;
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

/** Marks a reversed-digits token: a suffix of the number is a prefix of its reversal. */
export const REVERSED_MARK = '~';

const reversed = (digits: string) => REVERSED_MARK + [...digits].reverse().join('');

/**
 * The token a contact's phone number is found by its end: its digits reversed ("~87654321643"
 * for +34612345678). Its beginning is found by the phone guard item itself (PHONE#+34612…),
 * so it costs no token: each token is one more item an import writes.
 */
export function phoneTokens(e164: string): string[] {
  const digits = e164.replace(/\D/g, '');
  return digits ? [reversed(digits)] : [];
}

/**
 * The e-mail whole (its local part and first words are prefixes of it), its domain, and the other
 * words of both except the top-level domain ("ana.ruiz@clinica-pena.es" → "ruiz", "pena").
 */
export function emailTokens(email: string): string[] {
  const folded = fold(email.trim());
  if (!folded) return [];
  const at = folded.lastIndexOf('@');
  const local = at > 0 ? folded.slice(0, at) : folded;
  const domain = at > 0 ? folded.slice(at + 1) : '';
  return [folded, domain, ...words(local), ...words(domain).slice(0, -1)].filter(Boolean).map((t) => t.replace(/#/g, ''));
}

/** Tokens without the ones that begin another token: a term that begins those begins the longer one too. */
function withoutPrefixes(tokens: readonly string[]): string[] {
  const unique = [...new Set(tokens)];
  return unique.filter((t) => !unique.some((other) => other !== t && other.startsWith(t)));
}

/**
 * The search tokens of a contact: name words first (what people search most), then the e-mail,
 * then the phone; unique, cut to MAX_TOKEN_LENGTH, none the beginning of another, at most
 * MAX_TOKENS_PER_CONTACT.
 */
export function contactTokens(contact: { name: string; email: string; phoneNumber: string }): string[] {
  const tokens = new Set<string>();
  const add = (list: string[]) => {
    for (const t of list) if (t && tokens.size < MAX_TOKENS_PER_CONTACT) tokens.add(t);
  };
  const nameWords = words(contact.name).map(cut);
  // The phone and the e-mail are reserved room first: a long name cannot push them out.
  const phone = contact.phoneNumber ? phoneTokens(contact.phoneNumber).map(cut) : [];
  const email = emailTokens(contact.email).map(cut);
  add(nameWords.slice(0, Math.max(0, MAX_TOKENS_PER_CONTACT - phone.length - new Set(email).size)));
  add(email);
  add(phone);
  return withoutPrefixes([...tokens]);
}

/**
 * One term of a search: the contact matches it when one of its tokens begins with one of
 * `tokens`, or its E.164 number begins with one of `phones`.
 */
export interface SearchTerm {
  tokens: string[];
  phones: string[];
}

/**
 * The term of a phone-looking query's digits. International input ("+34 600", "0034 600") is the
 * beginning of an E.164 number. National input is the beginning of a number at home (country code
 * added, trunk zeros dropped: "020 79" in GB → +4420 79…), the whole number when it parses as one,
 * or, from MIN_PHONE_SUFFIX digits, the end of any number. `tokens` also carry the digits as they
 * are: contacts indexed before issue 19 hold every suffix of their digits as tokens.
 */
function phoneTerm(trimmed: string, country: string): SearchTerm {
  const international = /^(\+|00[1-9])/.test(trimmed);
  const typed = trimmed.replace(/\D/g, '');
  const digits = international && !trimmed.startsWith('+') ? typed.slice(2) : typed;
  if (international) return { phones: [`+${digits}`], tokens: [cut(digits)] };
  const whole = digits.length >= 8 ? toE164(trimmed, country) : null;
  const national = (whole && parsePhoneNumberFromString(whole)?.nationalNumber) || digits;
  const ending = national.length >= MIN_PHONE_SUFFIX ? [cut(reversed(national))] : [];
  const atHome = whole ?? `+${callingCode(country)}${digits.replace(/^0+/, '')}`;
  return { phones: [...new Set([atHome, `+${digits}`])], tokens: [cut(national), ...ending] };
}

/**
 * The terms of a search query: a query that looks like a phone number ("+1 (415) 555-01",
 * "600 111 333") is one phone term (phoneTerm); an e-mail address or a domain (or its beginning) is
 * one term, a prefix of the whole e-mail or domain token; anything else is its words.
 */
export function searchTerms(query: string, defaultCountry: string): SearchTerm[] {
  const trimmed = query.trim();
  if (!trimmed) return [];
  if (/\d/.test(trimmed) && /^\+?[\d\s().\-/]+$/.test(trimmed)) return [phoneTerm(trimmed, defaultCountry)];
  const word = (token: string): SearchTerm => ({ tokens: [token], phones: [] });
  // An e-mail address or a domain ("acme.io"), or the beginning of one: the beginning of a whole token.
  if (/[@.]/.test(trimmed) && !/\s/.test(trimmed)) return [word(cut(fold(trimmed).replace(/#/g, '')))];
  return [...new Set(words(trimmed).map(cut))].map(word);
}

/** Does every term begin one of the contact's tokens or its number? (The search's rule, for tests.) */
export const matchesAll = (contact: { tokens: readonly string[]; phoneNumber: string }, terms: readonly SearchTerm[]) =>
  terms.every(
    (term) =>
      term.tokens.some((t) => contact.tokens.some((token) => token.startsWith(t))) ||
      (contact.phoneNumber !== '' && term.phones.some((p) => contact.phoneNumber.startsWith(p))),
  );
