/**
 * A fake Google (OAuth 2.0 + Calendar API v3) on loopback (issue 30), so the whole Google Calendar
 * connection runs offline: the handlers' GOOGLE_OAUTH_* and GOOGLE_CALENDAR_API_URL point here.
 * It speaks Google's real paths, fields and error shapes:
 *
 *   GET    /o/oauth2/v2/auth          the consent page, which consents at once: 302 to redirect_uri
 *                                     ?code&state&scope (or ?error=access_denied&state when told to
 *                                     deny); an unknown client_id answers 401 "invalid_client"
 *   POST   /token                     form grant_type=authorization_code (code single use, 10 min,
 *                                     redirect_uri must match) | refresh_token → {access_token,
 *                                     expires_in, refresh_token?, scope, token_type}; errors
 *                                     {error: invalid_grant | invalid_client | invalid_request |
 *                                     unsupported_grant_type, error_description}
 *   POST   /revoke                    form token (access or refresh): 200 {}; unknown 400 invalid_token
 *   GET    /calendar/v3/users/me/calendarList
 *   POST   /calendar/v3/freeBusy      {timeMin, timeMax, items: [{id}]} → {kind, timeMin, timeMax,
 *                                     calendars: {id: {busy: [{start, end}]} | {errors: [{domain, reason: notFound}], busy: []}}}
 *   GET    /calendar/v3/calendars/{calendarId}/events[?timeMin&timeMax&showDeleted]
 *   POST   /calendar/v3/calendars/{calendarId}/events   (id optional, base32hex 5-1024; 409 duplicate)
 *   GET/PATCH/DELETE /calendar/v3/calendars/{calendarId}/events/{eventId}  (404 notFound; DELETE of a
 *                                     deleted event 410 deleted; PATCH brings a deleted one back)
 *   API errors: {error: {code, message, errors: [{domain, reason, message}], status}}; 401 without a
 *   valid Bearer token, 403 insufficientPermissions when the token's scopes do not cover the call.
 *
 * Control API for tests (and a person trying it with `npm start`):
 *   POST /_test/accounts {email, calendars?: [{id, summary, accessRole?}]}  the account the next
 *        consent signs in as (a primary calendar named after the e-mail is always there)
 *   POST /_test/consent {answer: 'allow' | 'deny', scopes?: string[]}   the next consent's answer
 *   POST /_test/busy {calendarId, start, end, summary?}  an opaque event (busy time) → {id}
 *   GET  /_test/events?calendarId=                        every event, deleted ones too
 *   GET  /_test/requests                                   the API calls made ({method, path, at})
 *   POST /_test/reset
 *   /_test/faults                                          failure switches (../faults.ts), Google's error body
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeOnce, createWaits, listen, readBody, readJsonObject, sendJson } from '../fake-http.js';
import { fakeFaults, type FaultAnswer, type ProviderError } from '../faults.js';

export const FAKE_GOOGLE_CALENDAR_CLIENT_ID = 'agentdesk-local.apps.googleusercontent.com';
export const FAKE_GOOGLE_CALENDAR_CLIENT_SECRET = 'GOCSPX-agentdesk-local';
export const DEFAULT_GOOGLE_ACCOUNT = 'agenda@agentdesk.local';

const MAX_BODY = 1_000_000;
const CODE_TTL_MS = 10 * 60_000;
const ACCESS_TTL_S = 3599;
const EVENT_ID = /^[a-v0-9]{5,1024}$/;

export interface FakeGoogleEvent {
  id: string;
  calendarId: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  summary: string;
  description: string;
  start: { dateTime?: string; date?: string; timeZone?: string };
  end: { dateTime?: string; date?: string; timeZone?: string };
  transparency: 'opaque' | 'transparent';
  extendedProperties?: unknown;
  created: string;
  updated: string;
  sequence: number;
}

interface FakeCalendar {
  id: string;
  summary: string;
  primary: boolean;
  accessRole: string;
  timeZone: string;
  events: Map<string, FakeGoogleEvent>;
}

interface FakeAccount {
  email: string;
  calendars: Map<string, FakeCalendar>;
}

interface Grant {
  email: string;
  scope: string;
  clientId: string;
}

export interface FakeGoogleCalendarOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface FakeGoogleCalendar {
  url: string;
  port: number;
  clientId: string;
  clientSecret: string;
  /** The handler environment that points the app at this fake. */
  env: Record<string, string>;
  close(): Promise<void>;
  stop(): Promise<void>;
}

