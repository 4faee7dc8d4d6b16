/**
 * What follows a booking's change (issue 30): the core reports each stored change through the
 * BookingEvents port (a message on the booking-events queue in production), and the worker hands
 * it to every listener in turn (composition/booking-events.ts holds the list).
 *
 * Every listener runs even when an earlier one failed, so one broken integration (Google Calendar
 * down) never keeps the customer's confirmation back; then the first failure is thrown and the
 * whole change comes back on the queue's retry schedule. Listeners are therefore idempotent (a
 * retried change reaches the ones that succeeded too): each keeps its own "done" record.
 */
import type { BookingChange, BookingChangeListener } from './ports.js';

export interface ChangeRunResult {
  /** Listener names that finished. */
  done: string[];
  /** Listener names that threw (the first error is rethrown). */
  failed: string[];
}

export async function runBookingChange(
  listeners: readonly BookingChangeListener[],
  userId: string,
  change: BookingChange,
  onError: (message: string, error: unknown, data: Record<string, unknown>) => void = () => undefined,
  delivery: { finalAttempt: boolean } = { finalAttempt: false },
): Promise<ChangeRunResult> {
  const result: ChangeRunResult = { done: [], failed: [] };
  let first: { error: unknown } | undefined;
  for (const listener of listeners) {
    try {
      await listener.handle(userId, change, delivery);
      result.done.push(listener.name);
    } catch (error) {
      result.failed.push(listener.name);
      onError('Booking change listener failed', error, { listener: listener.name, userId, bookingId: change.booking._id, kind: change.kind });
      first ??= { error };
    }
  }
  if (first) throw first.error;
  return result;
}
