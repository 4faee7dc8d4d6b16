/**
 * The dashboard (SPEC §2, §3 Dashboard data, §7; issue 8): every figure is a sum of per-hour
 * counters (ports.ts), grouped into the user's local days (profile `timeZone`, default UTC).
 *
 * A UTC hour belongs to the local day in which it STARTS. For whole-hour zones (and across DST
 * changes, which move by whole hours) local days are exact sums of hours. For :30/:45 zones
 * (e.g. Asia/Kolkata +05:30) the day boundary is rounded to the hour that contains it: activity
 * in the first 30/45 local minutes after midnight is counted in the previous day.
 */
import {
  AGENT_BOOKING_CHANNELS,
  DASHBOARD_CHART_DAYS,
  DASHBOARD_RECENT_ACTIVITY,
  DASHBOARD_TOP_NUMBERS,
  type DashboardAgentBookings,
  type DashboardData,
  type DashboardTimeFilter,
  type VoiceTrends,
} from '../../contract/dashboard.js';
import { BOOKING_METRICS, bookingMetric, type ActivityDay, type ActivityMetric, type DashboardContactNames, type DashboardReader, type RecentCall } from './ports.js';
import { histogramMedian, type LatencyHistogram, parseLatencyAttribute } from './turn-latency.js';

const DAY_MS = 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;
const PERIOD_DAYS: Record<DashboardTimeFilter, number> = { '7days': 7, '30days': 30 };
type Sums = Record<ActivityMetric | 'max', number> & Record<string, number>;
const emptySums = (): Sums => ({
  calls: 0, done: 0, sec: 0, dsec: 0, in: 0, out: 0, fail: 0, conv: 0, esc: 0, ct: 0, max: 0,
  ...Object.fromEntries(BOOKING_METRICS.map((m) => [m, 0])),
});

const formatters = new Map<string, Intl.DateTimeFormat>();
/** A valid IANA zone, else 'UTC' (a stored zone a newer ICU dropped must not break the page). */
export function safeTimeZone(tz: string): string {
  if (!tz) return 'UTC';
  try {
    localDay(0, tz);
    return tz;
  } catch {
    return 'UTC';
  }
}

