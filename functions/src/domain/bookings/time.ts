/**
 * Local wall-clock time in an IANA zone ⇄ UTC instants, with Intl only (no tz library: bundle
 * budgets). Opening hours are local "HH:mm" on local dates, so a 09:00 opening stays 09:00 across
 * the DST changes. Disambiguation as Temporal's 'compatible' for boundaries (a time in the spring
 * gap moves forward, an ambiguous autumn time is its first occurrence); `slotInstant` answers null
 * in the gap instead, so a nonexistent 02:30 is never offered as a slot.
 */
import { WEEKDAYS, type Weekday } from '../../contract/bookings.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The zone's wall clock at `ms`, read as if it were UTC (epoch ms). */
function wallClock(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour! % 24, parts.minute!, parts.second!);
}

const offsets = new Map<string, number>();
/** The zone's offset from UTC at `ms`, in ms (whole minutes; cached per zone and minute). */
export function offsetAt(ms: number, zone: string): number {
  const minute = Math.floor(ms / MINUTE) * MINUTE;
  const key = `${zone}|${minute}`;
  let o = offsets.get(key);
  if (o === undefined) {
    o = wallClock(minute, zone) - minute;
    if (offsets.size > 50_000) offsets.clear();
    offsets.set(key, o);
  }
  return o;
}

/** "YYYY-MM-DD" at midnight, read as UTC epoch ms. */
export const dateMs = (date: string): number => Date.parse(`${date}T00:00:00Z`);
export const dateOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const addDays = (date: string, days: number): string => dateOf(dateMs(date) + days * DAY);
/** Whole days from `from` to `to` (local dates). */
export const daysBetween = (from: string, to: string): number => Math.round((dateMs(to) - dateMs(from)) / DAY);

/** The weekday of a local date. */
export function weekdayOf(date: string): Weekday {
  return WEEKDAYS[(new Date(dateMs(date)).getUTCDay() + 6) % 7]!;
}

/** Every instant whose wall clock in `zone` is the local time `localMs` (0, 1 or 2 of them), earliest first. */
function instantsOf(localMs: number, zone: string): number[] {
  // At most one transition lies within a day of any instant: the offsets a day before and after cover it.
  const candidates = new Set([offsetAt(localMs - DAY, zone), offsetAt(localMs + DAY, zone)]);
  const out: number[] = [];
  for (const o of candidates) {
    const t = localMs - o;
    if (offsetAt(t, zone) === o) out.push(t);
  }
  return out.sort((a, b) => a - b);
}

/**
 * The instant of a local date and minutes since local midnight (1440 = the next midnight) as a
 * boundary of a range: a time in the spring gap moves forward by the gap, an ambiguous time is
 * its first occurrence.
 */
export function localInstant(date: string, minutes: number, zone: string): number {
  const localMs = dateMs(date) + minutes * MINUTE;
  const found = instantsOf(localMs, zone);
  if (found.length > 0) return found[0]!;
  // In the gap: read with the offset before the change (02:30 CET in Madrid's gap = 03:30 CEST).
  return localMs - offsetAt(localMs - DAY, zone);
}

/** The instant of a slot starting at local `minutes` on `date`; null when that wall-clock time does not exist (spring gap). */
export function slotInstant(date: string, minutes: number, zone: string): number | null {
  return instantsOf(dateMs(date) + minutes * MINUTE, zone)[0] ?? null;
}

/** The local date and minutes since local midnight of an instant. */
export function localOf(ms: number, zone: string): { date: string; minutes: number } {
  const wall = wallClock(ms, zone);
  const day = Math.floor(wall / DAY) * DAY;
  return { date: dateOf(day), minutes: Math.floor((wall - day) / MINUTE) };
}

/** "HH:mm" of minutes since midnight. */
export const clockOf = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const LOCAL_START = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/**
 * A start as the API and the agent send it: a local "YYYY-MM-DDTHH:mm" in the business's zone, or
 * an instant with its offset ("…Z", "…+01:00"). Null when it is no real date and time, or a local
 * time that does not exist (the spring gap).
 */
export function parseStart(text: string, zone: string): number | null {
  const local = LOCAL_START.exec(text);
  if (local) {
    const [, date, h, m, s, frac] = local;
    if (!isRealDate(date!) || Number(h) > 23 || Number(m) > 59 || Number(s ?? 0) > 59) return null;
    const at = slotInstant(date!, Number(h) * 60 + Number(m), zone);
    return at === null ? null : at + Number(s ?? 0) * 1000 + Number((frac ?? '0').padEnd(3, '0'));
  }
  const withOffset = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!withOffset || !isRealDate(withOffset[1]!) || Number(withOffset[2]) > 23 || Number(withOffset[3]) > 59 || Number(withOffset[4] ?? 0) > 59) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

function isRealDate(date: string): boolean {
  const ms = dateMs(date);
  return !Number.isNaN(ms) && dateOf(ms) === date;
}

/** UTC ISO of epoch ms (storage form). */
export const iso = (ms: number): string => new Date(ms).toISOString();
