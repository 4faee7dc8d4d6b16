/**
 * What is already stored, re-dated to the account's current retention (issue 33). Writers stamp
 * `expiresAt` with the retention of the moment they write; this job (a privacy-jobs message,
 * queued when the owner changes a retention, or by `npm run retention:stamp` for accounts that
 * never did) walks the account's data by key — Queries and listings, never a Scan — and sets each
 * item's expiry from its OWN time: a message's createdAt, a conversation's lastMessageAt, a call's
 * createdAt (+ its CallSid guard and by-number key), a recording's due item (moved to the day its
 * new retention ends), a media object's lifecycle tag. An item whose new expiry is already past
 * simply becomes expired (readers treat it as absent; DynamoDB's TTL deletes it).
 *
 * - Never revives: an item already past its expiry stays expired (its data is gone by the old rule).
 * - Idempotent: an item already at its expiry is not written; a second run changes nothing.
 * - Race-safe: an item is written only if its expiry is still the one read (a writer that stamped it
 *   meanwhile, with the current settings, wins).
 * - Resumable, bounded: one page at a time; the settings read again for each page (uncached: a
 *   later change wins over an earlier job still running); near the timeout the job queues itself
 *   with the cursor of the next page.
 */
import { RETENTION_DAY_CHOICES, type RetentionSettings } from '../../contract/privacy.js';
import type { RetentionRestampJob } from '../../contract/jobs.js';
import { mapLimit } from '../../lib/map-limit.js';
import { DAY_SECONDS, isExpired, mediaRetentionTag, recordingDueDay, retentionExpiresAt } from './retention.js';

export const RESTAMP_STAGES = ['messages', 'conversations', 'calls', 'media'] as const;
export type RestampStage = (typeof RESTAMP_STAGES)[number];
/** Where a stage's walk goes on from (a Query's LastEvaluatedKey, or `{ key }`: the last object key listed). */
export type RestampPosition = Record<string, string>;
export type RestampCursor = NonNullable<RetentionRestampJob['cursor']>;

export interface RestampPage<T> {
  items: T[];
  /** null: the stage's walk is over. */
  next: RestampPosition | null;
}

/** A stored item with the time its retention counts from. */
export interface DatedItem {
  key: { pk: string; sk: string };
  /** ISO time (createdAt, lastMessageAt). */
  at: string;
  expiresAt?: number;
}

export interface DatedCall extends DatedItem {
  callId: string;
  callSid: string;
  phoneNumber: string;
  /** A recording still held by Twilio; `at`: when it was made (the call's end, else its start). */
  recording?: { sid: string; at: string };
}

/** Where a recording's due item goes: `day`'s partition; `candidateDays`: where an earlier one may be. */
export interface RecordingDuePlace {
  day: string;
  dueAt: number;
  days: number;
  candidateDays: string[];
}

export interface RetentionRestampStore {
  /** The account's messages (`USER#{a}#MSGS` index), a page from `from`. */
  messages(accountId: string, from?: RestampPosition): Promise<RestampPage<DatedItem>>;
  /** The account's conversations (`CONV#` range). */
  conversations(accountId: string, from?: RestampPosition): Promise<RestampPage<DatedItem>>;
  /** The account's calls (`VCALL#` range). */
  calls(accountId: string, from?: RestampPosition): Promise<RestampPage<DatedCall>>;
  /** SET expiresAt if the item still has the expiry it was read with: false when it changed meanwhile or is gone. */
  stamp(item: DatedItem, expiresAt: number): Promise<boolean>;
  /** The call's `TWCALL#` guard and `VCALLNUM#` key to `expiresAt` (where present and different): how many changed. */
  stampCallKeys(accountId: string, call: DatedCall, expiresAt: number): Promise<number>;
  /** The recording's due item in `place.day` (an earlier one in a candidate day moved, none: created). */
  placeRecordingDue(accountId: string, call: DatedCall, place: RecordingDuePlace): Promise<'unchanged' | 'moved' | 'created'>;
}

export interface MediaRetentionTags {
  /** A page of the object keys under `prefix` after `after`, in key order; `more` false at the end. */
  list(prefix: string, after: string | undefined): Promise<{ keys: string[]; more: boolean }>;
  /** Sets the object's `retention` tag (its only tag) to `value`. */
  tag(key: string, value: string): Promise<void>;
}

export interface RetentionRestampDeps {
  store: RetentionRestampStore;
  media: MediaRetentionTags;
  /** The account's media prefix (`whatsapp-media/{a}/`). */
  mediaPrefix(accountId: string): string;
  /** The account's retention, read fresh (no cache). */
  retention(accountId: string): Promise<RetentionSettings>;
  queue: { send(job: RetentionRestampJob): Promise<void> };
  /** A run stops taking new pages after this long. */
  sliceMs: number;
  now?: () => number;
  log?: { info(message: string, data: Record<string, unknown>): void };
}

export interface RestampCounts {
  messages: number;
  conversations: number;
  calls: number;
  callKeys: number;
  recordings: number;
  media: number;
}

const emptyCounts = (): RestampCounts => ({ messages: 0, conversations: 0, calls: 0, callKeys: 0, recordings: 0, media: 0 });
const PARALLEL = 8;
const dayOf = (epochS: number) => new Date(epochS * 1000).toISOString().slice(0, 10);

/**
 * The expiry to write over `current`, or null to leave the item as it is: already at it, or
 * already past its expiry (never revived by a longer retention). An unreadable time: left.
 */
