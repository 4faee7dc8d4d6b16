/**
 * Bookings as the calendar's events: a colour per staff member (white text on each reads at
 * WCAG AA, 4.5:1 or more), wall-clock times in the business's zone (time.ts), and only confirmed
 * bookings still ahead can be dragged (a cancelled, completed or past one is read-only, as the API says).
 */
import type { Booking, BookingStaff, Closure } from '@agentdesk/functions/contract';
import { addDays, wallClock } from './time';

/** Dark enough for white text (contrast ≥ 4.5:1), told apart from their neighbours. */
export const STAFF_COLOURS = ['#1565c0', '#2e7d32', '#6a1b9a', '#c62828', '#00695c', '#ad1457', '#4e342e', '#283593', '#bf360c', '#37474f'] as const;

/** Each staff member's colour, by their order in the staff list (stable while the list is). */
export function staffColours(staff: readonly BookingStaff[]): Map<string, string> {
  return new Map(staff.map((member, i) => [member._id, STAFF_COLOURS[i % STAFF_COLOURS.length]!]));
}

/** A booking the owner can still move: confirmed and not yet started. */
export function isMovable(booking: Booking, now: Date = new Date()): boolean {
  return booking.status === 'confirmed' && Date.parse(booking.start) > now.getTime();
}

export interface CalendarEvent {
  id: string;
  title: string;
  start: string;
  end: string;
  backgroundColor: string;
  borderColor: string;
  textColor: string;
  editable: boolean;
  extendedProps: { booking: Booking };
}

/**
 * The events of these bookings for the staff shown (an empty `shown` shows everyone); cancelled
 * bookings free their time, so the calendar leaves them out (the list view shows them).
 */
export function calendarEvents(
  bookings: readonly Booking[],
  options: { timeZone: string; colours: Map<string, string>; shown: ReadonlySet<string>; statusText: (b: Booking) => string; customerName?: (customer: Booking['customer']) => string; now?: Date },
): CalendarEvent[] {
  return bookings
    .filter((b) => b.status !== 'cancelled' && (options.shown.size === 0 || options.shown.has(b.staffId)))
    .map((b) => {
      const colour = options.colours.get(b.staffId) ?? STAFF_COLOURS[STAFF_COLOURS.length - 1]!;
      const status = b.status === 'confirmed' ? '' : ` · ${options.statusText(b)}`;
      return {
        id: b._id,
        // The staff member in words too: the colour alone would not say who (WCAG 1.4.1).
        title: `${options.customerName?.(b.customer) ?? b.customer.name} · ${b.serviceName} · ${b.staffName}${status}`,
        start: wallClock(b.start, options.timeZone),
        end: wallClock(b.end, options.timeZone),
        backgroundColor: colour,
        borderColor: colour,
        textColor: '#ffffff',
        editable: isMovable(b, options.now),
        extendedProps: { booking: b },
      };
    });
}

export interface ClosureEvent {
  id: string;
  title: string;
  start: string;
  end: string;
  display: 'background';
  backgroundColor: string;
  classNames: string[];
}

/** A closed day's grey: light, so its reason reads in the text colour at AA. */
const CLOSED_GREY = '#e6e8eb';

/**
 * Closed days greyed on the grid, with their reason: the business's closures, and a staff
 * member's own when only that staff member is shown (with several shown, the others may be open).
 */
export function closureEvents(businessClosures: readonly Closure[], shownStaff: readonly BookingStaff[], closedText: (reason: string) => string): ClosureEvent[] {
  const own = shownStaff.length === 1 ? shownStaff[0]!.closures : [];
  return [...businessClosures, ...own].map((c) => ({
    id: `closure-${c._id}`,
    title: closedText(c.reason),
    start: `${c.from}T00:00:00`,
    end: `${addDays(c.to, 1)}T00:00:00`,
    display: 'background',
    backgroundColor: CLOSED_GREY,
    classNames: ['booking-closure'],
  }));
}
