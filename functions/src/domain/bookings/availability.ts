/**
 * Free slots (pure): from the booking rules, the staff who do the service (weekly local hours,
 * closures) and each one's busy intervals (bookings with their buffer after, external busy
 * times), soonest first. A slot is the service's duration plus its buffer, inside ONE opening
 * range, starting on the slot step counted from the range's start, in local wall-clock time (so a
 * 09:00 opening stays 09:00 across DST; a start in the spring gap is skipped, an ambiguous autumn
 * time is offered once, at its first occurrence).
 */
import { minutesOfClock, type BookingStaff, type Closure } from '../../contract/bookings.js';
import type { BusyInterval } from './ports.js';
import { addDays, localInstant, localOf, slotInstant, weekdayOf } from './time.js';

const MINUTE = 60_000;

export interface SlotRules {
  zone: string;
  /** Epoch ms. */
  now: number;
  minNoticeMinutes: number;
  maxAdvanceDays: number;
  slotStepMinutes: number;
  businessClosures: readonly Closure[];
}

export interface AvailabilityInput extends SlotRules {
  durationMinutes: number;
  bufferAfterMinutes: number;
  /** The staff who do the service, in the order ties are broken. */
  staff: readonly BookingStaff[];
  /** Busy intervals per staff id (any order, may overlap). */
  busy: ReadonlyMap<string, readonly BusyInterval[]>;
  /** Local dates, inclusive. */
  from: string;
  to: string;
  limit: number;
}

export interface FreeSlot {
  /** Epoch ms; end excludes the buffer. */
  start: number;
  end: number;
  staffId: string;
  staffName: string;
}

/** Whether a closure list covers a local date. */
export const closedOn = (closures: readonly Closure[], date: string): boolean => closures.some((c) => c.from <= date && date <= c.to);

/** Sorted, merged (disjoint) copy of intervals. */
export function mergeIntervals(intervals: readonly BusyInterval[]): BusyInterval[] {
  const sorted = [...intervals].filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: BusyInterval[] = [];
  for (const i of sorted) {
    const last = out.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

/** Whether [start, end) overlaps any of the merged (sorted, disjoint) intervals. */
export function overlapsAny(merged: readonly BusyInterval[], start: number, end: number): boolean {
  // First interval ending after start; it is the only one that can begin before `end` and still overlap.
  let lo = 0;
  let hi = merged.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (merged[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo < merged.length && merged[lo]!.start < end;
}

/** The bounds the rules allow a start in: not before now + notice, not after the last bookable local day. */
export function bookableWindow(rules: Pick<SlotRules, 'zone' | 'now' | 'minNoticeMinutes' | 'maxAdvanceDays'>): { earliest: number; lastDate: string } {
  return { earliest: rules.now + rules.minNoticeMinutes * MINUTE, lastDate: addDays(localOf(rules.now, rules.zone).date, rules.maxAdvanceDays) };
}

/** The opening ranges of a staff member on a local date as instants (none on a closure of theirs or the business). */
export function openRanges(staff: BookingStaff, date: string, zone: string, businessClosures: readonly Closure[]): { start: number; end: number; startMinutes: number; endMinutes: number }[] {
  if (closedOn(businessClosures, date) || closedOn(staff.closures, date)) return [];
  return (staff.weeklyHours[weekdayOf(date)] ?? [])
    .map((r) => ({ startMinutes: minutesOfClock(r.start), endMinutes: minutesOfClock(r.end) }))
    .filter((r) => r.endMinutes > r.startMinutes)
    .sort((a, b) => a.startMinutes - b.startMinutes)
    .map((r) => ({ ...r, start: localInstant(date, r.startMinutes, zone), end: localInstant(date, r.endMinutes, zone) }));
}

/** The free slots, soonest first (ties in staff order), at most `limit`. */
export function freeSlots(input: AvailabilityInput): FreeSlot[] {
  const { zone, durationMinutes, bufferAfterMinutes, slotStepMinutes, limit } = input;
  const out: FreeSlot[] = [];
  if (limit <= 0 || input.staff.length === 0) return out;
  const { earliest, lastDate } = bookableWindow(input);
  const firstDate = localOf(earliest, zone).date;
  const from = input.from > firstDate ? input.from : firstDate;
  const to = input.to < lastDate ? input.to : lastDate;
  const occupied = (durationMinutes + bufferAfterMinutes) * MINUTE;
  const merged = new Map(input.staff.map((s) => [s._id, mergeIntervals(input.busy.get(s._id) ?? [])]));
  for (let date = from; date <= to && out.length < limit; date = addDays(date, 1)) {
    if (closedOn(input.businessClosures, date)) continue;
    const day: (FreeSlot & { order: number })[] = [];
    input.staff.forEach((staff, order) => {
      const busy = merged.get(staff._id)!;
      for (const range of openRanges(staff, date, zone, input.businessClosures)) {
        // Local minutes map to increasing instants (the gap skipped, an ambiguous time at its first
        // occurrence), so the first start that does not fit ends the range.
        for (let m = range.startMinutes; m < range.endMinutes; m += slotStepMinutes) {
          const start = slotInstant(date, m, zone);
          if (start === null || start < earliest) continue;
          if (start + occupied > range.end) break;
          if (overlapsAny(busy, start, start + occupied)) continue;
          day.push({ start, end: start + durationMinutes * MINUTE, staffId: staff._id, staffName: staff.name, order });
        }
      }
    });
    day.sort((a, b) => a.start - b.start || a.order - b.order);
    for (const { order: _order, ...slot } of day) {
      if (out.length >= limit) break;
      out.push(slot);
    }
  }
  return out;
}

export type SlotProblem = 'closed' | 'outsideHours' | 'busy';

/**
 * Why `staff` cannot take [start, start + duration + buffer) (null = it can): a closure that day,
 * outside every opening range, or overlapping a busy interval. The same rules as freeSlots (minus
 * the step grid: the owner may start on any 5-minute step inside the hours).
 */
export function slotProblem(
  staff: BookingStaff,
  start: number,
  occupiedMinutes: number,
  zone: string,
  businessClosures: readonly Closure[],
  busy: readonly BusyInterval[],
): SlotProblem | null {
  const { date } = localOf(start, zone);
  if (closedOn(businessClosures, date) || closedOn(staff.closures, date)) return 'closed';
  const end = start + occupiedMinutes * MINUTE;
  const inside = openRanges(staff, date, zone, businessClosures).some((r) => r.start <= start && end <= r.end);
  if (!inside) return 'outsideHours';
  return overlapsAny(mergeIntervals(busy), start, end) ? 'busy' : null;
}
