/**
 * The Google adapter (adapters/google-calendar/api.ts) against the fake Google on loopback
 * (local/fake-google-calendar/server.ts), both real: the OAuth web-server flow (consent, code
 * exchange once, refresh, revoke), Google's error shapes as the adapter reads them (invalid_grant,
 * 401 authError, 403 insufficientPermissions, 409 duplicate, 404, 410 deleted), free/busy merged
 * and clipped with transparent and deleted events left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleCalendarApi, googleOAuth, type GoogleEndpoints } from '../../../src/adapters/google-calendar/api.js';
import { GOOGLE_CALENDAR_SCOPES } from '../../../src/contract/google-calendar.js';
import { GoogleApiError, bookingEventId, type GoogleEventBody } from '../../../src/domain/bookings/google-calendar.js';
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from '../../../local/fake-google-calendar/server.js';

let fake: FakeGoogleCalendar;
let endpoints: GoogleEndpoints;
const REDIRECT = 'http://127.0.0.1:9/api/integrations/google-calendar/callback';

beforeAll(async () => {
  fake = await startFakeGoogleCalendar();
  endpoints = {
    authorizeUrl: fake.env.GOOGLE_OAUTH_AUTHORIZE_URL!,
    tokenUrl: fake.env.GOOGLE_OAUTH_TOKEN_URL!,
    revokeUrl: fake.env.GOOGLE_OAUTH_REVOKE_URL!,
    calendarApiUrl: fake.env.GOOGLE_CALENDAR_API_URL!,
  };
});
afterAll(() => fake.stop());

const control = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${fake.url}${path}`, { method, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) });
  return res.json() as Promise<Record<string, unknown>>;
};

async function consent(oauth: ReturnType<typeof googleOAuth>, email: string, scopes?: string[]) {
  await control('POST', '/_test/accounts', { email, calendars: [{ id: `team-${email}`, summary: 'Equipo' }, { id: `holidays-${email}`, summary: 'Festivos', accessRole: 'reader' }] });
  if (scopes) await control('POST', '/_test/consent', { answer: 'allow', scopes });
  const res = await fetch(oauth.authorizeUrl('state-1'), { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state') };
}

const event = (start: string, end: string): GoogleEventBody => ({
  summary: 'Ana · Revisión · Dra. García',
  description: '',
  start: { dateTime: start, timeZone: 'Europe/Madrid' },
  end: { dateTime: end, timeZone: 'Europe/Madrid' },
  transparency: 'transparent',
  status: 'confirmed',
  extendedProperties: { private: { agentdeskBookingId: 'b1' } },
});

async function failure(promise: Promise<unknown>): Promise<GoogleApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GoogleApiError);
  return error as GoogleApiError;
}

describe('Google OAuth and Calendar API v3: the adapter against the fake', () => {
  it('runs the web-server flow: consent, one exchange per code, refresh, revoke', async () => {
    const oauth = googleOAuth(endpoints, { clientId: fake.clientId, clientSecret: fake.clientSecret, redirectUri: REDIRECT });
    const url = new URL(oauth.authorizeUrl('s'));
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ response_type: 'code', access_type: 'offline', prompt: 'consent', redirect_uri: REDIRECT, scope: GOOGLE_CALENDAR_SCOPES.join(' ') });
    const { code, state } = await consent(oauth, 'flow@gmail.test');
    expect(state).toBe('state-1');
    const tokens = await oauth.exchangeCode(code);
    expect(tokens.refreshToken).toMatch(/^1\/\//);
    expect(tokens.scope.split(' ').sort()).toEqual([...GOOGLE_CALENDAR_SCOPES].sort());
    expect((await failure(oauth.exchangeCode(code))).reason).toBe('invalid_grant');
    const refreshed = await oauth.refresh(tokens.refreshToken!);
    expect(refreshed.refreshToken).toBeNull();
    const api = googleCalendarApi(endpoints);
    expect((await api.calendarList(refreshed.accessToken)).find((c) => c.primary)?.id).toBe('flow@gmail.test');
    await oauth.revoke(tokens.refreshToken!);
    expect((await failure(oauth.refresh(tokens.refreshToken!))).reason).toBe('invalid_grant');
    expect((await failure(api.calendarList(refreshed.accessToken))).status).toBe(401);
    const wrongSecret = googleOAuth(endpoints, { clientId: fake.clientId, clientSecret: 'nope', redirectUri: REDIRECT });
    expect((await failure(wrongSecret.refresh('1//x'))).reason).toBe('invalid_client');
  });

  it('writes events with our id (409 duplicate, 404, 410 once deleted, a patch brings one back) and merges busy time', async () => {
    const oauth = googleOAuth(endpoints, { clientId: fake.clientId, clientSecret: fake.clientSecret, redirectUri: REDIRECT });
    const email = 'events@gmail.test';
    const { accessToken } = await oauth.exchangeCode((await consent(oauth, email)).code);
    const api = googleCalendarApi(endpoints);
    const id = bookingEventId('user-1', 'booking-1');
    expect(id).toMatch(/^[a-v0-9]{5,1024}$/);
    await api.insertEvent(accessToken, email, id, event('2026-12-01T09:00:00Z', '2026-12-01T09:30:00Z'));
    expect((await failure(api.insertEvent(accessToken, email, id, event('2026-12-01T09:00:00Z', '2026-12-01T09:30:00Z')))).status).toBe(409);
    expect((await failure(api.patchEvent(accessToken, email, 'nosuchevent', event('2026-12-01T09:00:00Z', '2026-12-01T09:30:00Z')))).status).toBe(404);
    expect((await failure(api.insertEvent(accessToken, `holidays-${email}`, 'abcdefg', event('2026-12-01T09:00:00Z', '2026-12-01T09:30:00Z')))).reason).toBe('requiredAccessLevel');
    await api.deleteEvent(accessToken, email, id);
    expect((await failure(api.deleteEvent(accessToken, email, id))).status).toBe(410);
    await api.patchEvent(accessToken, email, id, event('2026-12-01T10:00:00Z', '2026-12-01T10:30:00Z'));
    const events = (await control('GET', `/_test/events?calendarId=${email}`)).events as { id: string; status: string }[];
    expect(events.find((e) => e.id === id)?.status).toBe('confirmed');

    // Busy: two overlapping opaque events merge; the transparent booking and a deleted one do not count; clipped to the window.
    await control('POST', '/_test/busy', { calendarId: `team-${email}`, start: '2026-12-01T08:00:00Z', end: '2026-12-01T09:00:00Z' });
    await control('POST', '/_test/busy', { calendarId: `team-${email}`, start: '2026-12-01T08:30:00Z', end: '2026-12-01T11:00:00Z' });
    const busy = await api.freeBusy(accessToken, [email, `team-${email}`, 'unknown@gmail.test'], new Date('2026-12-01T08:15:00Z'), new Date('2026-12-01T12:00:00Z'));
    expect(busy.get(email)).toEqual([]);
    expect(busy.get(`team-${email}`)).toEqual([{ start: Date.parse('2026-12-01T08:15:00Z'), end: Date.parse('2026-12-01T11:00:00Z') }]);
    expect(busy.get('unknown@gmail.test')).toEqual([]);
    expect((await failure(api.freeBusy(accessToken, [email], new Date('2026-12-01T12:00:00Z'), new Date('2026-12-01T12:00:00Z')))).reason).toBe('timeRangeEmpty');
  });

  it('refuses a call the granted scopes do not cover (403 insufficientPermissions)', async () => {
    const oauth = googleOAuth(endpoints, { clientId: fake.clientId, clientSecret: fake.clientSecret, redirectUri: REDIRECT });
    const { code } = await consent(oauth, 'partial@gmail.test', ['https://www.googleapis.com/auth/calendar.freebusy']);
    const tokens = await oauth.exchangeCode(code);
    const api = googleCalendarApi(endpoints);
    const error = await failure(api.calendarList(tokens.accessToken));
    expect([error.status, error.reason]).toEqual([403, 'insufficientPermissions']);
    expect((await api.freeBusy(tokens.accessToken, ['partial@gmail.test'], new Date('2026-12-01T08:00:00Z'), new Date('2026-12-01T09:00:00Z'))).get('partial@gmail.test')).toEqual([]);
  });
});
