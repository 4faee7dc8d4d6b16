/**
 * The Google Calendar connection (issue 30): OAuth 2.0 web-server flow with the calendar scopes
 * only (contract/google-calendar.ts), the refresh token sealed like every integration secret.
 *
 * - Availability: the free/busy times of the chosen calendars (the business's block everybody,
 *   a staff member's block them) are an ExternalBusyTimes for the bookings core, cached briefly.
 *   A Google failure never breaks find_slots: the busy times are then empty (logged), and the
 *   slots are AgentDesk's own — the no-overlap rule between bookings still holds in the database.
 * - Events: every booking is written to the chosen calendar (a BookingChangeListener): insert,
 *   patch on a move, delete on a cancellation. The event id is derived from the booking
 *   (base32hex, as Google requires), so a retried change finds its event instead of adding
 *   another. Events are "transparent" (Google's "show as available"): the owner sees them, and
 *   they never come back through free/busy as busy time that would block the booking itself.
 */
import { createHash } from 'node:crypto';
import { bookingMessages, type Booking } from '../../contract/bookings.js';
import type { GoogleCalendarEntry, GoogleCalendarOutcome, GoogleCalendarSettingsInput, GoogleCalendarStatus } from '../../contract/google-calendar.js';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../errors.js';
import type { SecretBox } from '../secrets/ports.js';
import { createGoogleAccess, createGoogleBusyTimes, type GoogleAccess } from './google-busy.js';
import type { BookingChange, BookingChangeListener, Bookings, BusyInterval } from './ports.js';

export interface GoogleConnection {
  userId: string;
  email: string;
  /** Sealed (SecretBox). */
  refreshToken: string;
  scope: string;
  businessCalendarIds: string[];
  eventsCalendarId: string | null;
  connectedAt: string;
  updatedAt: string;
}

export interface GoogleConnectionRepository {
  get(userId: string): Promise<GoogleConnection | null>;
  put(connection: GoogleConnection): Promise<void>;
  /** null when there is no connection. */
  saveChoices(userId: string, choices: { businessCalendarIds: string[]; eventsCalendarId: string | null; updatedAt: string }): Promise<GoogleConnection | null>;
  /** The removed connection, or null. */
  remove(userId: string): Promise<GoogleConnection | null>;
  /** A connect attempt's state (its SHA-256), for 10 minutes. */
  putState(stateHash: string, userId: string, expiresAt: Date): Promise<void>;
  /** Takes the state once (deleted as it is read): the user it was made for, or null (unknown, used, expired). */
  takeState(stateHash: string, now: Date): Promise<string | null>;
}

/** A refusal or failure from Google: HTTP status (0 = no answer) and Google's reason ("invalid_grant", "notFound"…). */
export class GoogleApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'GoogleApiError';
  }
  /** Worth trying again later (no answer, rate limit, Google's own error). */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

export interface GoogleTokens {
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  refreshToken: string | null;
  scope: string;
}

/** Port: Google's OAuth 2.0 endpoints (adapters/google/calendar-api.ts). */
export interface GoogleOAuth {
  authorizeUrl(state: string): string;
  exchangeCode(code: string): Promise<GoogleTokens>;
  refresh(refreshToken: string): Promise<GoogleTokens>;
  revoke(token: string): Promise<void>;
}

export interface GoogleEventBody {
  summary: string;
  description: string;
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  transparency: 'transparent';
  status: 'confirmed';
  extendedProperties: { private: Record<string, string> };
}

/** Port: Calendar API v3. Errors are GoogleApiError. */
export interface GoogleCalendarApi {
  calendarList(accessToken: string): Promise<GoogleCalendarEntry[]>;
  /** Busy intervals per calendar id (a calendar Google reports an error for has none). */
  freeBusy(accessToken: string, calendarIds: string[], from: Date, to: Date): Promise<Map<string, BusyInterval[]>>;
  insertEvent(accessToken: string, calendarId: string, eventId: string, body: GoogleEventBody): Promise<void>;
  patchEvent(accessToken: string, calendarId: string, eventId: string, body: GoogleEventBody): Promise<void>;
  deleteEvent(accessToken: string, calendarId: string, eventId: string): Promise<void>;
}

