/** Issue 30: which booking changes the contact's timeline shows, and as what (domain/bookings/contact-timeline.ts). */
import { describe, expect, it } from 'vitest';
import type { Booking } from '../../../src/contract/bookings.js';
import { createBookingTimeline, timelineEntry, type BookingTimelineEntry } from '../../../src/domain/bookings/contact-timeline.js';
import type { BookingChange } from '../../../src/domain/bookings/ports.js';

const base: Booking = {
  _id: 'bk1',
  serviceId: 's1',
  serviceName: 'Corte de pelo',
  staffId: 'st1',
  staffName: 'Sillón 2',
  start: '2026-12-01T09:00:00.000Z',
  end: '2026-12-01T09:30:00.000Z',
  timeZone: 'Europe/Madrid',
  status: 'confirmed',
  customer: { name: 'Íñigo Muñoz', phone: '+34612345678', contactId: 'c1' },
  channel: 'voice',
  conversationId: null,
  callId: 'CA1',
  agentId: 'a1',
  bookedBy: 'agent',
  notes: '',
  priceCents: null,
  currency: 'eur',
  createdAt: '2026-11-28T10:00:00.000Z',
  updatedAt: '2026-11-28T10:00:00.000Z',
  cancelledAt: null,
};
const actor = { by: 'agent' as const, channel: 'voice' as const, customerPhone: '+34612345678' };
const change = (kind: BookingChange['kind'], booking: Booking, before?: Booking): BookingChange => ({ kind, booking, before, actor });

describe('booking changes on the contact timeline', () => {
  it('booked, moved (with where it was) and cancelled, each at the time it happened', () => {
    const moved = { ...base, start: '2026-12-02T10:00:00.000Z', end: '2026-12-02T10:30:00.000Z', updatedAt: '2026-11-29T08:00:00.000Z' };
    expect(timelineEntry(change('created', base))).toMatchObject({ event: 'booked', at: base.createdAt, phone: '+34612345678', serviceName: 'Corte de pelo', staffName: 'Sillón 2', previousStart: '' });
    expect(timelineEntry(change('moved', moved, base))).toMatchObject({ event: 'moved', at: moved.updatedAt, start: moved.start, previousStart: base.start });
    expect(timelineEntry(change('cancelled', { ...moved, status: 'cancelled', updatedAt: '2026-11-30T08:00:00.000Z' }))).toMatchObject({ event: 'cancelled' });
  });

  it('a status change shows as its status; a notes-only change and a booking without a valid number do not show', () => {
    expect(timelineEntry(change('status', { ...base, status: 'no_show', updatedAt: '2026-12-01T10:00:00.000Z' }, base))?.event).toBe('no_show');
    expect(timelineEntry(change('status', { ...base, notes: 'alergia', updatedAt: '2026-11-28T11:00:00.000Z' }, base))).toBeNull();
    expect(timelineEntry(change('created', { ...base, customer: { ...base.customer, phone: '612345678' } }))).toBeNull();
  });

  it('the listener records each entry through its writer', async () => {
    const written: BookingTimelineEntry[] = [];
    const listener = createBookingTimeline({ writer: { record: async (_u, e) => void written.push(e) } });
    await listener.handle('u1', change('created', base));
    await listener.handle('u1', change('status', { ...base, notes: 'x' }, base));
    expect(written.map((e) => e.event)).toEqual(['booked']);
  });
});
