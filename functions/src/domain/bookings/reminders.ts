/**
 * Booking reminders (issue 30): the customer is reminded `reminderHours` before a confirmed
 * booking, once, on WhatsApp — no Scan and no per-booking scheduler.
 *
 * - Scheduling is a booking-change listener (`reminderScheduler`): after every change it reads
 *   the booking as it is now and keeps exactly one reminder item for it — due at start −
 *   reminderHours — or none (cancelled, completed, reminders off, or the reminder time already
 *   past: a booking made later than its reminder time gets none). A move moves the item.
 * - Due reminders live in hour partitions (adapters/dynamo/booking-reminders.ts): the
 *   booking-reminders schedule (every 5 minutes) Queries the partitions of the last few hours up
 *   to now (`createReminderSweeper`), claims each due item with a conditional write (a lease, so
 *   two overlapping runs never both take one), queues a reminder job on booking-events and
 *   deletes the item. A run that died after its claim leaves the item to the next run once the
 *   lease ends.
 * - The booking-events worker sends it (`sendDueReminder`): only if the booking is still
 *   confirmed at the start the reminder was made for and has not begun; the send itself is
 *   claimed once per booking and start (the sender's notice record), so a job queued twice (two
 *   runs, an SQS redelivery) sends one message.
 */
import type { Booking, BookingSettings } from '../../contract/bookings.js';
import type { BookingChange, BookingChangeListener, Bookings } from './ports.js';

const HOUR_MS = 3_600_000;

/** One booking's reminder: due at `dueAt` for the booking starting at `start` (ISO instants). */
export interface ReminderEntry {
  userId: string;
  bookingId: string;
  start: string;
  dueAt: string;
}

/** Port: the reminder items (adapters/dynamo/booking-reminders.ts). */
export interface ReminderStore {
  /** The booking's one reminder becomes `entry` (an earlier one, at another time, goes). */
  put(entry: ReminderEntry): Promise<void>;
  /** The booking's reminder goes (none is fine). */
  remove(userId: string, bookingId: string): Promise<void>;
  /** Reminders due at or before `now` whose due time is at or after `since` (epoch ms), at most `limit`, oldest first. */
  due(since: number, now: number, limit: number): Promise<ReminderEntry[]>;
  /** Takes a due reminder for one run until `leaseUntil` (epoch ms); false when another run holds it, or it moved or went. */
  claim(entry: ReminderEntry, runId: string, now: number, leaseUntil: number): Promise<boolean>;
  /** The claimed reminder was queued: its item goes (unless the booking moved meanwhile and it is another one). */
  done(entry: ReminderEntry, runId: string): Promise<void>;
}

/** When the booking's reminder is due, or null when it gets none. */
export function reminderDueAt(booking: Pick<Booking, 'start' | 'status'>, settings: Pick<BookingSettings, 'remindersEnabled' | 'reminderHours'>, now: number): number | null {
  if (booking.status !== 'confirmed' || !settings.remindersEnabled) return null;
  const due = Date.parse(booking.start) - settings.reminderHours * HOUR_MS;
  return Number.isFinite(due) && due > now ? due : null;
}

export interface ReminderSchedulerDeps {
  bookings: Pick<Bookings, 'get' | 'settings'>;
  store: Pick<ReminderStore, 'put' | 'remove'>;
  /** The booking is gone (its NotFoundError): no reminder. */
  isNotFound(error: unknown): boolean;
  now?: () => number;
}

/** The listener that keeps a booking's reminder in step with the booking as it is now. */
export function reminderScheduler(deps: ReminderSchedulerDeps): BookingChangeListener {
  const now = deps.now ?? Date.now;
  return {
    name: 'reminder',
    async handle(userId: string, change: BookingChange): Promise<void> {
      const bookingId = change.booking._id;
      // The booking as it is now: changes may arrive out of order, the last state decides.
      let current: Booking;
      try {
        current = await deps.bookings.get(userId, bookingId);
      } catch (error) {
        if (deps.isNotFound(error)) return deps.store.remove(userId, bookingId);
        throw error;
      }
      const due = reminderDueAt(current, await deps.bookings.settings(userId), now());
      if (due === null) return deps.store.remove(userId, bookingId);
      await deps.store.put({ userId, bookingId, start: current.start, dueAt: new Date(due).toISOString() });
    },
  };
}

/** The booking-events queue, for due reminders. */
export interface ReminderJobQueue {
  enqueue(jobs: ReadonlyArray<{ userId: string; reminder: { bookingId: string; start: string; at: string } }>): Promise<void>;
}

