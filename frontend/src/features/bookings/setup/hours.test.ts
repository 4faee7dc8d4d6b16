import { describe, expect, it } from 'vitest';
import { bookingMessages, bookingStaffRequest, WEEKDAYS } from '@agentdesk/functions/contract';
import {
  addRange,
  closureProblem,
  copyMondayToWeekdays,
  dayProblem,
  defaultWeek,
  emptyWeek,
  hasHours,
  nextRange,
  overlappingRanges,
  removeRange,
  setRange,
  sortedWeek,
  toggleDay,
  upcomingClosures,
  weekProblems,
} from './hours';
import { formatMinutes, formatPriceCents, parsePrice, priceInput } from './format';

describe('weekly hours editing', () => {
  it('starts with a split working week the server accepts, weekends closed', () => {
    const week = defaultWeek();
    expect(week.mon).toEqual([
      { start: '09:00', end: '14:00' },
      { start: '16:00', end: '20:00' },
    ]);
    expect(week.sat).toEqual([]);
    expect(bookingStaffRequest.safeParse({ name: 'Dra. García', weeklyHours: week }).success).toBe(true);
    expect(hasHours(week)).toBe(true);
    expect(hasHours(emptyWeek())).toBe(false);
  });

  it('adds a morning to a closed day, the afternoon after it, then later ranges until the day is full', () => {
    let week = emptyWeek();
    week = addRange(week, 'sat');
    expect(week.sat).toEqual([{ start: '09:00', end: '14:00' }]);
    week = addRange(week, 'sat');
    expect(week.sat[1]).toEqual({ start: '16:00', end: '20:00' });
    week = addRange(week, 'sat');
    expect(week.sat[2]).toEqual({ start: '21:00', end: '22:00' });
    expect(overlappingRanges(week.sat)).toEqual([]);
    expect(nextRange([{ start: '08:00', end: '24:00' }])).toBeNull();
    const full = Array.from({ length: 6 }, (_, i) => ({ start: `0${i}:00`, end: `0${i}:30` }));
    expect(nextRange(full)).toBeNull();
    expect(addRange({ ...emptyWeek(), mon: full }, 'mon').mon).toHaveLength(6);
  });

  it('removes, edits and toggles a day without touching the others', () => {
    const week = defaultWeek();
    const edited = setRange(removeRange(week, 'mon', 0), 'mon', 0, { end: '19:30' });
    expect(edited.mon).toEqual([{ start: '16:00', end: '19:30' }]);
    expect(edited.tue).toEqual(week.tue);
    expect(week.mon).toHaveLength(2);
    expect(toggleDay(week, 'mon', false).mon).toEqual([]);
    expect(toggleDay(emptyWeek(), 'sun', true).sun).toEqual([{ start: '09:00', end: '14:00' }]);
    expect(toggleDay(week, 'mon', true).mon).toBe(week.mon);
  });

  it("copies Monday to Tuesday–Friday as copies, leaving the weekend", () => {
    const week = { ...emptyWeek(), mon: [{ start: '10:00', end: '13:00' }], sat: [{ start: '10:00', end: '12:00' }] };
    const copied = copyMondayToWeekdays(week);
    for (const day of ['tue', 'wed', 'thu', 'fri'] as const) expect(copied[day]).toEqual(week.mon);
    expect(copied.sat).toEqual(week.sat);
    expect(copied.sun).toEqual([]);
    const tuesday = copied.tue[0];
    expect(tuesday).not.toBe(week.mon[0]);
  });

  it('finds overlapping ranges (touching ones are fine) and says what is wrong with a day as the server would', () => {
    const ranges = [
      { start: '09:00', end: '14:00' },
      { start: '14:00', end: '16:00' },
      { start: '13:00', end: '15:00' },
    ];
    expect(overlappingRanges(ranges)).toEqual([0, 1, 2]);
    expect(overlappingRanges(ranges.slice(0, 2))).toEqual([]);
    const cases: [ranges: { start: string; end: string }[], problem: string | null][] = [
      [ranges, bookingMessages.rangesOverlap],
      [[{ start: '09:00', end: '24:00' }], null],
      [[{ start: '14:00', end: '09:00' }], bookingMessages.rangeOrder],
      [[{ start: '09:03', end: '10:00' }], bookingMessages.timeInvalid],
      [[{ start: '', end: '10:00' }], bookingMessages.timeInvalid],
      [Array.from({ length: 7 }, (_, i) => ({ start: `1${i}:00`, end: `1${i}:30` })), bookingMessages.tooManyRanges],
    ];
    for (const [day, problem] of cases) {
      expect(dayProblem(day), JSON.stringify(day)).toBe(problem);
      // The same verdict as the contract's schema.
      const parsed = bookingStaffRequest.safeParse({ name: 'Sillón 2', weeklyHours: { ...emptyWeek(), wed: day } });
      expect(parsed.success, JSON.stringify(day)).toBe(problem === null);
      if (!parsed.success) expect(parsed.error.issues.map((i) => i.message)).toContain(problem);
    }
    expect(weekProblems({ ...defaultWeek(), fri: ranges })).toEqual({ fri: bookingMessages.rangesOverlap });
  });

  it('sorts each day by start for saving', () => {
    const week = { ...emptyWeek(), thu: [{ start: '16:00', end: '20:00' }, { start: '09:00', end: '14:00' }] };
    expect(sortedWeek(week).thu.map((r) => r.start)).toEqual(['09:00', '16:00']);
    expect(WEEKDAYS.every((d) => Array.isArray(sortedWeek(week)[d]))).toBe(true);
  });
});

