/**
 * The first row of the outcome ledger (issue 30): bookings made by the agent, per account, per
 * channel and per hour they were MADE, with their value where the service has a price — kept by a
 * BookingChangeListener, so the dashboard reads counters, never bookings.
 *
 * What an owner sees: "the agent got me N appointments this week, worth X". A booking the
 * customer cancels later is no longer an outcome: it leaves the count and the value of the
 * period it was made in and is counted apart ("2 cancelled since"), so made = kept + cancelled
 * for any period. Moves change nothing (same booking, same price); completed and no-show stay
 * counted (the agent did book them).
 *
 * Idempotent and order-proof: per booking, a marker holds what was counted and the booking
 * version (updatedAt) it was counted at. A change applies only when newer than the marker, as
 * the difference between the new state and the marker's, written with the marker in one
 * transaction conditioned on the marker being unchanged since it was read (else read again).
 * A change handled twice, or an older change arriving late, counts nothing.
 */
import { AGENT_BOOKING_CHANNELS, type AgentBookingChannel } from '../../contract/dashboard.js';
import type { Booking } from '../../contract/bookings.js';
import type { BookingChange, BookingChangeListener } from './ports.js';

/** What the ledger counted for one booking. */
export interface CountedBooking {
  /** The booking's updatedAt when counted: older changes are ignored. */
  version: string;
  channel: AgentBookingChannel;
  /** When the booking was made (ISO): the hour it counts in. */
  madeAt: string;
  priceCents: number;
  cancelled: boolean;
  currency: string;
}

/** Additions to one channel's counters in the hour of `madeAt`. */
export interface OutcomeDelta {
  channel: AgentBookingChannel;
  madeAt: string;
  made: number;
  cancelled: number;
  valueCents: number;
  currency: string;
}

/** Port (adapter: adapters/dynamo/booking-outcomes.ts). */
export interface BookingOutcomeStore {
  /** The booking's marker, null when never counted (a strongly consistent read). */
  counted(userId: string, bookingId: string): Promise<CountedBooking | null>;
  /**
   * Writes `next` as the marker and adds the deltas, in one transaction, only if the marker's
   * version is still `expected` (null = absent). false = it changed meanwhile (nothing written).
   */
  apply(userId: string, bookingId: string, expected: string | null, next: CountedBooking, deltas: readonly OutcomeDelta[]): Promise<boolean>;
}

const isAgentChannel = (channel: string): channel is AgentBookingChannel => (AGENT_BOOKING_CHANNELS as readonly string[]).includes(channel);

/** What the ledger counts for a booking now; null when it is not the agent's (the owner's and the API's are not outcomes of the agent). */
export function countedState(booking: Booking): CountedBooking | null {
  if (booking.bookedBy !== 'agent' || !isAgentChannel(booking.channel)) return null;
  const price = booking.priceCents;
  return {
    version: booking.updatedAt || booking.createdAt,
    channel: booking.channel,
    madeAt: booking.createdAt,
    priceCents: typeof price === 'number' && Number.isFinite(price) && price > 0 ? Math.round(price) : 0,
    cancelled: booking.status === 'cancelled',
    currency: booking.currency,
  };
}

function contribution(state: CountedBooking, sign: 1 | -1): OutcomeDelta {
  return {
    channel: state.channel,
    madeAt: state.madeAt,
    made: sign,
    cancelled: state.cancelled ? sign : 0,
    valueCents: state.cancelled ? 0 : sign * state.priceCents,
    currency: state.currency,
  };
}

/** The additions that turn what was counted (`before`, null = nothing) into `after`; empty when nothing changes. */
export function outcomeDeltas(before: CountedBooking | null, after: CountedBooking): OutcomeDelta[] {
  const parts = before ? [contribution(before, -1), contribution(after, 1)] : [contribution(after, 1)];
  // The same bucket (the usual case: same channel and hour) nets out to one delta.
  const merged = new Map<string, OutcomeDelta>();
  for (const p of parts) {
    const key = `${p.channel}|${p.madeAt}`;
    const m = merged.get(key);
    if (!m) merged.set(key, { ...p });
    else {
      m.made += p.made;
      m.cancelled += p.cancelled;
      m.valueCents += p.valueCents;
      m.currency = p.currency;
    }
  }
  return [...merged.values()].filter((d) => d.made !== 0 || d.cancelled !== 0 || d.valueCents !== 0);
}

const ATTEMPTS = 8;

export function createBookingOutcomes(deps: { store: BookingOutcomeStore }): BookingChangeListener {
  return {
    name: 'outcome-counters',
    async handle(userId: string, change: BookingChange): Promise<void> {
      const after = countedState(change.booking);
      if (!after) return;
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const before = await deps.store.counted(userId, change.booking._id);
        // Handled already (a retry) or older than what is counted (a late delivery).
        if (before && before.version >= after.version) return;
        const deltas = outcomeDeltas(before, after);
        // Nothing to count (a move, notes): the marker stays; a later state change still writes a newer version.
        if (before && deltas.length === 0) return;
        if (await deps.store.apply(userId, change.booking._id, before?.version ?? null, after, deltas)) return;
      }
      throw new Error(`Booking outcome counters: booking ${change.booking._id} kept changing; try again`);
    },
  };
}
