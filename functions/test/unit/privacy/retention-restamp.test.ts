/**
 * Issue 33, the retention re-stamp's domain (domain/privacy/retention-restamp.ts): the expiry each
 * kind of item gets from its own time, never reviving what already expired; a recording's due day
 * (today when already past) and where an earlier one may be; the walk page by page with its cursor,
 * queued again when the slice ends and finishing from the cursor with every item stamped once.
 */
import { describe, expect, it } from 'vitest';
import type { RetentionRestampJob } from '../../../src/contract/jobs.js';
import type { RetentionSettings } from '../../../src/contract/privacy.js';
import {
  advance,
  createRetentionRestamp,
  recordingDuePlace,
  restampedExpiry,
  type DatedCall,
  type DatedItem,
  type RestampPage,
  type RestampPosition,
  type RetentionRestampStore,
} from '../../../src/domain/privacy/retention-restamp.js';
import { retentionExpiresAt } from '../../../src/domain/privacy/retention.js';

const DAY_MS = 86_400_000;
const NOW = Date.parse('2026-11-29T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const RETENTION: RetentionSettings = { messages: 30, callTranscripts: 90, recordings: 30, media: 180 };

describe('restampedExpiry', () => {
  it('is the item’s own time + the days; null when already there, already expired, or the time is unreadable', () => {
    const at = iso(NOW - 10 * DAY_MS);
    const expected = Math.floor((NOW - 10 * DAY_MS) / 1000) + 30 * 86_400;
    expect(restampedExpiry(undefined, at, 30, NOW)).toBe(expected);
    expect(restampedExpiry(expected + 700 * 86_400, at, 30, NOW)).toBe(expected); // shortened
    expect(restampedExpiry(expected, at, 30, NOW)).toBeNull(); // already there: not written again
    expect(restampedExpiry(Math.floor(NOW / 1000) - 60, at, 730, NOW)).toBeNull(); // expired: never revived
    expect(restampedExpiry(undefined, 'not a time', 30, NOW)).toBeNull();
    // Older than the new retention: an expiry in the past (readers treat it as absent).
    expect(restampedExpiry(undefined, iso(NOW - 40 * DAY_MS), 30, NOW)! * 1000).toBeLessThan(NOW);
  });
});

describe('recordingDuePlace', () => {
  it('the day its new retention ends, with the days an earlier due item can be in', () => {
    const recordedAt = iso(NOW - 5 * DAY_MS);
    const place = recordingDuePlace(recordedAt, 30, NOW);
    expect(place).toMatchObject({ day: '2026-12-24', dueAt: retentionExpiresAt(recordedAt, 30), days: 30 });
    // The 90-day writer's day (and its neighbours), today and yesterday; never the target itself.
    expect(place.candidateDays).toEqual(expect.arrayContaining(['2027-02-21', '2027-02-22', '2027-02-23', '2026-11-29', '2026-11-28']));
    expect(place.candidateDays).not.toContain(place.day);
    expect(new Set(place.candidateDays).size).toBe(place.candidateDays.length);
  });

  it('already past: today’s partition (the schedule’s cursor never passes today), dueAt kept in the past', () => {
    const recordedAt = iso(NOW - 100 * DAY_MS);
    const place = recordingDuePlace(recordedAt, 30, NOW);
    expect(place.day).toBe('2026-11-29');
    expect(place.dueAt * 1000).toBeLessThan(NOW);
  });
});

describe('advance', () => {
  it('goes on in the stage from its position, then to the next stage, then ends', () => {
    expect(advance('messages', { pk: 'a' })).toEqual({ stage: 'messages', after: { pk: 'a' } });
    expect(advance('messages', null)).toEqual({ stage: 'conversations' });
    expect(advance('conversations', null)).toEqual({ stage: 'calls' });
    expect(advance('calls', null)).toEqual({ stage: 'media' });
    expect(advance('media', null)).toBeNull();
  });
});

/** An in-memory account: `pages` of each kind, two items a page; writes recorded. */
function memoryAccount() {
  const at = (daysAgo: number) => iso(NOW - daysAgo * DAY_MS);
  const items = {
    messages: [5, 10, 40, 50, 60].map((d, i): DatedItem => ({ key: { pk: 'USER#a#CONV#c', sk: `MSG#${i}` }, at: at(d) })),
    conversations: [10, 60].map((d, i): DatedItem => ({ key: { pk: 'USER#a', sk: `CONV#${i}` }, at: at(d), expiresAt: Math.floor(NOW / 1000) + 700 * 86_400 })),
    calls: [
      { key: { pk: 'USER#a', sk: 'VCALL#1' }, at: at(3), callId: '1', callSid: 'CA1', phoneNumber: '+34600000001', recording: { sid: 'RE1', at: at(3) } },
      // Already expired by its old retention: stays so (its recording still re-dated).
      { key: { pk: 'USER#a', sk: 'VCALL#2' }, at: at(200), expiresAt: Math.floor(NOW / 1000) - 5, callId: '2', callSid: 'CA2', phoneNumber: '+34600000002', recording: { sid: 'RE2', at: at(200) } },
    ] as DatedCall[],
    media: ['whatsapp-media/a/c/1', 'whatsapp-media/a/c/2', 'whatsapp-media/a/c/3'],
  };
  const stamped = new Map<string, number>();
  const keys = new Map<string, number>();
  const dues = new Map<string, string>();
  const tags = new Map<string, string>();
  const pageOf = <T>(list: T[], from?: RestampPosition): RestampPage<T> => {
    const start = from ? Number(from.i) : 0;
    const end = start + 2;
    return { items: list.slice(start, end), next: end < list.length ? { i: String(end) } : null };
  };
  const store: RetentionRestampStore = {
    messages: async (_a, from) => pageOf(items.messages, from),
    conversations: async (_a, from) => pageOf(items.conversations, from),
    calls: async (_a, from) => pageOf(items.calls, from),
    async stamp(item, expiresAt) {
      const id = `${item.key.pk}|${item.key.sk}`;
      expect(stamped.has(id)).toBe(false); // once
      stamped.set(id, expiresAt);
      item.expiresAt = expiresAt;
      return true;
    },
    async stampCallKeys(_a, call, expiresAt) {
      keys.set(call.callSid, expiresAt);
      return 2;
    },
    async placeRecordingDue(_a, call, place) {
      if (dues.get(call.recording!.sid) === place.day) return 'unchanged';
      dues.set(call.recording!.sid, place.day);
      return 'moved';
    },
  };
  const media = {
    list: async (_prefix: string, after: string | undefined) => {
      const rest = items.media.filter((k) => !after || k > after);
      return { keys: rest.slice(0, 2), more: rest.length > 2 };
    },
    tag: async (key: string, value: string) => void tags.set(key, value),
  };
  return { items, store, media, stamped, keys, dues, tags };
}

describe('createRetentionRestamp', () => {
  it('walks every stage in one run when the slice allows: each item from its own time, expired ones left', async () => {
    const account = memoryAccount();
    const queued: RetentionRestampJob[] = [];
    const restamp = createRetentionRestamp({
      store: account.store,
      media: account.media,
      mediaPrefix: (a) => `whatsapp-media/${a}/`,
      retention: async () => RETENTION,
      queue: { send: async (job) => void queued.push(job) },
      sliceMs: 60_000,
      now: () => NOW,
    });
    const out = await restamp.run({ kind: 'retention', accountId: 'a' }, NOW);
    expect(out).toEqual({ done: true, counts: { messages: 5, conversations: 2, calls: 1, callKeys: 2, recordings: 2, media: 3 } });
    expect(queued).toEqual([]);
    expect(account.stamped.get('USER#a#CONV#c|MSG#0')).toBe(retentionExpiresAt(account.items.messages[0]!.at, 30));
    expect(account.stamped.get('USER#a|CONV#1')).toBe(retentionExpiresAt(account.items.conversations[1]!.at, 30));
    expect(account.stamped.get('USER#a|VCALL#1')).toBe(retentionExpiresAt(account.items.calls[0]!.at, 90));
    expect(account.stamped.has('USER#a|VCALL#2')).toBe(false);
    expect(account.keys).toEqual(new Map([['CA1', retentionExpiresAt(account.items.calls[0]!.at, 90)]]));
    expect(account.dues.get('RE1')).toBe(recordingDuePlace(account.items.calls[0]!.recording!.at, 30, NOW).day);
    expect(account.dues.get('RE2')).toBe('2026-11-29');
    expect([...account.tags.values()]).toEqual(['180d', '180d', '180d']);

    // A second run: nothing stamped or moved again (the store's stamp() would fail on a second write).
    const second = await restamp.run({ kind: 'retention', accountId: 'a' }, NOW);
    expect(second.counts).toEqual({ messages: 0, conversations: 0, calls: 0, callKeys: 0, recordings: 0, media: 3 });
  });

  it('a slice that ends after each page queues the job with its cursor; the queued jobs finish it, each item once', async () => {
    const account = memoryAccount();
    const queued: RetentionRestampJob[] = [];
    let clock = NOW;
    const restamp = createRetentionRestamp({
      store: account.store,
      media: account.media,
      mediaPrefix: (a) => `whatsapp-media/${a}/`,
      retention: async () => RETENTION,
      queue: { send: async (job) => void queued.push(job) },
      sliceMs: 1000,
      // Every page takes two seconds.
      now: () => (clock += 1000),
    });
    let job: RetentionRestampJob = { kind: 'retention', accountId: 'a' };
    const cursors: unknown[] = [];
    for (let slice = 0; slice < 20; slice++) {
      const out = await restamp.run(job, clock);
      if (out.done) break;
      job = queued.shift()!;
      cursors.push(job.cursor);
      expect(job).toMatchObject({ kind: 'retention', accountId: 'a', resume: slice + 1 });
    }
    expect(queued).toEqual([]);
    // 3 pages of messages, 1 of conversations, 1 of calls, 2 of media: a cursor after each but the last.
    expect(cursors).toEqual([
      { stage: 'messages', after: { i: '2' } },
      { stage: 'messages', after: { i: '4' } },
      { stage: 'conversations' },
      { stage: 'calls' },
      { stage: 'media' },
      { stage: 'media', after: { key: 'whatsapp-media/a/c/2' } },
    ]);
    expect(account.stamped.size).toBe(5 + 2 + 1);
    expect(account.tags.size).toBe(3);
  });

  it('reads the settings again for each page: a change made meanwhile applies to the pages after it', async () => {
    const account = memoryAccount();
    let reads = 0;
    const restamp = createRetentionRestamp({
      store: account.store,
      media: account.media,
      mediaPrefix: (a) => `whatsapp-media/${a}/`,
      retention: async () => (++reads === 1 ? RETENTION : { ...RETENTION, messages: 90 }),
      queue: { send: async () => undefined },
      sliceMs: 60_000,
      now: () => NOW,
    });
    await restamp.run({ kind: 'retention', accountId: 'a' }, NOW);
    expect(reads).toBe(7);
    expect(account.stamped.get('USER#a#CONV#c|MSG#0')).toBe(retentionExpiresAt(account.items.messages[0]!.at, 30));
    expect(account.stamped.get('USER#a#CONV#c|MSG#2')).toBe(retentionExpiresAt(account.items.messages[2]!.at, 90));
  });
});
