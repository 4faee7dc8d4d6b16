/**
 * Issue 33, retention: the expiry of each kind of data for each choice, the media tag, the day a
 * recording is due, what a change names, the defaults by country; and the recording-retention
 * sweep over in-memory ports (the cursor, due and not-yet-due items, Twilio failing, idempotence;
 * an item whose call is gone — erased, or its account deleted — dropped at once; an account only disconnected from Twilio retried).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, RETENTION_DAY_CHOICES, RETENTION_KINDS, type RetentionSettings } from '../../../src/contract/privacy.js';
import { MEDIA_RETENTION_DAYS } from '../../../src/adapters/uploads-lifecycle.js';
import { mediaKeyAccount } from '../../../src/adapters/s3-media.js';
import { createRecordingRetention, FIRST_RUN_LOOKBACK_DAYS, MAX_ATTEMPTS, type RecordingDue, type RecordingDueStore } from '../../../src/domain/privacy/recording-retention.js';
import {
  DAY_SECONDS,
  expiryFor,
  isExpired,
  mediaRetentionTag,
  recordingDueDay,
  retentionChanges,
  retentionExpiresAt,
  shortenedKinds,
} from '../../../src/domain/privacy/retention.js';
import { defaultPrivacySettings } from '../../../src/domain/privacy/settings.js';
import { TwilioError } from '../../../src/domain/voice/ports.js';

const AT = '2026-11-28T10:15:30.000Z';
const atS = Date.parse(AT) / 1000;

describe('expiry per kind and choice', () => {
  it('is the written time plus the kind’s days, in epoch seconds', () => {
    for (const days of RETENTION_DAY_CHOICES) {
      const retention = Object.fromEntries(RETENTION_KINDS.map((k) => [k, days])) as RetentionSettings;
      for (const kind of RETENTION_KINDS) expect(expiryFor(retention, kind, AT)).toBe(atS + days * DAY_SECONDS);
    }
    const mixed: RetentionSettings = { messages: 30, callTranscripts: 180, recordings: 90, media: 730 };
    expect(expiryFor(mixed, 'messages', AT)).toBe(atS + 30 * DAY_SECONDS);
    expect(expiryFor(mixed, 'callTranscripts', AT)).toBe(atS + 180 * DAY_SECONDS);
    expect(expiryFor(mixed, 'recordings', AT)).toBe(atS + 90 * DAY_SECONDS);
    expect(expiryFor(mixed, 'media', Date.parse(AT))).toBe(atS + 730 * DAY_SECONDS);
  });

  it('counts an unreadable time from now', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(Math.abs(retentionExpiresAt('not a date', 30) - (now + 30 * DAY_SECONDS))).toBeLessThanOrEqual(1);
  });

  it('an item is expired once its expiresAt has passed; without one it is kept', () => {
    expect(isExpired(atS, Date.parse(AT))).toBe(true);
    expect(isExpired(atS + 1, Date.parse(AT))).toBe(false);
    expect(isExpired(undefined)).toBe(false);
    expect(isExpired('123')).toBe(false);
  });

  it('tags media with a value the bucket has a lifecycle rule for, of the same days', () => {
    for (const days of RETENTION_DAY_CHOICES) {
      const tag = mediaRetentionTag(days);
      expect(tag).toBe(`${days}d`);
      expect(MEDIA_RETENTION_DAYS[tag]).toBe(days);
    }
    expect(mediaKeyAccount('whatsapp-media/acct-1/CONV/MSG')).toBe('acct-1');
    expect(mediaKeyAccount('agents/acct-1/file')).toBeNull();
  });

  it('a recording is due on the UTC day its retention ends', () => {
    expect(recordingDueDay(AT, 90)).toBe('2027-02-26');
    expect(recordingDueDay('2026-12-31T23:30:00.000Z', 30)).toBe('2027-01-30');
  });

  it('a change names only the kinds whose days differ, and which got shorter', () => {
    const after: RetentionSettings = { ...DEFAULT_RETENTION, messages: 30, media: 730 };
    expect(retentionChanges(DEFAULT_RETENTION, after)).toEqual({ messages: 30, media: 730 });
    expect(retentionChanges(DEFAULT_RETENTION, DEFAULT_RETENTION)).toEqual({});
    expect(shortenedKinds(DEFAULT_RETENTION, after)).toEqual(['messages']);
  });

  it('defaults: 24 months of messages and transcripts, recordings 90 days, media a year; notices on in Spain, off in the US', () => {
    const es = defaultPrivacySettings('ES');
    expect(es.retention).toEqual({ messages: 730, callTranscripts: 730, recordings: 90, media: 365 });
    expect(es.notices).toMatchObject({ ai: true, recording: true });
    expect(defaultPrivacySettings('es').notices.ai).toBe(true);
    const us = defaultPrivacySettings('US');
    expect(us.retention).toEqual(es.retention);
    expect(us.notices).toMatchObject({ ai: false, recording: false });
    expect(defaultPrivacySettings(null).notices.ai).toBe(false);
  });
});

/** The due items and the cursor in memory, as the DynamoDB adapter keeps them. */
function memoryDue(): RecordingDueStore & { days: Map<string, RecordingDue[]>; cursorDay: string | null; queried: string[] } {
  const days = new Map<string, RecordingDue[]>();
  const store = {
    days,
    cursorDay: null as string | null,
    queried: [] as string[],
    cursor: async () => store.cursorDay,
    advance: async (day: string) => {
      if (!store.cursorDay || store.cursorDay < day) store.cursorDay = day;
    },
    due: async (day: string, nowSec: number) => {
      store.queried.push(day);
      return (days.get(day) ?? []).filter((d) => d.dueAt <= nowSec).map((d) => ({ ...d }));
    },
    remove: async (item: RecordingDue) => {
      days.set(item.day, (days.get(item.day) ?? []).filter((d) => d.recordingSid !== item.recordingSid));
    },
    postpone: async (item: RecordingDue, day: string) => {
      days.set(day, [...(days.get(day) ?? []), { ...item, day, attempts: item.attempts + 1 }]);
      await store.remove(item);
    },
  };
  return store;
}

