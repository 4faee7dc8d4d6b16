/** The bookings core's rules (domain/bookings/service.ts) over the in-memory store: who may book what, when, and nothing overlapping. */
import { describe, expect, it } from 'vitest';
import { BOOKING_DEFAULTS, bookingMessages } from '../../../src/contract/bookings.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../src/domain/errors.js';
import { agentFor, api, clinic, customer, hours, MONDAY_9, owner, setUp, staffInput, USER } from './fixture.js';

const rejects = async (p: Promise<unknown>, type: new (...args: never[]) => Error, message: string) => {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  expect((error as Error).message).toBe(message);
};

describe('settings', () => {
  it("default to the account's zone, else its country's main zone, else UTC, with BOOKING_DEFAULTS", async () => {
    const a = await clinic({ account: { timeZone: 'Atlantic/Canary', country: 'ES' } }).bookings.settings(USER);
    expect(a).toMatchObject({ timeZone: 'Atlantic/Canary', minNoticeMinutes: BOOKING_DEFAULTS.minNoticeMinutes, slotStepMinutes: 15, closures: [], updatedAt: null });
    expect((await clinic({ account: { country: 'ES' } }).bookings.settings(USER)).timeZone).toBe('Europe/Madrid');
    expect((await clinic({ account: {} }).bookings.settings(USER)).timeZone).toBe('UTC');
  });

  it('are validated and stored; closures get ids', async () => {
    const { bookings } = clinic();
    const base = await bookings.settings(USER);
    const { updatedAt: _u, ...input } = base;
    await rejects(bookings.saveSettings(USER, { ...input, timeZone: 'Mars/Olympus' }), ValidationError, bookingMessages.timeZoneInvalid);
    await rejects(bookings.saveSettings(USER, { ...input, slotStepMinutes: 7 as 5 }), ValidationError, bookingMessages.slotStepInvalid);
    const saved = await bookings.saveSettings(USER, { ...input, closures: [{ from: '2026-12-24', to: '2026-12-26', reason: 'Navidad' }] as never });
    expect(saved.closures[0]).toMatchObject({ from: '2026-12-24', reason: 'Navidad' });
    expect(saved.closures[0]!._id).toMatch(/^[0-9A-Z]{26}$/);
    expect(await bookings.settings(USER)).toEqual(saved);
  });
});

describe('services and staff', () => {
  it('names are unique case-insensitively; a service needs staff that exist', async () => {
    const { bookings, garcia } = await setUp();
    await rejects(bookings.createStaff(USER, staffInput('DRA. GARCÍA', hours([]))), ConflictError, bookingMessages.staffNameTaken);
    await rejects(
      bookings.createService(USER, { name: 'limpieza DENTAL', durationMinutes: 30, bufferAfterMinutes: 0, priceCents: null, staffIds: [garcia._id], bookableByAgent: true }),
      ConflictError,
      bookingMessages.serviceNameTaken,
    );
    await rejects(
      bookings.createService(USER, { name: 'Ortodoncia', durationMinutes: 30, bufferAfterMinutes: 0, priceCents: null, staffIds: ['01ZZZZZZZZZZZZZZZZZZZZZZZZ'], bookableByAgent: true }),
      ValidationError,
      bookingMessages.serviceStaffUnknown,
    );
    await rejects(
      bookings.createService(USER, { name: 'Ortodoncia', durationMinutes: 33, bufferAfterMinutes: 0, priceCents: null, staffIds: [garcia._id], bookableByAgent: true }),
      ValidationError,
      bookingMessages.durationInvalid,
    );
  });

  it('a deleted staff member leaves the services that named them (a service nobody can do says so)', async () => {
    const { bookings, garcia, ruiz, cleaning } = await setUp();
    const solo = await bookings.createService(USER, { name: 'Implante', durationMinutes: 60, bufferAfterMinutes: 0, priceCents: null, staffIds: [ruiz._id], bookableByAgent: true });
    await bookings.deleteStaff(USER, ruiz._id);
    expect((await bookings.getService(USER, cleaning._id)).staffIds).toEqual([garcia._id]);
    await rejects(bookings.findSlots(USER, { serviceId: solo._id, from: '2026-12-01', to: '2026-12-01' }), ValidationError, bookingMessages.noStaffForService);
    await rejects(bookings.book(USER, { serviceId: solo._id, start: '2026-12-01T10:00', customer, notes: '' }, owner), ValidationError, bookingMessages.noStaffForService);
  });
});

