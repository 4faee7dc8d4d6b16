import { describe, expect, it } from 'vitest';
import { formatLatency } from './latency';

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatLatency', () => {
  it('shows milliseconds as seconds with two decimals in the UI language', () => {
    expect(plain(formatLatency(620, 'en'))).toBe('0.62 s');
    expect(plain(formatLatency(620, 'es'))).toBe('0,62 s');
    expect(plain(formatLatency(1234, 'es'))).toBe('1,23 s');
    expect(plain(formatLatency(0, 'en'))).toBe('0.00 s');
    expect(plain(formatLatency(12_345, 'en'))).toBe('12.35 s');
  });
  it('keeps the value and its unit together (no line break between them)', () => {
    expect(formatLatency(910, 'en')).toBe('0.91\u00a0s');
  });
  it('shows a dash for nothing', () => {
    expect(formatLatency(null, 'en')).toBe('—');
    expect(formatLatency(undefined, 'es')).toBe('—');
    expect(formatLatency(Number.NaN, 'en')).toBe('—');
    expect(formatLatency(-1, 'en')).toBe('—');
  });
});
