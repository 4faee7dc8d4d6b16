/**
 * The calendar's clock. FullCalendar runs in UTC-coercion mode (timeZone 'UTC'): every date it
 * handles carries, in its UTC fields, the wall-clock time of the business's zone. Bookings come
 * as UTC instants and are turned into that zone's wall clock one by one (so a booking on either
 * side of a DST change shows at its own local time); a drop or a selection goes back to the API
 * as a local "YYYY-MM-DDTHH:mm", which the API reads in the business's zone. No zone plugin.
 */
import type { BookingStaff, Weekday } from '@agentdesk/functions/contract';
import { minutesOfClock, WEEKDAYS } from '@agentdesk/functions/contract';

const partsCache = new Map<string, Intl.DateTimeFormat>();
function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsCache.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsCache.set(timeZone, format);
  }
  return format;
}

/** The wall clock of `timeZone` at an instant: "YYYY-MM-DDTHH:mm:ss". */
export function wallClock(instant: string | number | Date, timeZone: string): string {
  const date = instant instanceof Date ? instant : new Date(instant);
  const parts: Record<string, string> = {};
  for (const p of partsFormat(timeZone).formatToParts(date)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** A UTC-coerced date (FullCalendar's) as the local "YYYY-MM-DDTHH:mm" the API takes. */
export function localOf(coerced: Date): string {
  return coerced.toISOString().slice(0, 16);
}

/** A UTC-coerced date's local day "YYYY-MM-DD". */
export function dayOf(coerced: Date): string {
  return coerced.toISOString().slice(0, 10);
}

/** Now in the business's zone, UTC-coerced (FullCalendar's `now`, the today button, the now line). */
export function coercedNow(timeZone: string, at: Date = new Date()): Date {
  return new Date(`${wallClock(at, timeZone)}Z`);
}

/** "YYYY-MM-DD" plus n days. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The inclusive local dates of a FullCalendar range (its end is exclusive). */
export function rangeOf(start: Date, end: Date): { from: string; to: string } {
  return { from: dayOf(start), to: addDays(dayOf(end), -1) };
}

/** FullCalendar's day numbers: Sunday 0 … Saturday 6. */
const DAY_NUMBER: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

export interface BusinessHoursRange {
  daysOfWeek: number[];
  startTime: string;
  endTime: string;
}

/** FullCalendar's businessHours: every opening range of these staff (the union is what shows as open). */
export function businessHoursOf(staff: readonly BookingStaff[]): BusinessHoursRange[] {
  return staff.flatMap((member) =>
    WEEKDAYS.flatMap((day) => (member.weeklyHours[day] ?? []).map((r) => ({ daysOfWeek: [DAY_NUMBER[day]], startTime: r.start, endTime: r.end }))),
  );
}

const clockOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;

/**
 * The hours the time grid shows: from the earliest opening to the latest closing of these staff
 * (whole hours), widened to any booking that lies outside them, 08:00–20:00 when no one has hours.
 */
export function visibleHours(staff: readonly BookingStaff[], events: ReadonlyArray<{ start: string; end: string }> = []): { slotMinTime: string; slotMaxTime: string } {
  let min = Infinity;
  let max = -Infinity;
  for (const member of staff) {
    for (const day of WEEKDAYS) {
      for (const r of member.weeklyHours[day] ?? []) {
        min = Math.min(min, minutesOfClock(r.start));
        max = Math.max(max, minutesOfClock(r.end));
      }
    }
  }
  if (!Number.isFinite(min)) {
    min = 8 * 60;
    max = 20 * 60;
  }
  for (const e of events) {
    const start = minutesOfClock(e.start.slice(11, 16));
    const endDay = e.end.slice(0, 10) !== e.start.slice(0, 10);
    const end = endDay ? 24 * 60 : minutesOfClock(e.end.slice(11, 16));
    if (Number.isFinite(start)) min = Math.min(min, start);
    if (Number.isFinite(end)) max = Math.max(max, end);
  }
  const from = Math.floor(min / 60) * 60;
  const to = Math.min(24 * 60, Math.ceil(max / 60) * 60);
  return { slotMinTime: clockOf(from), slotMaxTime: clockOf(to > from ? to : from + 60) };
}

/** The next whole hour from now in the zone (a new booking's proposed start): "YYYY-MM-DDTHH:00". */
export function nextWholeHour(timeZone: string, at: Date = new Date()): string {
  const now = coercedNow(timeZone, at);
  now.setUTCMinutes(0, 0, 0);
  now.setUTCHours(now.getUTCHours() + 1);
  return localOf(now);
}
