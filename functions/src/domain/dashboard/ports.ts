/**
 * Dashboard ports (issue 8): the per-hour activity counters written beside every call, message,
 * conversation and contact write, and the bounded read the dashboard is computed from.
 * Adapter: adapters/dynamo/activity.ts (ACCESS-PATTERNS.md "Dashboard").
 */
import { AGENT_BOOKING_CHANNELS, type AgentBookingChannel } from '../../contract/dashboard.js';

/**
 * Counted per UTC hour. calls = calls started; done = calls finished with status completed;
 * sec = seconds of every finished call; dsec = seconds of completed calls; in/out = WhatsApp
 * messages stored; fail = messages currently failed (moves back on a retry); conv = WhatsApp
 * conversations opened; esc = escalations to a human; ct = contacts added (−1 on delete).
 * Call figures are counted in the hour the call STARTED (a call's duration belongs to its day).
 */
export const ACTIVITY_METRICS = ['calls', 'done', 'sec', 'dsec', 'in', 'out', 'fail', 'conv', 'esc', 'ct'] as const;
export type ActivityMetric = (typeof ACTIVITY_METRICS)[number];
export type ActivityDeltas = Partial<Record<ActivityMetric, number>>;

/**
 * Issue 30, the agent's bookings (written by the bookings outcome listener, domain/bookings/outcomes.ts,
 * in the ACT day item of the hour the booking was MADE): per agent channel, `bk{c}` = bookings
 * made, `bx{c}` = of those, cancelled since, `bv{c}` = the prices (cents) of those not cancelled.
 * Channel codes: wa = WhatsApp, ph = phone (voice), ch = chat (the test chat).
 */
export const BOOKING_CHANNEL_CODES = { whatsapp: 'wa', voice: 'ph', chat: 'ch' } as const satisfies Record<AgentBookingChannel, string>;
export type BookingFigure = 'bk' | 'bx' | 'bv';
export const bookingMetric = (figure: BookingFigure, channel: AgentBookingChannel) => `${figure}${BOOKING_CHANNEL_CODES[channel]}`;
export const BOOKING_METRICS = AGENT_BOOKING_CHANNELS.flatMap((c) => (['bk', 'bx', 'bv'] as const).map((f) => bookingMetric(f, c)));
/** The ACT day item's attribute holding the currency of the booking values (the last booking counted that day). */
export const BOOKING_CURRENCY_ATTRIBUTE = 'bcur';

export interface ActivityCounters {
  /** ADDs the deltas to the UTC hour of `at` (ISO). Never throws (a lost count is logged). */
  add(userId: string, at: string, deltas: ActivityDeltas): Promise<void>;
  /**
   * A call finished (once, from the status callback): durations, the longest call, and the
   * caller's all-time item (callCount, completedCalls, turns, lastCall). Never throws.
   * (`calls` — a call started — is counted inside the call's create transaction, CallRepository.create.)
   */
  callFinished(userId: string, call: FinishedCall): Promise<void>;
}

export interface FinishedCall {
  startedAt: string;
  phoneNumber: string;
  completed: boolean;
  seconds: number;
  turns: number;
  /**
   * Issue 16: first-token latencies (ms) of the call's streamed agent turns, added to its UTC
   * day's latency histogram (turn-latency.ts) in the same write as the durations; empty on <Gather> calls.
   */
  turnLatencies?: readonly number[];
}

/**
 * One UTC day of counters: attribute `{metric}{HH}`, `max{HH}` (the longest call started that
 * hour, s) and `lt{HH}_{bucket}` (streamed turns of the calls started that hour per latency bucket; `lt_{bucket}` on older items: the whole UTC day).
 */
export interface ActivityDay {
  day: string;
  counters: Record<string, number>;
  /** Issue 30: the currency of the day's booking values (BOOKING_CURRENCY_ATTRIBUTE), when any. */
  bookingCurrency?: string;
}

export interface TopCaller {
  phoneNumber: string;
  callCount: number;
  completedCalls: number;
  /** Transcript turns of the caller's finished calls. */
  turns: number;
  lastCall: string;
}

export interface RecentCall {
  id: string;
  status: string;
  contactName: string;
  /** The linked contact's id ('' = none): its current name is shown (issue 17). */
  contactId: string;
  phoneNumber: string;
  messageCount: number;
  createdAt: string;
}

export interface DashboardSnapshot {
  /** The profile's time zone as stored ('' = not set). */
  timeZone: string;
  /** The profile's country (ISO alpha-2, '' = not set): the currency of booking values when no day names one. */
  country?: string;
  /** The requested UTC days that have counters (absent = no activity). */
  days: ActivityDay[];
  contactsTotal: number;
  conversations: { active: number; closed: number; requires_human: number; archived: number };
  /** Most calls first, at most `topCallers`. */
  topCallers: TopCaller[];
  /** Newest first, at most `recentCalls`. */
  recentCalls: RecentCall[];
}

/**
 * The contacts' current names (issue 17; the same shape as domain/contacts/names.ts, restated: the
 * dashboard and contacts areas are independent): deleted contacts are absent.
 */
export interface DashboardContactNames {
  lookup(
    userId: string,
    query: { ids: readonly string[]; phones?: readonly string[] },
  ): Promise<{ byId: Map<string, { id: string; name: string }>; byPhone: Map<string, { id: string; name: string }> }>;
}

export interface DashboardReader {
  /** Everything of one dashboard in a bounded number of requests (whatever the history size). */
  snapshot(userId: string, utcDays: readonly string[], limits: { topCallers: number; recentCalls: number }): Promise<DashboardSnapshot>;
  /** Only the profile time zone and the day counters (voice trends). */
  days(userId: string, utcDays: readonly string[]): Promise<Pick<DashboardSnapshot, 'timeZone' | 'days'>>;
}