class GoogleError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly domain = 'global',
  ) {
    super(message);
  }
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  410: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function apiErrorBody(status: number, reason: string, message: string, domain = 'global') {
  return { error: { code: status, message, errors: [{ domain, reason, message }], status: STATUS_NAMES[status] ?? 'UNKNOWN' } };
}

/** A fault's answer in Google's API error shape (code = the reason, e.g. 'rateLimitExceeded'). */
function googleFaultError(spec: FaultAnswer): ProviderError {
  const status = spec.status ?? 503;
  return { status, body: apiErrorBody(status, typeof spec.code === 'string' ? spec.code : 'backendError', spec.message ?? 'Backend Error') };
}

const token = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;
const scopeCovers = (scope: string, accepted: string[]) => scope.split(' ').some((s) => accepted.some((a) => s === `https://www.googleapis.com/auth/${a}`));
const LIST_SCOPES = ['calendar', 'calendar.readonly', 'calendar.calendarlist.readonly', 'calendar.calendarlist'];
const FREEBUSY_SCOPES = ['calendar', 'calendar.readonly', 'calendar.freebusy', 'calendar.events.freebusy', 'calendar.events', 'calendar.events.readonly'];
const WRITE_SCOPES = ['calendar', 'calendar.events', 'calendar.events.owned'];
const READ_EVENT_SCOPES = [...WRITE_SCOPES, 'calendar.readonly', 'calendar.events.readonly'];

