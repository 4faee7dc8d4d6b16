/**
 * The contact's timeline shows their bookings (issue 30): a BookingChangeListener that records
 * each change of a booking (booked, moved, cancelled, completed, no-show) as a timeline entry of
 * the customer's phone number, the key the contact's calls are listed by (domain/contacts/timeline.ts
 * reads them), so a booking made before the caller was saved as a contact shows too.
 *
 * Idempotent: an entry's key is the booking, its version (updatedAt) and the event, so a change
 * handled twice writes the same entry again. Order-proof: each entry stands alone.
 */
import type { BookingTimelineEvent, ContactTimelineBooking } from '../../contract/contact-timeline.js';
import type { BookingChange, BookingChangeListener } from './ports.js';

export interface BookingTimelineEntry extends ContactTimelineBooking {
  bookingId: string;
  /** The customer's number (E.164): the timeline's key. */
  phone: string;
  /** When the change happened (the booking's updatedAt). */
  at: string;
}

/** Port (adapter: adapters/dynamo/contact-timeline.ts). */
export interface BookingTimelineWriter {
  /** Stores the entry (the same entry twice = one). */
  record(userId: string, entry: BookingTimelineEntry): Promise<void>;
}

/** The timeline's event of a change; null for a change the customer's history does not show (notes only). */
export function timelineEvent(change: BookingChange): BookingTimelineEvent | null {
  switch (change.kind) {
    case 'created':
      return 'booked';
    case 'moved':
      return 'moved';
    case 'cancelled':
      return 'cancelled';
    case 'status': {
      if (change.before && change.before.status === change.booking.status) return null;
      const status = change.booking.status;
      return status === 'cancelled' || status === 'completed' || status === 'no_show' ? status : null;
    }
    default:
      return null;
  }
}

export function timelineEntry(change: BookingChange): BookingTimelineEntry | null {
  const event = timelineEvent(change);
  const { booking } = change;
  if (!event || !/^\+[1-9]\d{6,14}$/.test(booking.customer.phone)) return null;
  return {
    bookingId: booking._id,
    phone: booking.customer.phone,
    at: (event === 'booked' ? booking.createdAt : booking.updatedAt) || booking.createdAt,
    event,
    serviceName: booking.serviceName,
    staffName: booking.staffName,
    start: booking.start,
    end: booking.end,
    timeZone: booking.timeZone,
    previousStart: event === 'moved' && change.before ? change.before.start : '',
    channel: booking.channel,
    bookedBy: booking.bookedBy,
  };
}

export function createBookingTimeline(deps: { writer: BookingTimelineWriter }): BookingChangeListener {
  return {
    name: 'contact-timeline',
    async handle(userId, change) {
      const entry = timelineEntry(change);
      if (entry) await deps.writer.record(userId, entry);
    },
  };
}