export interface GoogleCalendarDeps {
  connections: GoogleConnectionRepository;
  /** null: no OAuth client configured on this server (connecting answers 503). */
  oauth: () => Promise<GoogleOAuth | null>;
  api: GoogleCalendarApi;
  secrets: SecretBox;
  bookings: () => Pick<Bookings, 'listStaff' | 'getStaff' | 'updateStaff' | 'get'>;
  /** Where the callback sends the owner back: `${appUrl}/integrations?googleCalendar=…`. */
  appUrl: string;
  /** A connect attempt's state: 32 random bytes, base64url. */
  newState: () => string;
  /** A Google call that failed where the owner is not waiting (free/busy, events). */
  onError?: (what: string, error: unknown) => void;
  now?: () => Date;
  /** How long free/busy answers are reused (ms). */
  busyCacheMs?: number;
  /** The access tokens, shared with the core's free/busy (google-busy.ts); built from oauth and secrets when absent. */
  access?: GoogleAccess;
}

const STATE_TTL_MS = 10 * 60_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The Google event of a booking: base32hex (0-9a-v), derived from account and booking, so a retry finds it. */
export function bookingEventId(userId: string, bookingId: string): string {
  return `agd${sha256(`${userId}:${bookingId}`).slice(0, 40)}`;
}

export function bookingEventBody(b: Booking): GoogleEventBody {
  return {
    summary: [b.customer.name, b.serviceName, b.staffName].join(' · '),
    description: [b.serviceName, b.staffName, b.customer.phone, b.notes].filter(Boolean).join('\n'),
    start: { dateTime: b.start, timeZone: b.timeZone },
    end: { dateTime: b.end, timeZone: b.timeZone },
    transparency: 'transparent',
    status: 'confirmed',
    extendedProperties: { private: { agentdeskBookingId: b._id } },
  };
}

/**
 * Deletes the Google event AgentDesk wrote for a booking (issue 33: the customer's erasure; the
 * booking itself stays, anonymised). Not connected, or no events calendar: nothing was written.
 * Already gone (404/410) is the wanted outcome; a transient failure throws (the job retries); a
 * refusal (revoked access, a calendar the account lost) is reported: nothing AgentDesk can still
 * delete there. Standalone, so the privacy functions do not bundle the rest of the integration.
 */
export function createBookingEventDeleter(deps: {
  connections: Pick<GoogleConnectionRepository, 'get'>;
  access: Pick<GoogleAccess, 'accessToken'>;
  api: Pick<GoogleCalendarApi, 'deleteEvent'>;
  onError?: (what: string, error: unknown) => void;
}) {
  return async (userId: string, bookingId: string): Promise<void> => {
    const connection = await deps.connections.get(userId);
    if (!connection?.eventsCalendarId) return;
    try {
      await deps.api.deleteEvent(await deps.access.accessToken(connection), connection.eventsCalendarId, bookingEventId(userId, bookingId));
    } catch (error) {
      if (error instanceof GoogleApiError && (error.status === 404 || error.status === 410)) return;
      if (error instanceof GoogleApiError && error.transient) throw error;
      deps.onError?.('events', error);
    }
  };
}

