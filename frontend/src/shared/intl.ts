/**
 * Dates, times, numbers, percentages and money in the UI language, through Intl — the one place
 * the UI formats them. Pure (the language is an argument) so it is testable; components pass
 * i18next's language or use useIntl(), which binds it.
 */

/** UI language → the locale its formats follow. */
const LOCALES: Record<string, string> = { en: 'en-US', es: 'es-ES' };

export function localeFor(language: string): string {
  return LOCALES[language.slice(0, 2)] ?? language;
}

export type DateInput = string | number | Date | null | undefined;

/** The styles the screens use. */
export const DATE_STYLES = {
  /** May 5, 2026 / 5 may 2026 */
  date: { dateStyle: 'medium' },
  /** May 5, 2026 / 5 de mayo de 2026 */
  longDate: { dateStyle: 'long' },
  /** Tuesday, May 5, 2026 / martes, 5 de mayo de 2026 */
  fullDate: { dateStyle: 'full' },
  /** May 5, 2026, 3:04 PM / 5 may 2026, 15:04 */
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** 3:04 PM / 15:04 */
  time: { timeStyle: 'short' },
  /** 3:04:05 PM / 15:04:05 */
  timeWithSeconds: { timeStyle: 'medium' },
  /** May 5 / 5 may */
  dayMonth: { month: 'short', day: 'numeric' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof DATE_STYLES;

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(kind: string, language: string, options: object, make: (locale: string) => T): T {
  const key = `${kind}|${language}|${JSON.stringify(options)}`;
  let format = cache.get(key) as T | undefined;
  if (!format) {
    format = make(localeFor(language));
    cache.set(key, format);
  }
  return format;
}

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The signed-in user's profile time zone (IANA); undefined = the browser's. */
let displayTimeZone: string | undefined;

/** Dates and times follow the profile's time zone (set by the session when the user loads or changes it). */
export function setDisplayTimeZone(timeZone: string | undefined): void {
  displayTimeZone = timeZone || undefined;
}

/**
 * A date and/or time in the language; null when there is none or it is not a date (the caller
 * says what shows then). `timeZone` defaults to the profile's (setDisplayTimeZone), else the
 * browser's; an unknown zone falls back to the browser's.
 */
export function formatDate(language: string, value: DateInput, style: DateStyle = 'dateTime', timeZone: string | undefined = displayTimeZone): string | null {
  const date = toDate(value);
  if (!date) return null;
  const options: Intl.DateTimeFormatOptions = { ...DATE_STYLES[style], timeZone };
  try {
    return cached('date', language, options, (locale) => new Intl.DateTimeFormat(locale, options)).format(date);
  } catch {
    const fallback = DATE_STYLES[style];
    return cached('date', language, fallback, (locale) => new Intl.DateTimeFormat(locale, fallback)).format(date);
  }
}

/** A number in the language: 1,234.5 / 1234,5 (non-finite counts as 0). */
export function formatNumber(language: string, value: number, options: Intl.NumberFormatOptions = {}): string {
  return cached('number', language, options, (locale) => new Intl.NumberFormat(locale, options)).format(Number.isFinite(value) ? value : 0);
}

/** 0 B, 512 B, 1.5 KB, 12 MB (binary units, one decimal under 10), in the UI language. */
export function formatBytes(bytes: number, language = 'en'): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${formatNumber(language, value, { maximumFractionDigits: digits })} ${units[unit]}`;
}

/** A 0..1 fraction as a whole percentage in the language: 87% / 87 % (clamped to 0..1). */
export function formatPercent(language: string, fraction: number): string {
  const clamped = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  return formatNumber(language, clamped, { style: 'percent', maximumFractionDigits: 0 });
}

/** An amount of money: whole amounts without decimals ($79), others with two ($79.50). */
export function formatMoney(language: string, amount: number, currency: string): string {
  const digits = Number.isInteger(amount) ? 0 : 2;
  try {
    return formatNumber(language, amount, { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: digits, maximumFractionDigits: digits });
  } catch {
    return `${amount} ${currency.toUpperCase()}`;
  }
}

/**
 * A language code ('es-ES') as a name in the UI language ('Español (España)' / 'Spanish (Spain)'),
 * capitalised as a label; the code itself when Intl does not know it. Issue 29: no codes in front
 * of an owner.
 */
export function formatLanguageName(language: string, code: string): string {
  if (!code) return code;
  try {
    const name = new Intl.DisplayNames([localeFor(language)], { type: 'language', languageDisplay: 'standard' }).of(code);
    if (!name || name === code) return code;
    return name.charAt(0).toLocaleUpperCase(localeFor(language)) + name.slice(1);
  } catch {
    return code;
  }
}

/** Every IANA zone the browser knows, UTC first (some engines leave it out of the list); the profile's and the bookings' zone pickers. */
export function timeZoneOptions(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    // An engine without the list still offers UTC and the current zone.
  }
  return [...new Set(['UTC', current, ...zones])];
}
