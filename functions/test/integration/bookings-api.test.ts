/**
 * Bookings HTTP API (issue 30) through the local gateway against DynamoDB Local: a Spanish clinic
 * (Europe/Madrid, phones without +34) sets up its rules, staff and services and books, moves and
 * cancels with its sign-in token and with an API key. Every validation text answers 400 and
 * changes nothing; the rules of time (past, notice, how far ahead, hours, closures, across
 * midnight, longer than the day) answer 4xx; another tenant's ids answer 404 everywhere; a staff
 * member with upcoming bookings cannot be deleted until they are cancelled; 50 parallel bookings
 * of one slot (token and key mixed) give exactly one booking; 09:00 stays 09:00 local across both
 * DST changes; three months of availability answer fast and right.
 */
import { describe, expect, it } from 'vitest';
import {
  BOOKING_DEFAULTS,
  BOOKING_LIMITS,
  WEEKDAYS,
  bookingMessages,
  type Booking,
  type BookingList,
  type BookingService,
  type BookingSettings,
  type BookingSettingsInput,
  type BookingSlot,
  type BookingStaff,
  type WeeklyHours,
} from '../../src/contract/bookings.js';
import type { CreatedApiKey } from '../../src/contract/api-keys.js';
import { api, registerUser, type ApiResponse } from '../support/api.js';
import { grantSubscription } from '../support/billing.js';

// ---------------------------------------------------------------------------------------------
// Dates and times of Madrid

const ZONE = 'Europe/Madrid';
const DAY_MS = 86_400_000;

/** Today's local date in Madrid (YYYY-MM-DD). */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
/** 0 = Monday … 6 = Sunday (WEEKDAYS order). */
const weekdayOf = (date: string) => (new Date(`${date}T12:00:00Z`).getUTCDay() + 6) % 7;
/** The first date on or after `from` that is that weekday (0 = Monday). */
const nextWeekday = (from: string, weekday: number) => addDays(from, (weekday - weekdayOf(from) + 7) % 7);

/** Madrid's offset from UTC at an instant, in minutes (+60 in winter, +120 in summer). */
function offsetMinutes(ms: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, timeZoneName: 'longOffset' }).formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}
/** The UTC instant (ms) of a Madrid wall-clock time "YYYY-MM-DDTHH:mm" (not inside the spring gap). */
function madrid(local: string): number {
  const asUtc = Date.parse(`${local}:00Z`);
  const first = asUtc - offsetMinutes(asUtc) * 60_000;
  return asUtc - offsetMinutes(first) * 60_000;
}
/** The Madrid wall-clock time "YYYY-MM-DDTHH:mm" of an instant. */
function localOf(iso: string | number): string {
  const ms = typeof iso === 'number' ? iso : Date.parse(iso);
  return new Date(ms + offsetMinutes(ms) * 60_000).toISOString().slice(0, 16);
}
/** The last Sunday of a month (DST changes in the EU: March and October). */
function lastSunday(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return addDays(last, -((weekdayOf(last) + 1) % 7));
}
/** The next DST change of that month at least `minDays` ahead. */
function nextChange(month: 3 | 10, minDays = 3): string {
  const year = Number(today().slice(0, 4));
  const thisYear = lastSunday(year, month);
  return daysBetween(today(), thisYear) >= minDays ? thisYear : lastSunday(year + 1, month);
}

// ---------------------------------------------------------------------------------------------
// The clinic

const morningAndAfternoon = [
  { start: '09:00', end: '14:00' },
  { start: '16:00', end: '20:00' },
];
const weekdaysOnly: WeeklyHours = { mon: morningAndAfternoon, tue: morningAndAfternoon, wed: morningAndAfternoon, thu: morningAndAfternoon, fri: morningAndAfternoon, sat: [], sun: [] };
const everyDay = (ranges: { start: string; end: string }[]): WeeklyHours => Object.fromEntries(WEEKDAYS.map((d) => [d, ranges])) as WeeklyHours;

const RULES: BookingSettingsInput = {
  timeZone: ZONE,
  minNoticeMinutes: 120,
  maxAdvanceDays: 365,
  slotStepMinutes: 15,
  closures: [],
  remindersEnabled: true,
  reminderHours: 24,
  confirmationTemplate: null,
  reminderTemplate: null,
  emailOwner: false,
};

interface Clinic {
  token: string;
  userId: string;
  key: string;
  staff: BookingStaff;
  service: BookingService;
}

const call = <T>(c: { token: string }, method: string, path: string, body?: unknown) => api<T>(method, path, { token: c.token, body });
const withKey = <T>(c: { key: string }, method: string, path: string, body?: unknown) => api<T>(method, path, { headers: { 'x-api-key': c.key }, body });

async function must<T>(res: Promise<ApiResponse<T>>, status = 200): Promise<T> {
  const r = await res;
  expect(r.status, `${r.status} ${r.body.message}`).toBe(status);
  return r.body.data as T;
}

/** A Spanish clinic (profile ES, Europe/Madrid), subscribed, with an API key, one doctor (weekdays 9–14, 16–20) and a 30-minute service. */
async function clinic(options: { hours?: WeeklyHours; rules?: Partial<BookingSettingsInput>; durationMinutes?: number; bufferAfterMinutes?: number } = {}): Promise<Clinic> {
  const { session } = await registerUser({ name: 'Clínica Peña' });
  const token = session.token;
  const userId = session.user._id;
  await must(api('PUT', '/api/user/profile', { token, body: { name: 'Clínica Peña', language: 'es', timeZone: ZONE, country: 'ES' } }));
  await grantSubscription(userId);
  const key = (await must<CreatedApiKey>(api('POST', '/api/api-keys', { token, body: { name: 'Agenda web' } }), 201)).key;
  const c = { token };
  await must(call(c, 'PUT', '/api/bookings/settings', { ...RULES, ...options.rules }));
  const staff = await must<BookingStaff>(call(c, 'POST', '/api/bookings/staff', { name: 'Dra. García', weeklyHours: options.hours ?? weekdaysOnly }), 201);
  const service = await must<BookingService>(
    call(c, 'POST', '/api/bookings/services', {
      name: 'Limpieza dental',
      durationMinutes: options.durationMinutes ?? 30,
      bufferAfterMinutes: options.bufferAfterMinutes ?? 0,
      priceCents: 4500,
      staffIds: [staff._id],
    }),
    201,
  );
  return { token, userId, key, staff, service };
}

let phoneSeq = 0;
/** A Spanish mobile written as people write it (no +34), different each time. */
const spanishPhone = () => `6${String(10_000_000 + ((Date.now() + phoneSeq++ * 7919) % 89_999_999)).padStart(8, '0')}`;

const bookingBody = (c: Clinic, start: string, extra: Record<string, unknown> = {}) => ({
  serviceId: c.service._id,
  staffId: c.staff._id,
  start,
  customer: { name: 'Lucía Fernández', phone: spanishPhone() },
  ...extra,
});
const book = (c: Clinic, start: string, extra: Record<string, unknown> = {}) => call<Booking>(c, 'POST', '/api/bookings', bookingBody(c, start, extra));

/** Everything the API shows of the clinic (and its contact count): a refusal must leave it as it was. */
async function snapshot(c: Clinic, options: { contacts?: boolean } = {}) {
  const from = today();
  const [settings, services, staff, bookings, contacts] = await Promise.all([
    must<BookingSettings>(call(c, 'GET', '/api/bookings/settings')),
    must<BookingService[]>(call(c, 'GET', '/api/bookings/services')),
    must<BookingStaff[]>(call(c, 'GET', '/api/bookings/staff')),
    must<BookingList>(call(c, 'GET', `/api/bookings?from=${from}&to=${addDays(from, BOOKING_LIMITS.listDays - 1)}`)),
    options.contacts === false ? undefined : contactCount(c),
  ]);
  return { settings, services, staff, bookings, contacts };
}

const contactCount = async (c: Clinic) => ((await call<unknown[]>(c, 'GET', '/api/contacts')).body.pagination as { totalContacts: number } | undefined)?.totalContacts;