describe('findSlots', () => {
  it('soonest first after the minimum notice, on the step, in words in Spanish', async () => {
    const { bookings, cleaning } = await setUp();
    const slots = await bookings.findSlots(USER, { serviceId: cleaning._id, from: '2026-11-30', to: '2026-12-01', limit: 3 });
    // Monday 09:00 now + 120 min notice → 11:00; both do it: García first (staff order of the service).
    expect(slots).toEqual([
      { start: '2026-11-30T10:00:00.000Z', end: '2026-11-30T10:30:00.000Z', staffId: expect.any(String), staffName: 'Dra. García', label: 'lunes 30 de noviembre a las 11:00' },
      { start: '2026-11-30T10:00:00.000Z', end: '2026-11-30T10:30:00.000Z', staffId: expect.any(String), staffName: 'Dr. Ruiz', label: 'lunes 30 de noviembre a las 11:00' },
      { start: '2026-11-30T10:15:00.000Z', end: '2026-11-30T10:45:00.000Z', staffId: expect.any(String), staffName: 'Dra. García', label: 'lunes 30 de noviembre a las 11:15' },
    ]);
    const english = await bookings.findSlots(USER, { serviceId: cleaning._id, from: '2026-12-01', to: '2026-12-01', limit: 1, language: 'en' });
    expect(english[0]!.label).toBe('Tuesday 1 December at 09:00');
  });

  it('skips booked time including its buffer after', async () => {
    const { bookings, cleaning, garcia } = await setUp();
    await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T09:00', customer, notes: '' }, owner);
    const slots = await bookings.findSlots(USER, { serviceId: cleaning._id, staffId: garcia._id, from: '2026-12-01', to: '2026-12-01', limit: 2 });
    // 09:00–09:30 + 10 min after: 09:15 and 09:30 are taken, 09:45 is the first free start.
    expect(slots.map((s) => s.label)).toEqual(['martes 1 de diciembre a las 09:45', 'martes 1 de diciembre a las 10:00']);
  });

  it('refuses a bad range, a range too long, an unknown service, a staff member who does not do it; the agent only bookable services', async () => {
    const { bookings, cleaning, garcia } = await setUp();
    await rejects(bookings.findSlots(USER, { serviceId: cleaning._id, from: '2026-12-05', to: '2026-12-01' }), ValidationError, bookingMessages.rangeInvalid);
    await rejects(bookings.findSlots(USER, { serviceId: cleaning._id, from: '2026-12-01', to: '2027-06-01' }), ValidationError, bookingMessages.rangeTooLong(93));
    await rejects(bookings.findSlots(USER, { serviceId: 'nope', from: '2026-12-01', to: '2026-12-01' }), NotFoundError, bookingMessages.serviceNotFound);
    const other = await bookings.createStaff(USER, staffInput('Sillón 2', hours([['09:00', '20:00']]), { kind: 'room' }));
    await rejects(bookings.findSlots(USER, { serviceId: cleaning._id, staffId: other._id, from: '2026-12-01', to: '2026-12-01' }), ValidationError, bookingMessages.staffCannotDoService);
    const ownerOnly = await bookings.createService(USER, { name: 'Cirugía', durationMinutes: 60, bufferAfterMinutes: 0, priceCents: null, staffIds: [garcia._id], bookableByAgent: false });
    await rejects(bookings.findSlots(USER, { serviceId: ownerOnly._id, from: '2026-12-01', to: '2026-12-01', forAgent: true }), ValidationError, bookingMessages.notBookableByAgent);
    expect(await bookings.findSlots(USER, { serviceId: ownerOnly._id, from: '2026-12-01', to: '2026-12-01' })).toHaveLength(5);
  });

  it('a past or too-far range answers no slots (and reads nothing)', async () => {
    const { bookings, cleaning, store } = await setUp();
    expect(await bookings.findSlots(USER, { serviceId: cleaning._id, from: '2026-11-01', to: '2026-11-29' })).toEqual([]);
    expect(await bookings.findSlots(USER, { serviceId: cleaning._id, from: '2027-03-01', to: '2027-03-05' })).toEqual([]);
    expect(store.calls.busy ?? 0).toBe(0);
  });
});

