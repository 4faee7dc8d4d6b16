/**
 * Issue 30, the outcome ledger's first row: the agent's bookings counted per channel and hour they
 * were made (domain/bookings/outcomes.ts) and summed into the dashboard's period (agentBookingsOf):
 * cancellations leave the count and the value and are counted apart; a change handled twice, or
 * arriving late, counts once; the owner's bookings are not the agent's outcomes.
 */
import { describe, expect, it } from 'vitest';
import type { Booking } from '../../../src/contract/bookings.js';
import { countedState, createBookingOutcomes, outcomeDeltas, type BookingOutcomeStore, type CountedBooking, type OutcomeDelta } from '../../../src/domain/bookings/outcomes.js';
import type { BookingActor, BookingChange } from '../../../src/domain/bookings/ports.js';
import { bookingMetric } from '../../../src/domain/dashboard/ports.js';
import { agentBookingsOf, sumByLocalDay } from '../../../src/domain/dashboard/service.js';

const agent: BookingActor = { by: 'agent', channel: 'whatsapp', customerPhone: '+34612345678' };

function booking(over: Partial<Booking> = {}): Booking {
  return {
    _id: 'bk1',
    serviceId: 's1',
    serviceName: 'Limpieza dental',
    staffId: 'st1',
    staffName: 'Dra. García',
    start: '2026-12-01T09:00:00.000Z',
    end: '2026-12-01T09:30:00.000Z',
    timeZone: 'Europe/Madrid',
    status: 'confirmed',
    customer: { name: 'Lucía Pérez', phone: '+34612345678', contactId: 'c1' },
    channel: 'whatsapp',
    conversationId: 'conv1',
    callId: null,
    agentId: 'a1',
    bookedBy: 'agent',
    notes: '',
    priceCents: 4550,
    currency: 'eur',
    createdAt: '2026-11-28T10:15:00.000Z',
    updatedAt: '2026-11-28T10:15:00.000Z',
    cancelledAt: null,
    ...over,
  };
}

/** The store as the DynamoDB adapter behaves: markers, hour counters, and the version condition. */
function memoryStore() {
  const markers = new Map<string, CountedBooking>();
  const counters = new Map<string, number>();
  const currencies = new Map<string, string>();
  let interleave: (() => Promise<void>) | null = null;
  const store: BookingOutcomeStore = {
    async counted(userId, id) {
      const m = markers.get(`${userId}|${id}`);
      return m ? { ...m } : null;
    },
    async apply(userId, id, expected, next, deltas: readonly OutcomeDelta[]) {
      // A concurrent writer may slip in between the read and this write (once).
      const slip = interleave;
      interleave = null;
      await slip?.();
      const current = markers.get(`${userId}|${id}`);
      if ((current?.version ?? null) !== expected) return false;
      markers.set(`${userId}|${id}`, { ...next });
      for (const d of deltas) {
        const iso = new Date(Date.parse(d.madeAt)).toISOString();
        const key = `${userId}|${iso.slice(0, 10)}`;
        const hour = iso.slice(11, 13);
        for (const [figure, n] of [['bk', d.made], ['bx', d.cancelled], ['bv', d.valueCents]] as const) {
          const attr = `${key}|${bookingMetric(figure, d.channel)}${hour}`;
          counters.set(attr, (counters.get(attr) ?? 0) + n);
        }
        currencies.set(key, d.currency);
      }
      return true;
    },
  };
  /** The user's day items as the dashboard reads them. */
  const days = (userId: string) => {
    const byDay = new Map<string, Record<string, number>>();
    for (const [k, v] of counters) {
      const [u, day, attr] = k.split('|') as [string, string, string];
      if (u !== userId) continue;
      byDay.set(day, { ...byDay.get(day), [attr]: v });
    }
    return [...byDay].sort().map(([day, c]) => ({ day, counters: c, bookingCurrency: currencies.get(`${userId}|${day}`) }));
  };
  return { store, markers, days, interleaveOnce: (f: () => Promise<void>) => (interleave = f) };
}

