/**
 * The Google Calendar connection (issue 30): OAuth with the calendar scopes only; the busy times
 * of chosen calendars block bookable time, and bookings are written to one calendar as events.
 * Browser-safe: no Node imports. Texts are bookingMessages' (contract/bookings.ts).
 */
import * as z from 'zod/mini';
import './zod-locale.js';
import { BOOKING_LIMITS, bookingMessages } from './bookings.js';

/**
 * What AgentDesk asks Google for, and nothing else: the list of calendars (to choose from), their
 * free/busy times (never the events' contents), and events it writes (the bookings).
 */
export const GOOGLE_CALENDAR_SCOPES = [
  'https://www.googleapis.com/auth/calendar.calendarlist.readonly',
  'https://www.googleapis.com/auth/calendar.freebusy',
  'https://www.googleapis.com/auth/calendar.events',
] as const;

/** Where the callback sends the owner back: /integrations?googleCalendar={outcome}. */
export const GOOGLE_CALENDAR_OUTCOMES = ['connected', 'denied', 'expired', 'failed'] as const;
export type GoogleCalendarOutcome = (typeof GOOGLE_CALENDAR_OUTCOMES)[number];

export interface GoogleCalendarEntry {
  id: string;
  summary: string;
  primary: boolean;
  /** owner, writer, reader or freeBusyReader (Google's accessRole). */
  accessRole: string;
}

/** GET /api/integrations/google-calendar (and the answer of PUT). */
export interface GoogleCalendarStatus {
  /** The server has a Google OAuth client (GOOGLE_CALENDAR_* / its secret); false: connecting is not possible here. */
  configured: boolean;
  connected: boolean;
  /** The connected Google account (its primary calendar's id). */
  email: string | null;
  /** The account's calendars ([] when not connected, or when Google could not be reached: see `error`). */
  calendars: GoogleCalendarEntry[];
  /** Calendars whose busy times block every staff member. */
  businessCalendarIds: string[];
  /** Where bookings are written as events; null = not written. */
  eventsCalendarId: string | null;
  /** Each staff member's own calendars (BookingStaff.googleCalendarIds). */
  staff: { staffId: string; staffName: string; googleCalendarIds: string[] }[];
  connectedAt: string | null;
  /** Google refused the stored access (revoked outside AgentDesk) or did not answer just now. */
  error: string | null;
}

const calendarIds = z
  .array(z.string({ error: bookingMessages.googleCalendarUnknown }).check(z.minLength(1, bookingMessages.googleCalendarUnknown), z.maxLength(1024, bookingMessages.googleCalendarUnknown)), {
    error: bookingMessages.googleCalendarUnknown,
  })
  .check(z.maxLength(BOOKING_LIMITS.googleCalendars, bookingMessages.googleCalendarUnknown));

/** PUT /api/integrations/google-calendar: which calendars block whom, and where bookings go. */
export const googleCalendarSettingsRequest = z.strictObject({
  businessCalendarIds: calendarIds,
  eventsCalendarId: z.nullable(z.string({ error: bookingMessages.googleCalendarUnknown }).check(z.minLength(1, bookingMessages.googleCalendarUnknown), z.maxLength(1024, bookingMessages.googleCalendarUnknown))),
  staff: z
    .array(
      z.strictObject({
        staffId: z.string({ error: bookingMessages.staffNotFound }).check(z.minLength(1, bookingMessages.staffNotFound), z.maxLength(40, bookingMessages.staffNotFound)),
        googleCalendarIds: calendarIds,
      }),
      { error: bookingMessages.staffNotFound },
    )
    .check(z.maxLength(BOOKING_LIMITS.staffPerUser, bookingMessages.tooManyStaff)),
});
export type GoogleCalendarSettingsInput = z.infer<typeof googleCalendarSettingsRequest>;

/** GET …/callback as Google sends it back (code or error, and our state). */
export const googleCalendarCallbackQuery = z.object({
  state: z.optional(z.string().check(z.maxLength(200))),
  code: z.optional(z.string().check(z.maxLength(2000))),
  error: z.optional(z.string().check(z.maxLength(200))),
});
