/** Local wall-clock time in an IANA zone ⇄ UTC (domain/bookings/time.ts), across the DST changes of Madrid and Santiago. */
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, iso, localInstant, localOf, parseStart, slotInstant, weekdayOf } from '../../../src/domain/bookings/time.js';

const MADRID = 'Europe/Madrid';
const SANTIAGO = 'America/Santiago';
const at = (date: string, hhmm: string, zone: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return iso(localInstant(date, h * 60 + m, zone));
};

describe('09:00 stays 09:00 local across the DST changes', () => {
  it('Madrid, the week of the last Sunday of March 2026 (29th): 08:00Z before, 07:00Z from the Sunday on', () => {
    const days = ['2026-03-26', '2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31'];
    expect(days.map((d) => at(d, '09:00', MADRID))).toEqual([
      '2026-03-26T08:00:00.000Z',
      '2026-03-27T08:00:00.000Z',
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
      '2026-03-31T07:00:00.000Z',
    ]);
    for (const d of days) expect(localOf(localInstant(d, 540, MADRID), MADRID)).toEqual({ date: d, minutes: 540 });
  });

  it('Madrid, the week of the last Sunday of October 2026 (25th): 07:00Z before, 08:00Z from the Sunday on', () => {
    const days = ['2026-10-23', '2026-10-24', '2026-10-25', '2026-10-26'];
    expect(days.map((d) => at(d, '09:00', MADRID))).toEqual(['2026-10-23T07:00:00.000Z', '2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z']);
  });

  it('Santiago (southern hemisphere): winter time from 5 April 2026, summer time from 6 September 2026 (changes at midnight)', () => {
    expect(at('2026-04-04', '09:00', SANTIAGO)).toBe('2026-04-04T12:00:00.000Z');
    expect(at('2026-04-05', '09:00', SANTIAGO)).toBe('2026-04-05T13:00:00.000Z');
    expect(at('2026-09-05', '09:00', SANTIAGO)).toBe('2026-09-05T13:00:00.000Z');
    expect(at('2026-09-06', '09:00', SANTIAGO)).toBe('2026-09-06T12:00:00.000Z');
    // Midnight of 6 September does not exist there (00:00 → 01:00): no slot at it; as a boundary it is 01:00.
    expect(slotInstant('2026-09-06', 0, SANTIAGO)).toBeNull();
    expect(at('2026-09-06', '00:00', SANTIAGO)).toBe('2026-09-06T04:00:00.000Z');
    // The evening of 4 April is 23:00–24:00 twice: 23:30 is its first occurrence.
    expect(at('2026-04-04', '23:30', SANTIAGO)).toBe('2026-04-05T02:30:00.000Z');
  });
});

describe('the gap and the repeated hour', () => {
  it('02:30 on 29 March 2026 does not exist in Madrid: no slot, a boundary moves forward to 03:30', () => {
    expect(slotInstant('2026-03-29', 150, MADRID)).toBeNull();
    expect(iso(localInstant('2026-03-29', 150, MADRID))).toBe('2026-03-29T01:30:00.000Z');
    expect(parseStart('2026-03-29T02:30', MADRID)).toBeNull();
    expect(iso(slotInstant('2026-03-29', 180, MADRID)!)).toBe('2026-03-29T01:00:00.000Z');
  });

  it('02:30 on 25 October 2026 happens twice in Madrid: taken once, at its first occurrence (summer time)', () => {
    expect(iso(slotInstant('2026-10-25', 150, MADRID)!)).toBe('2026-10-25T00:30:00.000Z');
    // Both instants read back as 02:30 local.
    expect(localOf(Date.parse('2026-10-25T00:30:00Z'), MADRID)).toEqual({ date: '2026-10-25', minutes: 150 });
    expect(localOf(Date.parse('2026-10-25T01:30:00Z'), MADRID)).toEqual({ date: '2026-10-25', minutes: 150 });
    // An instant with its offset names the second one exactly.
    expect(iso(parseStart('2026-10-25T02:30:00+01:00', MADRID)!)).toBe('2026-10-25T01:30:00.000Z');
  });

  it('24:00 is the next midnight (a 25-hour autumn day ends at 23:00Z)', () => {
    expect(iso(localInstant('2026-10-25', 1440, MADRID))).toBe('2026-10-25T23:00:00.000Z');
    expect(localInstant('2026-10-25', 1440, MADRID) - localInstant('2026-10-25', 0, MADRID)).toBe(25 * 3_600_000);
    expect(localInstant('2026-03-29', 1440, MADRID) - localInstant('2026-03-29', 0, MADRID)).toBe(23 * 3_600_000);
  });
});

describe('parsing a start', () => {
  it('local in the business zone, or an instant with its offset; anything else is null', () => {
    expect(iso(parseStart('2026-12-01T10:30', MADRID)!)).toBe('2026-12-01T09:30:00.000Z');
    expect(iso(parseStart('2026-12-01T10:30:00', MADRID)!)).toBe('2026-12-01T09:30:00.000Z');
    expect(iso(parseStart('2026-12-01T09:30:00Z', MADRID)!)).toBe('2026-12-01T09:30:00.000Z');
    expect(iso(parseStart('2026-12-01T10:30+01:00', MADRID)!)).toBe('2026-12-01T09:30:00.000Z');
    for (const bad of ['2026-02-30T10:00', '2026-12-01T24:00', '2026-12-01T10:60', '2026-12-01', '10:30', 'mañana', '2026-13-01T10:00Z']) expect(parseStart(bad, MADRID)).toBeNull();
  });
});

describe('dates', () => {
  it('weekday, adding days across months and years, days between', () => {
    expect(weekdayOf('2026-12-01')).toBe('tue');
    expect(weekdayOf('2026-03-29')).toBe('sun');
    expect(weekdayOf('2026-11-30')).toBe('mon');
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
  });
});
