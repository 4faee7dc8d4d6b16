/**
 * The `calls` step of a person's erasure and export (issue 33): the calls FROM their number
 * (ACCESS-PATTERNS.md "Voice" and "Names stay true": `VCALLNUM#{e164}#{callId}` → `VCALL#{callId}`),
 * with what Twilio holds of them.
 *
 * Erase, per call: a live call is ended at Twilio first (the caller is not left talking to an agent
 * whose call is gone), its recordings are deleted at Twilio (no copy is kept on our side: the
 * recording route streams it from Twilio), then the call's own items — the `VCALLNUM#` pointer and
 * the relay's `VRELAY#` turn state deleted, the `TWCALL#` guard replaced by a tombstone — and the
 * call item LAST, so a retry after a crash still finds the callSid and the recordings on it. The
 * tombstone ({erased}, two days, no personal data) is for the recording Twilio reports only after
 * the call ended (a live call's, or one still processing): the voice webhook's recording callback
 * finds it and deletes that recording at Twilio. The ids are remembered on the job before
 * anything is deleted (a retry finds calls whose pointer went first). The caller's `CALLER#{e164}`
 * item (the top callers) goes at the end. The call list's total (VCALLS#STATS) moves like a
 * delete: −1 per call item deleted, in the same transaction as the conditional Delete, so a retry
 * that finds the item gone moves nothing. The dashboard's ACT#… figures and billed minutes stay:
 * anonymous history.
 *
 * A call's recording is one field (`recording`: the last the recording callback reported); its sid
 * is also read from its media URL in case the two differ, so both are deleted.
 */
import { GetCommand, type DynamoDBDocumentClient } from '../../aws/dynamo-document.js';
import type { Language } from '../../../contract/auth.js';
import type { PersonDataCounts } from '../../../contract/privacy.js';
import type { JobAccountSettings } from '../../../domain/contacts/job-ports.js';
import type { ExportWriter, PersonDataPart, PersonKey, StepContext, StepOutcome } from '../../../domain/privacy/ports.js';
import { transcriptLines, type ExportedMessage } from '../../../domain/privacy/transcript.js';
import type { CallTurn } from '../../../contract/voice.js';
import type { StoredCall, TwilioAccountApi, TwilioCredentials } from '../../../domain/voice/ports.js';
import { mapLimit } from '../../../lib/map-limit.js';
import { callerSk } from '../activity.js';
import { batchDeleteKeys, batchGetItems, batchWrite } from '../batch.js';
import { withoutKeys } from '../item-codec.js';
import { callByNumberSk, userPk } from '../keys.js';
import { queryItems } from '../query-items.js';
import { callSk, callsTotalAdd, erasedCallSidItem } from '../voice-calls.js';
import { transactOrFailedAt } from '../transact.js';
import { relayStateSk } from '../voice-relay.js';

type Item = Record<string, unknown>;

export interface CallsPartDeps {
  db: DynamoDBDocumentClient;
  tableName: string;
  twilio: Pick<TwilioAccountApi, 'deleteRecording' | 'endCall' | 'recordingAudio'>;
  /** The account's Twilio credentials (the integration's auth token opened), or null when not connected. */
  credentials(accountId: string): Promise<TwilioCredentials | null>;
  /** The profile's language and time zone (the transcript's words and times). */
  locale: JobAccountSettings;
  /** Calls handled between two shouldYield checks (one BatchGet, one BatchWrite round). */
  batchSize?: number;
  /** Twilio requests in flight at once. */
  parallelTwilio?: number;
  /** A person whose calls hold recordings while the account has no Twilio credentials (logged). */
  onUnreachable?: (accountId: string, recordings: number) => void;
}