export async function startFakeGoogleCalendar(options: FakeGoogleCalendarOptions = {}): Promise<FakeGoogleCalendar> {
  const host = options.host ?? '127.0.0.1';
  const clientId = options.clientId ?? FAKE_GOOGLE_CALENDAR_CLIENT_ID;
  const clientSecret = options.clientSecret ?? FAKE_GOOGLE_CALENDAR_CLIENT_SECRET;
  const accounts = new Map<string, FakeAccount>();
  const codes = new Map<string, Grant & { redirectUri: string; expiresAt: number }>();
  const refreshTokens = new Map<string, Grant>();
  const accessTokens = new Map<string, Grant & { expiresAt: number; refreshToken: string | null }>();
  const requests: { method: string; path: string; at: string }[] = [];
  let nextAccount = DEFAULT_GOOGLE_ACCOUNT;
  let nextConsent: { answer: 'allow' | 'deny'; scopes?: string[] } | null = null;
  const waits = createWaits();
  const faults = fakeFaults({ errorFor: googleFaultError });
  let baseUrl = '';

  function account(email: string, calendars: { id: string; summary?: string; accessRole?: string }[] = []): FakeAccount {
    let found = accounts.get(email);
    if (!found) {
      found = { email, calendars: new Map() };
      found.calendars.set(email, { id: email, summary: email, primary: true, accessRole: 'owner', timeZone: 'Europe/Madrid', events: new Map() });
      accounts.set(email, found);
    }
    for (const c of calendars) {
      if (!found.calendars.has(c.id)) found.calendars.set(c.id, { id: c.id, summary: c.summary ?? c.id, primary: false, accessRole: c.accessRole ?? 'owner', timeZone: 'Europe/Madrid', events: new Map() });
    }
    return found;
  }
  account(DEFAULT_GOOGLE_ACCOUNT);

  /** The calendar across accounts (tests add busy time by calendar id). */
  function calendarById(id: string): FakeCalendar | undefined {
    for (const a of accounts.values()) {
      const c = a.calendars.get(id);
      if (c) return c;
    }
    return undefined;
  }

  const oauthError = (res: ServerResponse, status: number, error: string, description: string) => sendJson(res, status, { error, error_description: description });

  async function form(req: IncomingMessage): Promise<URLSearchParams> {
    return new URLSearchParams(await readBody(req, MAX_BODY, () => new GoogleError(413, 'tooLarge', 'Request too large')));
  }

  function authorize(res: ServerResponse, url: URL): void {
    const q = url.searchParams;
    if (q.get('client_id') !== clientId) {
      res.writeHead(401, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Error 401: invalid_client</h1><p>The OAuth client was not found.</p>');
      return;
    }
    const redirectUri = q.get('redirect_uri') ?? '';
    let target: URL;
    try {
      target = new URL(redirectUri);
    } catch {
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Error 400: redirect_uri_mismatch</h1>');
      return;
    }
    if (q.get('response_type') !== 'code' || !q.get('scope')) {
      target.searchParams.set('error', q.get('response_type') !== 'code' ? 'unsupported_response_type' : 'invalid_scope');
      if (q.get('state')) target.searchParams.set('state', q.get('state')!);
      res.writeHead(302, { location: target.toString() }).end();
      return;
    }
    const consent = nextConsent ?? { answer: 'allow' as const };
    nextConsent = null;
    const state = q.get('state');
    if (consent.answer === 'deny') {
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = token('4/0A');
      // Google lets a user untick scopes on the consent screen: `scopes` plays that.
      const scope = consent.scopes ? consent.scopes.join(' ') : (q.get('scope') ?? '');
      codes.set(code, { email: nextAccount, scope, clientId, redirectUri, expiresAt: Date.now() + CODE_TTL_MS });
      account(nextAccount);
      target.searchParams.set('code', code);
      target.searchParams.set('scope', scope);
    }
    if (state) target.searchParams.set('state', state);
    res.writeHead(302, { location: target.toString() }).end();
  }

  async function tokenEndpoint(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const f = await form(req);
    if (f.get('client_id') !== clientId || f.get('client_secret') !== clientSecret) return oauthError(res, 401, 'invalid_client', 'Unauthorized');
    const issue = (grant: Grant, refreshToken: string | null, withRefresh: boolean) => {
      const access = token('ya29.');
      accessTokens.set(access, { ...grant, expiresAt: Date.now() + ACCESS_TTL_S * 1000, refreshToken });
      sendJson(res, 200, {
        access_token: access,
        expires_in: ACCESS_TTL_S,
        ...(withRefresh && refreshToken ? { refresh_token: refreshToken } : {}),
        scope: grant.scope,
        token_type: 'Bearer',
      });
    };
    switch (f.get('grant_type')) {
      case 'authorization_code': {
        const code = f.get('code') ?? '';
        const found = codes.get(code);
        codes.delete(code);
        if (!found || found.expiresAt < Date.now()) return oauthError(res, 400, 'invalid_grant', 'Bad Request');
        if (found.redirectUri !== f.get('redirect_uri')) return oauthError(res, 400, 'redirect_uri_mismatch', 'Bad Request');
        const refresh = token('1//0');
        refreshTokens.set(refresh, { email: found.email, scope: found.scope, clientId });
        return issue(found, refresh, true);
      }
      case 'refresh_token': {
        const refresh = f.get('refresh_token') ?? '';
        const grant = refreshTokens.get(refresh);
        if (!grant) return oauthError(res, 400, 'invalid_grant', 'Token has been expired or revoked.');
        return issue(grant, refresh, false);
      }
      case null:
        return oauthError(res, 400, 'invalid_request', "Missing required parameter: grant_type");
      default:
        return oauthError(res, 400, 'unsupported_grant_type', `Invalid grant_type: ${f.get('grant_type')}`);
    }
  }

  async function revoke(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const f = await form(req);
    const value = f.get('token') ?? url.searchParams.get('token') ?? '';
    if (refreshTokens.delete(value)) {
      // Revoking a refresh token revokes the access tokens made from it too.
      for (const [access, grant] of accessTokens) if (grant.refreshToken === value) accessTokens.delete(access);
      return sendJson(res, 200, {});
    }
    if (accessTokens.delete(value)) return sendJson(res, 200, {});
    return oauthError(res, 400, 'invalid_token', 'Token expired or revoked');
  }

  function bearer(req: IncomingMessage, accepted: string[]): FakeAccount {
    const header = req.headers.authorization ?? '';
    const grant = header.startsWith('Bearer ') ? accessTokens.get(header.slice(7)) : undefined;
    if (!grant || grant.expiresAt < Date.now()) {
      throw new GoogleError(401, 'authError', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    }
    if (!scopeCovers(grant.scope, accepted)) throw new GoogleError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.');
    return account(grant.email);
  }

  const ownCalendar = (a: FakeAccount, id: string) => {
    const found = a.calendars.get(id === 'primary' ? a.email : id);
    if (!found) throw new GoogleError(404, 'notFound', 'Not Found');
    return found;
  };

  const instant = (t: { dateTime?: string; date?: string }) => Date.parse(t.dateTime ?? (t.date ? `${t.date}T00:00:00Z` : ''));

  function eventView(e: FakeGoogleEvent) {
    return {
      kind: 'calendar#event',
      etag: `"${Date.parse(e.updated)}"`,
      id: e.id,
      status: e.status,
      htmlLink: `${baseUrl}/calendar/event?eid=${e.id}`,
      created: e.created,
      updated: e.updated,
      summary: e.summary,
      description: e.description,
      start: e.start,
      end: e.end,
      transparency: e.transparency,
      iCalUID: `${e.id}@google.com`,
      sequence: e.sequence,
      ...(e.extendedProperties ? { extendedProperties: e.extendedProperties } : {}),
    };
  }

  function checkTimes(body: Record<string, unknown>, partial: boolean): void {
    for (const field of ['start', 'end'] as const) {
      const value = body[field] as { dateTime?: string; date?: string } | undefined;
      if (value === undefined && partial) continue;
      if (!value || typeof value !== 'object' || !Number.isFinite(instant(value))) throw new GoogleError(400, 'required', 'Missing end time.');
    }
  }

  async function api(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    const path = url.pathname.slice('/calendar/v3'.length);
    requests.push({ method, path, at: new Date().toISOString() });
    if (method === 'GET' && path === '/users/me/calendarList') {
      const a = bearer(req, LIST_SCOPES);
      return sendJson(res, 200, {
        kind: 'calendar#calendarList',
        etag: `"${Date.now()}"`,
        nextSyncToken: token('sync'),
        items: [...a.calendars.values()].map((c) => ({
          kind: 'calendar#calendarListEntry',
          etag: `"${c.id.length}"`,
          id: c.id,
          summary: c.summary,
          timeZone: c.timeZone,
          accessRole: c.accessRole,
          backgroundColor: '#9fe1e7',
          foregroundColor: '#000000',
          selected: true,
          ...(c.primary ? { primary: true } : {}),
        })),
      });
    }
    if (method === 'POST' && path === '/freeBusy') {
      bearer(req, FREEBUSY_SCOPES);
      const body = await readJsonObject(req, MAX_BODY, { tooLarge: () => new GoogleError(413, 'tooLarge', 'Request too large'), invalid: () => new GoogleError(400, 'parseError', 'Parse Error') });
      const from = Date.parse(String(body.timeMin ?? ''));
      const to = Date.parse(String(body.timeMax ?? ''));
      if (!Number.isFinite(from)) throw new GoogleError(400, 'required', 'Missing timeMin parameter.');
      if (!Number.isFinite(to)) throw new GoogleError(400, 'required', 'Missing timeMax parameter.');
      if (to <= from) throw new GoogleError(400, 'timeRangeEmpty', 'The specified time range is empty.', 'calendar');
      const items = Array.isArray(body.items) ? (body.items as { id?: unknown }[]) : [];
      if (items.length > 50) throw new GoogleError(400, 'tooManyCalendarsRequested', 'Too many calendars requested.', 'calendar');
      const calendars: Record<string, unknown> = {};
      for (const item of items) {
        const id = String(item.id ?? '');
        const c = calendarById(id);
        if (!c) {
          calendars[id] = { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] };
          continue;
        }
        const intervals = [...c.events.values()]
          .filter((e) => e.status !== 'cancelled' && e.transparency !== 'transparent')
          .map((e) => ({ start: Math.max(instant(e.start), from), end: Math.min(instant(e.end), to) }))
          .filter((i) => i.end > i.start)
          .sort((a, b) => a.start - b.start);
        const merged: { start: number; end: number }[] = [];
        for (const i of intervals) {
          const last = merged.at(-1);
          if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
          else merged.push({ ...i });
        }
        calendars[id] = { busy: merged.map((i) => ({ start: new Date(i.start).toISOString().replace('.000Z', 'Z'), end: new Date(i.end).toISOString().replace('.000Z', 'Z') })) };
      }
      return sendJson(res, 200, { kind: 'calendar#freeBusy', timeMin: new Date(from).toISOString(), timeMax: new Date(to).toISOString(), calendars });
    }
    const match = /^\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(path);
    if (!match) throw new GoogleError(404, 'notFound', 'Not Found');
    const calendarId = decodeURIComponent(match[1]!);
    const eventId = match[2] ? decodeURIComponent(match[2]) : undefined;
    const writing = method !== 'GET';
    const a = bearer(req, writing ? WRITE_SCOPES : READ_EVENT_SCOPES);
    const calendar = ownCalendar(a, calendarId);
    if (writing && calendar.accessRole !== 'owner' && calendar.accessRole !== 'writer') {
      throw new GoogleError(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.');
    }
    const readBodyObject = () => readJsonObject(req, MAX_BODY, { tooLarge: () => new GoogleError(413, 'tooLarge', 'Request too large'), invalid: () => new GoogleError(400, 'parseError', 'Parse Error') });
    const now = () => new Date().toISOString();
    if (!eventId && method === 'GET') {
      const from = Date.parse(url.searchParams.get('timeMin') ?? '');
      const to = Date.parse(url.searchParams.get('timeMax') ?? '');
      const showDeleted = url.searchParams.get('showDeleted') === 'true';
      const items = [...calendar.events.values()]
        .filter((e) => showDeleted || e.status !== 'cancelled')
        .filter((e) => !Number.isFinite(from) || instant(e.end) > from)
        .filter((e) => !Number.isFinite(to) || instant(e.start) < to)
        .map(eventView);
      return sendJson(res, 200, { kind: 'calendar#events', summary: calendar.summary, timeZone: calendar.timeZone, items });
    }
    if (!eventId && method === 'POST') {
      const body = await readBodyObject();
      checkTimes(body, false);
      const id = body.id === undefined ? randomBytes(13).toString('hex') : String(body.id);
      if (!EVENT_ID.test(id)) throw new GoogleError(400, 'invalid', 'Invalid resource id value.');
      if (calendar.events.has(id)) throw new GoogleError(409, 'duplicate', 'The requested identifier already exists.');
      const at = now();
      const event: FakeGoogleEvent = {
        id,
        calendarId: calendar.id,
        status: 'confirmed',
        summary: typeof body.summary === 'string' ? body.summary : '',
        description: typeof body.description === 'string' ? body.description : '',
        start: body.start as FakeGoogleEvent['start'],
        end: body.end as FakeGoogleEvent['end'],
        transparency: body.transparency === 'transparent' ? 'transparent' : 'opaque',
        extendedProperties: body.extendedProperties,
        created: at,
        updated: at,
        sequence: 0,
      };
      calendar.events.set(id, event);
      return sendJson(res, 200, eventView(event));
    }
    const event = eventId ? calendar.events.get(eventId) : undefined;
    if (!event) throw new GoogleError(404, 'notFound', 'Not Found');
    if (method === 'GET') return sendJson(res, 200, eventView(event));
    if (method === 'PATCH' || method === 'PUT') {
      const body = await readBodyObject();
      checkTimes(body, method === 'PATCH');
      if (typeof body.summary === 'string') event.summary = body.summary;
      if (typeof body.description === 'string') event.description = body.description;
      if (body.start) event.start = body.start as FakeGoogleEvent['start'];
      if (body.end) event.end = body.end as FakeGoogleEvent['end'];
      if (body.transparency === 'transparent' || body.transparency === 'opaque') event.transparency = body.transparency;
      if (body.extendedProperties !== undefined) event.extendedProperties = body.extendedProperties;
      // Google brings a deleted event back when it is patched (status confirmed).
      if (body.status === 'confirmed' || body.status === 'tentative' || body.status === 'cancelled') event.status = body.status;
      event.updated = now();
      event.sequence += 1;
      return sendJson(res, 200, eventView(event));
    }
    if (method === 'DELETE') {
      if (event.status === 'cancelled') throw new GoogleError(410, 'deleted', 'Resource has been deleted');
      event.status = 'cancelled';
      event.updated = now();
      res.writeHead(204).end();
      return;
    }
    throw new GoogleError(405, 'httpMethodNotAllowed', 'Method Not Allowed');
  }

  async function control(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    const body = method === 'POST' ? await readJsonObject(req, MAX_BODY, { tooLarge: () => new GoogleError(413, 'tooLarge', 'too large'), invalid: () => new GoogleError(400, 'parseError', 'send a JSON object') }) : {};
    switch (`${method} ${url.pathname}`) {
      case 'POST /_test/accounts': {
        const email = String(body.email ?? '');
        if (!email) throw new GoogleError(400, 'required', 'email is required');
        const a = account(email, Array.isArray(body.calendars) ? (body.calendars as { id: string; summary?: string; accessRole?: string }[]) : []);
        nextAccount = email;
        return sendJson(res, 200, { email, calendars: [...a.calendars.values()].map((c) => ({ id: c.id, summary: c.summary, primary: c.primary, accessRole: c.accessRole })) });
      }
      case 'POST /_test/consent':
        nextConsent = { answer: body.answer === 'deny' ? 'deny' : 'allow', ...(Array.isArray(body.scopes) ? { scopes: body.scopes.map(String) } : {}) };
        return sendJson(res, 200, { ok: true });
      case 'POST /_test/busy': {
        const c = calendarById(String(body.calendarId ?? ''));
        if (!c) throw new GoogleError(404, 'notFound', 'no such calendar');
        const start = String(body.start ?? '');
        const end = String(body.end ?? '');
        if (!Number.isFinite(Date.parse(start)) || !(Date.parse(end) > Date.parse(start))) throw new GoogleError(400, 'invalid', 'start and end: ISO instants, end after start');
        const id = randomBytes(13).toString('hex');
        const at = new Date().toISOString();
        c.events.set(id, { id, calendarId: c.id, status: 'confirmed', summary: String(body.summary ?? 'Busy'), description: '', start: { dateTime: start }, end: { dateTime: end }, transparency: 'opaque', created: at, updated: at, sequence: 0 });
        return sendJson(res, 200, { id });
      }
      case 'GET /_test/events': {
        const c = calendarById(url.searchParams.get('calendarId') ?? '');
        if (!c) throw new GoogleError(404, 'notFound', 'no such calendar');
        return sendJson(res, 200, { events: [...c.events.values()] });
      }
      case 'GET /_test/requests':
        return sendJson(res, 200, { requests });
      case 'POST /_test/reset':
        accounts.clear();
        codes.clear();
        refreshTokens.clear();
        accessTokens.clear();
        requests.length = 0;
        nextAccount = DEFAULT_GOOGLE_ACCOUNT;
        nextConsent = null;
        account(DEFAULT_GOOGLE_ACCOUNT);
        return sendJson(res, 200, { ok: true });
      default:
        throw new GoogleError(404, 'notFound', `Unknown control call ${method} ${url.pathname}`);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    try {
      if (await faults.control(req, res, url.pathname)) return;
      if (url.pathname.startsWith('/_test/')) return await control(req, res, method, url);
      if (url.pathname === '/' && method === 'GET') return sendJson(res, 200, { service: 'fake Google OAuth + Calendar API v3 (AgentDesk local runtime)' });
      if (await faults.intercept(req, res, [url.pathname])) return;
      if (method === 'GET' && url.pathname === '/o/oauth2/v2/auth') return authorize(res, url);
      if (method === 'POST' && url.pathname === '/token') return await tokenEndpoint(req, res);
      if (method === 'POST' && url.pathname === '/revoke') return await revoke(req, res, url);
      if (url.pathname.startsWith('/calendar/v3/')) return await api(req, res, method, url);
      throw new GoogleError(404, 'notFound', 'Not Found');
    } catch (error) {
      if (!(error instanceof GoogleError)) throw error;
      sendJson(res, error.status, apiErrorBody(error.status, error.reason, error.message, error.domain));
    }
  }

  const server: Server = createServer((req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', baseUrl || 'http://fake-google');
    handle(req, res, method, url).catch((error: unknown) => {
      options.log?.('error', `[google] ${(error as Error).message}`);
      sendJson(res, 500, apiErrorBody(500, 'backendError', 'Backend Error'));
    });
  });

  const port = await listen(server, options.port ?? 0, host);
  baseUrl = `http://${host}:${port}`;
  options.log?.('info', `[google] fake Google OAuth + Calendar API at ${baseUrl}`);
  const close = closeOnce(server, { cancel: () => (waits.cancel(), faults.close()) });

  return {
    url: baseUrl,
    port,
    clientId,
    clientSecret,
    env: {
      GOOGLE_CALENDAR_CLIENT_ID: clientId,
      GOOGLE_CALENDAR_CLIENT_SECRET: clientSecret,
      GOOGLE_OAUTH_AUTHORIZE_URL: `${baseUrl}/o/oauth2/v2/auth`,
      GOOGLE_OAUTH_TOKEN_URL: `${baseUrl}/token`,
      GOOGLE_OAUTH_REVOKE_URL: `${baseUrl}/revoke`,
      GOOGLE_CALENDAR_API_URL: `${baseUrl}/calendar/v3`,
    },
    close,
    stop: close,
  };
}
