import { describe, expect, it, vi } from 'vitest';

// i18n/index.ts sets <html lang>: the unit project runs in Node without a DOM.
vi.hoisted(() => {
  (globalThis as { document?: unknown }).document ??= { documentElement: {} };
});

import { countryFromLocale, PHONE_COUNTRIES } from '@agentdesk/functions/contract';
import i18n, { translateMessage } from '../i18n';
import { countryName, countryOptions, dialCodeOf, flagOf, phoneHint, SPANISH_SPEAKING } from './phoneCountry';

describe('the account country in phone inputs (issue 19)', () => {
  it('shows the flag, code, dial code and an example typed at home', () => {
    expect(flagOf('ES')).toBe('🇪🇸');
    expect(dialCodeOf('MX')).toBe('+52');
    expect(phoneHint('ES')).toEqual({ prefix: '🇪🇸 ES +34', example: '612 34 56 78', international: '+34 612 34 56 78' });
  });

  it('lists every country, Spanish-speaking ones first, each group by its name in the UI language', () => {
    const options = countryOptions('es');
    expect(options).toHaveLength(PHONE_COUNTRIES.length);
    const firstGroup = options.slice(0, SPANISH_SPEAKING.length).map((o) => o.code);
    expect(new Set(firstGroup)).toEqual(new Set(SPANISH_SPEAKING));
    expect(options[0]!.label).toBe('Argentina (+54)');
    expect(options.find((o) => o.code === 'ES')?.label).toBe('España (+34)');
    expect(countryName('US', 'es')).toBe('Estados Unidos');
    const rest = options.slice(SPANISH_SPEAKING.length).map((o) => o.label);
    expect(rest).toEqual([...rest].sort(new Intl.Collator('es').compare));
  });

  it('presets the sign-up country from the browser locale', () => {
    expect(countryFromLocale('es-ES')).toBe('ES');
    expect(countryFromLocale('es-MX')).toBe('MX');
    expect(countryFromLocale('en-US')).toBe('US');
    expect(countryFromLocale('es')).toBe('ES');
  });

  it("translates the server's invalid-phone message with the country's example", async () => {
    const text = 'Please enter a valid phone number, e.g. 612 34 56 78 or +34 612 34 56 78';
    await i18n.changeLanguage('es');
    expect(translateMessage(text)).toBe('Escribe un número de teléfono válido, p. ej., 612 34 56 78 o +34 612 34 56 78');
    await i18n.changeLanguage('en');
    expect(translateMessage(text)).toBe(text);
  });
});
