/** Where the contact timeline's rows lead (issue 17; issue 30: a booking opens the calendar on its week, in the business's zone). */
import { describe, expect, it } from 'vitest';
import { timelineHref } from './ContactTimelineCard';

const booking = (start: string, timeZone = 'Europe/Madrid') => ({
  kind: 'booking' as const,
  id: 'bk1',
  booking: { event: 'booked' as const, serviceName: 'Corte', staffName: 'Sillón 2', start, end: start, timeZone, previousStart: '', channel: 'whatsapp' as const, bookedBy: 'agent' as const },
});

describe('timelineHref', () => {
  it('a call and a conversation as before', () => {
    expect(timelineHref({ kind: 'call', id: 'CA 1' })).toBe('/voice-conversations/CA%201');
    expect(timelineHref({ kind: 'conversation', id: 'c1' })).toBe('/conversations?open=c1');
  });

  it("a booking: the calendar's week of its local day (23:30 UTC is the next day in Madrid)", () => {
    expect(timelineHref(booking('2026-12-01T23:30:00.000Z'))).toBe('/bookings?view=week&date=2026-12-02');
    expect(timelineHref(booking('2026-12-01T23:30:00.000Z', 'America/Mexico_City'))).toBe('/bookings?view=week&date=2026-12-01');
    expect(timelineHref(booking('not a date'))).toBe('/bookings');
  });
});