/** A Monday at least two weeks ahead (the doctor's hours, past any notice). */
const aMonday = (weeksAhead = 2) => nextWeekday(addDays(today(), 7 * weeksAhead), 0);

// ---------------------------------------------------------------------------------------------

describe('bookings API: the setup and the bookings, with the token and with an API key', () => {
  it('saves the rules, creates, reads, replaces and deletes staff and services (Spanish names)', async () => {
    const c = await clinic();

    const settings = await must<BookingSettings>(call(c, 'GET', '/api/bookings/settings'));
    expect(settings).toMatchObject({ ...RULES, updatedAt: expect.any(String) });
    const saved = await call<BookingSettings>(c, 'PUT', '/api/bookings/settings', {
      ...RULES,
      slotStepMinutes: 30,
      closures: [{ from: '2026-12-24', to: '2026-12-26', reason: 'Navidad' }],
      confirmationTemplate: { name: 'confirmacion_cita', language: 'es' },
    });
    expect(saved.status, saved.body.message).toBe(200);
    expect(saved.body.message).toBe(bookingMessages.settingsSaved);
    expect(saved.body.data).toMatchObject({ slotStepMinutes: 30, closures: [{ _id: expect.any(String), from: '2026-12-24', to: '2026-12-26', reason: 'Navidad' }] });
    expect(await must(call(c, 'GET', '/api/bookings/settings'))).toEqual(saved.body.data);

    const room = await call<BookingStaff>(c, 'POST', '/api/bookings/staff', { name: '  Sillón 2  ', kind: 'room', weeklyHours: everyDay([{ start: '08:00', end: '15:00' }]) });
    expect(room.status, room.body.message).toBe(201);
    expect(room.body.message).toBe(bookingMessages.staffCreated);
    expect(room.body.data).toMatchObject({ name: 'Sillón 2', kind: 'room', closures: [], googleCalendarIds: [] });
    const roomId = room.body.data!._id;
    expect(await must(call(c, 'GET', `/api/bookings/staff/${roomId}`))).toEqual(room.body.data);
    const put = await call<BookingStaff>(c, 'PUT', `/api/bookings/staff/${roomId}`, {
      name: 'Sillón 3',
      kind: 'room',
      weeklyHours: weekdaysOnly,
      closures: [{ from: addDays(today(), 10), to: addDays(today(), 12), reason: 'Reforma' }],
    });
    expect(put.status, put.body.message).toBe(200);
    expect(put.body.message).toBe(bookingMessages.staffUpdated);
    expect(put.body.data).toMatchObject({ _id: roomId, name: 'Sillón 3', weeklyHours: weekdaysOnly, closures: [{ reason: 'Reforma' }] });
    expect((await must<BookingStaff[]>(call(c, 'GET', '/api/bookings/staff'))).map((s) => s.name).sort()).toEqual(['Dra. García', 'Sillón 3']);

    const svc = await call<BookingService>(c, 'POST', '/api/bookings/services', { name: 'Empaste', durationMinutes: 45, bufferAfterMinutes: 15, priceCents: 6000, staffIds: [c.staff._id, roomId], bookableByAgent: false });
    expect(svc.status, svc.body.message).toBe(201);
    expect(svc.body.message).toBe(bookingMessages.serviceCreated);
    expect(svc.body.data).toMatchObject({ name: 'Empaste', durationMinutes: 45, bufferAfterMinutes: 15, priceCents: 6000, bookableByAgent: false });
    const svcId = svc.body.data!._id;
    const svcPut = await call<BookingService>(c, 'PUT', `/api/bookings/services/${svcId}`, { name: 'Empaste grande', durationMinutes: 60, staffIds: [roomId] });
    expect(svcPut.status, svcPut.body.message).toBe(200);
    expect(svcPut.body.message).toBe(bookingMessages.serviceUpdated);
    // A PUT is the whole service: the fields left out take their defaults.
    expect(svcPut.body.data).toMatchObject({ _id: svcId, name: 'Empaste grande', durationMinutes: 60, bufferAfterMinutes: 0, priceCents: null, staffIds: [roomId], bookableByAgent: true });
    expect(await must(call(c, 'GET', `/api/bookings/services/${svcId}`))).toEqual(svcPut.body.data);

    const del = await call(c, 'DELETE', `/api/bookings/services/${svcId}`);
    expect(del.status, del.body.message).toBe(200);
    expect(del.body.message).toBe(bookingMessages.serviceDeleted);
    const gone = await call(c, 'GET', `/api/bookings/services/${svcId}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(bookingMessages.serviceNotFound);
    expect((await must<BookingService[]>(call(c, 'GET', '/api/bookings/services'))).map((s) => s.name)).toEqual(['Limpieza dental']);

    const delStaff = await call(c, 'DELETE', `/api/bookings/staff/${roomId}`);
    expect(delStaff.status, delStaff.body.message).toBe(200);
    expect(delStaff.body.message).toBe(bookingMessages.staffDeleted);
    const staffGone = await call(c, 'GET', `/api/bookings/staff/${roomId}`);
    expect(staffGone.status).toBe(404);
    expect(staffGone.body.message).toBe(bookingMessages.staffNotFound);
  });

  it('books (the phone without +34 becomes E.164 and a contact), reads, lists, moves, changes the status and cancels', async () => {
    const c = await clinic();
    const monday = aMonday();
    const phone = '612 345 678';

    const created = await call<Booking>(c, 'POST', '/api/bookings', {
      serviceId: c.service._id,
      staffId: c.staff._id,
      start: `${monday}T10:30`,
      customer: { name: 'Lucía Fernández', phone },
      notes: '  Primera visita, trae radiografías  ',
    });

    expect(created.status, created.body.message).toBe(201);
    expect(created.body.message).toBe(bookingMessages.created);
    const b = created.body.data!;
    expect(b).toMatchObject({
      serviceId: c.service._id,
      serviceName: 'Limpieza dental',
      staffId: c.staff._id,
      staffName: 'Dra. García',
      timeZone: ZONE,
      status: 'confirmed',
      customer: { name: 'Lucía Fernández', phone: '+34612345678', contactId: expect.any(String) },
      channel: 'dashboard',
      bookedBy: 'owner',
      conversationId: null,
      callId: null,
      notes: 'Primera visita, trae radiografías',
      priceCents: 4500,
      cancelledAt: null,
    });
    expect(Date.parse(b.start)).toBe(madrid(`${monday}T10:30`));
    expect(Date.parse(b.end) - Date.parse(b.start)).toBe(30 * 60_000);
    expect(await must(call(c, 'GET', `/api/bookings/${b._id}`))).toEqual(b);
    const contact = await call<{ phoneNumber: string; name: string }>(c, 'GET', `/api/contacts/${b.customer.contactId}`);
    expect(contact.body.data).toMatchObject({ phoneNumber: '+34612345678' });

    const list = await must<BookingList>(call(c, 'GET', `/api/bookings?from=${monday}&to=${monday}`));
    expect(list).toEqual({ bookings: [b], nextCursor: null });

    const moved = await call<Booking>(c, 'PATCH', `/api/bookings/${b._id}`, { start: `${addDays(monday, 1)}T17:15`, notes: 'Cambiada a la tarde' });
    expect(moved.status, moved.body.message).toBe(200);
    expect(moved.body.message).toBe(bookingMessages.updated);
    expect(moved.body.data).toMatchObject({ _id: b._id, status: 'confirmed', notes: 'Cambiada a la tarde' });
    expect(localOf(moved.body.data!.start)).toBe(`${addDays(monday, 1)}T17:15`);
    // The old time is free again: someone else can book it.
    expect((await book(c, `${monday}T10:30`)).status).toBe(201);
    expect((await must<BookingList>(call(c, 'GET', `/api/bookings?from=${monday}&to=${addDays(monday, 1)}`))).bookings.map((x) => localOf(x.start))).toEqual([
      `${monday}T10:30`,
      `${addDays(monday, 1)}T17:15`,
    ]);

    const cancelled = await call<Booking>(c, 'POST', `/api/bookings/${b._id}/cancel`);
    expect(cancelled.status, cancelled.body.message).toBe(200);
    expect(cancelled.body.message).toBe(bookingMessages.cancelled);
    expect(cancelled.body.data).toMatchObject({ _id: b._id, status: 'cancelled', cancelledAt: expect.any(String) });
    const onlyConfirmed = await must<BookingList>(call(c, 'GET', `/api/bookings?from=${monday}&to=${addDays(monday, 1)}&status=confirmed`));
    expect(onlyConfirmed.bookings.map((x) => localOf(x.start))).toEqual([`${monday}T10:30`]);
    const onlyCancelled = await must<BookingList>(call(c, 'GET', `/api/bookings?from=${monday}&to=${addDays(monday, 1)}&status=cancelled`));
    expect(onlyCancelled.bookings.map((x) => x._id)).toEqual([b._id]);
    // Its time is free again; a cancelled booking keeps its notes editable but is not moved, nor cancelled twice.
    expect((await book(c, `${addDays(monday, 1)}T17:15`)).status).toBe(201);
    for (const [method, path, body] of [
      ['PATCH', `/api/bookings/${b._id}`, { start: `${addDays(monday, 2)}T10:00` }],
      ['PATCH', `/api/bookings/${b._id}`, { status: 'completed' }],
      ['POST', `/api/bookings/${b._id}/cancel`, undefined],
    ] as const) {
      const again = await call(c, method, path, body);
      expect([again.status, again.body.message], `${method} ${JSON.stringify(body)}`).toEqual([400, bookingMessages.notActive]);
    }
    const noted = await call<Booking>(c, 'PATCH', `/api/bookings/${b._id}`, { notes: 'Avisó por teléfono' });
    expect(noted.status, noted.body.message).toBe(200);
    expect(noted.body.data).toMatchObject({ status: 'cancelled', notes: 'Avisó por teléfono' });
    // The owner marks a kept booking's status (completed, no-show).
    const kept = await must<Booking>(call(c, 'PATCH', `/api/bookings/${(await must<BookingList>(call(c, 'GET', `/api/bookings?from=${monday}&to=${monday}`))).bookings[0]!._id}`, { status: 'no_show' }));
    expect(kept.status).toBe('no_show');
  });

  it("an API key books, lists, reads, moves and cancels as 'api', and sees the services and staff it needs; the setup stays the owner's", async () => {
    const c = await clinic();
    const monday = aMonday(3);

    const services = await withKey<BookingService[]>(c, 'GET', '/api/bookings/services');
    const staff = await withKey<BookingStaff[]>(c, 'GET', '/api/bookings/staff');
    expect(services.status).toBe(200);
    expect(services.body.data!.map((s) => s._id)).toEqual([c.service._id]);
    expect(staff.body.data!.map((s) => s._id)).toEqual([c.staff._id]);

    const slots = await withKey<BookingSlot[]>(c, 'GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}&to=${monday}&limit=3`);
    expect(slots.status, slots.body.message).toBe(200);
    expect(slots.body.data!.map((s) => localOf(s.start))).toEqual([`${monday}T09:00`, `${monday}T09:15`, `${monday}T09:30`]);
    expect(slots.body.data![0]).toMatchObject({ staffId: c.staff._id, staffName: 'Dra. García', label: expect.any(String) });

    const created = await withKey<Booking>(c, 'POST', '/api/bookings', { serviceId: c.service._id, start: slots.body.data![0]!.start, customer: { name: 'José Núñez', phone: '612345679' } });
    expect(created.status, created.body.message).toBe(201);
    expect(created.body.data).toMatchObject({ bookedBy: 'api', channel: 'api', staffId: c.staff._id, customer: { phone: '+34612345679' } });
    const id = created.body.data!._id;
    expect((await withKey<Booking>(c, 'GET', `/api/bookings/${id}`)).body.data).toEqual(created.body.data);
    expect((await withKey<BookingList>(c, 'GET', `/api/bookings?from=${monday}&to=${monday}`)).body.data!.bookings.map((x) => x._id)).toEqual([id]);
    const moved = await withKey<Booking>(c, 'PATCH', `/api/bookings/${id}`, { start: `${monday}T12:00` });
    expect(moved.status, moved.body.message).toBe(200);
    expect(localOf(moved.body.data!.start)).toBe(`${monday}T12:00`);
    const cancelled = await withKey<Booking>(c, 'POST', `/api/bookings/${id}/cancel`);
    expect(cancelled.status, cancelled.body.message).toBe(200);
    expect(cancelled.body.data!.status).toBe('cancelled');

    // The owner's setup routes refuse a key (403), and write nothing.
    const before = await snapshot(c);
    for (const [method, path, body] of [
      ['GET', '/api/bookings/settings'],
      ['PUT', '/api/bookings/settings', RULES],
      ['POST', '/api/bookings/services', { name: 'Ortodoncia', durationMinutes: 30, staffIds: [c.staff._id] }],
      ['GET', `/api/bookings/services/${c.service._id}`],
      ['PUT', `/api/bookings/services/${c.service._id}`, { name: 'Otra', durationMinutes: 30, staffIds: [c.staff._id] }],
      ['DELETE', `/api/bookings/services/${c.service._id}`],
      ['POST', '/api/bookings/staff', { name: 'Dr. Ruiz', weeklyHours: weekdaysOnly }],
      ['GET', `/api/bookings/staff/${c.staff._id}`],
      ['PUT', `/api/bookings/staff/${c.staff._id}`, { name: 'Otro', weeklyHours: weekdaysOnly }],
      ['DELETE', `/api/bookings/staff/${c.staff._id}`],
    ] as const) {
      expect((await withKey(c, method, path, body)).status, `${method} ${path}`).toBe(403);
    }
    expect(await snapshot(c)).toEqual(before);
  });
});

