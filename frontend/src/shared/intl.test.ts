import { describe, expect, it } from 'vitest';
import { formatDate, formatLanguageName, formatMoney, formatNumber, formatPercent, localeFor, setDisplayTimeZone } from './intl';

const AT = '2026-05-05T15:04:05Z';
// Intl separates some parts with narrow/non-breaking spaces: compare with plain spaces.
const plain = (text: string | null) => text?.replace(/[\u00a0\u202f]/g, ' ') ?? null;

describe('localeFor', () => {
  it('maps the UI languages to their locales and keeps anything else', () => {
    expect(localeFor('en')).toBe('en-US');
    expect(localeFor('es')).toBe('es-ES');
    expect(localeFor('es-MX')).toBe('es-ES');
    expect(localeFor('fr')).toBe('fr');
  });
});

describe('formatDate', () => {
  it('formats dates and times in English', () => {
    expect(plain(formatDate('en', AT, 'date', 'UTC'))).toBe('May 5, 2026');
    expect(plain(formatDate('en', AT, 'longDate', 'UTC'))).toBe('May 5, 2026');
    expect(plain(formatDate('en', AT, 'fullDate', 'UTC'))).toBe('Tuesday, May 5, 2026');
    expect(plain(formatDate('en', AT, 'dateTime', 'UTC'))).toBe('May 5, 2026, 3:04 PM');
    expect(plain(formatDate('en', AT, 'time', 'UTC'))).toBe('3:04 PM');
    expect(plain(formatDate('en', AT, 'timeWithSeconds', 'UTC'))).toBe('3:04:05 PM');
    expect(plain(formatDate('en', AT, 'dayMonth', 'UTC'))).toBe('May 5');
  });

  it('formats dates and times in Spanish', () => {
    expect(plain(formatDate('es', AT, 'date', 'UTC'))).toBe('5 may 2026');
    expect(plain(formatDate('es', AT, 'longDate', 'UTC'))).toBe('5 de mayo de 2026');
    expect(plain(formatDate('es', AT, 'fullDate', 'UTC'))).toBe('martes, 5 de mayo de 2026');
    expect(plain(formatDate('es', AT, 'dateTime', 'UTC'))).toBe('5 may 2026, 15:04');
    expect(plain(formatDate('es', AT, 'time', 'UTC'))).toBe('15:04');
    expect(plain(formatDate('es', AT, 'dayMonth', 'UTC'))).toBe('5 may');
  });

  it('takes ISO strings, epoch milliseconds and Dates; null when there is no valid date', () => {
    expect(formatDate('en', Date.parse(AT), 'date', 'UTC')).toBe(formatDate('en', new Date(AT), 'date', 'UTC'));
    expect(formatDate('en', null)).toBeNull();
    expect(formatDate('en', undefined)).toBeNull();
    expect(formatDate('en', '')).toBeNull();
    expect(formatDate('en', 'not a date')).toBeNull();
  });

  it("uses the profile's time zone when none is given (a Madrid owner reads 17:04 for 15:04 UTC)", () => {
    setDisplayTimeZone('Europe/Madrid');
    try {
      expect(plain(formatDate('es', AT, 'dateTime'))).toBe('5 may 2026, 17:04');
      expect(plain(formatDate('en', AT, 'time'))).toBe('5:04 PM');
      expect(formatDate('es', AT, 'time', 'UTC')).toBe('15:04');
    } finally {
      setDisplayTimeZone(undefined);
    }
  });

  it('falls back to the browser time zone when the zone is unknown', () => {
    expect(formatDate('en', AT, 'date', 'Not/AZone')).toBe(formatDate('en', AT, 'date'));
  });
});

describe('formatNumber, formatPercent, formatMoney', () => {
  it('formats numbers in English and Spanish', () => {
    expect(formatNumber('en', 12345)).toBe('12,345');
    expect(formatNumber('es', 12345)).toBe('12.345');
    expect(formatNumber('en', 2.45, { maximumFractionDigits: 1 })).toBe('2.5');
    expect(formatNumber('es', 2.45, { maximumFractionDigits: 1 })).toBe('2,5');
    expect(formatNumber('en', Number.NaN)).toBe('0');
  });

  it('formats a 0..1 fraction as a whole percentage, clamped', () => {
    expect(formatPercent('en', 0.873)).toBe('87%');
    expect(plain(formatPercent('es', 0.873))).toBe('87 %');
    expect(formatPercent('en', 1.2)).toBe('100%');
    expect(formatPercent('en', -1)).toBe('0%');
  });

  it('formats money without decimals for whole amounts', () => {
    expect(formatMoney('en', 79, 'usd')).toBe('$79');
    expect(formatMoney('en', 79.5, 'usd')).toBe('$79.50');
    expect(plain(formatMoney('es', 79.5, 'eur'))).toBe('79,50 €');
    expect(formatMoney('en', 5, 'not-a-currency')).toBe('5 NOT-A-CURRENCY');
  });
});

describe('formatLanguageName (issue 29: no codes in front of an owner)', () => {
  it('names a language code in the UI language, capitalised', () => {
    expect(formatLanguageName('es', 'es-ES')).toBe('Español (España)');
    expect(formatLanguageName('es', 'es-MX')).toBe('Español (México)');
    expect(formatLanguageName('es', 'en-GB')).toBe('Inglés (Reino Unido)');
    expect(formatLanguageName('en', 'es-ES')).toBe('Spanish (Spain)');
    expect(formatLanguageName('en', 'en-US')).toBe('English (United States)');
  });

  it('keeps what it cannot name', () => {
    expect(formatLanguageName('es', 'not a code')).toBe('not a code');
    expect(formatLanguageName('es', '')).toBe('');
  });
});
