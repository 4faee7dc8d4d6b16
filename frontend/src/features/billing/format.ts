/** Dates and prices in the user's locale (the UI language), through the shared Intl helper. */
import { formatDate as formatIntlDate, formatMoney } from '../../shared/intl';

/** 'May 5, 2026' / '5 may 2026'; '—' for a missing or invalid date. */
export function formatDate(iso: string | null | undefined, language: string): string {
  return formatIntlDate(language, iso, 'longDate') ?? '—';
}

/** Whether the date lies after `now`. */
export function isFutureDate(iso: string | null | undefined, now: Date = new Date()): boolean {
  if (!iso) return false;
  const time = new Date(iso).getTime();
  return Number.isFinite(time) && time > now.getTime();
}

/** Whole-unit prices without decimals ('$79'), others with two ('$79.50'). */
export function formatPrice(amount: number, currency: string, language: string): string {
  return formatMoney(language, amount, currency);
}
