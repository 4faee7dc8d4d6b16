/**
 * Google Calendar free/busy as the bookings core's ExternalBusyTimes, apart from the rest of the
 * Google Calendar integration (google-calendar.ts: connect, settings, the events listener) so
 * the first-contact functions that find slots (calls, chat, WhatsApp) carry only this part.
 */
import { bookingMessages, type BookingStaff } from '../../contract/bookings.js';
import { ServiceUnavailableError } from '../errors.js';
import type { SecretBox } from '../secrets/ports.js';
import type { GoogleCalendarApi, GoogleConnection, GoogleConnectionRepository, GoogleOAuth } from './google-calendar.js';
import type { BusyInterval, ExternalBusyTimes } from './ports.js';

/** freeBusy takes at most 50 calendars a call. */
const FREEBUSY_BATCH = 50;
const BUSY_CACHE_ENTRIES = 200;

export interface GoogleAccessDeps {
  /** null: no OAuth client configured on this server (connecting answers 503). */
  oauth: () => Promise<GoogleOAuth | null>;
  secrets: SecretBox;
  now?: () => Date;
}

export interface GoogleAccess {
  /** The OAuth client, or a 503 when none is configured. */
  requireOAuth(): Promise<GoogleOAuth>;
  /** A valid access token of the connection (refreshed when about to expire). */
  accessToken(connection: GoogleConnection): Promise<string>;
  /** Keeps the access token a connect just received (its sealed refresh token as the key's version). */
  remember(userId: string, refreshToken: string, tokens: { accessToken: string; expiresIn: number }): void;
  /** Drops the account's token (disconnected). */
  forget(userId: string): void;
}

export function createGoogleAccess(deps: GoogleAccessDeps): GoogleAccess {
  const now = deps.now ?? (() => new Date());
  /** Access tokens per account, kept while the container is warm (a refresh per hour, not per call). */
  const accessTokens = new Map<string, { token: string; refreshToken: string; expiresAt: number }>();

  async function requireOAuth(): Promise<GoogleOAuth> {
    const oauth = await deps.oauth();
    if (!oauth) throw new ServiceUnavailableError(bookingMessages.googleNotConfigured);
    return oauth;
  }

  const remember = (userId: string, refreshToken: string, tokens: { accessToken: string; expiresIn: number }) => {
    accessTokens.set(userId, { token: tokens.accessToken, refreshToken, expiresAt: now().getTime() + tokens.expiresIn * 1000 });
  };

  return {
    requireOAuth,
    remember,
    forget: (userId) => void accessTokens.delete(userId),
    async accessToken(connection) {
      const cached = accessTokens.get(connection.userId);
      if (cached && cached.refreshToken === connection.refreshToken && cached.expiresAt > now().getTime() + 60_000) return cached.token;
      const oauth = await requireOAuth();
      const tokens = await oauth.refresh(await deps.secrets.open(connection.refreshToken));
      remember(connection.userId, connection.refreshToken, tokens);
      return tokens.accessToken;
    },
  };
}

export interface GoogleBusyDeps {
  connections: Pick<GoogleConnectionRepository, 'get'>;
  access: GoogleAccess;
  api: Pick<GoogleCalendarApi, 'freeBusy'>;
  /** A Google call that failed where the owner is not waiting. */
  onError?: (what: string, error: unknown) => void;
  now?: () => Date;
  /** How long free/busy answers are reused (ms). */
  busyCacheMs?: number;
}

export function createGoogleBusyTimes(deps: GoogleBusyDeps): ExternalBusyTimes {
  const now = deps.now ?? (() => new Date());
  const busyCacheMs = deps.busyCacheMs ?? 60_000;
  const busyCache = new Map<string, { at: number; busy: Map<string, BusyInterval[]> }>();

  async function busyOf(connection: GoogleConnection, ids: string[], from: Date, to: Date): Promise<Map<string, BusyInterval[]>> {
    const key = `${connection.userId}|${connection.updatedAt}|${ids.join(',')}|${from.getTime()}|${to.getTime()}`;
    const hit = busyCache.get(key);
    if (hit && now().getTime() - hit.at < busyCacheMs) return hit.busy;
    const token = await deps.access.accessToken(connection);
    const busy = new Map<string, BusyInterval[]>();
    for (let i = 0; i < ids.length; i += FREEBUSY_BATCH) {
      for (const [id, intervals] of await deps.api.freeBusy(token, ids.slice(i, i + FREEBUSY_BATCH), from, to)) busy.set(id, intervals);
    }
    if (busyCache.size >= BUSY_CACHE_ENTRIES) busyCache.delete(busyCache.keys().next().value as string);
    busyCache.set(key, { at: now().getTime(), busy });
    return busy;
  }

  return {
    async busy(userId: string, staff: readonly BookingStaff[], from: Date, to: Date) {
      const result = new Map<string, BusyInterval[]>();
      try {
        const connection = await deps.connections.get(userId);
        if (!connection) return result;
        const idsOf = (s: BookingStaff) => [...new Set([...connection.businessCalendarIds, ...s.googleCalendarIds])];
        const ids = [...new Set(staff.flatMap(idsOf))].sort();
        if (ids.length === 0) return result;
        const busy = await busyOf(connection, ids, from, to);
        for (const s of staff) {
          const intervals = idsOf(s).flatMap((id) => busy.get(id) ?? []);
          if (intervals.length > 0) result.set(s._id, intervals.sort((a, b) => a.start - b.start));
        }
        return result;
      } catch (error) {
        // Availability goes on without Google's busy times rather than failing find_slots.
        deps.onError?.('freeBusy', error);
        return new Map();
      }
    },
  };
}
