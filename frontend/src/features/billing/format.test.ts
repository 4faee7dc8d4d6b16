import { describe, expect, it } from 'vitest';
import { formatDate, formatPrice, isFutureDate } from './format';

describe('formatDate', () => {
  it('formats in the UI language', () => {
    expect(formatDate('2026-05-05T12:00:00Z', 'en')).toBe('May 5, 2026');
    expect(formatDate('2026-05-05T12:00:00Z', 'es')).toBe('5 de mayo de 2026');
  });
  it('shows a dash for missing dates', () => {
    expect(formatDate(null, 'en')).toBe('—');
    expect(formatDate('nope', 'en')).toBe('—');
  });
});

describe('isFutureDate', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('compares with now', () => {
    expect(isFutureDate('2026-01-06T00:00:00Z', now)).toBe(true);
    expect(isFutureDate('2025-12-31T00:00:00Z', now)).toBe(false);
    expect(isFutureDate(null, now)).toBe(false);
  });
});

describe('formatPrice', () => {
  it('shows dollars without cents for whole amounts', () => {
    expect(formatPrice(79, 'usd', 'en')).toBe('$79');
    expect(formatPrice(79.5, 'usd', 'en')).toBe('$79.50');
  });
});