describe('bookings API: every validation text is a 400 that changes nothing', () => {
  it('settings, staff, services, bookings, changes and queries: each bad input answers its text', async () => {
    const c = await clinic();
    const monday = aMonday();
    const existing = await must<Booking>(book(c, `${monday}T09:00`), 201);
    const before = await snapshot(c);
    const longReason = 'ñ'.repeat(BOOKING_LIMITS.closureReason + 1);
    const range = (start: string, end: string) => ({ ...weekdaysOnly, mon: [{ start, end }] });
    const staff = (extra: Record<string, unknown>) => ({ name: 'Dr. Ruiz', weeklyHours: weekdaysOnly, ...extra });
    const service = (extra: Record<string, unknown>) => ({ name: 'Ortodoncia', durationMinutes: 30, staffIds: [c.staff._id], ...extra });
    const booking = (extra: Record<string, unknown>) => ({ ...bookingBody(c, `${monday}T11:00`), ...extra });

    const cases: [string, string, unknown, string][] = [
      // settings
      ['PUT', '/api/bookings/settings', { ...RULES, timeZone: 'Europa/Madrid' }, bookingMessages.timeZoneInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, timeZone: '../../etc/passwd' }, bookingMessages.timeZoneInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, minNoticeMinutes: -1 }, bookingMessages.minNoticeInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, minNoticeMinutes: 1.5 }, bookingMessages.minNoticeInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, maxAdvanceDays: 0 }, bookingMessages.maxAdvanceInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, maxAdvanceDays: 366 }, bookingMessages.maxAdvanceInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, slotStepMinutes: 20 }, bookingMessages.slotStepInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, reminderHours: 0 }, bookingMessages.reminderHoursInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, reminderHours: 169 }, bookingMessages.reminderHoursInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, reminderTemplate: { name: '', language: 'es' } }, bookingMessages.templateInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, confirmationTemplate: { name: 'cita', language: 'español' } }, bookingMessages.templateInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, emailOwner: 'sí' }, bookingMessages.booleanInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, closures: [{ from: '2027-02-30', to: '2027-03-01' }] }, bookingMessages.dateInvalid],
      ['PUT', '/api/bookings/settings', { ...RULES, closures: [{ from: '2027-01-10', to: '2027-01-05' }] }, bookingMessages.closureOrder],
      ['PUT', '/api/bookings/settings', { ...RULES, closures: [{ from: '2027-01-01', to: '2028-01-05' }] }, bookingMessages.closureTooLong],
      ['PUT', '/api/bookings/settings', { ...RULES, closures: [{ from: '2027-01-01', to: '2027-01-01', reason: longReason }] }, bookingMessages.closureReasonTooLong],
      [
        'PUT',
        '/api/bookings/settings',
        { ...RULES, closures: Array.from({ length: BOOKING_LIMITS.closures + 1 }, (_, i) => ({ from: addDays('2027-01-01', i), to: addDays('2027-01-01', i) })) },
        bookingMessages.tooManyClosures,
      ],
      ['PUT', '/api/bookings/settings', { ...RULES, colour: 'azul' }, bookingMessages.unknownField('colour')],
      ['PUT', '/api/bookings/settings', [RULES], bookingMessages.notObject],
      // staff: hours and closures
      ['POST', '/api/bookings/staff', staff({ name: '   ' }), bookingMessages.staffNameRequired],
      ['POST', '/api/bookings/staff', staff({ name: 'ñ'.repeat(BOOKING_LIMITS.staffName + 1) }), bookingMessages.staffNameTooLong],
      ['POST', '/api/bookings/staff', staff({ kind: 'robot' }), bookingMessages.staffKindInvalid],
      ['POST', '/api/bookings/staff', staff({ weeklyHours: range('9:00', '14:00') }), bookingMessages.timeInvalid],
      ['POST', '/api/bookings/staff', staff({ weeklyHours: range('09:07', '14:00') }), bookingMessages.timeInvalid],
      ['POST', '/api/bookings/staff', staff({ weeklyHours: range('09:00', '24:05') }), bookingMessages.timeInvalid],
      ['POST', '/api/bookings/staff', staff({ weeklyHours: range('24:00', '24:00') }), bookingMessages.timeInvalid],
      ['POST', '/api/bookings/staff', staff({ weeklyHours: range('14:00', '09:00') }), bookingMessages.rangeOrder],
      ['POST', '/api/bookings/staff', staff({ weeklyHours: range('09:00', '09:00') }), bookingMessages.rangeOrder],
      [
        'POST',
        '/api/bookings/staff',
        staff({ weeklyHours: { ...weekdaysOnly, tue: [{ start: '09:00', end: '14:00' }, { start: '13:30', end: '18:00' }] } }),
        bookingMessages.rangesOverlap,
      ],
      [
        'POST',
        '/api/bookings/staff',
        staff({ weeklyHours: { ...weekdaysOnly, wed: Array.from({ length: BOOKING_LIMITS.rangesPerDay + 1 }, (_, i) => ({ start: `${String(8 + i).padStart(2, '0')}:00`, end: `${String(8 + i).padStart(2, '0')}:30` })) } }),
        bookingMessages.tooManyRanges,
      ],
      ['POST', '/api/bookings/staff', staff({ weeklyHours: { ...weekdaysOnly, lun: [] } }), bookingMessages.unknownField('lun')],
      ['POST', '/api/bookings/staff', staff({ weeklyHours: { ...weekdaysOnly, mon: [{ start: '09:00', end: '14:00', break: true }] } }), bookingMessages.unknownField('break')],
      ['POST', '/api/bookings/staff', staff({ closures: [{ from: '1 de enero', to: '2027-01-02' }] }), bookingMessages.dateInvalid],
      ['POST', '/api/bookings/staff', staff({ closures: [{ from: '2027-08-31', to: '2027-08-01', reason: 'Vacaciones' }] }), bookingMessages.closureOrder],
      ['POST', '/api/bookings/staff', staff({ email: 'ruiz@example.com' }), bookingMessages.unknownField('email')],
      ['PUT', `/api/bookings/staff/${c.staff._id}`, staff({ weeklyHours: range('18:00', '10:00') }), bookingMessages.rangeOrder],
      ['POST', '/api/bookings/staff', 'Dr. Ruiz', bookingMessages.notObject],
      // services
      ['POST', '/api/bookings/services', service({ name: '' }), bookingMessages.serviceNameRequired],
      ['POST', '/api/bookings/services', service({ name: 'é'.repeat(BOOKING_LIMITS.serviceName + 1) }), bookingMessages.serviceNameTooLong],
      ['POST', '/api/bookings/services', service({ durationMinutes: 7 }), bookingMessages.durationInvalid],
      ['POST', '/api/bookings/services', service({ durationMinutes: 0 }), bookingMessages.durationInvalid],
      // Longer than a working day.
      ['POST', '/api/bookings/services', service({ durationMinutes: BOOKING_LIMITS.maxDurationMinutes + 5 }), bookingMessages.durationInvalid],
      ['POST', '/api/bookings/services', service({ durationMinutes: '30' }), bookingMessages.durationInvalid],
      ['POST', '/api/bookings/services', service({ bufferAfterMinutes: 3 }), bookingMessages.bufferInvalid],
      ['POST', '/api/bookings/services', service({ priceCents: -100 }), bookingMessages.priceInvalid],
      ['POST', '/api/bookings/services', service({ priceCents: 45.5 }), bookingMessages.priceInvalid],
      ['POST', '/api/bookings/services', service({ staffIds: [] }), bookingMessages.serviceStaffRequired],
      ['POST', '/api/bookings/services', service({ staffIds: ['01JNOSUCHSTAFF000000000000'] }), bookingMessages.serviceStaffUnknown],
      ['POST', '/api/bookings/services', service({ bookableByAgent: 'no' }), bookingMessages.booleanInvalid],
      ['POST', '/api/bookings/services', service({ color: 'verde' }), bookingMessages.unknownField('color')],
      ['PUT', `/api/bookings/services/${c.service._id}`, service({ durationMinutes: 725 }), bookingMessages.durationInvalid],
      // bookings
      ['POST', '/api/bookings', booking({ start: 'mañana a las 10' }), bookingMessages.startInvalid],
      ['POST', '/api/bookings', booking({ start: `${monday} 11:00` }), bookingMessages.startInvalid],
      ['POST', '/api/bookings', booking({ start: `${monday}T11:07` }), bookingMessages.offStep],
      ['POST', '/api/bookings', booking({ serviceId: '' }), bookingMessages.serviceRequired],
      ['POST', '/api/bookings', booking({ customer: { name: ' ', phone: '612345678' } }), bookingMessages.customerNameRequired],
      ['POST', '/api/bookings', booking({ customer: { name: 'ñ'.repeat(BOOKING_LIMITS.customerName + 1), phone: '612345678' } }), bookingMessages.customerNameTooLong],
      ['POST', '/api/bookings', booking({ customer: { name: 'Lucía', phone: '12' } }), bookingMessages.customerPhoneInvalid],
      ['POST', '/api/bookings', booking({ customer: { name: 'Lucía', phone: 'no tengo' } }), bookingMessages.customerPhoneInvalid],
      ['POST', '/api/bookings', booking({ customer: { name: 'Lucía', phone: '612345678', email: 'l@example.com' } }), bookingMessages.unknownField('email')],
      ['POST', '/api/bookings', booking({ notes: 'x'.repeat(BOOKING_LIMITS.notes + 1) }), bookingMessages.notesTooLong],
      // A huge body: the limit's text, not a crash or a 5xx.
      ['POST', '/api/bookings', booking({ notes: 'ñ'.repeat(2_000_000) }), bookingMessages.notesTooLong],
      ['POST', '/api/bookings', booking({ status: 'confirmed' }), bookingMessages.unknownField('status')],
      ['POST', '/api/bookings', 'Lucía a las 10', bookingMessages.notObject],
      // changes
      ['PATCH', `/api/bookings/${existing._id}`, {}, bookingMessages.notObject],
      ['PATCH', `/api/bookings/${existing._id}`, { status: 'done' }, bookingMessages.statusInvalid],
      ['PATCH', `/api/bookings/${existing._id}`, { start: '10:00' }, bookingMessages.startInvalid],
      ['PATCH', `/api/bookings/${existing._id}`, { notes: 'x'.repeat(BOOKING_LIMITS.notes + 1) }, bookingMessages.notesTooLong],
      ['PATCH', `/api/bookings/${existing._id}`, { serviceId: c.service._id }, bookingMessages.unknownField('serviceId')],
      // queries
      ['GET', `/api/bookings/availability?from=${monday}&to=${monday}`, undefined, bookingMessages.serviceRequired],
      ['GET', `/api/bookings/availability?serviceId=${c.service._id}&from=2027-02-30&to=2027-03-01`, undefined, bookingMessages.rangeInvalid],
      ['GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}`, undefined, bookingMessages.rangeInvalid],
      ['GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}&to=${addDays(monday, -1)}`, undefined, bookingMessages.rangeInvalid],
      [
        'GET',
        `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}&to=${addDays(monday, BOOKING_LIMITS.availabilityDays)}`,
        undefined,
        bookingMessages.rangeTooLong(BOOKING_LIMITS.availabilityDays),
      ],
      ['GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}&to=${monday}&day=lunes`, undefined, bookingMessages.unknownField('day')],
      ['GET', '/api/bookings?from=hoy&to=mañana', undefined, bookingMessages.rangeInvalid],
      ['GET', `/api/bookings?from=${monday}&to=${addDays(monday, -3)}`, undefined, bookingMessages.rangeInvalid],
      ['GET', `/api/bookings?from=${monday}&to=${addDays(monday, BOOKING_LIMITS.listDays)}`, undefined, bookingMessages.rangeTooLong(BOOKING_LIMITS.listDays)],
      ['GET', `/api/bookings?from=${monday}&to=${monday}&status=pendiente`, undefined, bookingMessages.statusInvalid],
      ['GET', `/api/bookings?from=${monday}&to=${monday}&sort=desc`, undefined, bookingMessages.unknownField('sort')],
    ];

    const wrong: string[] = [];
    for (const [method, path, body, message] of cases) {
      const res = await call(c, method, path, body);
      if (res.status !== 400 || res.body.message !== message || res.body.success !== false) wrong.push(`${method} ${path.slice(0, 90)} ${JSON.stringify(body)?.slice(0, 90)} → ${res.status} ${res.body.message} (expected 400 ${message})`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(c)).toEqual(before);
  });

  it('times the rules refuse: in the past, too soon, too far ahead (API), outside hours, on a closure, across midnight, longer than the day — 4xx with the rule, nothing booked', async () => {
    const c = await clinic({ rules: { maxAdvanceDays: 60, closures: [] } });
    const monday = aMonday();
    const closedFriday = addDays(monday, 4);
    const staffClosedDay = addDays(monday, 2);
    await must(call(c, 'PUT', '/api/bookings/settings', { ...RULES, maxAdvanceDays: 60, closures: [{ from: closedFriday, to: closedFriday, reason: 'Fiesta local' }] }));
    await must(call(c, 'PUT', `/api/bookings/staff/${c.staff._id}`, { name: 'Dra. García', weeklyHours: weekdaysOnly, closures: [{ from: staffClosedDay, to: staffClosedDay, reason: 'Congreso' }] }));
    // A night service: open 18:00 to midnight every day; a 60-minute visit at 23:30 would end the next day.
    const night = await must<BookingStaff>(call(c, 'POST', '/api/bookings/staff', { name: 'Guardia', weeklyHours: everyDay([{ start: '18:00', end: '24:00' }]) }), 201);
    const nightService = await must<BookingService>(call(c, 'POST', '/api/bookings/services', { name: 'Urgencia', durationMinutes: 60, staffIds: [night._id] }), 201);
    // Twelve hours (the longest service) in a doctor's day of nine.
    const long = await must<BookingService>(call(c, 'POST', '/api/bookings/services', { name: 'Cirugía completa', durationMinutes: BOOKING_LIMITS.maxDurationMinutes, staffIds: [c.staff._id] }), 201);
    const other = await must<BookingStaff>(call(c, 'POST', '/api/bookings/staff', { name: 'Dr. Ruiz', weeklyHours: weekdaysOnly }), 201);
    // Soon: an hour from now (on a 5-minute step), with a line open round the clock.
    const line = await must<BookingStaff>(call(c, 'POST', '/api/bookings/staff', { name: 'Teléfono 24 h', weeklyHours: everyDay([{ start: '00:00', end: '24:00' }]) }), 201);
    const phoneService = await must<BookingService>(call(c, 'POST', '/api/bookings/services', { name: 'Consulta telefónica', durationMinutes: 15, staffIds: [line._id] }), 201);
    const inAnHour = localOf(Math.ceil((Date.now() + 60 * 60_000) / 300_000) * 300_000);
    // A 15-minute call from 23:50 would end the next day: then midnight, still under the 120 minutes' notice.
    const soon = inAnHour.slice(11) > '23:45' ? `${addDays(inAnHour.slice(0, 10), 1)}T00:00` : inAnHour;
    const farMonday = `${nextWeekday(addDays(today(), 70), 0)}T10:00`;
    const anHourAgo = new Date(Math.floor((Date.now() - 3_600_000) / 300_000) * 300_000).toISOString();

    // The contacts a refusal leaves behind: the next test.
    const before = await snapshot(c, { contacts: false });

    // [what, body, status, message, sent with the API key (the notice and how far ahead bind the API and the agent, not the owner)]
    const cases: [string, Record<string, unknown>, number, string, boolean?][] = [
      ['in the past', bookingBody(c, '2025-03-03T10:00'), 400, bookingMessages.inPast],
      ['an hour ago (UTC instant)', bookingBody(c, anHourAgo, { serviceId: phoneService._id, staffId: line._id }), 400, bookingMessages.inPast],
      ['in the past, with the key', bookingBody(c, '2025-03-03T10:00'), 400, bookingMessages.inPast, true],
      ['too soon', bookingBody(c, soon, { serviceId: phoneService._id, staffId: line._id }), 400, bookingMessages.tooSoon(120), true],
      ['too far ahead', bookingBody(c, farMonday), 400, bookingMessages.tooFarAhead(60), true],
      ['outside hours, with the key', bookingBody(c, `${monday}T08:30`), 400, bookingMessages.outsideHours, true],
      ['before opening', bookingBody(c, `${monday}T08:30`), 400, bookingMessages.outsideHours],
      ['over the lunch break', bookingBody(c, `${monday}T13:45`), 400, bookingMessages.outsideHours],
      ['past closing', bookingBody(c, `${monday}T19:45`), 400, bookingMessages.outsideHours],
      ['on a Sunday (no hours)', bookingBody(c, `${addDays(monday, 6)}T10:00`), 400, bookingMessages.outsideHours],
      ['on the business closure', bookingBody(c, `${closedFriday}T10:00`), 400, bookingMessages.closed],
      ["on the staff member's closure", bookingBody(c, `${staffClosedDay}T10:00`), 400, bookingMessages.closed],
      ['across midnight', bookingBody(c, `${monday}T23:30`, { serviceId: nightService._id, staffId: night._id }), 400, bookingMessages.outsideHours],
      ['longer than the working day', bookingBody(c, `${monday}T09:00`, { serviceId: long._id }), 400, bookingMessages.outsideHours],
      ['a staff member who does not do the service', bookingBody(c, `${monday}T10:00`, { staffId: other._id }), 400, bookingMessages.staffCannotDoService],
      ['an unknown service', bookingBody(c, `${monday}T10:00`, { serviceId: '01JNOSUCHSERVICE0000000000' }), 404, bookingMessages.serviceNotFound],
      ['an unknown staff member', bookingBody(c, `${monday}T10:00`, { staffId: '01JNOSUCHSTAFF000000000000' }), 404, bookingMessages.staffNotFound],
    ];

    const wrong: string[] = [];
    for (const [what, body, status, message, viaKey] of cases) {
      const res = viaKey ? await withKey(c, 'POST', '/api/bookings', body) : await call(c, 'POST', '/api/bookings', body);
      if (res.status !== status || res.body.message !== message) wrong.push(`${what}: ${String(body.start)} → ${res.status} ${res.body.message} (expected ${status} ${message})`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(c, { contacts: false })).toEqual(before);

    // The owner in the app may book at short notice and beyond the API's horizon.
    expect((await call(c, 'POST', '/api/bookings', bookingBody(c, soon, { serviceId: phoneService._id, staffId: line._id }))).status).toBe(201);
    expect((await book(c, farMonday)).status).toBe(201);

    // A move goes through the same rules.
    const ok = await must<Booking>(book(c, `${monday}T10:00`), 201);
    for (const [start, message] of [
      [`${monday}T08:00`, bookingMessages.outsideHours],
      [`${closedFriday}T10:00`, bookingMessages.closed],
      ['2025-03-03T10:00', bookingMessages.inPast],
    ] as const) {
      const res = await call<Booking>(c, 'PATCH', `/api/bookings/${ok._id}`, { start });
      expect([res.status, res.body.message], start).toEqual([400, message]);
    }
    expect(await must(call(c, 'GET', `/api/bookings/${ok._id}`))).toEqual(ok);
  });

  it('a refused booking leaves no contact behind: nothing half-written (outside hours, on a closure, the slot taken)', async () => {
    const c = await clinic();
    const monday = aMonday();
    await must(call(c, 'PUT', `/api/bookings/staff/${c.staff._id}`, { name: 'Dra. García', weeklyHours: weekdaysOnly, closures: [{ from: addDays(monday, 1), to: addDays(monday, 1), reason: 'Congreso' }] }));
    await must(book(c, `${monday}T10:00`), 201);
    const contacts = await contactCount(c);

    const refused = await Promise.all([
      book(c, `${monday}T08:00`, { customer: { name: 'Marta Ruiz', phone: spanishPhone() } }),
      book(c, `${addDays(monday, 1)}T10:00`, { customer: { name: 'Pablo Gil', phone: spanishPhone() } }),
      withKey<Booking>(c, 'POST', '/api/bookings', bookingBody(c, `${monday}T10:00`, { customer: { name: 'Nuria Sanz', phone: spanishPhone() } })),
    ]);

    expect(refused.map((r) => [r.status, r.body.message])).toEqual([
      [400, bookingMessages.outsideHours],
      [400, bookingMessages.closed],
      [409, bookingMessages.slotTaken],
    ]);
    expect(await contactCount(c)).toBe(contacts);
  });
});

