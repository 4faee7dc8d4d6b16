/** Dates and prices in the user's locale (the UI language). */

const LOCALES: Record<string, string> = { en: 'en-US', es: 'es-ES' };

export function localeFor(language: string): string {
  return LOCALES[language.slice(0, 2)] ?? language;
}

/** 'May 5, 2026' / '5 may 2026'; '—' for a missing or invalid date. */
export function formatDate(iso: string | null | undefined, language: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return new Intl.DateTimeFormat(localeFor(language), { dateStyle: 'long' }).format(date);
}

/** Whether the date lies after `now`. */
export function isFutureDate(iso: string | null | undefined, now: Date = new Date()): boolean {
  if (!iso) return false;
  const time = new Date(iso).getTime();
  return Number.isFinite(time) && time > now.getTime();
}

/** Whole-unit prices without decimals ('$79'), others with two ('$79.50'). */
export function formatPrice(amount: number, currency: string, language: string): string {
  const whole = Number.isInteger(amount);
  try {
    return new Intl.NumberFormat(localeFor(language), {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: whole ? 0 : 2,
    }).format(amount);
  } catch {
    return `${amount} ${currency.toUpperCase()}`;
  }
}