describe('closures', () => {
  it('checks a closure like the server and lists the upcoming ones soonest first', () => {
    expect(closureProblem({ from: '2026-12-24', to: '2026-12-26', reason: 'Navidad' })).toBeNull();
    expect(closureProblem({ from: '2026-12-26', to: '2026-12-24', reason: '' })).toBe(bookingMessages.closureOrder);
    expect(closureProblem({ from: '2026-02-30', to: '2026-03-01', reason: '' })).toBe(bookingMessages.dateInvalid);
    expect(closureProblem({ from: '2026-01-01', to: '2027-01-02', reason: '' })).toBe(bookingMessages.closureTooLong);
    expect(closureProblem({ from: '2026-01-01', to: '2026-01-01', reason: 'x'.repeat(121) })).toBe(bookingMessages.closureReasonTooLong);
    const closures = [
      { _id: 'b', from: '2026-12-24', to: '2026-12-26', reason: 'Navidad' },
      { _id: 'a', from: '2026-08-01', to: '2026-08-31', reason: 'Vacaciones' },
      { _id: 'c', from: '2026-01-06', to: '2026-01-06', reason: 'Reyes' },
    ];
    expect(upcomingClosures(closures, '2026-08-15').map((c) => c._id)).toEqual(['a', 'b']);
  });
});

describe('prices and lengths', () => {
  it('reads a typed price in the language into cents, refusing what is not an amount', () => {
    expect(parsePrice('45', 'es')).toBe(4500);
    expect(parsePrice('45,50', 'es')).toBe(4550);
    expect(parsePrice('45.5', 'en')).toBe(4550);
    expect(parsePrice('45,5 €', 'es')).toBe(4550);
    expect(parsePrice('1.200,50', 'es')).toBe(120050);
    expect(parsePrice('1,200.50', 'en')).toBe(120050);
    expect(parsePrice('1.200', 'es')).toBe(120000);
    expect(parsePrice('', 'es')).toBeNull();
    expect(parsePrice('  ', 'en')).toBeNull();
    expect(parsePrice('-5', 'es')).toBeNaN();
    expect(parsePrice('4,555', 'es')).toBeNaN();
    expect(parsePrice('abc', 'en')).toBeNaN();
    expect(parsePrice('999999999', 'en')).toBeNaN();
  });

  it('shows a price in the language and the account currency, and in the field as typed', () => {
    expect(formatPriceCents('es', 4500, 'eur')).toBe('45\u00a0€');
    expect(formatPriceCents('en', 4550, 'usd')).toBe('$45.50');
    expect(formatPriceCents('es', null, 'eur')).toBeNull();
    expect(priceInput(4550, 'es')).toBe('45,50');
    expect(priceInput(120000, 'es')).toBe('1200');
    expect(priceInput(null, 'en')).toBe('');
    expect(parsePrice(priceInput(4550, 'es'), 'es')).toBe(4550);
  });

  it('says lengths in hours and minutes', () => {
    expect(formatMinutes('es', 30)).toBe('30 min');
    expect(formatMinutes('es', 60)).toBe('1 h');
    expect(formatMinutes('en', 90)).toBe('1 h 30 min');
  });
});
