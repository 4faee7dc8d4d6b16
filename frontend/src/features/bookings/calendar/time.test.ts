import { describe, expect, it } from 'vitest';
import type { Booking, BookingStaff, WeeklyHours } from '@agentdesk/functions/contract';
import { addDays, businessHoursOf, coercedNow, localOf, nextWholeHour, rangeOf, visibleHours, wallClock } from './time';
import { calendarEvents, closureEvents, isMovable, staffColours, STAFF_COLOURS } from './events';

const closed: WeeklyHours = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const staff = (id: string, hours: Partial<WeeklyHours>): BookingStaff => ({
  _id: id,
  name: id,
  kind: 'person',
  weeklyHours: { ...closed, ...hours },
  closures: [],
  googleCalendarIds: [],
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
});

describe('the calendar clock (UTC-coerced wall clock of the business zone)', () => {
  it('shows a 09:00 Madrid booking at 09:00 on both sides of the October DST change', () => {
    // 24 Oct 2026: CEST (UTC+2); 26 Oct 2026: CET (UTC+1).
    expect(wallClock('2026-10-24T07:00:00.000Z', 'Europe/Madrid')).toBe('2026-10-24T09:00:00');
    expect(wallClock('2026-10-26T08:00:00.000Z', 'Europe/Madrid')).toBe('2026-10-26T09:00:00');
    expect(wallClock('2026-03-30T07:00:00.000Z', 'Europe/Madrid')).toBe('2026-03-30T09:00:00');
  });

  it('gives a drop back as the local time the API reads in the business zone', () => {
    expect(localOf(new Date('2026-12-01T10:30:00Z'))).toBe('2026-12-01T10:30');
    expect(coercedNow('Europe/Madrid', new Date('2026-12-01T09:15:00Z')).toISOString()).toBe('2026-12-01T10:15:00.000Z');
    expect(nextWholeHour('Europe/Madrid', new Date('2026-12-01T09:15:00Z'))).toBe('2026-12-01T11:00');
    expect(nextWholeHour('Atlantic/Canary', new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01T00:00');
  });

  it('reads FullCalendar’s exclusive range end as an inclusive last day', () => {
    expect(rangeOf(new Date('2026-11-30T00:00:00Z'), new Date('2026-12-07T00:00:00Z'))).toEqual({ from: '2026-11-30', to: '2026-12-06' });
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('shows the hours from the staff’s opening hours, widened to bookings outside them', () => {
    const ana = staff('ana', { mon: [{ start: '09:30', end: '14:00' }, { start: '16:00', end: '20:00' }] });
    const luis = staff('luis', { sat: [{ start: '10:00', end: '13:45' }] });
    expect(visibleHours([ana, luis])).toEqual({ slotMinTime: '09:00:00', slotMaxTime: '20:00:00' });
    expect(visibleHours([luis])).toEqual({ slotMinTime: '10:00:00', slotMaxTime: '14:00:00' });
    expect(visibleHours([])).toEqual({ slotMinTime: '08:00:00', slotMaxTime: '20:00:00' });
    expect(visibleHours([luis], [{ start: '2026-12-05T08:30:00', end: '2026-12-05T09:00:00' }])).toEqual({ slotMinTime: '08:00:00', slotMaxTime: '14:00:00' });
    expect(businessHoursOf([ana, luis])).toEqual([
      { daysOfWeek: [1], startTime: '09:30', endTime: '14:00' },
      { daysOfWeek: [1], startTime: '16:00', endTime: '20:00' },
      { daysOfWeek: [6], startTime: '10:00', endTime: '13:45' },
    ]);
  });
});

describe('bookings as events', () => {
  const booking = (over: Partial<Booking>): Booking => ({
    _id: 'b1',
    serviceId: 's1',
    serviceName: 'Limpieza dental',
    staffId: 'ana',
    staffName: 'Dra. García',
    start: '2026-12-01T09:00:00.000Z',
    end: '2026-12-01T09:30:00.000Z',
    timeZone: 'Europe/Madrid',
    status: 'confirmed',
    customer: { name: 'Lucía Núñez', phone: '+34612345678', contactId: null },
    channel: 'dashboard',
    conversationId: null,
    callId: null,
    agentId: null,
    bookedBy: 'owner',
    notes: '',
    priceCents: null,
    currency: 'eur',
    createdAt: '2026-11-28T00:00:00.000Z',
    updatedAt: '2026-11-28T00:00:00.000Z',
    cancelledAt: null,
    ...over,
  });
  const now = new Date('2026-11-28T12:00:00Z');
  const colours = staffColours([staff('ana', {}), staff('luis', {})]);
  const statusText = (b: Booking) => b.status;

  it('colours by staff, leaves cancelled out, filters by the staff shown and lets only upcoming confirmed ones move', () => {
    const list = [
      booking({}),
      booking({ _id: 'b2', staffId: 'luis', status: 'completed' }),
      booking({ _id: 'b3', status: 'cancelled' }),
      booking({ _id: 'b4', start: '2026-11-27T09:00:00.000Z', end: '2026-11-27T09:30:00.000Z' }),
    ];
    const all = calendarEvents(list, { timeZone: 'Europe/Madrid', colours, shown: new Set(), statusText, now });
    expect(all.map((e) => [e.id, e.start, e.backgroundColor, e.editable])).toEqual([
      ['b1', '2026-12-01T10:00:00', STAFF_COLOURS[0], true],
      ['b2', '2026-12-01T10:00:00', STAFF_COLOURS[1], false],
      ['b4', '2026-11-27T10:00:00', STAFF_COLOURS[0], false],
    ]);
    expect(all[1]!.title).toBe('Lucía Núñez · Limpieza dental · Dra. García · completed');
    expect(calendarEvents(list, { timeZone: 'Europe/Madrid', colours, shown: new Set(['luis']), statusText, now }).map((e) => e.id)).toEqual(['b2']);
    expect(isMovable(booking({ status: 'no_show' }), now)).toBe(false);
  });

  it('greys the business’s closed days, and a staff member’s own only when they alone are shown', () => {
    const holiday = { _id: 'h1', from: '2026-12-08', to: '2026-12-08', reason: 'Inmaculada Concepción' };
    const leave = { _id: 'l1', from: '2026-12-21', to: '2026-12-23', reason: '' };
    const ana = { ...staff('ana', {}), closures: [leave] };
    const text = (reason: string) => `Cerrado${reason ? `: ${reason}` : ''}`;
    expect(closureEvents([holiday], [ana], text).map((e) => [e.title, e.start, e.end, e.display])).toEqual([
      ['Cerrado: Inmaculada Concepción', '2026-12-08T00:00:00', '2026-12-09T00:00:00', 'background'],
      ['Cerrado', '2026-12-21T00:00:00', '2026-12-24T00:00:00', 'background'],
    ]);
    expect(closureEvents([holiday], [ana, staff('luis', {})], text).map((e) => e.id)).toEqual(['closure-h1']);
  });
});
