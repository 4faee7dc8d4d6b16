/**
 * The bookings core over DynamoDB Local (the stack's table): createBookings with the real
 * DynamoBookingStore. No double booking under 50 parallel requests for one slot (owner and agent
 * mixed), a refused move writes nothing, a cancel frees the time, a booking across UTC midnight
 * guards both days, and a month of 10,000 bookings for 10 staff lists page by page and still
 * answers free slots from a few reads, not O(bookings).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { DynamoBookingStore } from '../../src/adapters/dynamo/bookings.js';
import { bookingMessages, type BookingStaff, type WeeklyHours } from '../../src/contract/bookings.js';
import type { BookingActor } from '../../src/domain/bookings/ports.js';
import { toE164 } from '../../src/domain/contacts/text.js';
import { createBookings } from '../../src/domain/bookings/service.js';
import { addDays, localInstant, localOf } from '../../src/domain/bookings/time.js';
import { ConflictError } from '../../src/domain/errors.js';
import { newId } from '../../src/lib/ids.js';
import { tableName } from '../support/api.js';
import { testDocumentClientAt } from '../support/document-clients.js';
import { localCredentials } from '../support/stack-clients.js';

const ZONE = 'Europe/Madrid';
const allDay = [{ start: '00:00', end: '24:00' }];
const ALL_WEEK: WeeklyHours = { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay };

/** A client counting the app's requests by operation (GetItem, Query…): what a call reads and writes. */
function countingClient() {
  const counts = new Map<string, number>();
  const counting: typeof fetch = (input, init) => {
    const target = new Headers(init?.headers).get('x-amz-target')?.split('.').at(-1) ?? '?';
    counts.set(target, (counts.get(target) ?? 0) + 1);
    return fetch(input, init);
  };
  const db = testDocumentClientAt(inject('dynamoEndpoint'), { credentials: localCredentials, fetch: counting });
  return { db, counts, reset: () => counts.clear() };
}

async function business(settings: { timeZone?: string } = {}) {
  const client = countingClient();
  const store = new DynamoBookingStore(client.db, tableName());
  const userId = randomUUID();
  const bookings = createBookings({
    store,
    customers: {
      async ensure(_u, c) {
        return { contactId: null, phone: c.phone };
      },
    },
    // The owner's typed phones, read as composition/bookings.ts reads them.
    phone: toE164,
    account: async () => ({ timeZone: settings.timeZone ?? ZONE, country: 'ES', language: 'es' }),
  });
  const { updatedAt: _u, ...input } = await bookings.settings(userId);
  await bookings.saveSettings(userId, { ...input, minNoticeMinutes: 0, maxAdvanceDays: 365, slotStepMinutes: 15 });
  return { userId, bookings, store, client };
}

const owner: BookingActor = { by: 'owner', channel: 'dashboard' };
const agent = (i: number): BookingActor => ({ by: 'agent', channel: 'whatsapp', customerPhone: `+346001${String(i).padStart(5, '0')}` });
/** A local date `days` from today in Madrid. */
const localDay = (days: number) => addDays(localOf(Date.now(), ZONE).date, days);

