/**
 * The private iCalendar feeds (issue 30) through the local gateway: a Spanish clinic's feed link,
 * fetched as a calendar app would (no sign-in, the token in the URL) and parsed with a real parser
 * (node-ical): the bookings with the customer, service and staff, at their instants across both
 * DST changes (10:00 in Madrid stays 10:00), cancelled ones left out; a staff member's feed holds
 * only theirs. The link is shown whole once and masked after; a rotated or revoked token answers
 * 404 at once; another tenant's token never shows this clinic's bookings; bad input answers 4xx.
 */
import ical, { type VEvent } from 'node-ical';
import { describe, expect, it } from 'vitest';
import { bookingMessages, WEEKDAYS, type Booking, type BookingService, type BookingStaff, type CalendarFeed, type WeeklyHours } from '../../src/contract/bookings.js';
import { api, provided, registerUser, type ApiResponse } from '../support/api.js';
import { grantSubscription } from '../support/billing.js';

const ZONE = 'Europe/Madrid';
const DAY_MS = 86_400_000;
const allDay: WeeklyHours = Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start: '08:00', end: '20:00' }]])) as WeeklyHours;

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** The Madrid wall-clock "YYYY-MM-DD HH:mm" of an instant. */
const madridClock = (at: Date | string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(at));
/** The next last Sunday of March (3) or October (10) at least 3 days ahead: the EU's DST changes. */
function nextChange(month: 3 | 10): string {
  for (let year = Number(today().slice(0, 4)); ; year++) {
    const last = new Date(Date.UTC(year, month, 0));
    const sunday = addDays(last.toISOString().slice(0, 10), -last.getUTCDay());
    if (Date.parse(sunday) - Date.parse(today()) >= 3 * DAY_MS) return sunday;
  }
}

async function must<T>(res: Promise<ApiResponse<T>>, status = 200): Promise<T> {
  const r = await res;
  expect(r.status, `${r.status} ${r.body.message}`).toBe(status);
  return r.body.data as T;
}

interface Clinic {
  token: string;
  doctor: BookingStaff;
  chair: BookingStaff;
  service: BookingService;
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
    maxAdvanceDays: 365,
    slotStepMinutes: 15,
    closures: [],
    remindersEnabled: false,
    reminderHours: 24,
    confirmationTemplate: null,
    reminderTemplate: null,
    emailOwner: false,
  });
  const doctor = await call<BookingStaff>('POST', '/api/bookings/staff', { name: 'Dra. García', weeklyHours: allDay }, 201);
  const chair = await call<BookingStaff>('POST', '/api/bookings/staff', { name: 'Sillón 2', kind: 'room', weeklyHours: allDay }, 201);
  const service = await call<BookingService>('POST', '/api/bookings/services', { name: 'Limpieza dental', durationMinutes: 30, staffIds: [doctor._id, chair._id] }, 201);
  return { token, doctor, chair, service };
}

const book = (c: Clinic, staff: BookingStaff, start: string, customer: string, phone: string) =>
  must<Booking>(api('POST', '/api/bookings', { token: c.token, body: { serviceId: c.service._id, staffId: staff._id, start, customer: { name: customer, phone } } }), 201);

const createFeed = (c: Clinic, staffId: string | null) => must<CalendarFeed>(api('POST', '/api/bookings/calendar-feed', { token: c.token, body: { staffId } }), 201);

