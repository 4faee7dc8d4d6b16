/**
 * The Google Calendar connection (issue 30) end to end on the local stack, against the fake Google
 * on loopback (local/fake-google-calendar/: Google's real OAuth and Calendar API v3 paths):
 * connect through the OAuth web-server flow (single-use state, refresh token stored sealed), pick
 * the calendars that block the business and a staff member; a busy event in the fake Google
 * blocks that slot in availability, and a Google that fails leaves availability answering; a
 * booking made by the owner appears in the chosen Google calendar (booking-events worker), a move
 * patches it, a cancellation deletes it; refused consent, a replayed callback, unknown calendars
 * and another tenant's staff answer as they should; disconnect revokes and stops the writes.
 * A Spanish clinic in Europe/Madrid.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bookingMessages, WEEKDAYS, type Booking, type BookingService, type BookingSlot, type BookingStaff, type WeeklyHours } from '../../src/contract/bookings.js';
import type { GoogleCalendarStatus } from '../../src/contract/google-calendar.js';
import { api, getItem, provided, registerUser } from '../support/api.js';
import { grantSubscription } from '../support/billing.js';
import { must } from '../support/bookings.js';
import { armFault, clearFault } from '../support/faults.js';
import { connectGoogle, google, googleEvents } from '../support/google-calendar.js';
import { drainQueues } from '../support/stack-clients.js';

const ZONE = 'Europe/Madrid';
const DAY_MS = 86_400_000;
const hours: WeeklyHours = Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start: '09:00', end: '14:00' }]])) as WeeklyHours;
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** The Madrid wall-clock "HH:mm" of an instant. */
const clock = (iso: string) => new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
/** The instant of a Madrid wall-clock time on a date (the test days are away from a DST change or not: Intl decides). */
function madrid(date: string, time: string): string {
  const guess = Date.parse(`${date}T${time}:00Z`);
  const offset = (ms: number) => {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, timeZoneName: 'longOffset' }).formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')!.value;
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
  };
  return new Date(guess - offset(guess - offset(guess))).toISOString();
}

interface Clinic {
  token: string;
  userId: string;
  doctor: BookingStaff;
  chair: BookingStaff;
  service: BookingService;
  /** The Google account this clinic connects, and its calendars. */
  email: string;
  doctorCalendar: string;
}

async function clinic(name: string): Promise<Clinic> {
  const { session } = await registerUser({ name });
  const token = session.token;
  await must(api('PUT', '/api/user/profile', { token, body: { name, language: 'es', timeZone: ZONE, country: 'ES' } }));
  await grantSubscription(session.user._id);
  const call = <T>(method: string, path: string, body?: unknown, status = 200) => must<T>(api<T>(method, path, { token, body }), status);
  await call('PUT', '/api/bookings/settings', {
    timeZone: ZONE,
    minNoticeMinutes: 0,
    maxAdvanceDays: 60,
    slotStepMinutes: 30,
    closures: [],
    remindersEnabled: false,
    reminderHours: 24,
    confirmationTemplate: null,
    reminderTemplate: null,
    emailOwner: false,
  });
  const doctor = await call<BookingStaff>('POST', '/api/bookings/staff', { name: 'Dra. García', weeklyHours: hours }, 201);
  const chair = await call<BookingStaff>('POST', '/api/bookings/staff', { name: 'Sillón 2', kind: 'room', weeklyHours: hours }, 201);
  const service = await call<BookingService>('POST', '/api/bookings/services', { name: 'Revisión', durationMinutes: 30, staffIds: [doctor._id, chair._id] }, 201);
  const id = randomUUID().slice(0, 8);
  return { token, userId: session.user._id, doctor, chair, service, email: `clinica-${id}@gmail.test`, doctorCalendar: `dra-garcia-${id}@group.calendar.google.com` };
}

/** The owner connects the clinic's Google account (its own calendar, the doctor's and a read-only one). */
const connect = (c: Clinic, consent: 'allow' | 'deny' = 'allow') =>
  connectGoogle(c.token, { email: c.email, calendars: [{ id: c.doctorCalendar, summary: 'Agenda Dra. García' }, { id: `festivos-${c.email}`, summary: 'Festivos', accessRole: 'reader' }] }, consent);

const status = (c: Clinic) => must<GoogleCalendarStatus>(api('GET', '/api/integrations/google-calendar', { token: c.token }));

