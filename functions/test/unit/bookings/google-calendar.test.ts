/**
 * The Google Calendar connection's domain (domain/bookings/google-calendar.ts) over the real
 * adapter and the fake Google on loopback, with an in-memory connection store: free/busy per staff
 * member (the business's calendars block everybody), reused for a minute, and an empty answer —
 * never an error — when Google fails; the listener keeps one event per booking whatever the
 * order and the repeats of its changes (created twice, moved before it was written, cancelled twice).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { googleCalendarApi, googleOAuth } from '../../../src/adapters/google-calendar/api.js';
import type { Booking, BookingStaff } from '../../../src/contract/bookings.js';
import { NotFoundError } from '../../../src/domain/errors.js';
import { createGoogleAccess } from '../../../src/domain/bookings/google-busy.js';
import { bookingEventId, createBookingEventDeleter, createGoogleCalendar, type GoogleConnection, type GoogleConnectionRepository } from '../../../src/domain/bookings/google-calendar.js';
import { startFakeGoogleCalendar, type FakeGoogleCalendar } from '../../../local/fake-google-calendar/server.js';

let fake: FakeGoogleCalendar;
beforeAll(async () => {
  fake = await startFakeGoogleCalendar();
});
afterAll(() => fake.stop());

const EMAIL = 'clinica@gmail.test';
const TEAM = `team-${EMAIL}`;
const control = async (method: string, path: string, body?: unknown) =>
  (await fetch(`${fake.url}${path}`, { method, ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}) })).json() as Promise<Record<string, unknown>>;

function memoryConnections(): GoogleConnectionRepository & { rows: Map<string, GoogleConnection> } {
  const rows = new Map<string, GoogleConnection>();
  const states = new Map<string, string>();
  return {
    rows,
    get: async (userId) => rows.get(userId) ?? null,
    put: async (c) => void rows.set(c.userId, c),
    saveChoices: async (userId, choices) => {
      const c = rows.get(userId);
      if (!c) return null;
      const next = { ...c, ...choices };
      rows.set(userId, next);
      return next;
    },
    remove: async (userId) => {
      const c = rows.get(userId) ?? null;
      rows.delete(userId);
      return c;
    },
    putState: async (hash, userId) => void states.set(hash, userId),
    takeState: async (hash) => {
      const userId = states.get(hash) ?? null;
      states.delete(hash);
      return userId;
    },
  };
}

const staff = (id: string, googleCalendarIds: string[]): BookingStaff => ({
  _id: id,
  name: id,
  kind: 'person',
  weeklyHours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
  closures: [],
  googleCalendarIds,
  createdAt: '',
  updatedAt: '',
});

const booking = (over: Partial<Booking> = {}): Booking => ({
  _id: 'b1',
  serviceId: 's1',
  serviceName: 'Revisión',
  staffId: 'doctor',
  staffName: 'Dra. García',
  start: '2026-12-01T09:00:00.000Z',
  end: '2026-12-01T09:30:00.000Z',
  timeZone: 'Europe/Madrid',
  status: 'confirmed',
  customer: { name: 'Ana López', phone: '+34600111222', contactId: null },
  channel: 'whatsapp',
  conversationId: null,
  callId: null,
  agentId: null,
  bookedBy: 'agent',
  notes: '',
  priceCents: null,
  currency: 'eur',
  createdAt: '',
  updatedAt: '',
  cancelledAt: null,
  ...over,
});

async function connected() {
  const connections = memoryConnections();
  const endpoints = {
    authorizeUrl: fake.env.GOOGLE_OAUTH_AUTHORIZE_URL!,
    tokenUrl: fake.env.GOOGLE_OAUTH_TOKEN_URL!,
    revokeUrl: fake.env.GOOGLE_OAUTH_REVOKE_URL!,
    calendarApiUrl: fake.env.GOOGLE_CALENDAR_API_URL!,
  };
  const current = new Map<string, Booking>();
  const errors: string[] = [];
  const oauth = async () => googleOAuth(endpoints, { clientId: fake.clientId, clientSecret: fake.clientSecret, redirectUri: 'http://127.0.0.1:9/cb' });
  const secrets = { seal: async (t: string) => `v1:test:${t}`, open: async (s: string) => s.replace(/^v1:test:/, '') };
  const google = createGoogleCalendar({
    connections,
    oauth,
    api: googleCalendarApi(endpoints),
    secrets,
    bookings: () => ({
      listStaff: async () => [],
      getStaff: async () => {
        throw new NotFoundError('no');
      },
      updateStaff: async () => {
        throw new Error('not used');
      },
      get: async (_userId, id) => {
        const b = current.get(id);
        if (!b) throw new NotFoundError('Booking not found');
        return b;
      },
    }),
    appUrl: 'http://app.test',
    newState: () => `state-${Math.random()}`,
    onError: (what) => errors.push(what),
  });
  await control('POST', '/_test/accounts', { email: EMAIL, calendars: [{ id: TEAM, summary: 'Equipo' }] });
  const { url } = await google.connect('u1');
  const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
  const landed = await google.callback(Object.fromEntries(back.searchParams));
  expect(landed).toBe('http://app.test/integrations?googleCalendar=connected');
  expect(connections.rows.get('u1')?.refreshToken).toMatch(/^v1:test:1\/\//);
  return { google, connections, current, errors, endpoints, oauth, secrets };
}

const requestsTo = async (path: string) => ((await control('GET', '/_test/requests')).requests as { path: string }[]).filter((r) => r.path === path).length;

describe('Google Calendar: busy times and the bookings listener', () => {
  it('gives each staff member the busy times of their calendars and the business ones, reuses them for a minute, and answers none when Google fails', async () => {
    const { google, errors } = await connected();
    await control('POST', '/_test/busy', { calendarId: TEAM, start: '2026-12-01T10:00:00Z', end: '2026-12-01T11:00:00Z' });
    await control('POST', '/_test/busy', { calendarId: EMAIL, start: '2026-12-01T12:00:00Z', end: '2026-12-01T13:00:00Z' });
    const team = [staff('doctor', [TEAM]), staff('chair', [])];
    const from = new Date('2026-12-01T00:00:00Z');
    const to = new Date('2026-12-02T00:00:00Z');
    const before = await requestsTo('/freeBusy');
    const busy = await google.busyTimes.busy('u1', team, from, to);
    expect(busy.get('doctor')).toEqual([
      { start: Date.parse('2026-12-01T10:00:00Z'), end: Date.parse('2026-12-01T11:00:00Z') },
      { start: Date.parse('2026-12-01T12:00:00Z'), end: Date.parse('2026-12-01T13:00:00Z') },
    ]);
    expect(busy.get('chair')).toEqual([{ start: Date.parse('2026-12-01T12:00:00Z'), end: Date.parse('2026-12-01T13:00:00Z') }]);
    await google.busyTimes.busy('u1', team, from, to);
    expect(await requestsTo('/freeBusy')).toBe(before + 1);

    await control('POST', '/_test/faults', { kind: 'status', status: 500, match: { path: '/calendar/v3/freeBusy' } });
    try {
      expect(await google.busyTimes.busy('u1', team, from, new Date('2026-12-03T00:00:00Z'))).toEqual(new Map());
      expect(errors).toContain('freeBusy');
    } finally {
      await fetch(`${fake.url}/_test/faults`, { method: 'DELETE' });
    }
    // An account that never connected: no busy times, no call.
    expect(await google.busyTimes.busy('someone-else', team, from, to)).toEqual(new Map());
  });

  it('keeps one event per booking whatever the order and repeats of its changes', async () => {
    const { google, current } = await connected();
    const listener = google.listener;
    const id = bookingEventId('u1', 'b1');
    const eventOf = async () => ((await control('GET', `/_test/events?calendarId=${EMAIL}`)).events as { id: string; status: string; start: { dateTime: string } }[]).filter((e) => e.id === id);

    // Moved before the "created" change arrived: written as it is now.
    current.set('b1', booking({ start: '2026-12-01T11:00:00.000Z', end: '2026-12-01T11:30:00.000Z' }));
    await listener.handle('u1', { kind: 'moved', booking: booking(), actor: { by: 'agent', channel: 'whatsapp' } });
    expect((await eventOf()).map((e) => e.start.dateTime)).toEqual(['2026-12-01T11:00:00.000Z']);
    // The late "created" (and its retry) leave the one event as the booking is.
    for (let i = 0; i < 2; i++) await listener.handle('u1', { kind: 'created', booking: booking(), actor: { by: 'agent', channel: 'whatsapp' } });
    expect((await eventOf()).map((e) => [e.status, e.start.dateTime])).toEqual([['confirmed', '2026-12-01T11:00:00.000Z']]);
    // Cancelled, twice: deleted once, the retry finds it gone.
    current.set('b1', booking({ status: 'cancelled' }));
    for (let i = 0; i < 2; i++) await listener.handle('u1', { kind: 'cancelled', booking: booking({ status: 'cancelled' }), actor: { by: 'owner', channel: 'dashboard' } });
    expect((await eventOf()).map((e) => e.status)).toEqual(['cancelled']);
    // A booking that is gone altogether: its event goes (already gone: nothing thrown).
    current.delete('b1');
    await listener.handle('u1', { kind: 'status', booking: booking(), actor: { by: 'owner', channel: 'dashboard' } });
    // A Google that is down: thrown, so the queue retries the change.
    current.set('b2', booking({ _id: 'b2' }));
    await control('POST', '/_test/faults', { kind: 'status', status: 503, match: { path: '/calendar/v3/calendars/**' } });
    try {
      await expect(listener.handle('u1', { kind: 'created', booking: booking({ _id: 'b2' }), actor: { by: 'agent', channel: 'whatsapp' } })).rejects.toThrow();
    } finally {
      await fetch(`${fake.url}/_test/faults`, { method: 'DELETE' });
    }
    await listener.handle('u1', { kind: 'created', booking: booking({ _id: 'b2' }), actor: { by: 'agent', channel: 'whatsapp' } });
    expect(((await control('GET', `/_test/events?calendarId=${EMAIL}`)).events as { id: string }[]).some((e) => e.id === bookingEventId('u1', 'b2'))).toBe(true);
  });

  it("deletes a booking's event for an erasure (issue 33): once, a retry finds it gone, a disconnected account has none, a Google outage throws", async () => {
    const { google, connections, current, endpoints, oauth, secrets } = await connected();
    const errors: string[] = [];
    const deleteEvent = createBookingEventDeleter({ connections, access: createGoogleAccess({ oauth, secrets }), api: googleCalendarApi(endpoints), onError: (what) => errors.push(what) });
    current.set('b9', booking({ _id: 'b9' }));
    await google.listener.handle('u1', { kind: 'created', booking: booking({ _id: 'b9' }), actor: { by: 'agent', channel: 'whatsapp' } });
    const status = async () => ((await control('GET', `/_test/events?calendarId=${EMAIL}`)).events as { id: string; status: string }[]).find((e) => e.id === bookingEventId('u1', 'b9'))?.status;
    expect(await status()).toBe('confirmed');
    await control('POST', '/_test/faults', { kind: 'status', status: 503, times: 1, match: { method: 'DELETE', path: '/calendar/v3/calendars/**' } });
    await expect(deleteEvent('u1', 'b9')).rejects.toThrow();
    expect(await status()).toBe('confirmed');
    await deleteEvent('u1', 'b9');
    expect(await status()).toBe('cancelled');
    await deleteEvent('u1', 'b9');
    await deleteEvent('nobody', 'b9');
    expect(errors).toEqual([]);
  });
});
