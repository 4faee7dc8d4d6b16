/**
 * Prices and lengths as the setup screens show and read them, in the UI language: a service's
 * price is typed in the account's currency ("45", "45,50" in Spanish, "45.50" in English) and
 * stored in cents; minutes read as "30 min" or "1 h 30 min".
 */
import { BOOKING_LIMITS } from '@agentdesk/functions/contract';
import { formatMoney, formatNumber, localeFor } from '../../../shared/intl';

/** The language's decimal separator ("," in Spanish). */
function decimalSeparator(language: string): string {
  return formatNumber(language, 1.5).replace(/\d/g, '').charAt(0) || '.';
}

/**
 * A typed price → cents: null when empty (no price), NaN when it is not an amount of the
 * language with at most two decimals (either separator is accepted for the decimals; the
 * language's group separator is ignored: "1.200,50" in Spanish).
 */
export function parsePrice(text: string, language: string): number | null {
  const raw = text.replace(/[\s\u00a0€$£]/g, '');
  if (raw === '') return null;
  const decimal = decimalSeparator(language);
  const group = decimal === ',' ? '.' : ',';
  let normal = raw;
  // "1.200,50" (es) / "1,200.50" (en): the group separator goes; a lone other separator with 1–2 digits after it is the decimal.
  if (new RegExp(`\\${group}\\d{3}(?:\\D|$)`).test(raw) && raw.includes(decimal)) normal = raw.split(group).join('');
  else if (new RegExp(`^\\d{1,3}(?:\\${group}\\d{3})+$`).test(raw)) normal = raw.split(group).join('');
  normal = normal.replace(',', '.');
  if (!/^\d+(?:\.\d{1,2})?$/.test(normal)) return Number.NaN;
  const cents = Math.round(Number(normal) * 100);
  return cents <= BOOKING_LIMITS.maxPriceCents ? cents : Number.NaN;
}

/** Cents → what the price field shows ("45", "45,50"); empty for no price. */
export function priceInput(cents: number | null, language: string): string {
  if (cents === null) return '';
  const whole = cents % 100 === 0;
  return formatNumber(language, cents / 100, { useGrouping: false, minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 });
}

/** Cents of the currency → "45 €" / "€45.50"; null for no price. */
export function formatPriceCents(language: string, cents: number | null, currency: string): string | null {
  return cents === null ? null : formatMoney(language, cents / 100, currency);
}

/** Minutes → "30 min", "1 h", "1 h 30 min" (numbers in the language). */
export function formatMinutes(language: string, minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const n = (v: number) => formatNumber(language, v);
  if (h === 0) return `${n(m)} min`;
  return m === 0 ? `${n(h)} h` : `${n(h)} h ${n(m)} min`;
}

/** The currency's symbol in the language ("€", "$"); the code when Intl has none. */
export function currencySymbol(language: string, currency: string): string {
  try {
    const parts = new Intl.NumberFormat(localeFor(language), { style: 'currency', currency: currency.toUpperCase() }).formatToParts(0);
    return parts.find((p) => p.type === 'currency')?.value ?? currency.toUpperCase();
  } catch {
    return currency.toUpperCase();
  }
}
