/**
 * Recordings held by Twilio leave when the account's `recordings` retention ends (issue 33).
 * Twilio keeps a recording until it is deleted through its API, so each stored recording has a due
 * item in the partition of the UTC day its retention ends (written with the recording, one
 * transaction). The hourly schedule reads the day partitions from its cursor up to today — Queries,
 * never a Scan — and for each recording due: deletes it at Twilio (404 = already gone), marks its
 * call ("Recording deleted after N days"), removes the due item. Every step is idempotent, so a run
 * that dies half-way is finished by the next one. A recording that cannot be deleted now (Twilio
 * down or refusing) moves to the next day's partition, up to MAX_ATTEMPTS days; the cursor never
 * waits for it. A due item nothing of ours can act on any more is dropped at once instead of
 * retried for a month: its call is gone or no longer names that recording (erased, or its account
 * deleted — the deletion job deleted its recordings at Twilio itself, and the due items, in shared
 * day partitions, cannot be found by the account's key). An account whose Twilio integration is
 * disconnected but whose call still names the recording is retried daily: it may reconnect.
 */
import type { TwilioAccountApi, VoiceIntegrationReader } from '../voice/ports.js';

/** Days a recording's deletion is retried before it is given up (logged). */
export const MAX_ATTEMPTS = 30;
/**
 * Where a schedule without a cursor (its first run) starts: this many days back. A due item is
 * written at least 30 days ahead (the shortest retention) and the hourly schedule runs from the
 * deployment that writes the first one, so nothing can be due before its first run; a week back
 * covers a schedule enabled late. Each day is one Query (~8 on a first run, 1–2 afterwards).
 */
export const FIRST_RUN_LOOKBACK_DAYS = 7;
/** Days one run walks at most (a schedule that was off for a long time catches up over several runs). */
export const MAX_DAYS_PER_RUN = 90;

export interface RecordingDue {
  day: string;
  accountId: string;
  callId: string;
  recordingSid: string;
  /** Epoch seconds: when its retention ends. */
  dueAt: number;
  days: number;
  attempts: number;
}

export interface RecordingDueStore {
  /** The first day not yet done (null: never run). */
  cursor(): Promise<string | null>;
  /** Moves the cursor forward (never back: a slower concurrent run cannot undo a faster one). */
  advance(day: string): Promise<void>;
  /** The day's items due at `nowSec` or before (one Query, paged). */
  due(day: string, nowSec: number): Promise<RecordingDue[]>;
  remove(item: RecordingDue): Promise<void>;
  /** The item again in `day`'s partition, one attempt more (Put then Delete: never lost). */
  postpone(item: RecordingDue, day: string): Promise<void>;
}

export interface RecordingMarker {
  markRecordingDeleted(accountId: string, callId: string, recordingSid: string, deleted: { at: string; days: number }): Promise<void>;
  /** The call as stored (null: gone); read only when Twilio refused, to tell a lost cause from a retry. */
  get(accountId: string, callId: string): Promise<{ recording: { sid: string } | null } | null>;
}

export interface RecordingRetentionDeps {
  due: RecordingDueStore;
  calls: RecordingMarker;
  twilio: Pick<TwilioAccountApi, 'deleteRecording'>;
  integrations: VoiceIntegrationReader;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
}

export interface RecordingSweep {
  days: number;
  deleted: number;
  postponed: number;
  givenUp: number;
  /** Due items dropped without a retry: the integration, the account or the call gone. */
  dropped: number;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const nextDay = (day: string) => dayOf(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000);

export function createRecordingRetention(deps: RecordingRetentionDeps) {
  const onError = deps.onError ?? (() => undefined);
  return {
    async sweep(nowMs: number): Promise<RecordingSweep> {
      const today = dayOf(nowMs);
      const nowSec = Math.floor(nowMs / 1000);
      const result: RecordingSweep = { days: 0, deleted: 0, postponed: 0, givenUp: 0, dropped: 0 };
      // One integration read per account and run (null: not connected).
      const credentials = new Map<string, Promise<{ accountSid: string; authToken: string } | null>>();
      const credentialsOf = (accountId: string) => {
        let found = credentials.get(accountId);
        if (!found) {
          found = deps.integrations.get(accountId).then((i) => (i ? { accountSid: i.accountSid, authToken: i.authToken } : null));
          credentials.set(accountId, found);
        }
        return found;
      };
      let day = (await deps.due.cursor()) ?? dayOf(nowMs - FIRST_RUN_LOOKBACK_DAYS * 86_400_000);
      for (let walked = 0; day <= today && walked < MAX_DAYS_PER_RUN; walked++) {
        result.days++;
        for (const item of await deps.due.due(day, nowSec)) {
          const creds = await credentialsOf(item.accountId);
          let failure: unknown = null;
          if (creds) {
            try {
              await deps.twilio.deleteRecording(creds, item.recordingSid);
            } catch (error) {
              failure = error;
            }
          }
          if (!creds || failure) {
            // Read the call only on this path: a call that is gone (erased, its account deleted — whose
            // deletion removed the recordings at Twilio itself) or names another recording is a lost
            // cause; otherwise (Twilio down, or disconnected for now and maybe reconnected) retry daily.
            const call = await deps.calls.get(item.accountId, item.callId);
            const why = creds ? 'could not be deleted at Twilio' : 'belongs to an account without Twilio for now';
            if (call?.recording?.sid !== item.recordingSid) {
              onError(`A recording whose retention ended ${why} and its call no longer names it; dropped`, failure, { accountId: item.accountId, callId: item.callId });
              await deps.due.remove(item);
              result.dropped++;
            } else if (item.attempts + 1 >= MAX_ATTEMPTS) {
              onError(`A recording whose retention ended ${why}; given up`, failure, { accountId: item.accountId, callId: item.callId });
              await deps.due.remove(item);
              result.givenUp++;
            } else {
              onError(`A recording whose retention ended ${why}; retried tomorrow`, failure, { accountId: item.accountId, callId: item.callId });
              await deps.due.postpone(item, nextDay(today));
              result.postponed++;
            }
            continue;
          }
          await deps.calls.markRecordingDeleted(item.accountId, item.callId, item.recordingSid, { at: new Date(nowMs).toISOString(), days: item.days });
          await deps.due.remove(item);
          result.deleted++;
        }
        // Today's partition may still hold items due later today: the cursor stays on it.
        if (day < today) await deps.due.advance(nextDay(day));
        day = nextDay(day);
      }
      return result;
    },
  };
}
