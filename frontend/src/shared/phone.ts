/**
 * Phone display and the WhatsApp link (SPEC §5): a number of exactly 10 digits shows as
 * (XXX) XXX-XXXX, anything else as it is; a 10-digit number without a leading 1 gets 1 prefixed
 * for the WhatsApp link. A number written with a leading '+' already carries its country code, so
 * it is never reformatted or prefixed (+49 30 1234567 is a German number, not a US one).
 */

function nationalDigits(phone: string): string | null {
  const trimmed = phone.trim();
  if (trimmed.startsWith('+')) return null;
  const digits = trimmed.replace(/\D/g, '');
  return digits.length === 10 ? digits : null;
}

export function formatPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  const digits = nationalDigits(phone);
  if (!digits) return phone;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** The digits WhatsApp wants (country code first), or null when there are none. */
export function whatsappNumber(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const digits = phone.replace(/\D/g, '');
  if (!digits) return null;
  const national = nationalDigits(phone);
  if (national && !national.startsWith('1')) return `1${national}`;
  return digits;
}

/** https://wa.me/<digits>, or null when the contact has no number. */
export function whatsappLink(phone: string | null | undefined): string | null {
  const number = whatsappNumber(phone);
  return number ? `https://wa.me/${number}` : null;
}