describe('book', () => {
  it('books a local time in the business zone, with the customer in E.164 and the service as booked; tells the change', async () => {
    const { bookings, cleaning, garcia, events } = await setUp();
    const b = await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:30', customer, notes: 'Primera visita' }, owner);
    expect(b).toMatchObject({
      serviceName: 'Limpieza dental',
      staffName: 'Dra. García',
      start: '2026-12-01T09:30:00.000Z',
      end: '2026-12-01T10:00:00.000Z',
      timeZone: 'Europe/Madrid',
      status: 'confirmed',
      customer: { name: 'Ana López', phone: '+34600111222', contactId: 'contact-+34600111222' },
      channel: 'dashboard',
      bookedBy: 'owner',
      priceCents: 4500,
      currency: 'eur',
      notes: 'Primera visita',
      cancelledAt: null,
    });
    expect(Object.keys(b)).not.toContain('version');
    expect(events.map((e) => e.kind)).toEqual(['created']);
    expect(await bookings.get(USER, b._id)).toEqual(b);
  });

  it('an instant with an offset is the same time', async () => {
    const { bookings, cleaning } = await setUp();
    const b = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:30:00+01:00', customer, notes: '' }, owner);
    expect(b.start).toBe('2026-12-01T09:30:00.000Z');
  });

  it('never overlaps: the same staff member, or a start inside the other booking and its buffer, is refused', async () => {
    const { bookings, cleaning, garcia, ruiz } = await setUp();
    await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    await rejects(bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:00', customer, notes: '' }, owner), ConflictError, bookingMessages.slotTaken);
    await rejects(bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:35', customer, notes: '' }, owner), ConflictError, bookingMessages.slotTaken);
    await rejects(bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T09:25', customer, notes: '' }, owner), ConflictError, bookingMessages.slotTaken);
    expect((await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:40', customer, notes: '' }, owner)).start).toBe('2026-12-01T09:40:00.000Z');
    // Another staff member at the same time is fine.
    expect((await bookings.book(USER, { serviceId: cleaning._id, staffId: ruiz._id, start: '2026-12-01T10:00', customer, notes: '' }, owner)).staffName).toBe('Dr. Ruiz');
  });

  it('without a staff member: the first free one who does the service; slotTaken when none is free', async () => {
    const { bookings, cleaning } = await setUp();
    const first = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    const second = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    expect([first.staffName, second.staffName]).toEqual(['Dra. García', 'Dr. Ruiz']);
    await rejects(bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:00', customer, notes: '' }, owner), ConflictError, bookingMessages.slotTaken);
    // 09:30: only García works then (Ruiz from 10:00): outside hours for him, free for her.
    expect((await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T09:15', customer, notes: '' }, owner)).staffName).toBe('Dra. García');
  });

  it('refuses bad, past, off-step, outside-hours and closed starts with their messages', async () => {
    const { bookings, cleaning, garcia, clock } = await setUp();
    const book = (start: string, staffId = garcia._id) => bookings.book(USER, { serviceId: cleaning._id, staffId, start, customer, notes: '' }, owner);
    await rejects(book('2026-12-01 10:00'), ValidationError, bookingMessages.startInvalid);
    await rejects(book('2026-02-30T10:00'), ValidationError, bookingMessages.startInvalid);
    await rejects(book('2026-11-30T08:00'), ValidationError, bookingMessages.inPast);
    await rejects(book('2026-12-01T10:07'), ValidationError, bookingMessages.offStep);
    await rejects(book('2026-12-01T08:45'), ValidationError, bookingMessages.outsideHours);
    // 13:30 + 30 + 10 buffer ends 14:10, past the 14:00 close of the morning range.
    await rejects(book('2026-12-01T13:30'), ValidationError, bookingMessages.outsideHours);
    await rejects(book('2026-12-01T14:30'), ValidationError, bookingMessages.outsideHours);
    await rejects(book('2026-12-05T10:00'), ValidationError, bookingMessages.outsideHours);
    const settings = await bookings.settings(USER);
    const { updatedAt: _u, ...input } = settings;
    await bookings.saveSettings(USER, { ...input, closures: [{ from: '2026-12-08', to: '2026-12-08', reason: 'Inmaculada' }] as never });
    await rejects(book('2026-12-08T10:00'), ValidationError, bookingMessages.closed);
    await bookings.updateStaff(USER, garcia._id, staffInput('Dra. García', garcia.weeklyHours, { closures: [{ from: '2026-12-09', to: '2026-12-11', reason: 'Congreso' }] as never }));
    await rejects(book('2026-12-10T10:00'), ValidationError, bookingMessages.closed);
    clock.now = Date.parse('2026-12-01T09:00:00Z');
    await rejects(book('2026-12-01T09:30'), ValidationError, bookingMessages.inPast);
  });

  it('the agent and the API keep the notice and the horizon; the owner may book any future free time inside hours', async () => {
    const { bookings, cleaning, garcia } = await setUp();
    const input = (start: string) => ({ serviceId: cleaning._id, staffId: garcia._id, start, customer, notes: '' });
    await rejects(bookings.book(USER, input('2026-11-30T10:00'), agentFor('+34600111222')), ValidationError, bookingMessages.tooSoon(120));
    await rejects(bookings.book(USER, input('2026-11-30T10:00'), api), ValidationError, bookingMessages.tooSoon(120));
    await rejects(bookings.book(USER, input('2027-02-01T10:00'), api), ValidationError, bookingMessages.tooFarAhead(60));
    expect((await bookings.book(USER, input('2026-11-30T10:00'), owner)).status).toBe('confirmed');
    expect((await bookings.book(USER, input('2027-02-01T10:00'), owner)).status).toBe('confirmed');
  });

  it('the agent books only agent-bookable services, for the customer on the line', async () => {
    const { bookings, cleaning, garcia } = await setUp();
    const ownerOnly = await bookings.createService(USER, { name: 'Cirugía', durationMinutes: 60, bufferAfterMinutes: 0, priceCents: null, staffIds: [garcia._id], bookableByAgent: false });
    const agent = agentFor('+34611222333');
    await rejects(bookings.book(USER, { serviceId: ownerOnly._id, start: '2026-12-01T10:00', customer, notes: '' }, agent), ValidationError, bookingMessages.notBookableByAgent);
    const b = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:00', customer, notes: '' }, agent);
    expect(b).toMatchObject({ customer: { name: 'Ana López', phone: '+34611222333' }, bookedBy: 'agent', channel: 'whatsapp', conversationId: 'c1', agentId: 'a1' });
    await rejects(bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T11:00', customer, notes: '' }, { by: 'agent', channel: 'voice' }), ValidationError, bookingMessages.customerPhoneInvalid);
  });

  it("the agent's core (calls, chat, WhatsApp: no contact directory, no phone parsing) books for the E.164 number on the line and links no contact; a typed number it cannot read is refused", async () => {
    const { bookings, cleaning, store } = await setUp({ agentCore: true });
    const b = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:00', customer, notes: '' }, agentFor(' +34611222333 '));
    expect(b.customer).toEqual({ name: 'Ana López', phone: '+34611222333', contactId: null });
    expect((await store.booking(USER, b._id))?.customer.contactId).toBeNull();
    // A typed "600 111 222" needs the account's country (libphonenumber): the owner's core reads it, this one refuses it.
    await rejects(bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T11:00', customer, notes: '' }, owner), ValidationError, bookingMessages.customerPhoneInvalid);
    await rejects(bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T11:00', customer, notes: '' }, agentFor('611222333')), ValidationError, bookingMessages.customerPhoneInvalid);
  });

  it("the connected calendar's busy times: no slot offered there; the agent and the API are refused, the owner may book", async () => {
    const busyAt = { start: Date.parse('2026-12-01T09:00:00Z'), end: Date.parse('2026-12-01T10:00:00Z') }; // 10:00–11:00 in Madrid
    const { bookings, cleaning, garcia } = await setUp({
      externalBusy: { busy: async (_u, staff) => new Map(staff.map((s) => [s._id, s.name === 'Dra. García' ? [busyAt] : []])) },
    });
    const slots = await bookings.findSlots(USER, { serviceId: cleaning._id, staffId: garcia._id, from: '2026-12-01', to: '2026-12-01', limit: 20 });
    expect(slots.map((s) => s.label.slice(-5))).not.toContain('10:00');
    expect(slots.map((s) => s.label.slice(-5))).toContain('11:00');
    // 09:30 + 30 + 10 after meets 10:00.
    expect(slots.map((s) => s.label.slice(-5))).not.toContain('09:30');
    const input = { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:15', customer, notes: '' };
    await rejects(bookings.book(USER, input, api), ConflictError, bookingMessages.busyInCalendar);
    await rejects(bookings.book(USER, input, agentFor('+34600111222')), ConflictError, bookingMessages.busyInCalendar);
    expect((await bookings.book(USER, input, owner)).status).toBe('confirmed');
    // Without a staff member: the next one who does the service and is free takes it.
    expect((await bookings.book(USER, { ...input, staffId: undefined, start: '2026-12-01T10:30' } as never, api)).staffName).toBe('Dr. Ruiz');
  });

  it('a calendar that cannot be read blocks nothing (logged)', async () => {
    const { bookings, cleaning, errors } = await setUp({ externalBusy: { busy: async () => Promise.reject(new Error('Google down')) } });
    expect(await bookings.findSlots(USER, { serviceId: cleaning._id, from: '2026-12-01', to: '2026-12-01', limit: 1 })).toHaveLength(1);
    expect(errors).toContain('external busy times unavailable');
  });

  it('a failing change listener never fails the booking (logged)', async () => {
    const { bookings, cleaning, errors } = await setUp({ failEvents: true });
    const b = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    expect(b.status).toBe('confirmed');
    expect(errors).toEqual(['booking change event failed']);
  });
});

describe('update and cancel', () => {
  it('a move keeps the rules: into a taken time refused, the booking unchanged; a free one moves and tells', async () => {
    const { bookings, cleaning, garcia, ruiz, events } = await setUp();
    const a = await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T11:00', customer, notes: '' }, owner);
    await rejects(bookings.update(USER, a._id, { start: '2026-12-01T10:45' }, owner), ConflictError, bookingMessages.slotTaken);
    expect(await bookings.get(USER, a._id)).toEqual(a);
    // A move over its own old time is fine (it does not collide with itself).
    const moved = await bookings.update(USER, a._id, { start: '2026-12-01T10:15' }, owner);
    expect(moved).toMatchObject({ start: '2026-12-01T09:15:00.000Z', end: '2026-12-01T09:45:00.000Z' });
    const other = await bookings.update(USER, a._id, { staffId: ruiz._id }, owner);
    expect(other).toMatchObject({ staffId: ruiz._id, staffName: 'Dr. Ruiz', start: '2026-12-01T09:15:00.000Z' });
    expect(events.map((e) => e.kind)).toEqual(['created', 'created', 'moved', 'moved']);
    expect(events[2]!.before?.start).toBe('2026-12-01T09:00:00.000Z');
  });

  it('cancel frees the time; a cancelled booking cannot be moved or cancelled again; notes still change', async () => {
    const { bookings, cleaning, garcia, events } = await setUp();
    const a = await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    const cancelled = await bookings.cancel(USER, a._id, owner);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledAt: new Date(MONDAY_9).toISOString() });
    const again = await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    expect(again.status).toBe('confirmed');
    await rejects(bookings.cancel(USER, a._id, owner), ValidationError, bookingMessages.notActive);
    await rejects(bookings.update(USER, a._id, { start: '2026-12-02T10:00' }, owner), ValidationError, bookingMessages.notActive);
    await rejects(bookings.update(USER, a._id, { status: 'confirmed' }, owner), ValidationError, bookingMessages.notActive);
    expect((await bookings.update(USER, a._id, { notes: 'Llamó para anular' }, owner)).notes).toBe('Llamó para anular');
    expect(events.map((e) => e.kind)).toEqual(['created', 'cancelled', 'created']);
  });

  it("status cancelled through update is a cancel; completed / no-show are the owner's marks, never the agent's", async () => {
    const { bookings, cleaning, events } = await setUp();
    const phone = '+34600111222';
    const a = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    await rejects(bookings.update(USER, a._id, { status: 'completed' }, agentFor(phone)), ValidationError, bookingMessages.statusInvalid);
    expect((await bookings.update(USER, a._id, { status: 'no_show' }, owner)).status).toBe('no_show');
    expect((await bookings.update(USER, a._id, { status: 'confirmed' }, owner)).status).toBe('confirmed');
    expect((await bookings.update(USER, a._id, { status: 'cancelled' }, agentFor(phone))).status).toBe('cancelled');
    expect(events.map((e) => e.kind)).toEqual(['created', 'status', 'status', 'cancelled']);
  });

  it('a past booking cannot be moved or cancelled', async () => {
    const { bookings, cleaning, clock } = await setUp();
    const a = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    clock.now = Date.parse('2026-12-01T09:10:00Z');
    await rejects(bookings.cancel(USER, a._id, owner), ValidationError, bookingMessages.notActive);
    await rejects(bookings.update(USER, a._id, { start: '2026-12-02T10:00' }, owner), ValidationError, bookingMessages.notActive);
    expect((await bookings.update(USER, a._id, { status: 'completed' }, owner)).status).toBe('completed');
  });

  it("the agent sees and changes only its customer's bookings (another's is not found)", async () => {
    const { bookings, cleaning } = await setUp();
    const mine = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:00', customer, notes: '' }, agentFor('+34600111222'));
    const theirs = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T11:00', customer: { name: 'Luis', phone: '+34699888777' }, notes: '' }, owner);
    const agent = agentFor('+34600111222');
    expect((await bookings.get(USER, mine._id, agent))._id).toBe(mine._id);
    await rejects(bookings.get(USER, theirs._id, agent), NotFoundError, bookingMessages.notFound);
    await rejects(bookings.cancel(USER, theirs._id, agent), NotFoundError, bookingMessages.notFound);
    await rejects(bookings.update(USER, theirs._id, { start: '2026-12-02T10:00' }, agent), NotFoundError, bookingMessages.notFound);
    expect((await bookings.update(USER, mine._id, { start: '2026-12-02T10:00' }, agent)).start).toBe('2026-12-02T09:00:00.000Z');
    await rejects(bookings.get(USER, 'nope'), NotFoundError, bookingMessages.notFound);
    // Ids that cannot be ours are not found without a read (a 2,000-character key would be the table's 500).
    await rejects(bookings.get(USER, 'a'.repeat(2000)), NotFoundError, bookingMessages.notFound);
    await rejects(bookings.getService(USER, '😀'.repeat(900)), NotFoundError, bookingMessages.serviceNotFound);
    await rejects(bookings.deleteStaff(USER, `${'A'.repeat(26)}#x`), NotFoundError, bookingMessages.staffNotFound);
  });
});

describe('deleteStaff, list, ofCustomer', () => {
  it('a staff member with upcoming bookings is not deleted until they are cancelled', async () => {
    const { bookings, cleaning, garcia } = await setUp();
    const a = await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    await rejects(bookings.deleteStaff(USER, garcia._id), ConflictError, bookingMessages.staffHasBookings(1));
    await bookings.cancel(USER, a._id, owner);
    await bookings.deleteStaff(USER, garcia._id);
    await rejects(bookings.getStaff(USER, garcia._id), NotFoundError, bookingMessages.staffNotFound);
    // The booking keeps its staff member's name.
    expect((await bookings.get(USER, a._id)).staffName).toBe('Dra. García');
  });

  it('a deleted service keeps its bookings readable and movable', async () => {
    const { bookings, cleaning, garcia } = await setUp();
    const a = await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    await bookings.deleteService(USER, cleaning._id);
    expect((await bookings.get(USER, a._id)).serviceName).toBe('Limpieza dental');
    expect((await bookings.update(USER, a._id, { start: '2026-12-01T12:00' }, owner)).start).toBe('2026-12-01T11:00:00.000Z');
  });

  it('lists by local dates in pages with a cursor, filtered by staff and status', async () => {
    const { bookings, cleaning, garcia, ruiz } = await setUp();
    const made = [];
    for (const start of ['2026-12-01T09:00', '2026-12-01T10:00', '2026-12-01T11:00', '2026-12-02T09:00', '2026-12-03T10:00']) {
      made.push(await bookings.book(USER, { serviceId: cleaning._id, staffId: garcia._id, start, customer, notes: '' }, owner));
    }
    made.push(await bookings.book(USER, { serviceId: cleaning._id, staffId: ruiz._id, start: '2026-12-01T10:00', customer, notes: '' }, owner));
    await bookings.cancel(USER, made[1]!._id, owner);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await bookings.list(USER, { from: '2026-12-01', to: '2026-12-02', limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.bookings.map((b) => b.start));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['2026-12-01T08:00:00.000Z', '2026-12-01T09:00:00.000Z', '2026-12-01T09:00:00.000Z', '2026-12-01T10:00:00.000Z', '2026-12-02T08:00:00.000Z']);
    expect((await bookings.list(USER, { from: '2026-12-01', to: '2026-12-03', staffId: ruiz._id })).bookings).toHaveLength(1);
    expect((await bookings.list(USER, { from: '2026-12-01', to: '2026-12-03', status: 'cancelled' })).bookings.map((b) => b._id)).toEqual([made[1]!._id]);
    await rejects(bookings.list(USER, { from: '2026-12-01', to: '2026-12-03', cursor: 'bm9wZQ' }), ValidationError, bookingMessages.rangeInvalid);
    await rejects(bookings.list(USER, { from: '2026-12-01', to: '2027-06-03' }), ValidationError, bookingMessages.rangeTooLong(93));
  });

  it("a customer's bookings: upcoming confirmed soonest first, then the rest newest first", async () => {
    const { bookings, cleaning, clock } = await setUp();
    const a = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-03T10:00', customer, notes: '' }, owner);
    const b = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-01T10:00', customer, notes: '' }, owner);
    const c = await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-02T10:00', customer, notes: '' }, owner);
    await bookings.book(USER, { serviceId: cleaning._id, start: '2026-12-02T11:00', customer: { name: 'Luis', phone: '699888777' }, notes: '' }, owner);
    await bookings.cancel(USER, c._id, owner);
    clock.now = Date.parse('2026-12-01T12:00:00Z');
    expect((await bookings.ofCustomer(USER, '+34600111222')).map((x) => x._id)).toEqual([a._id, c._id, b._id]);
    expect((await bookings.ofCustomer(USER, '+34600111222', { upcomingOnly: true })).map((x) => x._id)).toEqual([a._id]);
  });
});
