/** Free slots (domain/bookings/availability.ts, pure): hours, steps, buffers, closures, DST, midnight, busy times. */
import { describe, expect, it } from 'vitest';
import type { BookingStaff, Closure, WeeklyHours } from '../../../src/contract/bookings.js';
import { freeSlots, mergeIntervals, overlapsAny, slotProblem, type AvailabilityInput } from '../../../src/domain/bookings/availability.js';
import type { BusyInterval } from '../../../src/domain/bookings/ports.js';
import { iso, localInstant } from '../../../src/domain/bookings/time.js';

const MADRID = 'Europe/Madrid';
const every = (ranges: [string, string][]): WeeklyHours => {
  const r = ranges.map(([start, end]) => ({ start, end }));
  return { mon: r, tue: r, wed: r, thu: r, fri: r, sat: r, sun: r };
};
const staff = (id: string, weeklyHours: WeeklyHours, closures: Closure[] = []): BookingStaff => ({
  _id: id,
  name: id,
  kind: 'person',
  weeklyHours,
  closures,
  googleCalendarIds: [],
  createdAt: '',
  updatedAt: '',
});
const input = (over: Partial<AvailabilityInput>): AvailabilityInput => ({
  zone: MADRID,
  now: Date.parse('2026-01-01T00:00:00Z'),
  minNoticeMinutes: 0,
  maxAdvanceDays: 365,
  slotStepMinutes: 30,
  businessClosures: [],
  durationMinutes: 30,
  bufferAfterMinutes: 0,
  staff: [staff('a', every([['09:00', '10:00']]))],
  busy: new Map(),
  from: '2026-12-01',
  to: '2026-12-01',
  limit: 20,
  ...over,
});
const starts = (i: AvailabilityInput) => freeSlots(i).map((s) => `${iso(s.start)} ${s.staffId}`);
const closure = (from: string, to: string): Closure => ({ _id: `${from}`, from, to, reason: '' });

describe('freeSlots', () => {
  it('steps from the start of each range; duration + buffer must fit in one range', () => {
    const i = input({ staff: [staff('a', every([['09:00', '10:00'], ['16:00', '17:10']]))], bufferAfterMinutes: 10 });
    // 09:00 and 09:30 would end 09:40 and 10:10: only 09:00 fits the morning; afternoon 16:00, 16:30 (ends 17:10).
    expect(starts(i)).toEqual(['2026-12-01T08:00:00.000Z a', '2026-12-01T15:00:00.000Z a', '2026-12-01T15:30:00.000Z a']);
  });

  it('a service longer than any range has no slot; ranges of one day do not join (no slot across 14:00–16:00)', () => {
    expect(starts(input({ durationMinutes: 90 }))).toEqual([]);
    expect(starts(input({ staff: [staff('a', every([['09:00', '10:00'], ['10:00', '11:00']]))], durationMinutes: 90 }))).toEqual([]);
  });

  it('soonest first, ties in staff order, at most limit; several days', () => {
    const i = input({ staff: [staff('b', every([['09:00', '10:00']])), staff('a', every([['08:30', '10:00']]))], to: '2026-12-02', limit: 5 });
    expect(starts(i)).toEqual([
      '2026-12-01T07:30:00.000Z a',
      '2026-12-01T08:00:00.000Z b',
      '2026-12-01T08:00:00.000Z a',
      '2026-12-01T08:30:00.000Z b',
      '2026-12-01T08:30:00.000Z a',
    ]);
  });

  it('busy intervals (bookings with their buffer, external busy) remove the slots they meet, not the ones they touch', () => {
    const busy: BusyInterval[] = [{ start: Date.parse('2026-12-01T08:20:00Z'), end: Date.parse('2026-12-01T08:30:00Z') }];
    const i = input({ staff: [staff('a', every([['09:00', '11:00']]))], busy: new Map([['a', busy]]) });
    // 09:00–09:30 meets 09:20–09:30; 09:30 starts as the busy time ends.
    expect(starts(i)).toEqual(['2026-12-01T08:30:00.000Z a', '2026-12-01T09:00:00.000Z a', '2026-12-01T09:30:00.000Z a']);
  });

  it('minimum notice and the horizon; nothing in the past', () => {
    const now = Date.parse('2026-12-01T08:10:00Z'); // 09:10 in Madrid
    const i = input({ now, minNoticeMinutes: 20, staff: [staff('a', every([['09:00', '11:00']]))], to: '2026-12-03', maxAdvanceDays: 1 });
    // from 09:30 on the 1st; the horizon is the 2nd.
    expect(starts(i)).toEqual([
      '2026-12-01T08:30:00.000Z a',
      '2026-12-01T09:00:00.000Z a',
      '2026-12-01T09:30:00.000Z a',
      '2026-12-02T08:00:00.000Z a',
      '2026-12-02T08:30:00.000Z a',
      '2026-12-02T09:00:00.000Z a',
      '2026-12-02T09:30:00.000Z a',
    ]);
    expect(starts(input({ now: Date.parse('2026-12-05T00:00:00Z') }))).toEqual([]);
  });

  it('business and staff closures (date ranges, both ends included)', () => {
    const i = input({
      staff: [staff('a', every([['09:00', '10:00']]), [closure('2026-12-02', '2026-12-03')]), staff('b', every([['09:00', '10:00']]))],
      businessClosures: [closure('2026-12-05', '2026-12-05')],
      from: '2026-12-01',
      to: '2026-12-06',
      slotStepMinutes: 30,
      durationMinutes: 60,
    });
    expect(starts(i)).toEqual([
      '2026-12-01T08:00:00.000Z a',
      '2026-12-01T08:00:00.000Z b',
      '2026-12-02T08:00:00.000Z b',
      '2026-12-03T08:00:00.000Z b',
      '2026-12-04T08:00:00.000Z a',
      '2026-12-04T08:00:00.000Z b',
      '2026-12-06T08:00:00.000Z a',
      '2026-12-06T08:00:00.000Z b',
    ]);
  });

  it('the spring gap is skipped: 01:00–04:00 on 29 March 2026 offers 01:00, 01:30, 03:00, 03:30 (two real hours)', () => {
    const i = input({ staff: [staff('a', every([['01:00', '04:00']]))], from: '2026-03-29', to: '2026-03-29' });
    expect(starts(i)).toEqual(['2026-03-29T00:00:00.000Z a', '2026-03-29T00:30:00.000Z a', '2026-03-29T01:00:00.000Z a', '2026-03-29T01:30:00.000Z a']);
  });

  it('the autumn repeated hour is offered once: 01:00–04:00 on 25 October 2026 offers each local time once', () => {
    const i = input({ staff: [staff('a', every([['01:00', '04:00']]))], from: '2026-10-25', to: '2026-10-25' });
    expect(freeSlots(i).map((s) => new Date(s.start).toLocaleTimeString('es-ES', { timeZone: MADRID, hour: '2-digit', minute: '2-digit' }))).toEqual([
      '01:00',
      '01:30',
      '02:00',
      '02:30',
      '03:00',
      '03:30',
    ]);
  });

  it('the same 09:00 opening across the DST weeks', () => {
    const i = input({ staff: [staff('a', every([['09:00', '09:30']]))], from: '2026-03-27', to: '2026-03-31' });
    expect(starts(i).map((s) => s.slice(11, 16))).toEqual(['08:00', '08:00', '07:00', '07:00', '07:00']);
    const j = input({ staff: [staff('a', every([['09:00', '09:30']]))], from: '2026-10-23', to: '2026-10-27' });
    expect(starts(j).map((s) => s.slice(11, 16))).toEqual(['07:00', '07:00', '08:00', '08:00', '08:00']);
  });

  it('a range to 24:00, and an evening in Santiago that crosses UTC midnight, with a busy time across it', () => {
    const late = input({ staff: [staff('a', every([['23:00', '24:00']]))], durationMinutes: 60 });
    expect(starts(late)).toEqual(['2026-12-01T22:00:00.000Z a']);
    const zone = 'America/Santiago';
    const busy = [{ start: Date.parse('2026-12-02T00:00:00Z'), end: Date.parse('2026-12-02T00:30:00Z') }]; // 21:00–21:30 there
    const evening = input({ zone, staff: [staff('a', every([['20:00', '22:00']]))], busy: new Map([['a', busy]]) });
    expect(starts(evening)).toEqual(['2026-12-01T23:00:00.000Z a', '2026-12-01T23:30:00.000Z a', '2026-12-02T00:30:00.000Z a']);
  });

  it('a day with no ranges, and no staff, have no slots', () => {
    expect(starts(input({ staff: [staff('a', { ...every([]), tue: [] })] }))).toEqual([]);
    expect(starts(input({ staff: [] }))).toEqual([]);
  });
});