describe('bookings API: names, caps, and a service nobody can do', () => {
  it('a taken name is a 409, the caps (staff, services, Google calendars) a 400, and a service whose staff are gone books nobody', { timeout: 120_000 }, async () => {
    const c = await clinic();
    const ruiz = await must<BookingStaff>(call(c, 'POST', '/api/bookings/staff', { name: 'Dr. Ruiz', weeklyHours: weekdaysOnly }), 201);
    const ortho = await must<BookingService>(call(c, 'POST', '/api/bookings/services', { name: 'Ortodoncia', durationMinutes: 45, staffIds: [ruiz._id] }), 201);
    const before = await snapshot(c);

    const refusals: [string, string, unknown, number, string][] = [
      ['POST', '/api/bookings/services', { name: 'Limpieza dental', durationMinutes: 30, staffIds: [c.staff._id] }, 409, bookingMessages.serviceNameTaken],
      ['PUT', `/api/bookings/services/${ortho._id}`, { name: 'Limpieza dental', durationMinutes: 30, staffIds: [ruiz._id] }, 409, bookingMessages.serviceNameTaken],
      ['POST', '/api/bookings/staff', { name: 'Dra. García', weeklyHours: weekdaysOnly }, 409, bookingMessages.staffNameTaken],
      ['PUT', `/api/bookings/staff/${ruiz._id}`, { name: 'Dra. García', weeklyHours: weekdaysOnly }, 409, bookingMessages.staffNameTaken],
      [
        'POST',
        '/api/bookings/staff',
        { name: 'Sala 3', weeklyHours: weekdaysOnly, googleCalendarIds: Array.from({ length: BOOKING_LIMITS.googleCalendars + 1 }, (_, i) => `sala${i}@group.calendar.google.com`) },
        400,
        bookingMessages.googleCalendarUnknown,
      ],
    ];
    for (const [method, path, body, status, message] of refusals) {
      const res = await call(c, method, path, body);
      expect([res.status, res.body.message], `${method} ${path}`).toEqual([status, message]);
    }
    expect(await snapshot(c)).toEqual(before);

    // Ruiz leaves (no bookings): Ortodoncia has nobody to do it.
    await must(call(c, 'DELETE', `/api/bookings/staff/${ruiz._id}`));
    const monday = aMonday();
    const slots = await call(c, 'GET', `/api/bookings/availability?serviceId=${ortho._id}&from=${monday}&to=${monday}`);
    const booked = await call(c, 'POST', '/api/bookings', { ...bookingBody(c, `${monday}T10:00`), serviceId: ortho._id, staffId: undefined });
    expect([slots.status, slots.body.message]).toEqual([400, bookingMessages.noStaffForService]);
    expect([booked.status, booked.body.message]).toEqual([400, bookingMessages.noStaffForService]);

    // The caps: staff members and rooms, then services (a few at a time).
    const fill = async (count: number, make: (i: number) => Promise<ApiResponse<unknown>>) => {
      for (let i = 0; i < count; i += 10) {
        const batch = await Promise.all(Array.from({ length: Math.min(10, count - i) }, (_, j) => make(i + j)));
        expect(batch.map((r) => r.status)).toEqual(batch.map(() => 201));
      }
    };
    const staffNow = (await must<BookingStaff[]>(call(c, 'GET', '/api/bookings/staff'))).length;
    await fill(BOOKING_LIMITS.staffPerUser - staffNow, (i) => call(c, 'POST', '/api/bookings/staff', { name: `Sillón ${i + 1}`, kind: 'room', weeklyHours: weekdaysOnly }));
    const overStaff = await call(c, 'POST', '/api/bookings/staff', { name: 'Uno más', weeklyHours: weekdaysOnly });
    expect([overStaff.status, overStaff.body.message]).toEqual([400, bookingMessages.tooManyStaff]);
    const servicesNow = (await must<BookingService[]>(call(c, 'GET', '/api/bookings/services'))).length;
    await fill(BOOKING_LIMITS.servicesPerUser - servicesNow, (i) => call(c, 'POST', '/api/bookings/services', { name: `Tratamiento ${i + 1}`, durationMinutes: 30, staffIds: [c.staff._id] }));
    const overServices = await call(c, 'POST', '/api/bookings/services', { name: 'Uno más', durationMinutes: 30, staffIds: [c.staff._id] });
    expect([overServices.status, overServices.body.message]).toEqual([400, bookingMessages.tooManyServices]);
    expect(await must<BookingStaff[]>(call(c, 'GET', '/api/bookings/staff'))).toHaveLength(BOOKING_LIMITS.staffPerUser);
    expect(await must<BookingService[]>(call(c, 'GET', '/api/bookings/services'))).toHaveLength(BOOKING_LIMITS.servicesPerUser);
    // Deleting one frees a place.
    await must(call(c, 'DELETE', `/api/bookings/services/${ortho._id}`));
    expect((await call(c, 'POST', '/api/bookings/services', { name: 'Uno más', durationMinutes: 30, staffIds: [c.staff._id] })).status).toBe(201);
  });
});