/** The feed as a calendar app fetches it: no sign-in, the URL as given. */
async function fetchFeed(url: string): Promise<{ status: number; type: string | null; text: string }> {
  const { pathname } = new URL(url);
  const res = await fetch(`${provided('apiUrl')}${pathname}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

function eventsOf(text: string): VEvent[] {
  return Object.values(ical.sync.parseICS(text)).filter((c): c is VEvent => c?.type === 'VEVENT');
}

describe('private iCalendar feeds', () => {
  it('lists the bookings with customer, service and staff at their instants across both DST changes; cancelled ones are left out; a staff feed holds only theirs', async () => {
    const c = await clinic('Clínica Dental Peña');
    const spring = nextChange(3);
    const autumn = nextChange(10);
    const made = [
      await book(c, c.doctor, `${addDays(spring, -1)}T10:00`, 'Ana López', '600111222'),
      await book(c, c.doctor, `${addDays(spring, 1)}T10:00`, 'Íñigo Martínez', '600111223'),
      await book(c, c.doctor, `${addDays(autumn, -1)}T10:00`, 'María Núñez', '600111224'),
      await book(c, c.chair, `${addDays(autumn, 1)}T10:00`, 'José Ruiz', '600111225'),
    ];
    const cancelled = await book(c, c.doctor, `${addDays(spring, 2)}T12:00`, 'Lucía Gómez', '600111226');
    await must(api('POST', `/api/bookings/${cancelled._id}/cancel`, { token: c.token }));

    const feed = await createFeed(c, null);
    expect(feed).toMatchObject({ masked: false, staffId: null, staffName: null });
    expect(feed.url).toMatch(/\/api\/calendar-feeds\/[A-Za-z0-9_-]{43}$/);

    const res = await fetchFeed(feed.url!);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/calendar/);
    expect(res.text).toContain('X-WR-TIMEZONE:Europe/Madrid');
    const events = eventsOf(res.text);
    expect(events.map((e) => e.uid).sort()).toEqual(made.map((b) => `${b._id}@agentdesk`).sort());
    for (const b of made) {
      const e = events.find((x) => x.uid === `${b._id}@agentdesk`)!;
      expect(e.start.toISOString()).toBe(new Date(b.start).toISOString());
      expect(e.end!.toISOString()).toBe(new Date(b.end).toISOString());
      // 10:00 in Madrid on both sides of each change (09:00Z in winter, 08:00Z in summer).
      expect(madridClock(e.start).slice(11)).toBe('10:00');
      expect(e.summary).toBe(`${b.customer.name} · Limpieza dental · ${b.staffName}`);
      expect(e.description).toContain('+3460011122');
    }
    const offsets = made.map((b) => new Date(b.start).getUTCHours());
    expect(offsets).toEqual([9, 8, 8, 9]);

    // The doctor's own feed: her three bookings, not the chair's.
    const doctorFeed = await createFeed(c, c.doctor._id);
    expect(doctorFeed.staffName).toBe('Dra. García');
    const doctorEvents = eventsOf((await fetchFeed(doctorFeed.url!)).text);
    expect(doctorEvents.map((e) => e.uid).sort()).toEqual(made.filter((b) => b.staffId === c.doctor._id).map((b) => `${b._id}@agentdesk`).sort());
    expect(doctorEvents[0]!.summary).not.toContain('Dra. García');

    // Shown whole once: the list masks it (last 4 characters), the chair has none yet.
    const list = await must<CalendarFeed[]>(api('GET', '/api/bookings/calendar-feed', { token: c.token }));
    expect(list.map((f) => [f.staffId, f.staffName])).toEqual([
      [null, null],
      [c.doctor._id, 'Dra. García'],
      [c.chair._id, 'Sillón 2'],
    ]);
    expect(list[0]!.masked).toBe(true);
    expect(list[0]!.url).toBe(feed.url!.replace(/[A-Za-z0-9_-]{43}$/, `••••${feed.url!.slice(-4)}`));
    expect(list[1]!.url).not.toContain(doctorFeed.url!.split('/').pop()!);
    expect(list[2]).toMatchObject({ url: null, createdAt: null });
  });

  it('answers 404 for a rotated, revoked, unknown or malformed token, at once', async () => {
    const c = await clinic('Peluquería Sol');
    await book(c, c.doctor, `${addDays(today(), 2)}T11:00`, 'Carmen Díaz', '611222333');
    const first = await createFeed(c, null);
    expect((await fetchFeed(first.url!)).status).toBe(200);

    const rotated = await createFeed(c, null);
    expect(rotated.url).not.toBe(first.url);
    const old = await fetchFeed(first.url!);
    expect(old.status).toBe(404);
    expect(old.text).toContain(bookingMessages.feedNotFound);
    expect(eventsOf((await fetchFeed(rotated.url!)).text)).toHaveLength(1);

    const staffFeed = await createFeed(c, c.chair._id);
    await must(api('DELETE', `/api/bookings/calendar-feed?staffId=${c.chair._id}`, { token: c.token }));
    expect((await fetchFeed(staffFeed.url!)).status).toBe(404);
    // The business's feed is untouched by the staff member's revocation, then revoked itself.
    expect((await fetchFeed(rotated.url!)).status).toBe(200);
    await must(api('DELETE', '/api/bookings/calendar-feed', { token: c.token }));
    expect((await fetchFeed(rotated.url!)).status).toBe(404);
    // Revoking again changes nothing.
    await must(api('DELETE', '/api/bookings/calendar-feed', { token: c.token }));
    const list = await must<CalendarFeed[]>(api('GET', '/api/bookings/calendar-feed', { token: c.token }));
    expect(list.every((f) => f.url === null)).toBe(true);

    const base = new URL(rotated.url!).origin;
    for (const token of ['x'.repeat(43), 'short', `${'A'.repeat(42)}%2F`, `${rotated.url!.split('/').pop()!.slice(0, 42)}Z`]) {
      expect((await fetchFeed(`${base}/api/calendar-feeds/${token}`)).status, token).toBe(404);
    }
  });

  it("never shows another tenant's bookings, and refuses bad input with 4xx", async () => {
    const [a, b] = await Promise.all([clinic('Clínica Norte'), clinic('Clínica Sur')]);
    const mine = await book(a, a.doctor, `${addDays(today(), 3)}T09:30`, 'Pilar Ortega', '622333444');
    const theirs = await book(b, b.doctor, `${addDays(today(), 3)}T09:30`, 'Raúl Vega', '633444555');
    const [feedA, feedB] = await Promise.all([createFeed(a, null), createFeed(b, null)]);
    expect(eventsOf((await fetchFeed(feedA.url!)).text).map((e) => e.uid)).toEqual([`${mine._id}@agentdesk`]);
    expect(eventsOf((await fetchFeed(feedB.url!)).text).map((e) => e.uid)).toEqual([`${theirs._id}@agentdesk`]);

    // B cannot make, list or revoke a feed of A's staff member.
    const foreign = await api('POST', '/api/bookings/calendar-feed', { token: b.token, body: { staffId: a.doctor._id } });
    expect(foreign.status).toBe(404);
    await must(api('DELETE', `/api/bookings/calendar-feed?staffId=${a.doctor._id}`, { token: b.token }));
    await must(api('DELETE', '/api/bookings/calendar-feed', { token: b.token }));
    expect((await fetchFeed(feedA.url!)).status).toBe(200);
    const listB = await must<CalendarFeed[]>(api('GET', '/api/bookings/calendar-feed', { token: b.token }));
    expect(listB.map((f) => f.staffId)).not.toContain(a.doctor._id);

    for (const body of [{}, { staffId: 7 }, { staffId: '' }, { staffId: null, extra: 1 }, 'feed', [null]]) {
      const r = await api('POST', '/api/bookings/calendar-feed', { token: a.token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api('DELETE', '/api/bookings/calendar-feed?other=1', { token: a.token })).status).toBe(400);
    expect((await api('POST', '/api/bookings/calendar-feed', { body: { staffId: null } })).status).toBe(401);
    expect((await fetchFeed(feedA.url!)).status).toBe(200);
  });
});