describe('no double booking, enforced by the database', () => {
  it('50 parallel bookings of one slot (owner and agent mixed): exactly one wins, 49 are told slotTaken', async () => {
    const { userId, bookings } = await business();
    const staff = await bookings.createStaff(userId, { name: 'Dra. García', kind: 'person', weeklyHours: ALL_WEEK, closures: [], googleCalendarIds: [] });
    const service = await bookings.createService(userId, { name: 'Limpieza', durationMinutes: 30, bufferAfterMinutes: 10, priceCents: null, staffIds: [staff._id], bookableByAgent: true });
    const start = `${localDay(3)}T10:00`;
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        bookings.book(userId, { serviceId: service._id, staffId: staff._id, start, customer: { name: `Cliente ${i}`, phone: `6001${String(i).padStart(5, '0')}` }, notes: '' }, i % 2 ? owner : agent(i)),
      ),
    );
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(lost).toHaveLength(49);
    for (const r of lost) {
      expect(r.reason).toBeInstanceOf(ConflictError);
      expect((r.reason as Error).message).toBe(bookingMessages.slotTaken);
    }
    expect((await bookings.list(userId, { from: localDay(3), to: localDay(3) })).bookings).toHaveLength(1);
    // The buffer after holds too: a start at 10:35 meets 10:00 + 30 + 10.
    await expect(
      bookings.book(userId, { serviceId: service._id, staffId: staff._id, start: `${localDay(3)}T10:35`, customer: { name: 'Luis', phone: '699888777' }, notes: '' }, owner),
    ).rejects.toThrow(bookingMessages.slotTaken);
  });

  it('12 parallel bookings of different slots of one staff member and day all succeed (version conflicts are read again, not refused)', async () => {
    const { userId, bookings } = await business();
    const staff = await bookings.createStaff(userId, { name: 'Sillón 1', kind: 'room', weeklyHours: ALL_WEEK, closures: [], googleCalendarIds: [] });
    const service = await bookings.createService(userId, { name: 'Corte', durationMinutes: 15, bufferAfterMinutes: 0, priceCents: null, staffIds: [staff._id], bookableByAgent: true });
    const day = localDay(4);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => {
        const minutes = 8 * 60 + i * 15;
        const start = `${day}T${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        return bookings.book(userId, { serviceId: service._id, start, customer: { name: 'Ana', phone: '600111222' }, notes: '' }, owner);
      }),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    expect((await bookings.list(userId, { from: day, to: day })).bookings).toHaveLength(12);
  });

  it('a move into a taken slot is refused and writes nothing; a cancel frees the time', async () => {
    const { userId, bookings, store } = await business();
    const staff = await bookings.createStaff(userId, { name: 'Dr. Ruiz', kind: 'person', weeklyHours: ALL_WEEK, closures: [], googleCalendarIds: [] });
    const service = await bookings.createService(userId, { name: 'Revisión', durationMinutes: 60, bufferAfterMinutes: 0, priceCents: 3000, staffIds: [staff._id], bookableByAgent: true });
    const day = localDay(5);
    const next = addDays(day, 1);
    const customer = { name: 'Ana', phone: '600111222' };
    const dayBusy = async (d: string) => (await store.busy(userId, [staff._id], localInstant(d, 0, ZONE), localInstant(addDays(d, 1), 0, ZONE))).get(staff._id)!;
    const a = await bookings.book(userId, { serviceId: service._id, start: `${day}T10:00`, customer, notes: '' }, owner);
    const b = await bookings.book(userId, { serviceId: service._id, start: `${day}T12:00`, customer, notes: '' }, owner);
    const before = await dayBusy(day);
    await expect(bookings.update(userId, a._id, { start: `${day}T11:30` }, owner)).rejects.toThrow(bookingMessages.slotTaken);
    expect(await bookings.get(userId, a._id)).toEqual(a);
    expect(await dayBusy(day)).toEqual(before);

    // A move to another day frees the old time and takes the new one, in one transaction.
    const moved = await bookings.update(userId, a._id, { start: `${next}T10:00` }, owner);
    expect(moved.start).toBe(new Date(localInstant(next, 600, ZONE)).toISOString());
    expect((await dayBusy(day)).map((s) => s.bookingId)).toEqual([b._id]);
    expect((await bookings.book(userId, { serviceId: service._id, start: `${day}T10:00`, customer, notes: '' }, owner)).status).toBe('confirmed');

    await bookings.cancel(userId, b._id, owner);
    expect((await bookings.book(userId, { serviceId: service._id, start: `${day}T12:00`, customer, notes: '' }, owner)).status).toBe('confirmed');

    // Two moves of one booking at once: one wins; the day holds its one span where the booking says.
    const both = await Promise.allSettled([
      bookings.update(userId, moved._id, { start: `${next}T15:00` }, owner),
      bookings.update(userId, moved._id, { start: `${next}T17:00` }, owner),
    ]);
    expect(both.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const after = await bookings.get(userId, moved._id);
    expect((await dayBusy(next)).filter((s) => s.bookingId === moved._id)).toEqual([{ bookingId: moved._id, start: Date.parse(after.start), end: Date.parse(after.end) }]);
  });

  it('a booking across UTC midnight (a Santiago evening) guards both UTC days', async () => {
    const zone = 'America/Santiago';
    const { userId, bookings, store } = await business({ timeZone: zone });
    const staff = await bookings.createStaff(userId, { name: 'Noche', kind: 'person', weeklyHours: ALL_WEEK, closures: [], googleCalendarIds: [] });
    const service = await bookings.createService(userId, { name: 'Turno', durationMinutes: 120, bufferAfterMinutes: 0, priceCents: null, staffIds: [staff._id], bookableByAgent: true });
    const day = addDays(localOf(Date.now(), zone).date, 6);
    // 20:00–22:00 in Santiago is 23:00–01:00 or 00:00–02:00 UTC.
    const a = await bookings.book(userId, { serviceId: service._id, start: `${day}T20:00`, customer: { name: 'Ana', phone: '+56912345678' }, notes: '' }, owner);
    await expect(
      bookings.book(userId, { serviceId: service._id, start: `${day}T21:00`, customer: { name: 'Luis', phone: '+56912345679' }, notes: '' }, owner),
    ).rejects.toThrow(bookingMessages.slotTaken);
    const aStart = Date.parse(a.start);
    // Read from the second UTC day only: the span is there too.
    const busy = await store.busy(userId, [staff._id], aStart + 90 * 60_000, aStart + 100 * 60_000);
    expect(busy.get(staff._id)).toEqual([{ bookingId: a._id, start: aStart, end: Date.parse(a.end) }]);
    await bookings.cancel(userId, a._id, owner);
    expect((await store.busy(userId, [staff._id], aStart, aStart + 120 * 60_000)).get(staff._id)).toEqual([]);
  });
});

describe('a month of 10,000 bookings for 10 staff', () => {
  it('lists page by page through all of them, and free slots read a few items, not O(bookings)', { timeout: 900_000 }, async () => {
    const { userId, bookings, store, client } = await business();
    const eightToEight = [{ start: '08:00', end: '20:00' }];
    const hours: WeeklyHours = { mon: eightToEight, tue: eightToEight, wed: eightToEight, thu: eightToEight, fri: eightToEight, sat: eightToEight, sun: eightToEight };
    const staff: BookingStaff[] = [];
    for (let s = 0; s < 10; s++) staff.push(await bookings.createStaff(userId, { name: `Profesional ${s + 1}`, kind: 'person', weeklyHours: hours, closures: [], googleCalendarIds: [] }));
    const service = await bookings.createService(userId, { name: 'Sesión', durationMinutes: 20, bufferAfterMinutes: 0, priceCents: null, staffIds: staff.map((s) => s._id), bookableByAgent: true });
    // 10 staff × 30 days, every 20 minutes from 08:00 to 19:20 (34 a day): 10,200 places, the first 10,000 booked.
    const first = localDay(2);
    const jobs: { staff: BookingStaff; day: string; minutes: number }[] = [];
    for (let i = 0; jobs.length < 10_000; i++) {
      const rest = Math.floor(i / 34);
      jobs.push({ staff: staff[rest % 10]!, day: addDays(first, Math.floor(rest / 10)), minutes: 8 * 60 + (i % 34) * 20 });
    }
    // Through the store's own write path (the transaction with the day items), one lane per staff member.
    const at = new Date().toISOString();
    let n = 0;
    const lane = async (member: BookingStaff) => {
      for (const job of jobs.filter((j) => j.staff._id === member._id)) {
        const start = localInstant(job.day, job.minutes, ZONE);
        const outcome = await store.writeBooking(userId, null, {
          _id: newId(),
          serviceId: service._id,
          serviceName: service.name,
          staffId: job.staff._id,
          staffName: job.staff.name,
          start: new Date(start).toISOString(),
          end: new Date(start + 20 * 60_000).toISOString(),
          timeZone: ZONE,
          status: 'confirmed',
          customer: { name: 'Cliente', phone: `+34600${String(n++ % 1000).padStart(6, '0')}`, contactId: null },
          channel: 'api',
          conversationId: null,
          callId: null,
          agentId: null,
          bookedBy: 'api',
          notes: '',
          priceCents: null,
          currency: 'eur',
          createdAt: at,
          updatedAt: at,
          cancelledAt: null,
          version: 1,
          bufferAfterMinutes: 0,
        });
        if (outcome !== 'ok') throw new Error(`seed ${outcome}`);
      }
    };
    await Promise.all(staff.map(lane));

    const lastDay = jobs.at(-1)!.day;
    // Every booking listed once, in start order, 100 a page.
    const ids = new Set<string>();
    let previous = '';
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await bookings.list(userId, { from: first, to: lastDay, ...(cursor ? { cursor } : {}) });
      for (const b of page.bookings) {
        expect(`${b.start}#${b._id}` > previous, `${previous} then ${b.start}#${b._id} on page ${pages}`).toBe(true);
        previous = `${b.start}#${b._id}`;
        ids.add(b._id);
      }
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(ids.size).toBe(10_000);
    expect(pages).toBe(100);
    // One staff member's day, filtered on the index, still complete.
    expect((await bookings.list(userId, { from: first, to: first, staffId: staff[3]!._id })).bookings).toHaveLength(34);

    // Each day is full from 08:00 to 19:20 for everyone: the free slots are 19:30 (on the 15-minute step from
    // 08:00; 19:30 + 20 fits before 20:00), 10 staff a day, soonest first, none on a booked time.
    client.reset();
    const slots = await bookings.findSlots(userId, { serviceId: service._id, from: first, to: addDays(first, 29), limit: 20 });
    expect(slots.map((s) => s.start)).toEqual([
      ...Array<string>(10).fill(new Date(localInstant(first, 19 * 60 + 30, ZONE)).toISOString()),
      ...Array<string>(10).fill(new Date(localInstant(addDays(first, 1), 19 * 60 + 30, ZONE)).toISOString()),
    ]);
    // The reads: settings and service (GetItem), the staff (Query), the week's day items (ONE Query) — not 10,000 bookings.
    expect(Object.fromEntries(client.counts)).toEqual({ GetItem: 2, Query: 2 });
    const busy = await store.busy(userId, staff.map((s) => s._id), localInstant(first, 0, ZONE), localInstant(addDays(first, 30), 0, ZONE));
    expect([...busy.values()].reduce((sum, spans) => sum + spans.length, 0)).toBe(10_000);
    for (const slot of slots) {
      const s = Date.parse(slot.start);
      expect(busy.get(slot.staffId)!.some((b) => b.start < Date.parse(slot.end) && b.end > s)).toBe(false);
    }

    // One staff member, a whole month, one slot a day: the week ahead, then ONE more Query for the rest.
    client.reset();
    const late = await bookings.findSlots(userId, { serviceId: service._id, staffId: staff[4]!._id, from: first, to: addDays(first, 29), limit: 20 });
    expect(late).toHaveLength(20);
    expect(Object.fromEntries(client.counts)).toEqual({ GetItem: 2, Query: 3 });
  });
});
