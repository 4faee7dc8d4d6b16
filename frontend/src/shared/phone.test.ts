import { afterEach, describe, expect, it } from 'vitest';
import { setDisplayCountry } from './displayCountry';
import { formatPhone, whatsappLink, whatsappNumber } from './phone';

afterEach(() => setDisplayCountry(undefined));

describe('formatPhone (SPEC §5, issue 29)', () => {
  it('shows a Spanish account’s Spanish numbers in national groups, with or without +34 as stored', () => {
    expect(formatPhone('+34612345678', 'ES')).toBe('612 34 56 78');
    expect(formatPhone('612345678', 'ES')).toBe('612 34 56 78');
    expect(formatPhone('0034 612 345 678', 'ES')).toBe('612 34 56 78');
    expect(formatPhone('+34911222333', 'ES')).toBe('911 22 23 33');
  });

  it('shows another country’s number in international groups', () => {
    expect(formatPhone('+525512345678', 'ES')).toBe('+52 55 1234 5678');
    expect(formatPhone('+34612345678', 'MX')).toBe('+34 612 34 56 78');
    expect(formatPhone('+12025550143', 'ES')).toBe('+1 202 555 0143');
    expect(formatPhone('+4930123456', 'US')).toBe('+49 30 123456');
  });

  it('keeps the US form for a US account (SPEC §5: (XXX) XXX-XXXX)', () => {
    expect(formatPhone('2025550143', 'US')).toBe('(202) 555-0143');
    expect(formatPhone('202-555-0143', 'US')).toBe('(202) 555-0143');
    expect(formatPhone('+12025550143', 'US')).toBe('(202) 555-0143');
  });

  it('uses the session’s country when the page passes none (US before any session)', () => {
    expect(formatPhone('2025550143')).toBe('(202) 555-0143');
    setDisplayCountry('ES');
    expect(formatPhone('+34612345678')).toBe('612 34 56 78');
    expect(formatPhone('+525512345678')).toBe('+52 55 1234 5678');
    setDisplayCountry('not a country');
    expect(formatPhone('2025550143')).toBe('(202) 555-0143');
  });

  it('shows what it cannot read as it is', () => {
    expect(formatPhone('555014', 'US')).toBe('555014');
    expect(formatPhone('n/a', 'ES')).toBe('n/a');
    expect(formatPhone('', 'ES')).toBe('');
    expect(formatPhone(undefined)).toBe('');
    expect(formatPhone(null)).toBe('');
  });
});

describe('whatsappNumber / whatsappLink (SPEC §5)', () => {
  it('reads a number without a prefix in the account’s country', () => {
    expect(whatsappNumber('612 34 56 78', 'ES')).toBe('34612345678');
    expect(whatsappNumber('2025550143', 'US')).toBe('12025550143');
    expect(whatsappNumber('(202) 555-0143', 'US')).toBe('12025550143');
    expect(whatsappLink('2025550143', 'US')).toBe('https://wa.me/12025550143');
    setDisplayCountry('ES');
    expect(whatsappLink('612345678')).toBe('https://wa.me/34612345678');
  });

  it('keeps a 10-digit number that starts with 1, and uses the digits of any other number', () => {
    expect(whatsappNumber('1025550143', 'US')).toBe('1025550143');
    expect(whatsappNumber('+12025550143', 'ES')).toBe('12025550143');
    expect(whatsappNumber('+34 612 345 678', 'US')).toBe('34612345678');
    expect(whatsappNumber('+4930123456', 'US')).toBe('4930123456');
  });

  it('has no link without digits', () => {
    expect(whatsappNumber('')).toBeNull();
    expect(whatsappLink(null)).toBeNull();
    expect(whatsappLink('n/a')).toBeNull();
  });
});
