import { describe, expect, it } from 'vitest';
import { formatCompact, formatLimit, usageMeter } from './usage';

describe('formatCompact', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1_000, '1K'],
    [1_500, '1.5K'],
    [12_345, '12.3K'],
    [999_999, '1M'],
    [1_000_000, '1M'],
    [2_345_678, '2.3M'],
    [-1_500, '-1.5K'],
  ])('%d → %s', (value, text) => {
    expect(formatCompact(value)).toBe(text);
  });

  it('abbreviates in Spanish too', () => {
    const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
    expect(plain(formatCompact(1_500, 'es'))).toBe('1,5 mil');
    expect(plain(formatCompact(2_345_678, 'es'))).toBe('2,3 M');
    expect(plain(formatLimit(5_000, 'es'))).toBe('5 mil');
  });

  it('shows unlimited as ∞', () => {
    expect(formatLimit(-1)).toBe('∞');
    expect(formatLimit(5_000)).toBe('5K');
  });
});

describe('usageMeter', () => {
  it('has no bar for an unlimited limit', () => {
    expect(usageMeter(123, -1)).toEqual({ level: 'unlimited', percent: null, barValue: null, remainingPercent: null, color: 'primary' });
  });

  it('shows the remaining percentage below 80 %', () => {
    expect(usageMeter(250, 1000)).toMatchObject({ level: 'normal', percent: 25, barValue: 25, remainingPercent: 75, color: 'primary' });
    expect(usageMeter(799, 1000)).toMatchObject({ level: 'normal', remainingPercent: 20.1 });
  });

  it('turns yellow from 80 %', () => {
    expect(usageMeter(80, 100)).toMatchObject({ level: 'warning', color: 'warning', percent: 80 });
    expect(usageMeter(99, 100)).toMatchObject({ level: 'warning', color: 'warning' });
  });

  it('turns red from 100 % and caps the bar', () => {
    expect(usageMeter(100, 100)).toMatchObject({ level: 'exceeded', color: 'error', barValue: 100, remainingPercent: 0 });
    expect(usageMeter(150, 100)).toMatchObject({ level: 'exceeded', percent: 150, barValue: 100, remainingPercent: 0 });
  });

  it("prefers the server's utilization", () => {
    expect(usageMeter(1, 100, 85.5)).toMatchObject({ level: 'warning', percent: 85.5 });
  });

  it('treats a zero limit as exceeded once anything is used', () => {
    expect(usageMeter(0, 0)).toMatchObject({ level: 'normal', percent: 0 });
    expect(usageMeter(1, 0)).toMatchObject({ level: 'exceeded' });
  });

  it('takes a custom near-limit threshold', () => {
    expect(usageMeter(70, 100, null, 70)).toMatchObject({ level: 'warning' });
  });
});
