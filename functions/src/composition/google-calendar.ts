/**
 * Wires the Google Calendar connection (issue 30): the connection in DynamoDB, the refresh token
 * sealed by the secret box (KMS in AWS), Google's OAuth and Calendar API over fetch (the local
 * fake on loopback when the GOOGLE_* URLs point there), the OAuth client from Secrets Manager.
 * `googleBusyTimes()` is the bookings core's ExternalBusyTimes; `googleCalendarListener()` runs in
 * the booking-events worker.
 */
import { randomBytes } from 'node:crypto';
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { SecretsManagerReader, secretsManagerService } from '../adapters/aws/secrets-manager.js';
import { DynamoGoogleConnectionRepository } from '../adapters/dynamo/google-calendar.js';
import { googleCalendarApi, googleOAuth } from '../adapters/google-calendar/api.js';
import { cachedGoogleClient } from '../adapters/google-calendar/client-secret.js';
import { logger } from '../adapters/logger.js';
import { createGoogleAccess, createGoogleBusyTimes } from '../domain/bookings/google-busy.js';
import { createBookingEventDeleter, createGoogleCalendar, GoogleApiError, type GoogleCalendar } from '../domain/bookings/google-calendar.js';
import type { BookingChangeListener, ExternalBusyTimes } from '../domain/bookings/ports.js';
import { once } from '../lib/once.js';
import { agentBookings } from './agent-bookings.js';
import { secretBox } from './secrets.js';

export const GOOGLE_CALENDAR_CALLBACK_PATH = '/api/integrations/google-calendar/callback';

const googleClient = once(() => {
  const c = config();
  return cachedGoogleClient({
    secretId: c.GOOGLE_CALENDAR_SECRET_ID,
    reader: () => new SecretsManagerReader(secretsManagerService()),
    env: { clientId: c.GOOGLE_CALENDAR_CLIENT_ID, clientSecret: c.GOOGLE_CALENDAR_CLIENT_SECRET },
  });
});

const endpoints = () => {
  const c = config();
  return {
    authorizeUrl: c.GOOGLE_OAUTH_AUTHORIZE_URL,
    tokenUrl: c.GOOGLE_OAUTH_TOKEN_URL,
    revokeUrl: c.GOOGLE_OAUTH_REVOKE_URL,
    calendarApiUrl: c.GOOGLE_CALENDAR_API_URL,
  };
};

const connections = once(() => new DynamoGoogleConnectionRepository(documentClient(), config().TABLE_NAME));
const calendarApi = once(() => googleCalendarApi(endpoints()));

const oauth = async () => {
  const c = config();
  const client = await googleClient()();
  const redirectUri = c.GOOGLE_CALENDAR_REDIRECT_URI ?? `${c.APP_URL.replace(/\/+$/, '')}${GOOGLE_CALENDAR_CALLBACK_PATH}`;
  return client ? googleOAuth(endpoints(), { ...client, redirectUri }) : null;
};

/** The accounts' access tokens, one cache for free/busy and the rest of the integration. */
const googleAccess = once(() => createGoogleAccess({ oauth, secrets: secretBox() }));

const onError = (what: string, error: unknown) =>
  logger.warn('Google Calendar call failed', {
    what,
    ...(error instanceof GoogleApiError ? { status: error.status, reason: error.reason } : {}),
    detail: (error as Error)?.message,
  });

// PURE: a bundle that only finds slots (googleBusyTimes) leaves the whole integration out.
export const googleCalendar = /* @__PURE__ */ once((): GoogleCalendar => {
  const c = config();
  return createGoogleCalendar({
    connections: connections(),
    oauth,
    access: googleAccess(),
    api: calendarApi(),
    secrets: secretBox(),
    // Staff and bookings, never a customer: the core without contacts does (agent-bookings.ts, lighter bundles).
    bookings: () => agentBookings(),
    appUrl: c.APP_URL,
    newState: () => randomBytes(32).toString('base64url'),
    onError,
  });
});

/**
 * The bookings core's ExternalBusyTimes (composition/agent-bookings.ts): free/busy alone, not
 * through googleCalendar(), so the call, chat and WhatsApp bundles leave the rest of the integration out.
 */
export const googleBusyTimes = once((): ExternalBusyTimes => createGoogleBusyTimes({ connections: connections(), access: googleAccess(), api: calendarApi(), onError }));
/** The booking-events worker's listener (composition/booking-events.ts). */
export const googleCalendarListener = (): BookingChangeListener => googleCalendar().listener;
/** Issue 33: a booking's Google event deleted (a person's erasure), without the rest of the integration (bundle size). */
export const googleBookingEventDeleter = /* @__PURE__ */ once(() => createBookingEventDeleter({ connections: connections(), access: googleAccess(), api: calendarApi(), onError }));