const due = (day: string, recordingSid: string, dueAt: number, accountId = 'acct'): RecordingDue => ({ day, accountId, callId: `call-${recordingSid}`, recordingSid, dueAt, days: 90, attempts: 0 });

describe('recording-retention sweep', () => {
  const now = Date.parse('2026-11-28T12:00:00.000Z');
  const nowS = now / 1000;

  function setup(failing: Set<string> = new Set(), goneCalls: Set<string> = new Set()) {
    const store = memoryDue();
    const deleted: string[] = [];
    const marked: string[] = [];
    const sweeper = createRecordingRetention({
      due: store,
      calls: {
        markRecordingDeleted: async (_a, _c, sid, info) => void marked.push(`${sid}:${info.days}`),
        // The fixtures' call ids are `call-{sid}`: each call still names its recording unless gone.
        get: async (_a, callId) => (goneCalls.has(callId) ? null : { recording: { sid: callId.slice('call-'.length) } }),
      },
      twilio: {
        deleteRecording: async (_creds, sid) => {
          if (failing.has(sid)) throw new TwilioError('unavailable', 'Twilio is down');
          deleted.push(sid);
        },
      },
      integrations: { get: async (accountId) => (accountId === 'gone' || accountId === 'disconnected' ? null : { accountSid: 'AC1', authToken: 't', phoneNumber: '+34910000000', isActive: true }) },
    });
    return { store, deleted, marked, sweeper };
  }

  it('first run: walks back a week to today, deletes what is due, keeps what is not, leaves the cursor on today', async () => {
    const { store, deleted, marked, sweeper } = setup();
    store.days.set('2026-11-25', [due('2026-11-25', 'RE1', nowS - 3 * 86_400)]);
    store.days.set('2026-11-28', [due('2026-11-28', 'RE2', nowS - 60), due('2026-11-28', 'RE3', nowS + 3600)]);
    store.days.set('2026-12-28', [due('2026-12-28', 'RE4', nowS + 30 * 86_400)]);
    const result = await sweeper.sweep(now);
    expect(result).toEqual({ days: FIRST_RUN_LOOKBACK_DAYS + 1, deleted: 2, postponed: 0, givenUp: 0, dropped: 0 });
    expect(deleted).toEqual(['RE1', 'RE2']);
    expect(marked).toEqual(['RE1:90', 'RE2:90']);
    expect(store.queried[0]).toBe('2026-11-21');
    expect(store.cursorDay).toBe('2026-11-28');
    expect(store.days.get('2026-11-28')!.map((d) => d.recordingSid)).toEqual(['RE3']);
    expect(store.days.get('2026-12-28')).toHaveLength(1);

    // The next run: one Query (today), RE3 once due; nothing deleted twice.
    store.queried.length = 0;
    const later = await sweeper.sweep(now + 2 * 3600_000);
    expect(store.queried).toEqual(['2026-11-28']);
    expect(later.deleted).toBe(1);
    expect(deleted).toEqual(['RE1', 'RE2', 'RE3']);
  });

  it('Twilio failing: the item moves to tomorrow (the cursor does not wait), given up after the last attempt', async () => {
    const { store, deleted, sweeper } = setup(new Set(['RE5', 'RE7']));
    store.cursorDay = '2026-11-27';
    store.days.set('2026-11-27', [due('2026-11-27', 'RE5', nowS - 86_400), due('2026-11-27', 'RE7', nowS - 86_400)]);
    const result = await sweeper.sweep(now);
    expect(result).toMatchObject({ deleted: 0, postponed: 2, dropped: 0 });
    expect(deleted).toEqual([]);
    expect(store.cursorDay).toBe('2026-11-28');
    expect(store.days.get('2026-11-29')!.map((d) => [d.recordingSid, d.attempts])).toEqual([['RE5', 1], ['RE7', 1]]);

    store.days.set('2026-11-29', store.days.get('2026-11-29')!.map((d) => ({ ...d, attempts: MAX_ATTEMPTS - 1 })));
    const lastTry = await sweeper.sweep(now + 86_400_000);
    expect(lastTry).toMatchObject({ givenUp: 2, postponed: 0 });
    expect(store.days.get('2026-11-29')).toEqual([]);
  });

  it('a call gone (erased, or its account deleted) is dropped at once; an account only disconnected from Twilio is retried', async () => {
    // RE6: its account was deleted (no integration, the call gone with its items): Twilio is not even tried.
    // RE10: Twilio disconnected for now, its call still names the recording: retried daily (it may reconnect).
    // RE8: Twilio refuses and its call was erased meanwhile. RE9: Twilio refuses, its call still names it: retried.
    const { store, deleted, sweeper } = setup(new Set(['RE8', 'RE9']), new Set(['call-RE8', 'call-RE6']));
    store.cursorDay = '2026-11-28';
    store.days.set('2026-11-28', [
      due('2026-11-28', 'RE6', nowS - 60, 'gone'),
      due('2026-11-28', 'RE10', nowS - 60, 'disconnected'),
      due('2026-11-28', 'RE8', nowS - 60),
      due('2026-11-28', 'RE9', nowS - 60),
    ]);
    const result = await sweeper.sweep(now);
    expect(result).toMatchObject({ deleted: 0, dropped: 2, postponed: 2, givenUp: 0 });
    expect(deleted).toEqual([]);
    expect(store.days.get('2026-11-28')).toEqual([]);
    expect(store.days.get('2026-11-29')!.map((d) => d.recordingSid).sort()).toEqual(['RE10', 'RE9']);
  });
});