/** yyyy-mm-dd of an instant in a time zone. */
export function localDay(ms: number, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  const parts = f.formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The n dates ending with `last` (yyyy-mm-dd), oldest first. */
export function daysEndingAt(last: string, n: number): string[] {
  const end = Date.parse(`${last}T00:00:00.000Z`);
  return Array.from({ length: n }, (_, i) => new Date(end - (n - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** The UTC days whose hours can fall in the last 30 local days of any zone (UTC−12…+14): 33 items. */
export function utcDaysFor(nowMs: number): string[] {
  const today = new Date(nowMs).toISOString().slice(0, 10);
  return daysEndingAt(new Date(Date.parse(`${today}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10), DASHBOARD_CHART_DAYS + 3);
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
/** The zone's UTC offset (ms) at an instant on a whole minute. */
function offsetAt(ms: number, timeZone: string): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    offsetFormatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(ms))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!) - ms;
}

/**
 * The local days of a UTC day's 24 hours (index = hour), memoized per UTC day. Intl formatting
 * is the read's main CPU cost, so a day whose offset is the same at its start and end (every day
 * but the ≤ 2 DST changes a year) is computed from that offset; a changing day hour by hour.
 */
export function localDaysOfHours(timeZone: string): (utcDay: string) => readonly string[] {
  const hoursOf = new Map<string, string[]>();
  return (utcDay) => {
    let hours = hoursOf.get(utcDay);
    if (!hours) {
      const start = Date.parse(`${utcDay}T00:00:00.000Z`);
      const offset = offsetAt(start, timeZone);
      const steady = offset === offsetAt(start + DAY_MS, timeZone);
      hours = Array.from({ length: 24 }, (_, h) => {
        const at = start + h * HOUR_MS;
        return steady ? new Date(at + offset).toISOString().slice(0, 10) : localDay(at, timeZone);
      });
      hoursOf.set(utcDay, hours);
    }
    return hours;
  };
}

/** The hour (0–23) of two digits at `at` in a counter attribute's name, else -1. */
function hourAt(attr: string, at: number): number {
  const tens = attr.charCodeAt(at) - 48;
  const units = attr.charCodeAt(at + 1) - 48;
  if (tens < 0 || tens > 2 || units < 0 || units > 9) return -1;
  const hour = tens * 10 + units;
  return hour < 24 ? hour : -1;
}

const METRICS = new Set<string>(Object.keys(emptySums()));

/** Hourly counters summed per local day (only the days asked for). */
export function sumByLocalDay(days: readonly ActivityDay[], timeZone: string, wanted: readonly string[], hoursOf = localDaysOfHours(timeZone)): Map<string, Sums> {
  const out = new Map(wanted.map((d) => [d, emptySums()]));
  for (const { day, counters } of days) {
    const local = hoursOf(day);
    // `{metric}{HH}` only: the latency buckets (`lt{HH}_{bucket}`, `lt_{bucket}`) are summed by latencyOfPeriod.
    for (const attr in counters) {
      const metric = attr.slice(0, -2) as keyof Sums;
      if (!METRICS.has(metric)) continue;
      const hour = hourAt(attr, attr.length - 2);
      const sums = hour < 0 ? undefined : out.get(local[hour]!);
      if (!sums) continue;
      const value = counters[attr]!;
      if (metric === 'max') sums.max = Math.max(sums.max, value);
      else sums[metric] = (sums[metric] ?? 0) + value;
    }
  }
  return out;
}

/** The hour whose local day an old whole-UTC-day latency attribute (`lt_{bucket}`) counts in. */
const LATENCY_DAY_HOUR = 12;

/**
 * The merged latency histogram of the given local days: each `lt{HH}_` bucket counts in the local
 * day of its UTC hour (exact in any whole-hour zone, like the other metrics; a call in New York at
 * 21:00 is today's, not tomorrow's); an older whole-day `lt_` bucket in the local day of its UTC day's 12:00.
 */
export function latencyOfPeriod(days: readonly ActivityDay[], timeZone: string, period: readonly string[], hoursOf = localDaysOfHours(timeZone)): LatencyHistogram {
  const wanted = new Set(period);
  const out: LatencyHistogram = {};
  for (const { day, counters } of days) {
    const local = hoursOf(day);
    for (const attr in counters) {
      const found = parseLatencyAttribute(attr);
      if (found === null || !wanted.has(local[found.hour ?? LATENCY_DAY_HOUR]!)) continue;
      out[found.bucket] = (out[found.bucket] ?? 0) + counters[attr]!;
    }
  }
  return out;
}

const total = (sums: readonly Sums[], metric: keyof Sums) => sums.reduce((n, s) => n + (s[metric] ?? 0), 0);
const nonNegative = (n: number) => Math.max(0, n);

/**
 * Issue 30: the agent's bookings made in the period (domain/bookings/outcomes.ts keeps the
 * counters): kept = made − cancelled since; the value is of the kept ones. The currency is the
 * one the latest counted day names, else `fallbackCurrency` (the account country's).
 */
export function agentBookingsOf(period: readonly Sums[], days: readonly ActivityDay[], fallbackCurrency: string): DashboardAgentBookings {
  const byChannel = AGENT_BOOKING_CHANNELS.map((channel) => {
    const cancelled = nonNegative(total(period, bookingMetric('bx', channel)));
    return {
      channel,
      count: nonNegative(total(period, bookingMetric('bk', channel)) - cancelled),
      cancelled,
      valueCents: nonNegative(total(period, bookingMetric('bv', channel))),
    };
  });
  const named = [...days].reverse().find((d) => d.bookingCurrency)?.bookingCurrency;
  return {
    count: byChannel.reduce((n, c) => n + c.count, 0),
    cancelled: byChannel.reduce((n, c) => n + c.cancelled, 0),
    valueCents: byChannel.reduce((n, c) => n + c.valueCents, 0),
    currency: (named || fallbackCurrency).toUpperCase(),
    byChannel,
  };
}

export interface DashboardDeps {
  reader: DashboardReader;
  /** Recent activity names each call's contact as the directory does now (absent = as stored). */
  contactNames?: DashboardContactNames;
  /** The currency of an account's country (ISO alpha-2, '' = unknown): booking values before any booking names one. */
  currencyOf?: (country: string) => string;
  now?: () => number;
}

export function createDashboardService(deps: DashboardDeps) {
  const now = deps.now ?? Date.now;

  /** The recent calls' current contact names: one batch read (a caller saved since is found by phone). */
  async function currentNames(userId: string, calls: readonly RecentCall[]): Promise<string[]> {
    if (!deps.contactNames || calls.length === 0) return calls.map((c) => c.contactName);
    const ids = [...new Set(calls.map((c) => c.contactId).filter(Boolean))];
    const phones = [...new Set(calls.map((c) => c.phoneNumber).filter((p) => /^\+[1-9]\d{6,14}$/.test(p)))];
    const { byId, byPhone } = await deps.contactNames.lookup(userId, { ids, phones });
    return calls.map((c) => ((c.contactId ? byId.get(c.contactId) : undefined) ?? byPhone.get(c.phoneNumber))?.name ?? c.contactName);
  }

  return {
    async dashboard(userId: string, timeFilter: DashboardTimeFilter): Promise<DashboardData> {
      const at = now();
      const snap = await deps.reader.snapshot(userId, utcDaysFor(at), { topCallers: DASHBOARD_TOP_NUMBERS, recentCalls: DASHBOARD_RECENT_ACTIVITY });
      const names = await currentNames(userId, snap.recentCalls);
      const timeZone = safeTimeZone(snap.timeZone);
      const chartDays = daysEndingAt(localDay(at, timeZone), DASHBOARD_CHART_DAYS);
      const hoursOf = localDaysOfHours(timeZone);
      const byDay = sumByLocalDay(snap.days, timeZone, chartDays, hoursOf);
      const periodDays = chartDays.slice(-PERIOD_DAYS[timeFilter]);
      const period = periodDays.map((d) => byDay.get(d)!);
      const done = total(period, 'done');
      return {
        timeFilter,
        timeZone,
        voiceAnalytics: {
          overview: { totalCalls: total(period, 'calls'), completedCalls: done },
          callsPerDay: chartDays.map((date) => ({ date, total: byDay.get(date)!.calls })),
          topPhoneNumbers: snap.topCallers.map((c) => ({
            phoneNumber: c.phoneNumber,
            callCount: c.callCount,
            completedCalls: c.completedCalls,
            avgMessages: c.callCount > 0 ? Math.round((c.turns / c.callCount) * 10) / 10 : 0,
            lastCall: c.lastCall,
          })),
          durationStats: {
            avgDuration: done > 0 ? Math.round(total(period, 'dsec') / done) : 0,
            maxDuration: period.reduce((n, s) => Math.max(n, s.max), 0),
            totalDuration: total(period, 'sec'),
          },
          turnLatency: histogramMedian(latencyOfPeriod(snap.days, timeZone, periodDays, hoursOf)),
        },
        whatsappAnalytics: {
          newConversations: total(period, 'conv'),
          byStatus: snap.conversations,
          escalations: total(period, 'esc'),
        },
        messageAnalytics: {
          totalMessages: nonNegative(total(period, 'in') + total(period, 'out')),
          received: nonNegative(total(period, 'in')),
          sent: nonNegative(total(period, 'out')),
          failed: nonNegative(total(period, 'fail')),
          perDay: periodDays.map((date) => ({ date, received: nonNegative(byDay.get(date)!.in), sent: nonNegative(byDay.get(date)!.out) })),
        },
        contactAnalytics: { overview: { totalContacts: snap.contactsTotal, addedInPeriod: nonNegative(total(period, 'ct')) } },
        agentBookings: agentBookingsOf(period, snap.days, deps.currencyOf?.(snap.country ?? '') ?? 'usd'),
        recentActivity: snap.recentCalls.map((c, i) => ({
          status: c.status,
          contactName: names[i] ?? c.contactName,
          phoneNumber: c.phoneNumber,
          messageCount: c.messageCount,
          createdAt: c.createdAt,
          callId: c.id,
        })),
      };
    },

    async voiceTrends(userId: string): Promise<VoiceTrends> {
      const at = now();
      const { timeZone: stored, days } = await deps.reader.days(userId, utcDaysFor(at));
      const timeZone = safeTimeZone(stored);
      const chartDays = daysEndingAt(localDay(at, timeZone), DASHBOARD_CHART_DAYS);
      const byDay = sumByLocalDay(days, timeZone, chartDays);
      return {
        timeZone,
        days: chartDays.map((date) => {
          const s = byDay.get(date)!;
          return { date, total: s.calls, completed: s.done, totalDuration: s.sec, avgDuration: s.done > 0 ? Math.round(s.dsec / s.done) : 0 };
        }),
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