describe('slotProblem (the check of one booking)', () => {
  const a = staff('a', every([['09:00', '14:00']]), [closure('2026-12-08', '2026-12-08')]);
  const at = (date: string, hhmm: string) => localInstant(date, Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3)), MADRID);
  it('closed, outside hours, busy, or fine', () => {
    expect(slotProblem(a, at('2026-12-08', '10:00'), 30, MADRID, [], [])).toBe('closed');
    expect(slotProblem(a, at('2026-12-01', '10:00'), 30, MADRID, [closure('2026-12-01', '2026-12-01')], [])).toBe('closed');
    expect(slotProblem(a, at('2026-12-01', '08:30'), 30, MADRID, [], [])).toBe('outsideHours');
    expect(slotProblem(a, at('2026-12-01', '13:45'), 30, MADRID, [], [])).toBe('outsideHours');
    expect(slotProblem(a, at('2026-12-01', '13:30'), 30, MADRID, [], [])).toBeNull();
    expect(slotProblem(a, at('2026-12-01', '10:00'), 30, MADRID, [], [{ start: at('2026-12-01', '10:20'), end: at('2026-12-01', '11:00') }])).toBe('busy');
    expect(slotProblem(a, at('2026-12-01', '10:00'), 30, MADRID, [], [{ start: at('2026-12-01', '10:30'), end: at('2026-12-01', '11:00') }])).toBeNull();
  });
});

describe('intervals', () => {
  it('merge overlapping and touching intervals; overlap is strict', () => {
    const merged = mergeIntervals([
      { start: 50, end: 60 },
      { start: 10, end: 20 },
      { start: 15, end: 30 },
      { start: 30, end: 40 },
      { start: 70, end: 70 },
    ]);
    expect(merged).toEqual([
      { start: 10, end: 40 },
      { start: 50, end: 60 },
    ]);
    expect(overlapsAny(merged, 40, 50)).toBe(false);
    expect(overlapsAny(merged, 39, 41)).toBe(true);
    expect(overlapsAny(merged, 0, 10)).toBe(false);
    expect(overlapsAny(merged, 55, 100)).toBe(true);
    expect(overlapsAny([], 0, 100)).toBe(false);
  });
});