export function restampedExpiry(current: number | undefined, at: string, days: number, nowMs: number): number | null {
  if (!Number.isFinite(Date.parse(at))) return null;
  if (isExpired(current, nowMs)) return null;
  const next = retentionExpiresAt(at, days);
  return next === current ? null : next;
}

/**
 * A recording's due item for `days` of retention from `recordedAt`: the day it ends, or today when
 * that is already past (the schedule's cursor never passes today, so it is deleted within the
 * hour). The candidates: the days any retention choice put it in (±1 day: the writer counts from
 * the recording callback, not the call's end), and today/yesterday (an earlier run's past-due move).
 */
export function recordingDuePlace(recordedAt: string, days: number, nowMs: number): RecordingDuePlace {
  const today = dayOf(Math.floor(nowMs / 1000));
  const dueAt = retentionExpiresAt(recordedAt, days);
  const dueDay = recordingDueDay(recordedAt, days);
  const candidates = new Set<string>([today, dayOf(Math.floor(nowMs / 1000) - DAY_SECONDS)]);
  for (const choice of RETENTION_DAY_CHOICES) {
    const end = retentionExpiresAt(recordedAt, choice);
    for (const shift of [-1, 0, 1]) candidates.add(dayOf(end + shift * DAY_SECONDS));
  }
  const day = dueDay < today ? today : dueDay;
  candidates.delete(day);
  return { day, dueAt, days, candidateDays: [...candidates].sort() };
}

/** The stage after `stage` (null: the job is done). */
export function nextStage(stage: RestampStage): RestampStage | null {
  return RESTAMP_STAGES[RESTAMP_STAGES.indexOf(stage) + 1] ?? null;
}

/** The cursor after a page: the same stage from `next`, else the next stage from its start. */
export function advance(stage: RestampStage, next: RestampPosition | null): RestampCursor | null {
  if (next) return { stage, after: next };
  const following = nextStage(stage);
  return following ? { stage: following } : null;
}

export function createRetentionRestamp(deps: RetentionRestampDeps) {
  const now = deps.now ?? Date.now;
  const { store } = deps;

  /** One page of a stage, with `retention` read for it; the cursor that follows. */
  async function page(accountId: string, cursor: RestampCursor, retention: RetentionSettings, counts: RestampCounts): Promise<RestampCursor | null> {
    const nowMs = now();
    const restamp = async (items: DatedItem[], days: number, kind: 'messages' | 'conversations') => {
      await mapLimit(items, PARALLEL, async (item) => {
        const next = restampedExpiry(item.expiresAt, item.at, days, nowMs);
        if (next !== null && (await store.stamp(item, next))) counts[kind]++;
      });
    };
    switch (cursor.stage) {
      case 'messages': {
        const { items, next } = await store.messages(accountId, cursor.after);
        await restamp(items, retention.messages, 'messages');
        return advance('messages', next);
      }
      case 'conversations': {
        const { items, next } = await store.conversations(accountId, cursor.after);
        await restamp(items, retention.messages, 'conversations');
        return advance('conversations', next);
      }
      case 'calls': {
        const { items, next } = await store.calls(accountId, cursor.after);
        await mapLimit(items, PARALLEL / 2, async (call) => {
          if (call.recording) {
            const placed = await store.placeRecordingDue(accountId, call, recordingDuePlace(call.recording.at, retention.recordings, nowMs));
            if (placed !== 'unchanged') counts.recordings++;
          }
          const expiry = restampedExpiry(call.expiresAt, call.at, retention.callTranscripts, nowMs);
          if (expiry === null) return;
          // The keys first, the call last: a run stopped in between finds the call unchanged and does both again.
          counts.callKeys += await store.stampCallKeys(accountId, call, expiry);
          if (await store.stamp(call, expiry)) counts.calls++;
        });
        return advance('calls', next);
      }
      case 'media': {
        const prefix = deps.mediaPrefix(accountId);
        const { keys, more } = await deps.media.list(prefix, cursor.after?.key);
        const tag = mediaRetentionTag(retention.media);
        await mapLimit(keys, PARALLEL, (key) => deps.media.tag(key, tag));
        counts.media += keys.length;
        return advance('media', more && keys.length > 0 ? { key: keys[keys.length - 1]! } : null);
      }
    }
  }

  return {
    /** One run (a privacy-jobs message): pages until done, or until the slice ends (then queued again with the cursor). */
    async run(job: RetentionRestampJob, startedAtMs: number): Promise<{ done: boolean; counts: RestampCounts }> {
      const counts = emptyCounts();
      let cursor: RestampCursor | null = job.cursor ?? { stage: RESTAMP_STAGES[0] };
      while (cursor) {
        cursor = await page(job.accountId, cursor, await deps.retention(job.accountId), counts);
        // At least one page a run, so a slice too short for more still moves the cursor on.
        if (cursor && now() - startedAtMs >= deps.sliceMs) {
          await deps.queue.send({ kind: 'retention', accountId: job.accountId, resume: (job.resume ?? 0) + 1, cursor });
          deps.log?.info('Retention re-stamp: continued in the next slice', { accountId: job.accountId, stage: cursor.stage, ...counts });
          return { done: false, counts };
        }
      }
      deps.log?.info('Retention re-stamp: done', { accountId: job.accountId, resume: job.resume ?? 0, ...counts });
      return { done: true, counts };
    },
  };
}
