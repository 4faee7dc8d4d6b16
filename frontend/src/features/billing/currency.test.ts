/**
 * Issue 29 item 3: prices in the account's currency and locale ('79 €/mes' in Spanish, '$79/mo'
 * in English, never '79 US$ /mes USD'), and plan limits as lines with numbers grouped in the
 * locale ('10.000 mensajes al mes').
 */
import { afterAll, describe, expect, it, vi } from 'vitest';

// i18n/index.ts sets <html lang>: the unit project runs in Node without a DOM.
vi.hoisted(() => {
  (globalThis as { document?: unknown }).document ??= { documentElement: {} };
});

import i18n from '../../i18n';
import { formatNumber } from '../../shared/intl';
import { formatPrice } from './format';
import './i18n';

const nbsp = (text: string) => text.replace(/\s/g, ' ');

/** What usePlanText renders for a price per interval and a limit line, without React. */
async function inLanguage(language: string) {
  await i18n.changeLanguage(language);
  return {
    pricePer: (amount: number, currency: string) =>
      nbsp(formatPrice(amount, currency, language) + i18n.t('billing.perInterval', { interval: i18n.t('billing.intervals.month') })),
    limit: (metric: string, value: number) =>
      nbsp(
        value < 0
          ? i18n.t(`billing.limitLines.${metric}Unlimited`)
          : i18n.t(`billing.limitLines.${metric}`, { count: value, n: formatNumber(language, value) }),
      ),
  };
}

afterAll(async () => {
  await i18n.changeLanguage('en');
});

describe('prices in the currency and the locale', () => {
  it('shows euros the Spanish way and dollars the English way', async () => {
    const es = await inLanguage('es');
    expect(es.pricePer(79, 'eur')).toBe('79 €/mes');
    expect(es.pricePer(29.5, 'eur')).toBe('29,50 €/mes');
    // A Latin American account pays dollars: the symbol says so, no code after it.
    expect(es.pricePer(79, 'usd')).toBe('79 US$/mes');
    const en = await inLanguage('en');
    expect(en.pricePer(79, 'usd')).toBe('$79/mo');
    expect(en.pricePer(79, 'eur')).toBe('€79/mo');
  });
});

describe('plan limits as lines', () => {
  it('groups numbers in the locale and says unlimited in words', async () => {
    const es = await inLanguage('es');
    expect(es.limit('messagesPerMonth', 10_000)).toBe('10.000 mensajes al mes');
    expect(es.limit('contacts', 5_000)).toBe('Hasta 5000 contactos');
    expect(es.limit('minutesPerMonth', 1)).toBe('1 minuto de voz al mes');
    expect(es.limit('contacts', -1)).toBe('Contactos ilimitados');
    const en = await inLanguage('en');
    expect(en.limit('messagesPerMonth', 10_000)).toBe('10,000 messages per month');
    expect(en.limit('contacts', 1)).toBe('Up to 1 contact');
    expect(en.limit('minutesPerMonth', -1)).toBe('Unlimited voice minutes');
  });

  it('says how many team members each plan seats (issue 32)', async () => {
    const es = await inLanguage('es');
    expect(es.limit('seats', 2)).toBe('2 miembros del equipo');
    expect(es.limit('seats', 1)).toBe('1 miembro del equipo');
    const en = await inLanguage('en');
    expect(en.limit('seats', 20)).toBe('20 team members');
    expect(en.limit('seats', 1)).toBe('1 team member');
  });
});
