/**
 * What the customer was told about a booking (issue 30): one record per message the product owes
 * them — the confirmation of each change and the reminder — with how it ended, so the owner sees
 * a confirmation that could not go out (no template chosen outside WhatsApp's 24-hour window, no
 * WhatsApp connected, the plan's messages used up) instead of guessing.
 *
 * The record is also the send's claim: it is written once (conditional), before anything is
 * sent, so a change or reminder handled twice (a queue retry, two overlapping schedule runs)
 * messages the customer once. Adapter: adapters/dynamo/booking-messages.ts.
 */
import type { BookingCustomerMessage, BookingCustomerMessageKind, BookingCustomerMessageReason } from '../../contract/bookings.js';

export type { BookingCustomerMessage, BookingCustomerMessageKind, BookingCustomerMessageReason };

/** The claim's key within the booking: a change's confirmation by the booking's version, a reminder by its start. */
export const customerMessageKey = (kind: BookingCustomerMessageKind, version: string): string => `${kind}#${version}`;

export interface BookingCustomerMessageStore {
  /** Writes the record as 'sending' unless one exists for this key: true = this caller sends. */
  claim(userId: string, bookingId: string, key: string, kind: BookingCustomerMessageKind, at: string): Promise<boolean>;
  /** How it ended (sent, not sent and why, failed with the provider's words). */
  settle(userId: string, bookingId: string, key: string, outcome: Omit<BookingCustomerMessage, 'kind'>): Promise<void>;
  /** Lets a later try claim it again (a send WhatsApp refused for now, retried on the queue's schedule). */
  release(userId: string, bookingId: string, key: string): Promise<void>;
  /** The booking's records, oldest first (the owner's view). */
  list(userId: string, bookingId: string): Promise<BookingCustomerMessage[]>;
}

export type CustomerMessageOutcome =
  | { state: 'sent'; via: 'text' | 'template' }
  | { state: 'not_sent'; reason: BookingCustomerMessageReason }
  /** WhatsApp refused it for good (its words on the stored message and the record). */
  | { state: 'failed'; error: string }
  /** Another try or run sent it (or is sending it). */
  | { state: 'duplicate' };
