/**
 * A contact's calls, WhatsApp conversations and (issue 30) bookings (the contact page's
 * "Conversations & Calls" card): GET /api/contacts/{id}/timeline?limit=n, newest first. `limit` grows with the
 * card's "Show more" (capped): `hasMore` says whether older items exist beyond it.
 * Browser-safe: no Node imports.
 */
import * as z from 'zod/mini';
import type { BookingChannel } from './bookings.js';
import './zod-locale.js';

export const CONTACT_TIMELINE_DEFAULT_LIMIT = 10;
export const CONTACT_TIMELINE_MAX_LIMIT = 100;

export const contactTimelineMessages = {
  limitInvalid: `Limit must be a whole number from 1 to ${CONTACT_TIMELINE_MAX_LIMIT}`,
} as const;

export type ContactTimelineKind = 'call' | 'conversation' | 'booking';

/** What happened to a booking (issue 30): one timeline item per change. */
export const BOOKING_TIMELINE_EVENTS = ['booked', 'moved', 'cancelled', 'completed', 'no_show'] as const;
export type BookingTimelineEvent = (typeof BOOKING_TIMELINE_EVENTS)[number];

/** A booking's change as the contact's timeline shows it (as it was at that change). */
export interface ContactTimelineBooking {
  event: BookingTimelineEvent;
  serviceName: string;
  staffName: string;
  /** UTC ISO; shown in `timeZone` (the business's), the time the customer was given. */
  start: string;
  end: string;
  timeZone: string;
  /** moved: where it was before ('' otherwise). */
  previousStart: string;
  channel: BookingChannel;
  bookedBy: 'agent' | 'owner' | 'api';
}

export interface ContactTimelineItem {
  kind: ContactTimelineKind;
  /** The call's id (→ /voice-conversations/{id}), the conversation's (→ /conversations?open={id}) or the booking's (→ /bookings?open={id}). */
  id: string;
  /** ISO: when the call started, the conversation's latest message, or when the booking changed. */
  at: string;
  /** The call's quick summary, or the conversation's last message ('' when none; '' for a booking). */
  summary: string;
  /** The call's status (active, completed, …), the conversation's (active, closed, requires_human, archived) or the booking's event. */
  status: string;
  /** Calls: seconds; conversations: messages. */
  duration?: number;
  messageCount?: number;
  /** kind 'booking' only. */
  booking?: ContactTimelineBooking;
}

export interface ContactTimeline {
  items: ContactTimelineItem[];
  hasMore: boolean;
}

/** GET /api/contacts/{id}/timeline query string. */
export const contactTimelineQuery = z.object({
  limit: z.pipe(
    z._default(
      z.string().check(
        z.trim(),
        z.refine((v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= CONTACT_TIMELINE_MAX_LIMIT, contactTimelineMessages.limitInvalid),
      ),
      String(CONTACT_TIMELINE_DEFAULT_LIMIT),
    ),
    z.transform((v) => Number(v)),
  ),
});
export type ContactTimelineQuery = z.output<typeof contactTimelineQuery>;
