/** A slot in words (domain/bookings/labels.ts): what the agent reads out and BookingSlot.label carries. */
import { describe, expect, it } from 'vitest';
import { slotLabel } from '../../../src/domain/bookings/labels.js';

describe('slotLabel', () => {
  it('Spanish and English, in the business zone, 24-hour clock', () => {
    expect(slotLabel('2026-12-03T09:30:00.000Z', 'es', 'Europe/Madrid')).toBe('jueves 3 de diciembre a las 10:30');
    expect(slotLabel('2026-12-03T09:30:00.000Z', 'en', 'Europe/Madrid')).toBe('Thursday 3 December at 10:30');
    expect(slotLabel(Date.parse('2026-12-03T17:05:00.000Z'), 'es', 'Europe/Madrid')).toBe('jueves 3 de diciembre a las 18:05');
  });

  it('"a la 1" in Spanish; midnight and the day in the zone, not in UTC', () => {
    expect(slotLabel('2026-12-03T00:15:00.000Z', 'es', 'Europe/Madrid')).toBe('jueves 3 de diciembre a la 01:15');
    expect(slotLabel('2026-12-02T23:00:00.000Z', 'es', 'Europe/Madrid')).toBe('jueves 3 de diciembre a las 00:00');
    // 22:30 in Santiago is already the next day in UTC.
    expect(slotLabel('2026-12-04T01:30:00.000Z', 'es', 'America/Santiago')).toBe('jueves 3 de diciembre a las 22:30');
  });

  it('any other language reads English', () => {
    expect(slotLabel('2026-12-03T09:30:00.000Z', 'fr', 'Europe/Madrid')).toBe('Thursday 3 December at 10:30');
  });
});