describe('bookings API: two tenants', () => {
  it("every id of another account answers 404 on every route, with its token and its API key, and the owner's data is untouched", async () => {
    const [a, b] = await Promise.all([clinic(), clinic()]);
    const booking = await must<Booking>(book(a, `${aMonday()}T10:00`), 201);
    await must(book(b, `${aMonday()}T10:00`), 201);
    const before = await snapshot(a);

    const monday = aMonday();
    // [method, path, body, message, also with B's API key (the public routes)]
    const probes: [string, string, unknown, string, boolean][] = [
      ['GET', `/api/bookings/services/${a.service._id}`, undefined, bookingMessages.serviceNotFound, false],
      ['PUT', `/api/bookings/services/${a.service._id}`, { name: 'Robado', durationMinutes: 30, staffIds: [b.staff._id] }, bookingMessages.serviceNotFound, false],
      ['DELETE', `/api/bookings/services/${a.service._id}`, undefined, bookingMessages.serviceNotFound, false],
      ['GET', `/api/bookings/staff/${a.staff._id}`, undefined, bookingMessages.staffNotFound, false],
      ['PUT', `/api/bookings/staff/${a.staff._id}`, { name: 'Robado', weeklyHours: weekdaysOnly }, bookingMessages.staffNotFound, false],
      ['DELETE', `/api/bookings/staff/${a.staff._id}`, undefined, bookingMessages.staffNotFound, false],
      ['GET', `/api/bookings/${booking._id}`, undefined, bookingMessages.notFound, true],
      ['PATCH', `/api/bookings/${booking._id}`, { notes: 'Robada' }, bookingMessages.notFound, true],
      ['PATCH', `/api/bookings/${booking._id}`, { start: `${monday}T12:00` }, bookingMessages.notFound, true],
      ['POST', `/api/bookings/${booking._id}/cancel`, undefined, bookingMessages.notFound, true],
      ['POST', '/api/bookings', { ...bookingBody(b, `${monday}T11:00`), serviceId: a.service._id }, bookingMessages.serviceNotFound, true],
      ['POST', '/api/bookings', { ...bookingBody(b, `${monday}T11:00`), staffId: a.staff._id }, bookingMessages.staffNotFound, true],
      ['GET', `/api/bookings/availability?serviceId=${a.service._id}&from=${monday}&to=${monday}`, undefined, bookingMessages.serviceNotFound, true],
    ];
    const wrong: string[] = [];
    for (const [method, path, body, message, publicRoute] of probes) {
      const res = await call(b, method, path, body);
      if (res.status !== 404 || res.body.message !== message) wrong.push(`token: ${method} ${path} → ${res.status} ${res.body.message}`);
      if (!publicRoute) continue;
      const viaKey = await withKey(b, method, path, body);
      if (viaKey.status !== 404 || viaKey.body.message !== message) wrong.push(`key: ${method} ${path} → ${viaKey.status} ${viaKey.body.message}`);
    }
    // A's staff is not B's to give a service to.
    const svc = await call(b, 'POST', '/api/bookings/services', { name: 'Mezcla', durationMinutes: 30, staffIds: [a.staff._id] });
    if (svc.status !== 400 || svc.body.message !== bookingMessages.serviceStaffUnknown) wrong.push(`service with A's staff → ${svc.status} ${svc.body.message}`);
    expect(wrong).toEqual([]);

    expect(await snapshot(a)).toEqual(before);
    const theirs = await must<BookingList>(call(b, 'GET', `/api/bookings?from=${today()}&to=${addDays(today(), 90)}`));
    expect(theirs.bookings.map((x) => x.customer.name)).toEqual(['Lucía Fernández']);
    expect(theirs.bookings.map((x) => x._id)).not.toContain(booking._id);
    expect((await must<BookingService[]>(call(b, 'GET', '/api/bookings/services'))).map((s) => s._id)).toEqual([b.service._id]);
  });
});

