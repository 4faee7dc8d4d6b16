import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatCounts, readManyAsOther } from './plurals';
import { formatNumber } from '../shared/intl';

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

async function instance() {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'es',
    fallbackLng: 'en',
    interpolation: { escapeValue: false, alwaysFormat: true },
    resources: {
      en: { translation: { calls_one: '{{count, number}} call', calls_other: '{{count, number}} calls', rows_one: '{{count}} row', rows_other: '{{count}} rows', of: '{{count}} of {{max}} in {{year}}' } },
      es: { translation: { calls_one: '{{count, number}} llamada', calls_other: '{{count, number}} llamadas', rows_one: '{{count}} fila', rows_other: '{{count}} filas', of: '{{count}} de {{max}} en {{year}}' } },
    },
  });
  return i18n;
}

describe('plural forms (issue 29)', () => {
  it('without the fix, a million in Spanish falls back to English (CLDR "many")', async () => {
    const i18n = await instance();
    expect(plain(i18n.t('calls', { count: 1_000_000 }))).toBe('1.000.000 calls');
  });

  it('reads Spanish "many" as "other": one, other and millions all in Spanish, counts grouped', async () => {
    const i18n = await instance();
    readManyAsOther(i18n);
    expect(i18n.t('calls', { count: 1 })).toBe('1 llamada');
    expect(i18n.t('calls', { count: 0 })).toBe('0 llamadas');
    expect(i18n.t('calls', { count: 2 })).toBe('2 llamadas');
    // es follows CLDR (and the RAE): four digits are not grouped, five and more are.
    expect(i18n.t('calls', { count: 1000 })).toBe('1000 llamadas');
    expect(plain(i18n.t('calls', { count: 10_000 }))).toBe('10.000 llamadas');
    expect(plain(i18n.t('calls', { count: 1_000_000 }))).toBe('1.000.000 llamadas');
    expect(plain(i18n.t('calls', { count: 2_000_000 }))).toBe('2.000.000 llamadas');
    await i18n.changeLanguage('en');
    expect(i18n.t('calls', { count: 1 })).toBe('1 call');
    expect(i18n.t('calls', { count: 1_000_000 })).toBe('1,000,000 calls');
  });

  it('leaves ordinal forms alone', async () => {
    const i18n = await instance();
    readManyAsOther(i18n);
    const resolver = i18n.services.pluralResolver as { getSuffix(code: string, count: number, options?: object): string };
    expect(resolver.getSuffix('en', 2, { ordinal: true })).toBe('_ordinal_two');
  });
});

describe('counts in the account locale (issue 29)', () => {
  it('without the fix, a bare {{count}} is not grouped', async () => {
    const i18n = await instance();
    expect(i18n.t('rows', { count: 10_000 })).toBe('10000 filas');
  });

  it('formats every {{count}} (and {{max}}) as a number in the UI language; other values stay as they are', async () => {
    const i18n = await instance();
    formatCounts(i18n);
    expect(i18n.t('rows', { count: 1 })).toBe('1 fila');
    expect(plain(i18n.t('rows', { count: 10_000 }))).toBe('10.000 filas');
    expect(plain(i18n.t('rows', { count: 2.5 }))).toBe('2,5 filas');
    expect(plain(i18n.t('of', { count: 12_345, max: 20000, year: 2026 }))).toBe('12.345 de 20.000 en 2026');
    expect(plain(i18n.t('calls', { count: 10_000 }))).toBe('10.000 llamadas');
    await i18n.changeLanguage('en');
    expect(i18n.t('rows', { count: 10_000 })).toBe('10,000 rows');
    expect(i18n.t('of', { count: '7', max: 9, year: 2026 })).toBe('7 of 9 in 2026');
  });

  it('refuses an instance that does not format every value', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ lng: 'en', resources: {} });
    expect(() => formatCounts(i18n)).toThrow(/alwaysFormat/);
  });
});

describe('one way of writing numbers (issue 29)', () => {
  it('writes a count in a message exactly as the screens write a number (shared/intl formatNumber)', async () => {
    const i18n = await instance();
    readManyAsOther(i18n);
    formatCounts(i18n);
    for (const language of ['es', 'en']) {
      await i18n.changeLanguage(language);
      for (const n of [0, 1, 7, 999, 1000, 9999, 10_000, 123_456, 1_000_000, 2.5]) {
        const row = language === 'es' ? (n === 1 ? 'fila' : 'filas') : n === 1 ? 'row' : 'rows';
        expect(i18n.t('rows', { count: n })).toBe(`${formatNumber(language, n)} ${row}`);
      }
    }
    // The choice, written down: Spanish groups from five digits (CLDR's minimumGroupingDigits 2, the RAE's rule).
    expect(formatNumber('es', 1000)).toBe('1000');
    expect(formatNumber('es', 10_000)).toBe('10.000');
    expect(formatNumber('en', 1000)).toBe('1,000');
  });
});