export function createGoogleCalendar(deps: GoogleCalendarDeps) {
  const now = deps.now ?? (() => new Date());
  const report = (what: string, error: unknown) => deps.onError?.(what, error);
  const access = deps.access ?? createGoogleAccess(deps);
  const backTo = (outcome: GoogleCalendarOutcome) => `${deps.appUrl.replace(/\/+$/, '')}/integrations?googleCalendar=${outcome}`;

  const { requireOAuth, accessToken } = access;

  async function view(userId: string, connection: GoogleConnection | null): Promise<GoogleCalendarStatus> {
    const [oauth, staff] = await Promise.all([deps.oauth(), deps.bookings().listStaff(userId)]);
    const staffView = staff.map((s) => ({ staffId: s._id, staffName: s.name, googleCalendarIds: s.googleCalendarIds }));
    if (!connection) {
      return { configured: oauth !== null, connected: false, email: null, calendars: [], businessCalendarIds: [], eventsCalendarId: null, staff: staffView, connectedAt: null, error: null };
    }
    let calendars: GoogleCalendarEntry[] = [];
    let error: string | null = null;
    try {
      calendars = await deps.api.calendarList(await accessToken(connection));
    } catch (e) {
      report('calendarList', e);
      error = e instanceof GoogleApiError && !e.transient ? bookingMessages.googleNotConnected : bookingMessages.googleFailed;
    }
    return {
      configured: oauth !== null,
      connected: true,
      email: connection.email,
      calendars,
      businessCalendarIds: connection.businessCalendarIds,
      eventsCalendarId: connection.eventsCalendarId,
      staff: staffView,
      connectedAt: connection.connectedAt,
      error,
    };
  }

  const busyTimes = createGoogleBusyTimes({ connections: deps.connections, access, api: deps.api, onError: deps.onError, now: deps.now, busyCacheMs: deps.busyCacheMs });

  /**
   * Makes the booking's Google event match the booking as it is now (read again: changes of one
   * booking may arrive out of order, and twice): gone or cancelled → deleted; otherwise inserted
   * with its derived id, or patched when it is already there.
   */
  async function syncEvent(connection: GoogleConnection, calendarId: string, change: BookingChange): Promise<void> {
    let booking: Booking | null;
    try {
      booking = await deps.bookings().get(connection.userId, change.booking._id);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      booking = null;
    }
    const token = await accessToken(connection);
    const eventId = bookingEventId(connection.userId, change.booking._id);
    const status = (e: unknown, ...codes: number[]) => e instanceof GoogleApiError && codes.includes(e.status);
    if (!booking || booking.status === 'cancelled') {
      try {
        await deps.api.deleteEvent(token, calendarId, eventId);
      } catch (e) {
        // Never written, or already deleted (a retry): nothing left to do.
        if (!status(e, 404, 410)) throw e;
      }
      return;
    }
    const body = bookingEventBody(booking);
    const insert = async () => {
      try {
        await deps.api.insertEvent(token, calendarId, eventId, body);
      } catch (e) {
        // Already there (a retried change, or an event deleted before: Google keeps its id).
        if (!status(e, 409)) throw e;
        await deps.api.patchEvent(token, calendarId, eventId, body);
      }
    };
    if (change.kind === 'created') return insert();
    try {
      await deps.api.patchEvent(token, calendarId, eventId, body);
    } catch (e) {
      // Booked before the connection, or deleted by the owner in Google: write it again.
      if (!status(e, 404, 410)) throw e;
      await insert();
    }
  }

  const listener: BookingChangeListener = {
    name: 'google-calendar',
    async handle(userId, change) {
      const connection = await deps.connections.get(userId);
      if (!connection?.eventsCalendarId) return;
      try {
        await syncEvent(connection, connection.eventsCalendarId, change);
      } catch (error) {
        // A retry can help only when Google did not answer or was overloaded; a refusal (revoked
        // access, a calendar the account lost) is logged and the change moves on.
        if (error instanceof GoogleApiError && error.transient) throw error;
        report('events', error);
      }
    },
  };

  return {
    busyTimes,
    listener,

    async status(userId: string): Promise<GoogleCalendarStatus> {
      return view(userId, await deps.connections.get(userId));
    },

    /** POST …/connect: Google's consent page, with a single-use state bound to this user (10 minutes). */
    async connect(userId: string): Promise<{ url: string }> {
      const oauth = await requireOAuth();
      const state = deps.newState();
      await deps.connections.putState(sha256(state), userId, new Date(now().getTime() + STATE_TTL_MS));
      return { url: oauth.authorizeUrl(state) };
    },

    /** GET …/callback (public): where to send the browser, after storing the connection when Google granted it. */
    async callback(query: { state?: string; code?: string; error?: string }): Promise<string> {
      const userId = query.state ? await deps.connections.takeState(sha256(query.state), now()) : null;
      if (!userId) return backTo('expired');
      if (query.error || !query.code) return backTo('denied');
      const oauth = await deps.oauth();
      if (!oauth) return backTo('failed');
      try {
        const tokens = await oauth.exchangeCode(query.code);
        const previous = await deps.connections.get(userId);
        // Google sends a refresh token on the first consent (prompt=consent asks for it every time).
        const refreshToken = tokens.refreshToken ? await deps.secrets.seal(tokens.refreshToken) : previous?.refreshToken;
        if (!refreshToken) return backTo('failed');
        const missing = ['calendar.freebusy', 'calendar.events', 'calendar.calendarlist.readonly'].filter((s) => !tokens.scope.split(' ').some((g) => g.endsWith(`/auth/${s}`)));
        if (missing.length > 0) return backTo('denied');
        const calendars = await deps.api.calendarList(tokens.accessToken);
        const primary = calendars.find((c) => c.primary);
        const at = now().toISOString();
        await deps.connections.put({
          userId,
          email: primary?.id ?? '',
          refreshToken,
          scope: tokens.scope,
          // First connection: the primary calendar blocks the business and receives the bookings.
          businessCalendarIds: previous?.businessCalendarIds ?? (primary ? [primary.id] : []),
          eventsCalendarId: previous ? previous.eventsCalendarId : (primary?.id ?? null),
          connectedAt: previous?.connectedAt ?? at,
          updatedAt: at,
        });
        access.remember(userId, refreshToken, tokens);
        return backTo('connected');
      } catch (error) {
        report('connect', error);
        return backTo('failed');
      }
    },

    /** PUT: the calendars that block the business and each staff member, and where bookings go. */
    async save(userId: string, input: GoogleCalendarSettingsInput): Promise<GoogleCalendarStatus> {
      const connection = await deps.connections.get(userId);
      if (!connection) throw new NotFoundError(bookingMessages.googleNotConnected);
      let calendars: GoogleCalendarEntry[];
      try {
        calendars = await deps.api.calendarList(await accessToken(connection));
      } catch (error) {
        report('calendarList', error);
        throw new ServiceUnavailableError(bookingMessages.googleFailed);
      }
      const known = new Set(calendars.map((c) => c.id));
      const writable = new Set(calendars.filter((c) => c.accessRole === 'owner' || c.accessRole === 'writer').map((c) => c.id));
      const chosen = [...input.businessCalendarIds, ...input.staff.flatMap((s) => s.googleCalendarIds)];
      if (chosen.some((id) => !known.has(id))) throw new ValidationError(bookingMessages.googleCalendarUnknown);
      if (input.eventsCalendarId !== null && !writable.has(input.eventsCalendarId)) throw new ValidationError(bookingMessages.googleCalendarUnknown, 'eventsCalendarId');
      const staff = await deps.bookings().listStaff(userId);
      const byId = new Map(staff.map((s) => [s._id, s]));
      if (input.staff.some((s) => !byId.has(s.staffId))) throw new NotFoundError(bookingMessages.staffNotFound);
      for (const choice of input.staff) {
        const s = byId.get(choice.staffId)!;
        const ids = [...new Set(choice.googleCalendarIds)];
        if (ids.length === s.googleCalendarIds.length && ids.every((id) => s.googleCalendarIds.includes(id))) continue;
        await deps.bookings().updateStaff(userId, s._id, { name: s.name, kind: s.kind, weeklyHours: s.weeklyHours, closures: s.closures, googleCalendarIds: ids });
      }
      const saved = await deps.connections.saveChoices(userId, {
        businessCalendarIds: [...new Set(input.businessCalendarIds)],
        eventsCalendarId: input.eventsCalendarId,
        updatedAt: now().toISOString(),
      });
      return view(userId, saved);
    },

    /** DELETE: forget the connection and revoke the grant at Google (best effort: it is gone here either way). */
    async disconnect(userId: string): Promise<void> {
      const removed = await deps.connections.remove(userId);
      access.forget(userId);
      if (!removed) return;
      try {
        const oauth = await deps.oauth();
        await oauth?.revoke(await deps.secrets.open(removed.refreshToken));
      } catch (error) {
        report('revoke', error);
      }
    },
  };
}

export type GoogleCalendar = ReturnType<typeof createGoogleCalendar>;