const slots = async (c: Clinic, staff: BookingStaff, date: string, to = date) =>
  (await must<BookingSlot[]>(api('GET', `/api/bookings/availability?serviceId=${c.service._id}&staffId=${staff._id}&from=${date}&to=${to}&limit=20`, { token: c.token }))).filter(
    (s) => s.start.slice(0, 10) === date || to !== date,
  );

describe('Google Calendar connection', () => {
  it('connects through OAuth, blocks availability with busy times, and writes, moves and deletes the bookings as events', async () => {
    const c = await clinic('Clínica Dental Arganzuela');
    expect(await status(c)).toMatchObject({ configured: true, connected: false, calendars: [] });

    const { landed, callback } = await connect(c);
    expect(landed).toMatch(/\/integrations\?googleCalendar=connected$/);
    // The state is single use: the same callback again connects nothing.
    const replay = await fetch(`${provided('apiUrl')}${new URL(callback).pathname}${new URL(callback).search}`, { redirect: 'manual' });
    expect(replay.headers.get('location')).toMatch(/googleCalendar=expired$/);

    const connected = await status(c);
    expect(connected).toMatchObject({ connected: true, email: c.email, businessCalendarIds: [c.email], eventsCalendarId: c.email, error: null });
    expect(connected.calendars.map((k) => k.id).sort()).toEqual([c.doctorCalendar, c.email, `festivos-${c.email}`].sort());
    // The refresh token is stored sealed, never as Google gave it.
    const item = await getItem(`USER#${c.userId}`, 'GCAL#CONNECTION');
    expect(String(item?.refreshToken)).toMatch(/^v1:/);
    expect(JSON.stringify(item)).not.toContain('1//0');

    // The doctor's own calendar blocks her; the business's (primary) blocks everybody.
    const saved = await must<GoogleCalendarStatus>(
      api('PUT', '/api/integrations/google-calendar', {
        token: c.token,
        body: { businessCalendarIds: [c.email], eventsCalendarId: c.email, staff: [{ staffId: c.doctor._id, googleCalendarIds: [c.doctorCalendar] }] },
      }),
    );
    expect(saved.staff.find((s) => s.staffId === c.doctor._id)?.googleCalendarIds).toEqual([c.doctorCalendar]);

    const day = addDays(today(), 3);
    await google('POST', '/_test/busy', { calendarId: c.doctorCalendar, start: madrid(day, '10:00'), end: madrid(day, '10:30'), summary: 'Congreso' });
    await google('POST', '/_test/busy', { calendarId: c.email, start: madrid(day, '12:00'), end: madrid(day, '13:00'), summary: 'Cierre por inventario' });
    const doctorTimes = (await slots(c, c.doctor, day)).map((s) => clock(s.start));
    const chairTimes = (await slots(c, c.chair, day)).map((s) => clock(s.start));
    expect(doctorTimes).toEqual(expect.arrayContaining(['09:30', '10:30', '11:30', '13:00']));
    expect(doctorTimes).not.toContain('10:00');
    expect(doctorTimes).not.toContain('12:00');
    expect(doctorTimes).not.toContain('12:30');
    // The chair is blocked by the business's calendar only.
    expect(chairTimes).toEqual(expect.arrayContaining(['10:00', '11:30', '13:00']));
    expect(chairTimes).not.toContain('12:00');

    // A Google that fails leaves availability answering (without its busy times).
    const fault = await armFault('google', { kind: 'status', status: 503, match: { path: '/calendar/v3/freeBusy' } });
    try {
      const other = addDays(day, 1);
      const whileDown = await slots(c, c.doctor, other);
      expect(whileDown.map((s) => clock(s.start))).toContain('10:00');
    } finally {
      await clearFault('google', fault.id);
    }

    // The owner books: the event appears in the chosen calendar (transparent: it never blocks itself).
    const booking = await must<Booking>(
      api('POST', '/api/bookings', { token: c.token, body: { serviceId: c.service._id, staffId: c.doctor._id, start: `${day}T11:00`, customer: { name: 'Begoña Muñoz', phone: '655443322' } } }),
      201,
    );
    await drainQueues();
    let events = (await googleEvents(c.email)).filter((e) => e.summary.includes('Begoña Muñoz'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: 'confirmed', summary: 'Begoña Muñoz · Revisión · Dra. García', transparency: 'transparent', start: { dateTime: booking.start, timeZone: ZONE } });
    const eventId = events[0]!.id;
    // Its own event does not block the doctor's next slots (11:00 is taken by the booking only).
    expect((await slots(c, c.doctor, addDays(day, 2))).map((s) => clock(s.start))).toContain('11:00');

    // A move patches the same event.
    const moved = await must<Booking>(api('PATCH', `/api/bookings/${booking._id}`, { token: c.token, body: { start: `${day}T13:30` } }));
    await drainQueues();
    events = (await googleEvents(c.email)).filter((e) => e.id === eventId);
    expect(events).toHaveLength(1);
    expect(events[0]!.start.dateTime).toBe(moved.start);
    expect(clock(events[0]!.start.dateTime)).toBe('13:30');

    // A cancellation deletes it.
    await must(api('POST', `/api/bookings/${booking._id}/cancel`, { token: c.token }));
    await drainQueues();
    expect((await googleEvents(c.email)).find((e) => e.id === eventId)?.status).toBe('cancelled');

    // Disconnect: revoked at Google, and later bookings are not written.
    await must(api('DELETE', '/api/integrations/google-calendar', { token: c.token }));
    expect(await status(c)).toMatchObject({ connected: false, email: null });
    await must(
      api('POST', '/api/bookings', { token: c.token, body: { serviceId: c.service._id, staffId: c.chair._id, start: `${day}T09:00`, customer: { name: 'Tomás Ibáñez', phone: '677889900' } } }),
      201,
    );
    await drainQueues();
    expect((await googleEvents(c.email)).some((e) => e.summary.includes('Tomás Ibáñez'))).toBe(false);
    // The busy times no longer count either.
    expect((await slots(c, c.doctor, addDays(day, 7))).length).toBeGreaterThan(0);
  });

  it('answers refused consent, unknown calendars, another tenant and bad input without connecting or changing anything', async () => {
    const [c, other] = await Promise.all([clinic('Fisioterapia Chamberí'), clinic('Clínica Ajena')]);
    const denied = await connect(c, 'deny');
    expect(denied.landed).toMatch(/googleCalendar=denied$/);
    expect((await status(c)).connected).toBe(false);

    // Choices before a connection: 404.
    const early = await api('PUT', '/api/integrations/google-calendar', { token: c.token, body: { businessCalendarIds: [], eventsCalendarId: null, staff: [] } });
    expect(early.status).toBe(404);
    expect(early.body.message).toBe(bookingMessages.googleNotConnected);

    expect((await connect(c)).landed).toMatch(/googleCalendar=connected$/);
    const put = (body: unknown) => api('PUT', '/api/integrations/google-calendar', { token: c.token, body });
    const unknown = await put({ businessCalendarIds: ['someone-else@gmail.com'], eventsCalendarId: null, staff: [] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(bookingMessages.googleCalendarUnknown);
    // A calendar the account may only read cannot receive the bookings.
    expect((await put({ businessCalendarIds: [], eventsCalendarId: `festivos-${c.email}`, staff: [] })).status).toBe(400);
    expect((await put({ businessCalendarIds: [], eventsCalendarId: null, staff: [{ staffId: other.doctor._id, googleCalendarIds: [] }] })).status).toBe(404);
    for (const body of [{}, { businessCalendarIds: 'x', eventsCalendarId: null, staff: [] }, { businessCalendarIds: [], eventsCalendarId: null, staff: [], extra: true }, [], 'google']) {
      expect((await put(body)).status, JSON.stringify(body)).toBe(400);
    }
    const after = await status(c);
    expect(after).toMatchObject({ connected: true, businessCalendarIds: [c.email], eventsCalendarId: c.email });
    expect(after.staff.every((s) => s.googleCalendarIds.length === 0)).toBe(true);

    // The other clinic sees nothing of it; a callback without or with a made-up state connects nothing.
    expect(await status(other)).toMatchObject({ connected: false, calendars: [] });
    for (const query of ['', '?code=abc', `?state=${'x'.repeat(43)}&code=abc`, '?error=access_denied']) {
      const res = await fetch(`${provided('apiUrl')}/api/integrations/google-calendar/callback${query}`, { redirect: 'manual' });
      expect(res.status, query).toBe(302);
      expect(res.headers.get('location'), query).toMatch(/googleCalendar=expired$/);
    }
    expect((await status(other)).connected).toBe(false);
    expect((await api('POST', '/api/integrations/google-calendar/connect', {})).status).toBe(401);
  });
});
