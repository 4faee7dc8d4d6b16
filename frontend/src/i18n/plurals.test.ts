import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { readManyAsOther } from './plurals';

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

async function instance() {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'es',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    resources: {
      en: { translation: { calls_one: '{{count, number}} call', calls_other: '{{count, number}} calls' } },
      es: { translation: { calls_one: '{{count, number}} llamada', calls_other: '{{count, number}} llamadas' } },
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
