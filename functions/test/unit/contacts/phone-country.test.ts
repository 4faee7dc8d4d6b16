/** Country per account (issue 19): the sign-up preset, the country rule, the parser and its message. */
import { readFileSync } from 'node:fs';
import { getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';
import { PHONE_EXAMPLES } from '../../../src/contract/phone-examples.js';
import { describe, expect, it } from 'vitest';
import { countryField, messages, settingsRequest } from '../../../src/contract/auth.js';
import { PHONE_COUNTRIES, countryFromLocale, parsePhoneInvalid } from '../../../src/contract/phone.js';
import { phoneInvalidFor, toE164 } from '../../../src/domain/contacts/text.js';
import { phoneCountriesFile, phoneCountriesModule, phoneExamplesFile, phoneExamplesModule } from '../../../scripts/phone-metadata.js';

describe('sign-up country preset from the browser locale', () => {
  it.each([
    ['es-ES', 'ES'],
    ['es-MX', 'MX'],
    ['en-US', 'US'],
    ['es', 'ES'],
    ['es-419', 'ES'],
    ['es_AR', 'AR'],
    ['en-GB', 'GB'],
    ['pt-BR', 'BR'],
  ])('%s → %s', (locale, country) => {
    expect(countryFromLocale(locale)).toBe(country);
  });

  it('answers nothing for an empty or unknown locale', () => {
    expect(countryFromLocale('')).toBeUndefined();
    expect(countryFromLocale(undefined)).toBeUndefined();
    expect(countryFromLocale('xx')).toBeUndefined();
  });
});

describe('the profile country', () => {
  it('is a country whose phone numbers the server parses, any case', () => {
    expect(countryField.parse(' es ')).toBe('ES');
    for (const bad of ['ZZ', 'ESP', 'E', '', '34']) {
      const result = countryField.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(messages.countryInvalid);
    }
  });

  it('is optional in the settings (older clients send the three spec fields)', () => {
    expect(settingsRequest.parse({ name: 'Ana', language: 'es' })).not.toHaveProperty('country');
    expect(settingsRequest.parse({ name: 'Ana', language: 'es', country: 'mx' }).country).toBe('MX');
  });

  it('lists every country of the installed libphonenumber-js (generated; run functions/scripts/phone-metadata.ts after upgrading)', () => {
    expect([...PHONE_COUNTRIES].sort()).toEqual([...getCountries()].sort());
    expect(readFileSync(phoneCountriesFile, 'utf8')).toBe(phoneCountriesModule());
    expect(readFileSync(phoneExamplesFile, 'utf8')).toBe(phoneExamplesModule());
    for (const country of PHONE_COUNTRIES) {
      const [callingCode, , international] = PHONE_EXAMPLES[country]!;
      expect(callingCode, country).toBe(getCountryCallingCode(country as CountryCode));
      expect(international.startsWith(`+${callingCode} `), country).toBe(true);
    }
  });
});

describe('phone numbers read in the account country', () => {
  it.each([
    ['600 111 333', '+34600111333'],
    ['911 22 23 33', '+34911222333'],
    ['+34 600 111 333', '+34600111333'],
    ['0034600111333', '+34600111333'],
    ['600.111.333', '+34600111333'],
    ['+52 55 1234 5678', '+525512345678'],
  ])('ES: %s → %s', (typed, e164) => {
    expect(toE164(typed, 'ES')).toBe(e164);
  });

  it('keeps reading US numbers in a US account', () => {
    expect(toE164('(415) 555-0123', 'US')).toBe('+14155550123');
    expect(toE164('600 111 333', 'US')).toBeNull();
  });

  it('names how a number is typed in the country when one is refused, and the UI can read the examples back', () => {
    const es = phoneInvalidFor('ES');
    expect(es).toBe('Please enter a valid phone number, e.g. 612 34 56 78 or +34 612 34 56 78');
    expect(parsePhoneInvalid(es)).toEqual({ national: '612 34 56 78', international: '+34 612 34 56 78' });
    expect(phoneInvalidFor('mx')).toBe('Please enter a valid phone number, e.g. 222 123 4567 or +52 222 123 4567');
    expect(parsePhoneInvalid('Please enter a valid phone number')).toBeNull();
  });
});
