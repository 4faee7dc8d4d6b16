/**
 * Retention per account (issue 33): when each kind of data stops being kept. Enforced by the
 * platform, never by a sweep of ours: items carry `expiresAt` (the table's TTL attribute, epoch
 * seconds) stamped when they are written, media objects a `retention=<N>d` tag the bucket's
 * lifecycle rules match, and recordings held by Twilio a due item in the day their retention ends
 * (the recording-retention schedule Queries those days). DynamoDB deletes an expired item within
 * days, not at once: readers treat an item past its `expiresAt` as absent (isExpired).
 */
import { DEFAULT_RETENTION, RETENTION_KINDS, type RetentionDays, type RetentionKind, type RetentionSettings } from '../../contract/privacy.js';

export const DAY_SECONDS = 86_400;

/** What the writers read of the account's settings (the PrivacySettingsStore, cached a minute per container). */
export interface RetentionReader {
  get(accountId: string): Promise<{ retention: RetentionSettings }>;
}

const msOf = (from: string | number | Date): number => {
  const ms = from instanceof Date ? from.getTime() : typeof from === 'number' ? from : Date.parse(from);
  return Number.isFinite(ms) ? ms : Date.now();
};

/** Epoch seconds `days` after `from` (an ISO time, epoch ms or a Date; an unreadable time counts from now). */
export function retentionExpiresAt(from: string | number | Date, days: number): number {
  return Math.floor(msOf(from) / 1000) + Math.round(days) * DAY_SECONDS;
}

/** The expiry of one kind of data written at `from`, by the account's settings. */
export function expiryFor(retention: RetentionSettings, kind: RetentionKind, from: string | number | Date): number {
  return retentionExpiresAt(from, retention[kind] ?? DEFAULT_RETENTION[kind]);
}

/** True when an item's TTL attribute is in the past (absent or not a number: kept). */
export function isExpired(expiresAt: unknown, nowMs: number = Date.now()): boolean {
  return typeof expiresAt === 'number' && expiresAt * 1000 <= nowMs;
}

/** The media bucket's lifecycle tag value for a retention (adapters/uploads-lifecycle.ts MEDIA_RETENTION_DAYS: `30d` … `730d`). */
export function mediaRetentionTag(days: RetentionDays): `${RetentionDays}d` {
  return `${days}d`;
}

/** The UTC day (yyyy-mm-dd) a recording made at `recordedAt` is due for deletion. */
export function recordingDueDay(recordedAt: string | number | Date, days: number): string {
  return new Date(retentionExpiresAt(recordedAt, days) * 1000).toISOString().slice(0, 10);
}

/** The kinds whose retention differs, with their new days (the activity log's details). */
export function retentionChanges(before: RetentionSettings, after: RetentionSettings): Partial<RetentionSettings> {
  const changed: Partial<RetentionSettings> = {};
  for (const kind of RETENTION_KINDS) if (before[kind] !== after[kind]) changed[kind] = after[kind];
  return changed;
}

/** The kinds whose retention got shorter (what is already stored keeps its longer expiry until re-stamped). */
export function shortenedKinds(before: RetentionSettings, after: RetentionSettings): RetentionKind[] {
  return RETENTION_KINDS.filter((kind) => after[kind] < before[kind]);
}