describe('bookings API: odd ids', () => {
  it('ids of 2,000 characters, of emoji, with an encoded slash or a key separator answer 404 on every route that takes one, never 5xx', async () => {
    const c = await clinic();
    const before = await snapshot(c);
    const ids = ['a'.repeat(2_000), encodeURIComponent('😀'.repeat(300)), 'a%2Fb', encodeURIComponent('STAFF#x'), '..'];
    const routes: [string, string, unknown, string][] = [
      ['GET', '/api/bookings/services/{id}', undefined, bookingMessages.serviceNotFound],
      ['PUT', '/api/bookings/services/{id}', { name: 'Otra', durationMinutes: 30, staffIds: [c.staff._id] }, bookingMessages.serviceNotFound],
      ['DELETE', '/api/bookings/services/{id}', undefined, bookingMessages.serviceNotFound],
      ['GET', '/api/bookings/staff/{id}', undefined, bookingMessages.staffNotFound],
      ['PUT', '/api/bookings/staff/{id}', { name: 'Otro', weeklyHours: weekdaysOnly }, bookingMessages.staffNotFound],
      ['DELETE', '/api/bookings/staff/{id}', undefined, bookingMessages.staffNotFound],
      ['GET', '/api/bookings/{id}', undefined, bookingMessages.notFound],
      ['PATCH', '/api/bookings/{id}', { notes: 'x' }, bookingMessages.notFound],
      ['POST', '/api/bookings/{id}/cancel', undefined, bookingMessages.notFound],
    ];

    const wrong: string[] = [];
    for (const [method, template, body, message] of routes) {
      for (const id of ids) {
        const res = await call(c, method, template.replace('{id}', id), body);
        // '..' may be resolved away by the path's normalisation: then it is another route's answer, still a 4xx.
        const ok = id === '..' ? res.status >= 400 && res.status < 500 : res.status === 404 && res.body.message === message;
        if (!ok) wrong.push(`${method} ${template} with ${id.slice(0, 20)}… (${id.length}) → ${res.status} ${res.body.message}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot(c)).toEqual(before);
  });
});

describe('bookings API: a staff member with upcoming bookings', () => {
  it('cannot be deleted (409 with the count) until those bookings are cancelled', async () => {
    const c = await clinic();
    const monday = aMonday();
    const first = await must<Booking>(book(c, `${monday}T10:00`), 201);
    const second = await must<Booking>(book(c, `${addDays(monday, 1)}T16:30`), 201);

    const refused = await call(c, 'DELETE', `/api/bookings/staff/${c.staff._id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(bookingMessages.staffHasBookings(2));
    expect(await must(call(c, 'GET', `/api/bookings/staff/${c.staff._id}`))).toEqual(c.staff);

    await must(call(c, 'POST', `/api/bookings/${first._id}/cancel`));
    const still = await call(c, 'DELETE', `/api/bookings/staff/${c.staff._id}`);
    expect(still.status).toBe(409);
    expect(still.body.message).toBe(bookingMessages.staffHasBookings(1));

    await must(withKey(c, 'POST', `/api/bookings/${second._id}/cancel`));
    const deleted = await call(c, 'DELETE', `/api/bookings/staff/${c.staff._id}`);
    expect(deleted.status, deleted.body.message).toBe(200);
    expect(deleted.body.message).toBe(bookingMessages.staffDeleted);
    expect((await call(c, 'GET', `/api/bookings/staff/${c.staff._id}`)).status).toBe(404);
    // The cancelled bookings stay readable, with the name they were booked with.
    expect(await must(call(c, 'GET', `/api/bookings/${second._id}`))).toMatchObject({ status: 'cancelled', staffName: 'Dra. García' });
  });
});

describe('bookings API: no double booking', () => {
  it('50 parallel bookings of one slot, token and API key mixed: exactly one 201, 49 × 409, one booking listed', { timeout: 90_000 }, async () => {
    const c = await clinic();
    const monday = aMonday(4);
    const start = `${monday}T11:00`;

    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const body = bookingBody(c, start, { customer: { name: `Paciente ${i + 1}`, phone: spanishPhone() } });
        return i % 2 === 0 ? call<Booking>(c, 'POST', '/api/bookings', body) : withKey<Booking>(c, 'POST', '/api/bookings', body);
      }),
    );

    console.log(`50 parallel bookings of one slot: ${(performance.now() - started).toFixed(0)} ms through the local gateway`);
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(new Set(results.filter((r) => r.status === 409).map((r) => r.body.message))).toEqual(new Set([bookingMessages.slotTaken]));
    const winner = results.find((r) => r.status === 201)!.body.data!;
    const list = await must<BookingList>(call(c, 'GET', `/api/bookings?from=${monday}&to=${monday}`));
    expect(list.bookings).toEqual([winner]);
    // An overlapping time (not the same start) is refused too; the next free one is not.
    expect((await book(c, `${monday}T11:15`)).body.message).toBe(bookingMessages.slotTaken);
    expect((await book(c, `${monday}T10:45`)).status).toBe(409);
    expect((await book(c, `${monday}T11:30`)).status).toBe(201);
  });
});

describe('bookings API: daylight saving time in Madrid', () => {
  /** Friday 09:00 before and Monday 09:00 after the change: the same local hour, UTC one hour apart. */
  async function sameLocalHour(change: string) {
    const c = await clinic({ hours: everyDay([{ start: '09:00', end: '14:00' }]) });
    const friday = addDays(change, -2);
    const monday = addDays(change, 1);

    const before = await must<Booking>(book(c, `${friday}T09:00`), 201);
    const after = await must<Booking>(book(c, `${monday}T09:00`), 201);
    // A booking moved across the change keeps its local time.
    const moved = await must<Booking>(call(c, 'PATCH', `/api/bookings/${before._id}`, { start: `${addDays(change, 2)}T09:00` }));
    // The first slot of the change's Sunday itself is 09:00 local.
    const sunday = await must<BookingSlot[]>(call(c, 'GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${change}&to=${change}&limit=1`));
    const week = await must<BookingList>(call(c, 'GET', `/api/bookings?from=${addDays(change, -6)}&to=${addDays(change, 7)}`));
    return { before, after, moved, sunday, week, friday, monday };
  }

  const march = nextChange(3);
  const october = nextChange(10);
  // maxAdvanceDays is at most 365: in the few days after an October change the next one is further.
  const reachable = (change: string) => daysBetween(today(), addDays(change, 2)) <= BOOKING_LIMITS.maxAdvanceDays;

  it.skipIf(!reachable(march))(`spring forward (${march}): 09:00 CET is 08:00Z, 09:00 CEST is 07:00Z`, async () => {
    const r = await sameLocalHour(march);

    expect(r.before.start).toMatch(/T08:00:00(\.000)?Z$/);
    expect(r.after.start).toMatch(/T07:00:00(\.000)?Z$/);
    expect(r.moved.start).toMatch(/T07:00:00(\.000)?Z$/);
    expect(Date.parse(r.after.start) - Date.parse(r.before.start)).toBe(3 * DAY_MS - 3_600_000);
    expect(r.sunday.map((s) => [localOf(s.start), s.start.slice(11, 16)])).toEqual([[`${march}T09:00`, '07:00']]);
    expect(r.week.bookings.map((b) => localOf(b.start))).toEqual([`${r.monday}T09:00`, `${addDays(march, 2)}T09:00`]);
    expect(r.week.bookings.every((b) => b.timeZone === ZONE)).toBe(true);
  });

  it.skipIf(!reachable(october))(`fall back (${october}): 09:00 CEST is 07:00Z, 09:00 CET is 08:00Z`, async () => {
    const r = await sameLocalHour(october);

    expect(r.before.start).toMatch(/T07:00:00(\.000)?Z$/);
    expect(r.after.start).toMatch(/T08:00:00(\.000)?Z$/);
    expect(r.moved.start).toMatch(/T08:00:00(\.000)?Z$/);
    expect(Date.parse(r.after.start) - Date.parse(r.before.start)).toBe(3 * DAY_MS + 3_600_000);
    expect(r.sunday.map((s) => [localOf(s.start), s.start.slice(11, 16)])).toEqual([[`${october}T09:00`, '08:00']]);
    expect(r.week.bookings.map((b) => localOf(b.start))).toEqual([`${r.monday}T09:00`, `${addDays(october, 2)}T09:00`]);
  });
});

describe('bookings API: availability', () => {
  it('three months at once: skips the closure and the bookings, honours the split hours and the buffer, answers fast', async () => {
    const c = await clinic({ bufferAfterMinutes: 0 });
    const from = today();
    // Closed for the next eight weeks: the first free day is the Monday after.
    const reopen = nextWeekday(addDays(from, 57), 0);
    await must(call(c, 'PUT', `/api/bookings/staff/${c.staff._id}`, { name: 'Dra. García', weeklyHours: weekdaysOnly, closures: [{ from, to: addDays(reopen, -1), reason: 'Baja' }] }));
    await must(book(c, `${reopen}T09:00`), 201);
    await must(book(c, `${reopen}T10:30`), 201);
    const to = addDays(from, BOOKING_LIMITS.availabilityDays - 1);
    const query = `/api/bookings/availability?serviceId=${c.service._id}&from=${from}&to=${to}&limit=${BOOKING_LIMITS.slots}`;

    await call(c, 'GET', query); // warm
    const started = performance.now();
    const res = await call<BookingSlot[]>(c, 'GET', query);
    const ms = performance.now() - started;

    expect(res.status, res.body.message).toBe(200);
    const expected = [
      ...['09:30', '09:45', '10:00'],
      ...['11:00', '11:15', '11:30', '11:45', '12:00', '12:15', '12:30', '12:45', '13:00', '13:15', '13:30'],
      ...['16:00', '16:15', '16:30', '16:45', '17:00', '17:15'],
    ].map((t) => `${reopen}T${t}`);
    expect(res.body.data!.map((s) => localOf(s.start))).toEqual(expected);
    expect(res.body.data!.every((s) => Date.parse(s.end) - Date.parse(s.start) === 30 * 60_000 && s.staffId === c.staff._id)).toBe(true);
    expect(ms, `availability over ${BOOKING_LIMITS.availabilityDays} days took ${ms.toFixed(0)} ms`).toBeLessThan(2_000);

  });

  it("keeps the service's buffer free after each booking", async () => {
    const c = await clinic({ bufferAfterMinutes: 10 });
    const monday = aMonday();
    await must(book(c, `${monday}T10:00`), 201);

    const slots = await must<BookingSlot[]>(call(c, 'GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}&to=${monday}&limit=4`));

    // 09:30 would end at 10:00 with its buffer to 10:10; 10:00–10:30 is booked and its buffer lasts to 10:40.
    expect(slots.map((s) => localOf(s.start).slice(11))).toEqual(['09:00', '09:15', '10:45', '11:00']);
    expect((await book(c, `${monday}T10:30`)).body.message).toBe(bookingMessages.slotTaken);
    expect((await book(c, `${monday}T09:30`)).body.message).toBe(bookingMessages.slotTaken);
    expect((await book(c, `${monday}T10:45`)).status).toBe(201);
  });

  it('one staff member only, the limit, and an empty answer on days with no hours', async () => {
    const c = await clinic();
    const room = await must<BookingStaff>(call(c, 'POST', '/api/bookings/staff', { name: 'Sillón 2', kind: 'room', weeklyHours: everyDay([{ start: '07:00', end: '08:00' }]) }), 201);
    await must(call(c, 'PUT', `/api/bookings/services/${c.service._id}`, { name: 'Limpieza dental', durationMinutes: 30, staffIds: [c.staff._id, room._id] }));
    const monday = aMonday();
    const sunday = addDays(monday, 6);

    const both = await must<BookingSlot[]>(call(c, 'GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}&to=${monday}&limit=4`));
    const onlyRoom = await must<BookingSlot[]>(call(c, 'GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}&to=${monday}&staffId=${room._id}&limit=20`));
    const defaults = await must<BookingSlot[]>(call(c, 'GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}&to=${monday}`));
    const doctorSunday = await must<BookingSlot[]>(call(c, 'GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${sunday}&to=${sunday}&staffId=${c.staff._id}`));

    expect(both.map((s) => [localOf(s.start).slice(11), s.staffName])).toEqual([
      ['07:00', 'Sillón 2'],
      ['07:15', 'Sillón 2'],
      ['07:30', 'Sillón 2'],
      ['09:00', 'Dra. García'],
    ]);
    expect(onlyRoom.map((s) => localOf(s.start).slice(11))).toEqual(['07:00', '07:15', '07:30']);
    expect(defaults).toHaveLength(5);
    expect(doctorSunday).toEqual([]);
    // limit is kept within 1..20 (0 takes the default).
    const week = (limit: string) => must<BookingSlot[]>(call(c, 'GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}&to=${addDays(monday, 4)}&limit=${limit}`));
    expect(await week('99')).toHaveLength(BOOKING_LIMITS.slots);
    expect(await week('1')).toHaveLength(1);
    expect(await week('0')).toHaveLength(BOOKING_DEFAULTS.slots);
    const huge = await call(c, 'GET', `/api/bookings/availability?serviceId=${c.service._id}&from=${monday}&to=${monday}&limit=1000`);
    expect(huge.status).toBe(400);
  });
});