/** The dashboard's figures of the user's counters over the given local days. */
function figures(mem: ReturnType<typeof memoryStore>, userId: string, localDays = ['2026-11-28', '2026-11-29', '2026-11-30'], tz = 'Europe/Madrid') {
  const days = mem.days(userId);
  const sums = sumByLocalDay(days, tz, localDays);
  return agentBookingsOf(
    localDays.map((d) => sums.get(d)!),
    days,
    'usd',
  );
}

const change = (kind: BookingChange['kind'], b: Booking, before?: Booking): BookingChange => ({ kind, booking: b, before, actor: agent });

describe('countedState', () => {
  it('counts the agent bookings on WhatsApp, the phone and the chat, at the hour they were made', () => {
    expect(countedState(booking())).toEqual({ version: '2026-11-28T10:15:00.000Z', channel: 'whatsapp', madeAt: '2026-11-28T10:15:00.000Z', priceCents: 4550, cancelled: false, currency: 'eur' });
    expect(countedState(booking({ channel: 'voice' }))?.channel).toBe('voice');
    expect(countedState(booking({ channel: 'chat', priceCents: null }))?.priceCents).toBe(0);
  });

  it('does not count the owner’s or the API’s bookings', () => {
    expect(countedState(booking({ bookedBy: 'owner', channel: 'dashboard' }))).toBeNull();
    expect(countedState(booking({ bookedBy: 'api', channel: 'api' }))).toBeNull();
  });
});

describe('outcomeDeltas', () => {
  const made = countedState(booking())!;
  const cancelled = countedState(booking({ status: 'cancelled', updatedAt: '2026-11-29T08:00:00.000Z' }))!;

  it('a new booking: one made, its price', () => {
    expect(outcomeDeltas(null, made)).toEqual([{ channel: 'whatsapp', madeAt: made.madeAt, made: 1, cancelled: 0, valueCents: 4550, currency: 'eur' }]);
  });

  it('a cancellation: counted apart in the hour the booking was made, its price taken back', () => {
    expect(outcomeDeltas(made, cancelled)).toEqual([{ channel: 'whatsapp', madeAt: made.madeAt, made: 0, cancelled: 1, valueCents: -4550, currency: 'eur' }]);
  });

  it('first seen already cancelled (the creation arrives late): made and cancelled at once, no value', () => {
    expect(outcomeDeltas(null, cancelled)).toEqual([{ channel: 'whatsapp', madeAt: made.madeAt, made: 1, cancelled: 1, valueCents: 0, currency: 'eur' }]);
  });

  it('a move or a new status other than cancelled: nothing', () => {
    const moved = countedState(booking({ start: '2026-12-02T09:00:00.000Z', updatedAt: '2026-11-29T09:00:00.000Z' }))!;
    const noShow = countedState(booking({ status: 'no_show', updatedAt: '2026-12-01T10:00:00.000Z' }))!;
    expect(outcomeDeltas(made, moved)).toEqual([]);
    expect(outcomeDeltas(made, noShow)).toEqual([]);
  });
});