export interface ReminderSweeperDeps {
  store: ReminderStore;
  queue: ReminderJobQueue;
  newRunId(): string;
  /** How far back a run looks for reminders an earlier run missed (the schedule was down). */
  lookbackMs?: number;
  /** How long a claim holds (a run that died is taken over after it). */
  leaseMs?: number;
  /** Reminders one run queues at most (the next run takes the rest). */
  limit?: number;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
}

export interface SweepResult {
  due: number;
  queued: number;
  /** Held by another run (or moved meanwhile). */
  skipped: number;
  failed: number;
}

export const REMINDER_LOOKBACK_MS = 6 * HOUR_MS;

export function createReminderSweeper(deps: ReminderSweeperDeps) {
  const lookback = deps.lookbackMs ?? REMINDER_LOOKBACK_MS;
  const leaseMs = deps.leaseMs ?? 5 * 60_000;
  const limit = deps.limit ?? 500;
  return {
    /** Queues every reminder due at `now` (the scheduled time of this run), each once. */
    async sweep(now: number): Promise<SweepResult> {
      const runId = deps.newRunId();
      const due = await deps.store.due(now - lookback, now, limit);
      const result: SweepResult = { due: due.length, queued: 0, skipped: 0, failed: 0 };
      const claimed: ReminderEntry[] = [];
      for (const entry of due) {
        if (await deps.store.claim(entry, runId, now, now + leaseMs)) claimed.push(entry);
        else result.skipped++;
      }
      // One batch send per 10 (the job sender chunks); an item goes only once its job is queued.
      for (let i = 0; i < claimed.length; i += 10) {
        const chunk = claimed.slice(i, i + 10);
        try {
          await deps.queue.enqueue(chunk.map((e) => ({ userId: e.userId, reminder: { bookingId: e.bookingId, start: e.start, at: new Date(now).toISOString() } })));
        } catch (error) {
          // Left claimed: the next run after the lease takes them again.
          result.failed += chunk.length;
          deps.onError?.('Booking reminders could not be queued', error, { count: chunk.length });
          continue;
        }
        result.queued += chunk.length;
        await Promise.all(
          chunk.map((e) => deps.store.done(e, runId).catch((error: unknown) => deps.onError?.('Queued reminder item not removed', error, { userId: e.userId, bookingId: e.bookingId }))),
        );
      }
      return result;
    },
  };
}

export type ReminderSweeper = ReturnType<typeof createReminderSweeper>;

/** What the worker's reminder job needs: the booking now, and the WhatsApp sender. */
export interface DueReminderDeps {
  bookings: Pick<Bookings, 'get' | 'settings'>;
  send(userId: string, booking: Booking): Promise<unknown>;
  /** The owner shortened the reminder time since it was scheduled: it goes back in, at the new time. */
  store: Pick<ReminderStore, 'put'>;
  isNotFound(error: unknown): boolean;
  now?: () => number;
}

export type DueReminderOutcome = 'sent' | 'gone' | 'stale' | 'disabled' | 'past' | 'rescheduled';

/** A reminder found due this much before the current setting's time is put back (the schedule's step, and then some). */
const EARLY_MS = 10 * 60_000;

/** The worker's side of a due reminder: still confirmed at that start, not begun, reminders on → the sender (which sends it once). */
export async function sendDueReminder(deps: DueReminderDeps, userId: string, reminder: { bookingId: string; start: string; at?: string }): Promise<DueReminderOutcome> {
  let booking: Booking;
  try {
    booking = await deps.bookings.get(userId, reminder.bookingId);
  } catch (error) {
    if (deps.isNotFound(error)) return 'gone';
    throw error;
  }
  if (booking.status !== 'confirmed' || booking.start !== reminder.start) return 'stale';
  const now = (deps.now ?? Date.now)();
  if (Date.parse(booking.start) <= now) return 'past';
  const settings = await deps.bookings.settings(userId);
  if (!settings.remindersEnabled) return 'disabled';
  // Scheduled under a longer reminder time than the owner's current one: not yet, at the new time
  // (compared with the time the run found it due, which a retried job keeps).
  const due = Date.parse(booking.start) - settings.reminderHours * HOUR_MS;
  const foundAt = reminder.at ? Date.parse(reminder.at) : Number.NaN;
  if (due > (Number.isFinite(foundAt) ? foundAt : now) + EARLY_MS) {
    await deps.store.put({ userId, bookingId: booking._id, start: booking.start, dueAt: new Date(due).toISOString() });
    return 'rescheduled';
  }
  await deps.send(userId, booking);
  return 'sent';
}
