import { describe, expect, it } from 'vitest';
import { formatPhone, whatsappLink, whatsappNumber } from './phone';

describe('formatPhone (SPEC §5)', () => {
  it('shows exactly 10 digits as (XXX) XXX-XXXX', () => {
    expect(formatPhone('2025550143')).toBe('(202) 555-0143');
    expect(formatPhone('202-555-0143')).toBe('(202) 555-0143');
    expect(formatPhone('(202) 555 0143')).toBe('(202) 555-0143');
  });

  it('shows anything else as it is', () => {
    expect(formatPhone('+12025550143')).toBe('+12025550143');
    expect(formatPhone('12025550143')).toBe('12025550143');
    expect(formatPhone('+34612345678')).toBe('+34612345678');
    expect(formatPhone('555014')).toBe('555014');
    expect(formatPhone('')).toBe('');
    expect(formatPhone(undefined)).toBe('');
  });

  it('leaves a + number with 10 digits alone (it already has its country code)', () => {
    expect(formatPhone('+4930123456')).toBe('+4930123456');
  });
});

describe('whatsappNumber / whatsappLink (SPEC §5)', () => {
  it('prefixes 1 to a 10-digit number without a leading 1', () => {
    expect(whatsappNumber('2025550143')).toBe('12025550143');
    expect(whatsappNumber('(202) 555-0143')).toBe('12025550143');
    expect(whatsappLink('2025550143')).toBe('https://wa.me/12025550143');
  });

  it('keeps a 10-digit number that starts with 1', () => {
    expect(whatsappNumber('1025550143')).toBe('1025550143');
  });

  it('uses the digits of any other number', () => {
    expect(whatsappNumber('+12025550143')).toBe('12025550143');
    expect(whatsappNumber('+34 612 345 678')).toBe('34612345678');
    expect(whatsappNumber('+4930123456')).toBe('4930123456');
  });

  it('has no link without digits', () => {
    expect(whatsappNumber('')).toBeNull();
    expect(whatsappLink(null)).toBeNull();
    expect(whatsappLink('n/a')).toBeNull();
  });
});