const ID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const RECORDING_SID_RE = /\bRE[0-9a-f]{32}\b/g;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Every recording sid a call names (its recording's sid, and the one in its media URL). */
export function recordingSidsOf(call: Pick<StoredCall, 'recording'>): string[] {
  const rec = call.recording;
  if (!rec) return [];
  const sids = new Set<string>();
  if (/^RE[0-9a-f]{32}$/.test(rec.sid)) sids.add(rec.sid);
  for (const match of str(rec.url).match(RECORDING_SID_RE) ?? []) sids.add(match);
  return [...sids];
}

/** A call turn as the export's transcript line reads it (the conversations' format). */
export function exportedTurn(turn: CallTurn): ExportedMessage {
  return {
    time: turn.at,
    direction: turn.role === 'user' ? 'in' : 'out',
    sender: turn.role === 'user' ? 'customer' : 'agent',
    type: 'text',
    text: turn.content,
    status: turn.interrupted ? 'interrupted' : '',
    media: null,
    location: null,
  };
}

/** The call as the person's export shows it (no internal state: settings snapshot, relay marks). */
export function exportedCall(call: StoredCall) {
  return {
    id: call.id,
    time: call.createdAt,
    endedAt: call.endedAt,
    durationSeconds: Math.round((call.duration || 0) / 1000),
    direction: 'inbound' as const,
    status: call.status,
    from: call.phoneNumber,
    to: call.internalNumber,
    agent: call.agent?.name ?? call.voiceSettings?.name ?? null,
    escalated: call.escalated,
    escalationReason: call.escalationReason ?? null,
    summary: call.summary,
    transcript: call.messages.map((t) => ({ role: t.role === 'user' ? 'caller' : 'agent', text: t.content, at: t.at, ...(t.interrupted ? { interrupted: true } : {}) })),
    recording: call.recording ? { durationSeconds: call.recording.durationSec } : null,
  };
}

export class DynamoCallsPart implements PersonDataPart {
  readonly step = 'calls' as const;
  private readonly batchSize: number;
  private readonly parallelTwilio: number;

  constructor(private readonly deps: CallsPartDeps) {
    this.batchSize = deps.batchSize ?? 25;
    this.parallelTwilio = deps.parallelTwilio ?? 4;
  }

  /** The call ids of the person's number, newest first. */
  private async idsOf(person: PersonKey): Promise<string[]> {
    if (!person.e164) return [];
    const items = await queryItems(this.deps.db, {
      TableName: this.deps.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': userPk(person.accountId), ':a': `VCALLNUM#${person.e164}#`, ':b': `VCALLNUM#${person.e164}#~` },
      ProjectionExpression: 'callId',
      ScanIndexForward: false,
      ConsistentRead: true,
    });
    return [...new Set(items.map((i) => str(i.callId)).filter((id) => ID_RE.test(id)))];
  }

  /** The call items of these ids that exist (whole, or projected to what count and active need). */
  private async calls(accountId: string, ids: readonly string[], projected = false): Promise<StoredCall[]> {
    if (ids.length === 0) return [];
    const items = await batchGetItems(
      this.deps.db,
      this.deps.tableName,
      ids.map((id) => ({ pk: userPk(accountId), sk: callSk(id) })),
      {
        consistentRead: true,
        ...(projected ? { projection: { ProjectionExpression: 'id, #s, recording, callSid', ExpressionAttributeNames: { '#s': 'status' } } } : {}),
      },
    );
    return items.map((item) => withoutKeys<StoredCall>(item));
  }

  /**
   * The call items and their −1 each on VCALLS#STATS, one transaction (a batch is ≤ 25 calls + the
   * counter): each Delete conditioned on the item being there, so the total moves once per call
   * actually deleted, even across a crash and retry. Answers how many it deleted.
   */
  private async deleteCalls(accountId: string, ids: readonly string[]): Promise<number> {
    let left = [...ids];
    while (left.length > 0) {
      const failed = await transactOrFailedAt(this.deps.db, [
        ...left.map((id) => ({
          Delete: { TableName: this.deps.tableName, Key: { pk: userPk(accountId), sk: callSk(id) }, ConditionExpression: 'attribute_exists(pk)' },
        })),
        callsTotalAdd(this.deps.tableName, accountId, -left.length),
      ]);
      if (failed === null) return left.length;
      // That call went meanwhile (another run of this erasure): the others again, without it.
      left = left.filter((_, i) => i !== failed);
    }
    return 0;
  }

  async count(person: PersonKey): Promise<Partial<PersonDataCounts>> {
    const calls = await this.calls(person.accountId, await this.idsOf(person), true);
    return { calls: calls.length, recordings: calls.reduce((n, c) => n + (recordingSidsOf(c).length > 0 ? 1 : 0), 0) };
  }

  async active(person: PersonKey): Promise<{ call?: boolean }> {
    const calls = await this.calls(person.accountId, await this.idsOf(person), true);
    return { call: calls.some((c) => c.status === 'active') };
  }

  async erase(person: PersonKey, ctx: StepContext): Promise<StepOutcome> {
    const counts = { calls: 0, recordings: 0 };
    const found = await this.idsOf(person);
    // Remembered BEFORE anything goes: a retry finds the calls whose VCALLNUM# pointer went first.
    if (found.length > 0) await ctx.remember('call', found);
    const ids = [...new Set([...found, ...(await ctx.remembered('call'))])].filter((id) => ID_RE.test(id)).sort();
    let credentials: Promise<TwilioCredentials | null> | null = null;
    const creds = () => (credentials ??= this.deps.credentials(person.accountId));
    for (let i = 0; i < ids.length; i += this.batchSize) {
      if (ctx.shouldYield()) return { counts, done: false };
      const calls = await this.calls(person.accountId, ids.slice(i, i + this.batchSize));
      const remote = calls.filter((c) => c.status === 'active' || recordingSidsOf(c).length > 0);
      const twilio = remote.length > 0 ? await creds() : null;
      if (remote.length > 0 && !twilio) this.deps.onUnreachable?.(person.accountId, remote.reduce((n, c) => n + recordingSidsOf(c).length, 0));
      if (twilio) {
        // A call in progress ends first: then its recording stops growing and the caller is told nothing more.
        await mapLimit(
          calls.filter((c) => c.status === 'active' && c.callSid),
          this.parallelTwilio,
          (c) => this.deps.twilio.endCall(twilio, c.callSid),
        );
        const recordings = calls.flatMap((c) => recordingSidsOf(c).map((sid) => ({ call: c.id, sid })));
        await mapLimit(recordings, this.parallelTwilio, (r) => this.deps.twilio.deleteRecording(twilio, r.sid));
        counts.recordings += new Set(recordings.map((r) => r.call)).size;
      }
      const pk = userPk(person.accountId);
      const batch = ids.slice(i, i + this.batchSize);
      const byId = new Map(calls.map((c) => [c.id, c]));
      // The call's own items first, the call item last (it names the callSid and the recordings).
      const nowMs = Date.now();
      await batchWrite(
        this.deps.db,
        this.deps.tableName,
        batch.flatMap((id) => {
          const call = byId.get(id);
          const numbers = new Set([person.e164, call?.phoneNumber].filter((n): n is string => !!n));
          return [
            { DeleteRequest: { Key: { pk, sk: relayStateSk(id) } } },
            ...[...numbers].map((n) => ({ DeleteRequest: { Key: { pk, sk: callByNumberSk(n, id) } } })),
            // A Put: the same tombstone again on a retry.
            ...(call?.callSid ? [{ PutRequest: { Item: erasedCallSidItem(person.accountId, call.callSid, nowMs) } }] : []),
          ];
        }),
        4,
      );
      counts.calls += await this.deleteCalls(person.accountId, calls.map((c) => c.id));
      await ctx.progress(counts.calls);
    }
    if (person.e164) await batchDeleteKeys(this.deps.db, this.deps.tableName, [{ pk: userPk(person.accountId), sk: callerSk(person.e164) }]);
    return { counts, done: true };
  }

  async export(person: PersonKey, out: ExportWriter, ctx: StepContext): Promise<StepOutcome> {
    const counts = { calls: 0, recordings: 0 };
    const ids = await this.idsOf(person);
    if (ids.length === 0) return { counts, done: true };
    const settings = await this.deps.locale.settings(person.accountId);
    const language: Language = settings.language === 'es' ? 'es' : 'en';
    const timeZone = settings.timeZone || 'UTC';
    let credentials: Promise<TwilioCredentials | null> | null = null;
    const creds = () => (credentials ??= this.deps.credentials(person.accountId));
    for (const id of ids) {
      // One call at a time: a transcript is up to 200 turns, the audio is streamed.
      const { Item } = await this.deps.db.send(
        new GetCommand({ TableName: this.deps.tableName, Key: { pk: userPk(person.accountId), sk: callSk(id) }, ConsistentRead: true }),
      );
      if (!Item) continue;
      const call = withoutKeys<StoredCall>(Item as Item);
      if (!Array.isArray(call.messages)) call.messages = [];
      const folder = `calls/${call.createdAt.slice(0, 10)}-${id}`;
      await out.json(`${folder}/call.json`, exportedCall(call));
      await out.text(`${folder}/transcript.txt`, `${transcriptLines(call.messages.map(exportedTurn), language, timeZone)}\n`);
      counts.calls++;
      const [sid] = recordingSidsOf(call);
      const twilio = sid ? await creds() : null;
      if (sid && twilio) {
        const audio = await this.deps.twilio.recordingAudio(twilio, sid);
        if (audio) {
          await out.stream(`${folder}/recording.mp3`, audio);
          counts.recordings++;
        }
      }
      await ctx.progress(counts.calls);
    }
    return { counts, done: true };
  }
}
