/**
 * Dashboard contract (SPEC §2 Dashboard, §3 Dashboard data, §7 Dashboard, §8, §9; issue 8).
 * Browser-safe: no Node imports. Every figure is computed from per-hour counter items kept up to
 * date when calls, messages, conversations and contacts are written (ACCESS-PATTERNS.md
 * "Dashboard"), so a read costs the same whatever the history size. Days follow the user's time
 * zone (profile `timeZone`, IANA, default 'UTC').
 */
import * as z from 'zod/mini';
import './zod-locale.js';

export const DASHBOARD_TIME_FILTERS = ['7days', '30days'] as const;
export type DashboardTimeFilter = (typeof DASHBOARD_TIME_FILTERS)[number];
/** SPEC §9: dashboard default 7days; the chart always shows the last 30 days. */
export const DASHBOARD_DEFAULT_FILTER: DashboardTimeFilter = '7days';
export const DASHBOARD_CHART_DAYS = 30;
export const DASHBOARD_TOP_NUMBERS = 5;
export const DASHBOARD_RECENT_ACTIVITY = 10;

export const dashboardMessages = {
  timeFilterInvalid: 'Time filter must be 7days or 30days',
  timeZoneInvalid: 'Time zone must be a valid IANA time zone, e.g. Europe/Madrid',
} as const;

/** GET /api/dashboard?timeFilter=7days|30days (absent = 7days). */
export const dashboardQuery = z.object({
  timeFilter: z._default(z.enum(DASHBOARD_TIME_FILTERS, { error: dashboardMessages.timeFilterInvalid }), DASHBOARD_DEFAULT_FILTER),
});

/** The user's day boundaries (beyond the spec): a valid IANA zone. */
export const timeZoneField = z.string({ error: dashboardMessages.timeZoneInvalid }).check(
  z.trim(),
  z.refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return tz.length > 0;
    } catch {
      return false;
    }
  }, dashboardMessages.timeZoneInvalid),
);

export interface DashboardVoiceAnalytics {
  /** Calls started in the period; completed = status completed. */
  overview: { totalCalls: number; completedCalls: number };
  /** The last 30 days in the user's time zone, oldest first, empty days as 0 (date = yyyy-mm-dd). */
  callsPerDay: Array<{ date: string; total: number }>;
  /** All time, most calls first (at most DASHBOARD_TOP_NUMBERS). lastCall ISO; avgMessages = transcript turns per call. */
  topPhoneNumbers: Array<{ phoneNumber: string; callCount: number; completedCalls: number; avgMessages: number; lastCall: string }>;
  /** Seconds, over the period: avg per completed call, the longest call, the sum of all finished calls. */
  durationStats: { avgDuration: number; maxDuration: number; totalDuration: number };
  /**
   * Issue 16: the median first-token latency (ms) of the streamed call turns in the period
   * (prompt received → first text token sent), and how many turns it is over; null without any.
   * Read on a bucket grid (domain/dashboard/turn-latency.ts): the upper bound of the median turn's
   * 25 ms bucket (100 ms above 2 s; 10,000 = 10 s or more). The turns are those of the calls
   * started on the UTC days whose 12:00 falls in the period.
   */
  turnLatency: { medianMs: number; turns: number } | null;
}

/** WhatsApp conversations in the period (beyond the spec's unnamed shape). */
export interface DashboardWhatsAppAnalytics {
  /** Conversations opened in the period. */
  newConversations: number;
  /** Current conversations by status (not period-bound: a board snapshot). */
  byStatus: { active: number; closed: number; requires_human: number; archived: number };
  escalations: number;
}

/** WhatsApp messages in the period. */
export interface DashboardMessageAnalytics {
  totalMessages: number;
  received: number;
  sent: number;
  failed: number;
  /** Per day of the period, oldest first. */
  perDay: Array<{ date: string; received: number; sent: number }>;
}

export interface DashboardRecentActivity {
  /** Call status (SPEC §4 Call status). */
  status: string;
  contactName: string;
  phoneNumber: string;
  messageCount: number;
  createdAt: string;
  /** The call's id (links to /voice-conversations/{id}). */
  callId: string;
}

/** The channels the agent books on (issue 30), in the order the dashboard shows them. */
export const AGENT_BOOKING_CHANNELS = ['whatsapp', 'voice', 'chat'] as const;
export type AgentBookingChannel = (typeof AGENT_BOOKING_CHANNELS)[number];

export interface AgentBookingFigures {
  /** Bookings the agent made in the period (counted when they were made) that are not cancelled. */
  count: number;
  /** Of the bookings the agent made in the period, those cancelled since (not in `count`). */
  cancelled: number;
  /** The prices of the `count` bookings (cents of `currency`); bookings of unpriced services add 0. */
  valueCents: number;
}

/**
 * Issue 30, the first row of the outcome ledger: bookings made by the agent in the period, by
 * channel, from per-hour counters kept by a booking change listener (never a read of bookings).
 */
export interface DashboardAgentBookings extends AgentBookingFigures {
  /** ISO 4217, upper case: the currency the bookings were priced in (else the account's). */
  currency: string;
  /** Every agent channel, in AGENT_BOOKING_CHANNELS order (zeros included). */
  byChannel: Array<AgentBookingFigures & { channel: AgentBookingChannel }>;
}

/** data of GET /api/dashboard. */
export interface DashboardData {
  timeFilter: DashboardTimeFilter;
  timeZone: string;
  voiceAnalytics: DashboardVoiceAnalytics;
  whatsappAnalytics: DashboardWhatsAppAnalytics;
  messageAnalytics: DashboardMessageAnalytics;
  contactAnalytics: { overview: { totalContacts: number; addedInPeriod: number } };
  agentBookings: DashboardAgentBookings;
  /** Newest calls first (at most DASHBOARD_RECENT_ACTIVITY). */
  recentActivity: DashboardRecentActivity[];
}

/** data of GET /api/dashboard/voice-trends: the last 30 days, per day, oldest first. */
export interface VoiceTrends {
  timeZone: string;
  days: Array<{ date: string; total: number; completed: number; totalDuration: number; avgDuration: number }>;
}
