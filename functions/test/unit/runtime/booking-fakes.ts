/**
 * The booking tools' unit tests run over the real bookings core (createBookings) on its in-memory
 * store (test/unit/bookings/fixture.ts): a Madrid clinic on Monday 30 November 2026 09:00 with
 * Dra. García and Dr. Pérez (Monday to Friday 09:00–14:00), 30-minute steps and no notice, a
 * 30-minute cleaning (both), a 20-minute check-up (García) and a surgery only the business books.
 * The service is wrapped to record the actors it was called with and to fail a read on demand.
 */
import type { Booking } from '../../../src/contract/bookings.js';
import type { BookingActor, Bookings } from '../../../src/domain/bookings/ports.js';
import { clinic, hours, owner, staffInput, USER } from '../bookings/fixture.js';

export { USER };
/** Monday 30 November 2026, 09:00 in Madrid (the fixture's clock). */
export { MONDAY_9 as NOW } from '../bookings/fixture.js';

export interface TestClinic {
  bookings: Bookings;
  /** Actors of book/update/cancel, in order. */
  actors: BookingActor[];
  /** Makes the next settings or ofCustomer read fail (the booking system unreachable). */
  failNext: { on: boolean };
  ids: { cleaning: string; checkup: string; surgery: string; garcia: string; perez: string };
  /** Every booking of the next weeks, any status. */
  all(): Promise<Booking[]>;
  /** A booking by the owner (another customer's, or one to move). */
  ownerBooks(serviceId: string, staffId: string, start: string, phone: string, name?: string): Promise<Booking>;
}

export async function testClinic(): Promise<TestClinic> {
  const c = clinic();
  const core = c.bookings;
  await core.saveSettings(USER, {
    timeZone: 'Europe/Madrid',
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
  const mornings = hours([['09:00', '14:00']]);
  const garcia = await core.createStaff(USER, staffInput('Dra. García', mornings));
  const perez = await core.createStaff(USER, staffInput('Dr. Pérez', mornings));
  const service = (name: string, durationMinutes: number, staffIds: string[], bookableByAgent = true) =>
    core.createService(USER, { name, durationMinutes, bufferAfterMinutes: 0, priceCents: null, staffIds, bookableByAgent });
  const cleaning = await service('Limpieza dental', 30, [garcia._id, perez._id]);
  const checkup = await service('Revisión', 20, [garcia._id]);
  const surgery = await service('Cirugía', 60, [garcia._id], false);

  const actors: BookingActor[] = [];
  const failNext = { on: false };
  const failing = <T>(read: () => Promise<T>): Promise<T> => {
    if (!failNext.on) return read();
    failNext.on = false;
    return Promise.reject(new Error('DynamoDB is down'));
  };
  const bookings: Bookings = {
    ...core,
    settings: (userId) => failing(() => core.settings(userId)),
    ofCustomer: (userId, phone, options) => failing(() => core.ofCustomer(userId, phone, options)),
    book: (userId, input, actor) => (actors.push(actor), core.book(userId, input, actor)),
    update: (userId, id, input, actor) => (actors.push(actor), core.update(userId, id, input, actor)),
    cancel: (userId, id, actor) => (actors.push(actor), core.cancel(userId, id, actor)),
  };
  return {
    bookings,
    actors,
    failNext,
    ids: { cleaning: cleaning._id, checkup: checkup._id, surgery: surgery._id, garcia: garcia._id, perez: perez._id },
    all: async () => (await core.list(USER, { from: '2026-11-30', to: '2026-12-31' })).bookings,
    ownerBooks: (serviceId, staffId, start, phone, name = 'Luis') => core.book(USER, { serviceId, staffId, start, customer: { name, phone }, notes: '' }, owner),
  };
}
