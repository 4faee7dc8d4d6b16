/**
 * Phone display and the WhatsApp link (SPEC §5, issue 29): a number is shown grouped, in the
 * national format when it is of the account's country ("612 34 56 78" for a Spanish account's
 * Spanish number, "(202) 555-0143" for a US account's US number) and in the international
 * format otherwise ("+52 55 1234 5678"). A number written without a prefix is read in the
 * account's country; one that libphonenumber cannot read is shown as it is. The account's country
 * is the session's (displayCountry.ts); pages pass none.
 */
import { parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js/min';
import { getDisplayCountry } from './displayCountry';

/** The number as written, read in `country` when it has no prefix ("00" counts as "+"); null when it is not a possible number. */
function parse(phone: string, country: string): PhoneNumber | null {
  const trimmed = phone.trim();
  if (!/\d/.test(trimmed)) return null;
  const text = /^00[1-9]/.test(trimmed) ? `+${trimmed.slice(2)}` : trimmed;
  try {
    const parsed = parsePhoneNumberFromString(text, country as CountryCode);
    return parsed?.isPossible() ? parsed : null;
  } catch {
    return null;
  }
}

/** Is the number of `country`: its region, or (for shared codes like +1) its calling code when no region is known. */
function isHome(parsed: PhoneNumber, country: string): boolean {
  if (parsed.country) return parsed.country === country;
  return parsed.getPossibleCountries().includes(country as CountryCode);
}

/** The number grouped for display: national at home, international otherwise; '' for none; as written when unreadable. */
export function formatPhone(phone: string | null | undefined, country: string = getDisplayCountry()): string {
  if (!phone) return '';
  const parsed = parse(phone, country);
  if (!parsed) return phone;
  return isHome(parsed, country) ? parsed.formatNational() : parsed.formatInternational();
}

/**
 * The digits WhatsApp wants (country code first), or null when there are none. A number without a
 * prefix is read in the account's country; one libphonenumber cannot read keeps SPEC §5's rule
 * (a 10-digit number without a leading 1 gets 1 prefixed), else its digits as they are.
 */
export function whatsappNumber(phone: string | null | undefined, country: string = getDisplayCountry()): string | null {
  if (!phone) return null;
  const digits = phone.replace(/\D/g, '');
  if (!digits) return null;
  const parsed = parse(phone, country);
  if (parsed?.isValid()) return parsed.number.slice(1);
  if (!phone.trim().startsWith('+') && digits.length === 10 && !digits.startsWith('1')) return `1${digits}`;
  return digits;
}

/** https://wa.me/<digits>, or null when the contact has no number. */
export function whatsappLink(phone: string | null | undefined, country?: string): string | null {
  const number = whatsappNumber(phone, country);
  return number ? `https://wa.me/${number}` : null;
}
