/**
 * Weekly hours and closures as the setup screens edit them (pure, so they are unit-tested): add
 * and remove a day's ranges, copy Monday to the weekdays, and the checks the server makes
 * (bookingStaffRequest / bookingSettingsRequest), said with the contract's own texts before a save.
 */
import {
  BOOKING_LIMITS,
  WEEKDAYS,
  bookingMessages,
  isCalendarDate,
  minutesOfClock,
  type Closure,
  type TimeRange,
  type Weekday,
  type WeeklyHours,
} from '@agentdesk/functions/contract';

export const WORKDAYS: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri'];

/** A day's first range when it opens (a morning) and the afternoon a second one adds (a split day). */
const MORNING: TimeRange = { start: '09:00', end: '14:00' };
const AFTERNOON: TimeRange = { start: '16:00', end: '20:00' };

export function emptyWeek(): WeeklyHours {
  return Object.fromEntries(WEEKDAYS.map((d) => [d, []])) as unknown as WeeklyHours;
}

/** Monday to Friday 09:00–14:00 and 16:00–20:00, weekends closed: where a new business starts. */
export function defaultWeek(): WeeklyHours {
  const week = emptyWeek();
  for (const day of WORKDAYS) week[day] = [{ ...MORNING }, { ...AFTERNOON }];
  return week;
}

const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/**
 * The range "add a range" appends: the morning on a closed day, the afternoon after a morning,
 * else an hour after the last range ends, one hour long (within the day); null when the day is
 * full (its cap, or no room left before midnight).
 */
export function nextRange(ranges: readonly TimeRange[]): TimeRange | null {
  if (ranges.length >= BOOKING_LIMITS.rangesPerDay) return null;
  if (ranges.length === 0) return { ...MORNING };
  const lastEnd = Math.max(...ranges.map((r) => minutesOfClock(r.end)).filter(Number.isFinite));
  if (!Number.isFinite(lastEnd)) return null;
  if (lastEnd <= minutesOfClock(AFTERNOON.start)) return { ...AFTERNOON };
  const start = Math.min(lastEnd + 60, 1440 - 60);
  if (start < lastEnd) return null;
  return { start: clock(start), end: clock(Math.min(start + 60, 1440)) };
}

export function addRange(week: WeeklyHours, day: Weekday): WeeklyHours {
  const next = nextRange(week[day]);
  return next ? { ...week, [day]: [...week[day], next] } : week;
}

export function removeRange(week: WeeklyHours, day: Weekday, index: number): WeeklyHours {
  return { ...week, [day]: week[day].filter((_, i) => i !== index) };
}

export function setRange(week: WeeklyHours, day: Weekday, index: number, patch: Partial<TimeRange>): WeeklyHours {
  return { ...week, [day]: week[day].map((r, i) => (i === index ? { ...r, ...patch } : r)) };
}

/** Closes the day (no ranges), or opens it with a morning. */
export function toggleDay(week: WeeklyHours, day: Weekday, open: boolean): WeeklyHours {
  return { ...week, [day]: open ? (week[day].length ? week[day] : [{ ...MORNING }]) : [] };
}

/** Tuesday to Friday get Monday's ranges (copies, so editing one day leaves the others). */
export function copyMondayToWeekdays(week: WeeklyHours): WeeklyHours {
  const out = { ...week };
  for (const day of WORKDAYS) if (day !== 'mon') out[day] = week.mon.map((r) => ({ ...r }));
  return out;
}

/** A range's end may be 24:00; a start is before midnight; both on a 5-minute step. */
function rangeValid(r: TimeRange): boolean {
  const start = minutesOfClock(r.start);
  const end = minutesOfClock(r.end);
  return start % 5 === 0 && start < 1440 && end % 5 === 0 && end > 0;
}

/** The indices of a day's ranges that overlap another one of the day (touching ranges do not overlap). */
export function overlappingRanges(ranges: readonly TimeRange[]): number[] {
  const out = new Set<number>();
  ranges.forEach((a, i) => {
    ranges.forEach((b, j) => {
      if (i >= j || !rangeValid(a) || !rangeValid(b)) return;
      if (minutesOfClock(a.start) < minutesOfClock(b.end) && minutesOfClock(b.start) < minutesOfClock(a.end)) {
        out.add(i);
        out.add(j);
      }
    });
  });
  return [...out].sort((x, y) => x - y);
}

/** What is wrong with a day's ranges (a contract text), or null. */
export function dayProblem(ranges: readonly TimeRange[]): string | null {
  if (ranges.length > BOOKING_LIMITS.rangesPerDay) return bookingMessages.tooManyRanges;
  if (ranges.some((r) => !rangeValid(r))) return bookingMessages.timeInvalid;
  if (ranges.some((r) => minutesOfClock(r.end) <= minutesOfClock(r.start))) return bookingMessages.rangeOrder;
  if (overlappingRanges(ranges).length) return bookingMessages.rangesOverlap;
  return null;
}

/** Each day's problem, only the days that have one. */
export function weekProblems(week: WeeklyHours): Partial<Record<Weekday, string>> {
  const out: Partial<Record<Weekday, string>> = {};
  for (const day of WEEKDAYS) {
    const problem = dayProblem(week[day]);
    if (problem) out[day] = problem;
  }
  return out;
}

/** The ranges of a day sorted by start (how they are saved and shown after a save). */
export function sortedWeek(week: WeeklyHours): WeeklyHours {
  return Object.fromEntries(WEEKDAYS.map((d) => [d, [...week[d]].sort((a, b) => minutesOfClock(a.start) - minutesOfClock(b.start))])) as unknown as WeeklyHours;
}

/** A closure as edited: no _id until the server gives it one. */
export type ClosureDraft = Omit<Closure, '_id'> & { _id?: string };

/** What is wrong with a closure (a contract text), or null. */
export function closureProblem(c: ClosureDraft): string | null {
  if (!isCalendarDate(c.from) || !isCalendarDate(c.to)) return bookingMessages.dateInvalid;
  const days = (Date.parse(`${c.to}T00:00:00Z`) - Date.parse(`${c.from}T00:00:00Z`)) / 86_400_000;
  if (days < 0) return bookingMessages.closureOrder;
  if (days >= BOOKING_LIMITS.closureDays) return bookingMessages.closureTooLong;
  if (c.reason.trim().length > BOOKING_LIMITS.closureReason) return bookingMessages.closureReasonTooLong;
  return null;
}

/** Closures soonest first, as they are listed. */
export function sortedClosures<T extends ClosureDraft>(closures: readonly T[]): T[] {
  return [...closures].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

/** Closures that have not ended by `today` (a local date): past ones are kept but listed apart. */
export function upcomingClosures<T extends ClosureDraft>(closures: readonly T[], today: string): T[] {
  return sortedClosures(closures).filter((c) => c.to >= today);
}

/** Whether the week opens at all (a staff member with no hours is never bookable). */
export function hasHours(week: WeeklyHours): boolean {
  return WEEKDAYS.some((d) => week[d].length > 0);
}
