/** A Madrid clinic for the bookings core's unit tests: the real service over the in-memory store, a clock you set. */
import type { BookingStaffInput, WeeklyHours } from '../../../src/contract/bookings.js';
import type { BookingActor, BookingChange, BookingCustomerDirectory, ExternalBusyTimes } from '../../../src/domain/bookings/ports.js';
import { createBookings, type BookingAccount } from '../../../src/domain/bookings/service.js';
import { toE164 } from '../../../src/domain/contacts/text.js';
import { MemoryBookingStore } from './memory-store.js';

export const USER = 'u1';
/** Monday 30 November 2026, 09:00 in Madrid. */
export const MONDAY_9 = Date.parse('2026-11-30T08:00:00Z');

export const hours = (ranges: [string, string][], days: (keyof WeeklyHours)[] = ['mon', 'tue', 'wed', 'thu', 'fri']): WeeklyHours => {
  const all: WeeklyHours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
  for (const d of days) all[d] = ranges.map(([start, end]) => ({ start, end }));
  return all;
};

export const staffInput = (name: string, weeklyHours: WeeklyHours, extra: Partial<BookingStaffInput> = {}): BookingStaffInput => ({
  name,
  kind: 'person',
  weeklyHours,
  closures: [],
  googleCalendarIds: [],
  ...extra,
});

export const owner: BookingActor = { by: 'owner', channel: 'dashboard' };
export const agentFor = (customerPhone: string): BookingActor => ({ by: 'agent', channel: 'whatsapp', conversationId: 'c1', agentId: 'a1', customerPhone });
export const api: BookingActor = { by: 'api', channel: 'api' };

/** `agentCore`: wired as the first-contact functions are (composition/agent-bookings.ts): no contact directory, no phone parsing. */
export function clinic(options: { account?: BookingAccount; failEvents?: boolean; externalBusy?: ExternalBusyTimes; agentCore?: boolean } = {}) {
  const store = new MemoryBookingStore();
  const clock = { now: MONDAY_9 };
  const events: BookingChange[] = [];
  const errors: string[] = [];
  const customers: BookingCustomerDirectory = {
    async ensure(_userId, c) {
      // The contacts directory's rule in short: Spanish numbers without a prefix.
      const digits = c.phone.replace(/[^\d+]/g, '');
      const phone = digits.startsWith('+') ? digits : `+34${digits}`;
      return { contactId: `contact-${phone}`, phone };
    },
  };
  const bookings = createBookings({
    store,
    ...(options.agentCore ? {} : { customers, phone: toE164 }),
    account: async () => options.account ?? { timeZone: 'Europe/Madrid', country: 'ES', language: 'es' },
    events: {
      async changed(_userId, change) {
        if (options.failEvents) throw new Error('queue down');
        events.push(change);
      },
    },
    ...(options.externalBusy ? { externalBusy: options.externalBusy } : {}),
    now: () => clock.now,
    onError: (message) => errors.push(message),
  });
  return { store, clock, events, errors, bookings };
}

/** A clinic with Dra. García (Mon–Fri 09:00–14:00 and 16:00–20:00), Dr. Ruiz (Mon–Sat 10:00–14:00) and a 30-minute cleaning with 10 minutes after. */
export async function setUp(options: Parameters<typeof clinic>[0] = {}) {
  const c = clinic(options);
  const garcia = await c.bookings.createStaff(USER, staffInput('Dra. García', hours([['09:00', '14:00'], ['16:00', '20:00']])));
  const ruiz = await c.bookings.createStaff(USER, staffInput('Dr. Ruiz', hours([['10:00', '14:00']], ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'])));
  const cleaning = await c.bookings.createService(USER, { name: 'Limpieza dental', durationMinutes: 30, bufferAfterMinutes: 10, priceCents: 4500, staffIds: [garcia._id, ruiz._id], bookableByAgent: true });
  return { ...c, garcia, ruiz, cleaning };
}

export const customer = { name: 'Ana López', phone: '600 111 222' };
