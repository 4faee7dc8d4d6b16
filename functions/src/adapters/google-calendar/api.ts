/**
 * Google's OAuth 2.0 web-server flow and Calendar API v3 over fetch (no SDK: five calls).
 *
 *   GET  {authorize}?client_id&redirect_uri&response_type=code&scope&access_type=offline&prompt=consent&state
 *   POST {token}   form: grant_type=authorization_code (code, redirect_uri) | refresh_token (refresh_token)
 *                  → {access_token, expires_in, refresh_token?, scope, token_type}; errors {error, error_description}
 *   POST {revoke}  form: token
 *   GET  {api}/users/me/calendarList          → {items: [{id, summary, primary?, accessRole}], nextPageToken?}
 *   POST {api}/freeBusy {timeMin, timeMax, items: [{id}]} → {calendars: {id: {busy: [{start, end}], errors?}}}
 *   POST {api}/calendars/{calendarId}/events  (our own id: 409 "duplicate" when it exists)
 *   PATCH / DELETE {api}/calendars/{calendarId}/events/{eventId}  (404 notFound, 410 deleted)
 *   API errors: {error: {code, message, errors: [{domain, reason, message}], status}}
 *
 * The origins come from config (Google's by default; the local fake on loopback otherwise).
 * Every call has a timeout: a Google that does not answer is a GoogleApiError with status 0.
 */
import type { GoogleCalendarEntry } from '../../contract/google-calendar.js';
import { GOOGLE_CALENDAR_SCOPES } from '../../contract/google-calendar.js';
import type { BusyInterval } from '../../domain/bookings/ports.js';
import { GoogleApiError, type GoogleCalendarApi, type GoogleEventBody, type GoogleOAuth, type GoogleTokens } from '../../domain/bookings/google-calendar.js';

export interface GoogleEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** Calendar API v3 base, e.g. https://www.googleapis.com/calendar/v3 */
  calendarApiUrl: string;
}

export interface GoogleClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

const TIMEOUT_MS = 5000;
const MAX_CALENDAR_PAGES = 10;

async function call(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new GoogleApiError(0, 'unreachable', `Google did not answer: ${(error as Error).name}`);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

/** OAuth errors are {error, error_description}; API errors {error: {code, message, errors: [{reason}]}}. */
function failure(status: number, body: unknown): GoogleApiError {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') {
    const description = (body as { error_description?: unknown }).error_description;
    return new GoogleApiError(status, error, typeof description === 'string' ? description : error);
  }
  const detail = error as { message?: string; errors?: { reason?: string }[]; status?: string } | undefined;
  return new GoogleApiError(status, detail?.errors?.[0]?.reason ?? detail?.status ?? 'unknown', detail?.message ?? `HTTP ${status}`);
}

async function ok(url: string, init: RequestInit): Promise<unknown> {
  const { status, body } = await call(url, init);
  if (status < 200 || status >= 300) throw failure(status, body);
  return body;
}

function tokensOf(body: unknown): GoogleTokens {
  const b = body as { access_token?: unknown; expires_in?: unknown; refresh_token?: unknown; scope?: unknown };
  if (typeof b?.access_token !== 'string') throw new GoogleApiError(502, 'invalidResponse', 'Google answered without an access token');
  return {
    accessToken: b.access_token,
    expiresIn: typeof b.expires_in === 'number' ? b.expires_in : 3600,
    refreshToken: typeof b.refresh_token === 'string' ? b.refresh_token : null,
    scope: typeof b.scope === 'string' ? b.scope : '',
  };
}

export function googleOAuth(endpoints: GoogleEndpoints, client: GoogleClient): GoogleOAuth {
  const form = (fields: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return {
    authorizeUrl(state) {
      const url = new URL(endpoints.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        response_type: 'code',
        scope: GOOGLE_CALENDAR_SCOPES.join(' '),
        // A refresh token (offline), asked for on every connection so a reconnect gets a new one.
        access_type: 'offline',
        prompt: 'consent',
        include_granted_scopes: 'false',
        state,
      }).toString();
      return url.toString();
    },
    async exchangeCode(code) {
      return tokensOf(
        await ok(endpoints.tokenUrl, form({ grant_type: 'authorization_code', code, client_id: client.clientId, client_secret: client.clientSecret, redirect_uri: client.redirectUri })),
      );
    },
    async refresh(refreshToken) {
      return tokensOf(await ok(endpoints.tokenUrl, form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.clientId, client_secret: client.clientSecret })));
    },
    async revoke(token) {
      await ok(endpoints.revokeUrl, form({ token }));
    },
  };
}

export function googleCalendarApi(endpoints: Pick<GoogleEndpoints, 'calendarApiUrl'>): GoogleCalendarApi {
  const base = endpoints.calendarApiUrl.replace(/\/+$/, '');
  const auth = (token: string, json?: unknown): RequestInit => ({
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const eventUrl = (calendarId: string, eventId?: string) =>
    `${base}/calendars/${encodeURIComponent(calendarId)}/events${eventId ? `/${encodeURIComponent(eventId)}` : ''}?sendUpdates=none`;
  return {
    async calendarList(token) {
      const entries: GoogleCalendarEntry[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < MAX_CALENDAR_PAGES; page++) {
        const url = new URL(`${base}/users/me/calendarList`);
        url.searchParams.set('maxResults', '250');
        if (pageToken) url.searchParams.set('pageToken', pageToken);
        const body = (await ok(url.toString(), { method: 'GET', ...auth(token) })) as { items?: unknown[]; nextPageToken?: string };
        for (const item of body?.items ?? []) {
          const i = item as { id?: unknown; summary?: unknown; summaryOverride?: unknown; primary?: unknown; accessRole?: unknown };
          if (typeof i.id !== 'string') continue;
          const summary = typeof i.summaryOverride === 'string' ? i.summaryOverride : typeof i.summary === 'string' ? i.summary : i.id;
          entries.push({ id: i.id, summary, primary: i.primary === true, accessRole: typeof i.accessRole === 'string' ? i.accessRole : 'reader' });
        }
        pageToken = body?.nextPageToken;
        if (!pageToken) break;
      }
      return entries;
    },
    async freeBusy(token, calendarIds, from, to) {
      const body = (await ok(`${base}/freeBusy`, {
        method: 'POST',
        ...auth(token, { timeMin: from.toISOString(), timeMax: to.toISOString(), items: calendarIds.map((id) => ({ id })) }),
      })) as { calendars?: Record<string, { busy?: { start?: string; end?: string }[]; errors?: unknown[] }> };
      const busy = new Map<string, BusyInterval[]>();
      for (const [id, calendar] of Object.entries(body?.calendars ?? {})) {
        const intervals = (calendar.busy ?? [])
          .map((b) => ({ start: Date.parse(b.start ?? ''), end: Date.parse(b.end ?? '') }))
          .filter((b) => Number.isFinite(b.start) && Number.isFinite(b.end) && b.end > b.start);
        busy.set(id, intervals);
      }
      return busy;
    },
    async insertEvent(token, calendarId, eventId, event: GoogleEventBody) {
      await ok(eventUrl(calendarId), { method: 'POST', ...auth(token, { id: eventId, ...event }) });
    },
    async patchEvent(token, calendarId, eventId, event: GoogleEventBody) {
      await ok(eventUrl(calendarId, eventId), { method: 'PATCH', ...auth(token, event) });
    },
    async deleteEvent(token, calendarId, eventId) {
      await ok(eventUrl(calendarId, eventId), { method: 'DELETE', ...auth(token) });
    },
  };
}