describe('the listener and the dashboard figures', () => {
  it('counts two channels with prices, a cancellation apart, and totals them', async () => {
    const mem = memoryStore();
    const listener = createBookingOutcomes({ store: mem.store });
    const wa = booking({ _id: 'w1' });
    const phone = booking({ _id: 'p1', channel: 'voice', priceCents: 123_400, createdAt: '2026-11-29T18:00:00.000Z', updatedAt: '2026-11-29T18:00:00.000Z' });
    const free = booking({ _id: 'p2', channel: 'voice', priceCents: null, createdAt: '2026-11-29T19:00:00.000Z', updatedAt: '2026-11-29T19:00:00.000Z' });
    const chat = booking({ _id: 'c1', channel: 'chat', priceCents: 2000, createdAt: '2026-11-30T09:00:00.000Z', updatedAt: '2026-11-30T09:00:00.000Z' });
    for (const b of [wa, phone, free, chat]) await listener.handle('u1', change('created', b));
    await listener.handle('u1', change('cancelled', { ...chat, status: 'cancelled', updatedAt: '2026-11-30T10:00:00.000Z' }));
    // The owner's booking is not the agent's.
    await listener.handle('u1', change('created', booking({ _id: 'o1', bookedBy: 'owner', channel: 'dashboard' })));

    const f = figures(mem, 'u1');
    expect(f).toEqual({
      count: 3,
      cancelled: 1,
      valueCents: 4550 + 123_400,
      currency: 'EUR',
      byChannel: [
        { channel: 'whatsapp', count: 1, cancelled: 0, valueCents: 4550 },
        { channel: 'voice', count: 2, cancelled: 0, valueCents: 123_400 },
        { channel: 'chat', count: 0, cancelled: 1, valueCents: 0 },
      ],
    });
  });

  it('a change handled twice, or an older one arriving after a newer, counts once', async () => {
    const mem = memoryStore();
    const listener = createBookingOutcomes({ store: mem.store });
    const b = booking();
    const cancelled = { ...b, status: 'cancelled' as const, updatedAt: '2026-11-29T08:00:00.000Z' };
    await listener.handle('u1', change('created', b));
    await listener.handle('u1', change('created', b));
    await listener.handle('u1', change('cancelled', cancelled));
    await listener.handle('u1', change('cancelled', cancelled));
    await listener.handle('u1', change('created', b));
    expect(figures(mem, 'u1')).toMatchObject({ count: 0, cancelled: 1, valueCents: 0 });

    // Out of order from the start: the cancellation first, then its creation.
    const late = memoryStore();
    const l2 = createBookingOutcomes({ store: late.store });
    await l2.handle('u1', change('cancelled', cancelled));
    await l2.handle('u1', change('created', b));
    expect(figures(late, 'u1')).toMatchObject({ count: 0, cancelled: 1, valueCents: 0 });
  });

  it('a concurrent change between the read and the write: read again, never counted twice', async () => {
    const mem = memoryStore();
    const listener = createBookingOutcomes({ store: mem.store });
    const b = booking();
    const cancelled = { ...b, status: 'cancelled' as const, updatedAt: '2026-11-29T08:00:00.000Z' };
    // Another worker counts the creation while the cancellation, which read "nothing counted", writes.
    mem.interleaveOnce(() => createBookingOutcomes({ store: mem.store }).handle('u1', change('created', b)));
    await listener.handle('u1', change('cancelled', cancelled));
    expect(mem.markers.get('u1|bk1')).toMatchObject({ cancelled: true, version: cancelled.updatedAt });
    // The retry saw the creation's marker: it took the price back instead of counting a second booking.
    expect(mem.days('u1').map((d) => d.counters)).toEqual([{ bkwa10: 1, bxwa10: 1, bvwa10: 0 }]);
  });

  it('keeps tenants apart and follows the local day (Europe/Madrid)', async () => {
    const mem = memoryStore();
    const listener = createBookingOutcomes({ store: mem.store });
    // 23:30 UTC on 30 Nov is 00:30 on 1 Dec in Madrid: outside the three days asked for.
    await listener.handle('u1', change('created', booking({ _id: 'late', createdAt: '2026-11-30T23:30:00.000Z', updatedAt: '2026-11-30T23:30:00.000Z' })));
    await listener.handle('u2', change('created', booking({ _id: 'other' })));
    expect(figures(mem, 'u1').count).toBe(0);
    expect(figures(mem, 'u1', ['2026-12-01']).count).toBe(1);
    expect(figures(mem, 'u2').count).toBe(1);
  });

  it('with no bookings: zeros on every channel, in the account country’s currency', () => {
    expect(agentBookingsOf([], [], 'eur')).toEqual({
      count: 0,
      cancelled: 0,
      valueCents: 0,
      currency: 'EUR',
      byChannel: [
        { channel: 'whatsapp', count: 0, cancelled: 0, valueCents: 0 },
        { channel: 'voice', count: 0, cancelled: 0, valueCents: 0 },
        { channel: 'chat', count: 0, cancelled: 0, valueCents: 0 },
      ],
    });
  });
});
