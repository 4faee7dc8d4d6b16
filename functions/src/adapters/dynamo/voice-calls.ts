/**
 * Voice calls over the single table (ACCESS-PATTERNS.md, "Voice: calls, settings and phone
 * requests"):
 *
 * - pk=USER#{u}, sk=VCALL#{id}: the call with its transcript embedded (`messages`, capped at
 *   MAX_STORED_TURNS; `messageCount` counts every turn and is the appendTurns guard). Ids are
 *   time-sortable, so a reverse Query of the VCALL# range is "newest first".
 * - pk=USER#{u}, sk=TWCALL#{callSid}: the callSid guard ({callId}); written in the create
 *   transaction (a retried incoming webhook finds it) and read consistently by getBySid. When the
 *   caller's data is erased (issue 33) it becomes a tombstone {erased: true} for two days: Twilio
 *   reports a call's recording only after the call ended, so its late callback still finds out that
 *   the recording is to be deleted. No personal data (the CallSid is Twilio's id); every reader
 *   takes it for "no call".
 * - pk=USER#{u}, sk=VCALLS#STATS: `total` calls (ADD 1 in the create transaction).
 * - pk=USER#{u}, sk=ACT#{UTC day}: the dashboard's `calls{HH}` (ADD 1 in the create transaction:
 *   counted once per CallSid without a round trip on the incoming webhook).
 * - pk=USER#{u}, sk=VCALLNUM#{e164}#{id}: the calls of a caller's number ({callId}; issue 17, the
 *   contact's timeline), Put in the create transaction when the caller's number is E.164.
 * - Active-calls index (sparse, on the call item): gsi1pk=VCALLS#ACTIVE, gsi1sk={createdAt}#{id},
 *   set by create and REMOVEd by finish, so only active calls are in it. The stale-call sweeper
 *   Queries it for calls started before a time (gsi1sk < :before), never a Scan.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { CallSummary, CallTurn, SummaryDeliveryAttempt, SummaryState } from '../../contract/voice.js';
import { latencyStats } from '../../domain/voice/latency.js';
import { expiryFor, isExpired, recordingDueDay, retentionExpiresAt, type RetentionReader } from '../../domain/privacy/retention.js';
import { ErasedCallError, type CallItems, type CallPage, type CallRepository, type LiveCallItems, type RelayClaim, type RelayTurnClaim, type StoredCall } from '../../domain/voice/ports.js';
import { isId } from '../../lib/ids.js';
import { callStartedUpdate } from './activity.js';
import { ignoreConditionFailure, unlessConditionFails } from './conditions.js';
import { queryItems, queryPages } from './query-items.js';
import { callByNumberSk, userPk } from './keys.js';
import { cancellationReasons, conditionFailedAt, transactWrite, type TransactItem } from './transact.js';
import { recordingDueItem } from './recording-retention.js';

type Item = Record<string, unknown>;

/** Turns kept in the call item (~200 × ≤ 1 KB stays well under DynamoDB's 400 KB item limit). */
export const MAX_STORED_TURNS = 200;
/** Calls read (projected, without transcripts) for one searched list. */
export const CALL_SEARCH_READ_CAP = 5000;

export const callSk = (id: string) => `VCALL#${id}`;
export const callSidSk = (callSid: string) => `TWCALL#${callSid}`;
/** How long an erased call's tombstone waits for Twilio's late recording callback (it comes minutes after the call). */
export const ERASED_CALL_TOMBSTONE_SECONDS = 2 * 86_400;
/** The erased call's `TWCALL#` item (a Put: a retried erasure writes the same). */
export const erasedCallSidItem = (userId: string, callSid: string, nowMs: number) => ({
  pk: userPk(userId),
  sk: callSidSk(callSid),
  entity: 'voiceCallSid',
  erased: true,
  expiresAt: Math.floor(nowMs / 1000) + ERASED_CALL_TOMBSTONE_SECONDS,
});
const STATS_SK = 'VCALLS#STATS';

/** The VCALLS#STATS `total` move inside a transaction: +1 in the create, −n in a person's erasure (the calls it deletes). */
export function callsTotalAdd(tableName: string, userId: string, n: number): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: { pk: userPk(userId), sk: STATS_SK },
      UpdateExpression: 'ADD #total :n',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':n': n },
    },
  };
}
/** The active-calls index partition (gsi1): one across users, read only by the sweeper. */
export const ACTIVE_CALLS_PK = 'VCALLS#ACTIVE';
const activeCallsSk = (call: Pick<StoredCall, 'createdAt' | 'id'>) => `${call.createdAt}#${call.id}`;

/** Every StoredCall attribute except the transcript (list pages). */
const LIST_ATTRIBUTES = [
  'id',
  'userId',
  'callSid',
  'status',
  'phoneNumber',
  'internalNumber',
  'contact',
  'duration',
  'createdAt',
  'endedAt',
  'voiceSettings',
  'summary',
  'summaryStatus',
  'summaryError',
  'deliveries',
  'agent',
  'escalated',
  'escalationReason',
  'endReason',
  'settings',
  'silences',
  'endedByUs',
  'recording',
  'billedMinutes',
  'messageCount',
  // Issue 16: the list shows each call's mode and p50/p95 without reading transcripts.
  'conversationMode',
  'latency',
  // Issue 33: the retention (readers skip an expired call) and a recording deleted when its retention ended.
  'expiresAt',
  'recordingDeleted',
] as const;

function toCall(item: Item): StoredCall {
  const {
    pk: _pk,
    sk: _sk,
    entity: _e,
    messageCount: _mc,
    gsi1pk: _g1,
    gsi1sk: _g2,
    relayPromptKey: _rk,
    relayPromptAt: _ra,
    relayPromptSlot: _rs,
    relayConnection: _rc,
    relaySetupAt: _su,
    expiresAt: _ttl,
    ...rest
  } = item;
  const call = rest as unknown as StoredCall;
  if (!Array.isArray(call.messages)) call.messages = [];
  if (!Array.isArray(call.deliveries)) call.deliveries = [];
  // Calls stored before issue 16 were all <Gather> calls, without latency figures.
  call.conversationMode ??= 'gather';
  call.latency ??= null;
  call.settings.conversationMode ??= 'gather';
  return call;
}

const digitsOf = (s: string) => s.replace(/\D/g, '');
/** contract/voice-messages.ts E164_RE, restated: the voice relay bundles this module and not those texts. */
const CALLER_E164_RE = /^\+[1-9]\d{6,14}$/;

/**
 * One call's item: reading it and setting its contact (apply-contact, served by the contacts
 * function), without the repository's create, list and sweep.
 */
export class DynamoCallItems implements CallItems {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
    /** The account's retention (issue 33): a call and its keys get `expiresAt`, a recording its due item; none = kept. */
    protected readonly retention?: RetentionReader,
  ) {}

  protected key(userId: string, id: string) {
    return { pk: userPk(userId), sk: callSk(id) };
  }

  /** A call past its retention reads as absent (DynamoDB deletes it within days, not at once). */
  async get(userId: string, id: string): Promise<StoredCall | null> {
    if (!isId(id)) return null;
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.key(userId, id), ConsistentRead: true }));
    return Item && !isExpired(Item.expiresAt) ? toCall(Item) : null;
  }

  /** An UpdateItem on an existing call; false when the call is missing or `condition` fails. */
  protected async update(userId: string, id: string, input: { set: string; condition?: string; names?: Record<string, string>; values?: Item }): Promise<Item | null> {
    if (!isId(id)) return null;
    const updated = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(userId, id),
          UpdateExpression: input.set,
          ConditionExpression: input.condition ? `attribute_exists(pk) AND (${input.condition})` : 'attribute_exists(pk)',
          ExpressionAttributeNames: input.names && Object.keys(input.names).length ? input.names : undefined,
          ExpressionAttributeValues: input.values && Object.keys(input.values).length ? input.values : undefined,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes ?? null;
  }

  async setContact(userId: string, id: string, contact: StoredCall['contact']): Promise<void> {
    await this.update(userId, id, { set: 'SET contact = :c', values: { ':c': contact } });
  }
}

/** A call in progress: the voice relay's turns, its end and escalation (a live call's cold start bundles no more). */
export class DynamoLiveCallItems extends DynamoCallItems implements LiveCallItems {
  async markEndedByUs(userId: string, id: string, endReason: NonNullable<StoredCall['endReason']>, escalation?: { reason: string }): Promise<void> {
    await this.update(userId, id, {
      set: escalation
        ? 'SET endedByUs = :t, endReason = :r, escalated = :t, escalationReason = :er'
        : 'SET endedByUs = :t, endReason = :r',
      values: { ':t': true, ':r': endReason, ...(escalation ? { ':er': escalation.reason } : {}) },
    });
  }

  async markEscalated(userId: string, id: string, reason: string): Promise<void> {
    await this.update(userId, id, { set: 'SET escalated = :t, escalationReason = :er', values: { ':t': true, ':er': reason } });
  }

  async bindRelaySetup(userId: string, id: string, setup: { callSid: string; connectionId: string; at: number }): Promise<boolean> {
    // One conditional write instead of a read: the CallSid must be this live call's.
    const bound = await this.update(userId, id, {
      set: 'SET relayConnection = :conn, relaySetupAt = :at',
      condition: 'callSid = :sid AND #status = :active AND (attribute_not_exists(endedByUs) OR endedByUs = :false)',
      names: { '#status': 'status' },
      values: { ':conn': setup.connectionId, ':at': setup.at, ':sid': setup.callSid, ':active': 'active', ':false': false },
    });
    return bound !== null;
  }

  async claimRelayTurn(userId: string, id: string, input: RelayTurnClaim): Promise<RelayClaim> {
    if (!isId(id)) return { refused: 'missing' };
    // One UpdateItem: DynamoDB serialises writes to an item, so the old count places the slot
    // whatever else was appended meanwhile. Its condition is the whole turn order (issue 28): a live
    // call, set up by this connection before the frame, no later frame taken yet, and not the last
    // prompt's frame again (same key within the window, unless its answer is over: `repeatOf`).
    const live = '#status = :active AND (attribute_not_exists(endedByUs) OR endedByUs = :false)';
    const setUp = 'relayConnection = :conn AND relaySetupAt <= :at';
    const inOrder = 'attribute_not_exists(relayPromptAt) OR relayPromptAt <= :at';
    const notRepeated =
      input.repeatOf !== undefined
        ? 'relayPromptKey = :key AND relayPromptAt = :repeatOf'
        : 'attribute_not_exists(relayPromptKey) OR relayPromptKey <> :key OR relayPromptAt <= :since';
    const names = { '#status': 'status' };
    const values = {
      ':key': input.dedupKey,
      ':at': input.now,
      ':conn': input.connectionId,
      ':n': input.turns.length,
      ':last': input.turns.length - 1,
      ':zero': 0,
      ':active': 'active',
      ':false': false,
      ...(input.repeatOf !== undefined ? { ':repeatOf': input.repeatOf } : { ':since': input.now - input.windowMs }),
      ...(input.language ? { ':lang': input.language } : {}),
    };
    const marks = `relayPromptKey = :key, relayPromptAt = :at, relayPromptSlot = if_not_exists(messageCount, :zero) + :last${input.language ? ', relayLanguage = :lang' : ''}`;
    const condition = `(${live}) AND (${setUp}) AND (${inOrder}) AND (${notRepeated})`;
    const claimed = (old: Item | undefined, slot: (count: number) => number) => ({
      slot: slot(Number(old?.messageCount ?? 0)),
      previousLanguage: typeof old?.relayLanguage === 'string' ? old.relayLanguage : null,
      before: Array.isArray(old?.messages) ? (old.messages as CallTurn[]) : [],
    });
    const append = {
      set: `SET messages = list_append(if_not_exists(messages, :empty), :turns), messageCount = if_not_exists(messageCount, :zero) + :n, ${marks}`,
      condition: `${condition} AND (attribute_not_exists(messageCount) OR messageCount <= :room)`,
      names,
      values: { ...values, ':turns': input.turns, ':empty': [], ':room': MAX_STORED_TURNS - input.turns.length },
    };
    // A refused write is explained by one consistent read; when the read finds nothing wrong the
    // item changed in between (e.g. the setup landed): the write is tried again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const appended = await this.claim(userId, id, append);
      if (appended) return claimed(appended, (count) => count + input.turns.length - 1);
      const { Item } = await this.db.send(
        new GetCommand({
          TableName: this.tableName,
          Key: this.key(userId, id),
          ProjectionExpression: '#status, endedByUs, messageCount, relayConnection, relaySetupAt, relayPromptKey, relayPromptAt, relayPromptSlot',
          ExpressionAttributeNames: names,
          ConsistentRead: true,
        }),
      );
      if (!Item) return { refused: 'missing' };
      if (Item.status !== 'active' || Item.endedByUs === true) return { refused: 'ended' };
      if (Item.relayConnection !== input.connectionId || typeof Item.relaySetupAt !== 'number' || Item.relaySetupAt > input.now) return { refused: 'no-setup' };
      const lastAt = typeof Item.relayPromptAt === 'number' ? Item.relayPromptAt : null;
      if (lastAt !== null && lastAt > input.now) return { refused: 'stale' };
      if (Item.relayPromptKey === input.dedupKey && lastAt !== null && (input.repeatOf !== undefined ? lastAt !== input.repeatOf : lastAt > input.now - input.windowMs)) {
        return { repeated: { slot: Number(Item.relayPromptSlot ?? -1), at: lastAt } };
      }
      if (input.repeatOf !== undefined && Item.relayPromptKey !== input.dedupKey) return { refused: 'stale' };
      if (Number(Item.messageCount ?? 0) > MAX_STORED_TURNS - input.turns.length) {
        // The transcript is full: the turn is counted (and ordered), not stored.
        const counted = await this.claim(userId, id, { set: `SET messageCount = if_not_exists(messageCount, :zero) + :n, ${marks}`, condition, names, values });
        if (counted) return claimed(counted, () => -1);
      }
    }
    return { refused: 'stale' };
  }

  /** A conditional claim write: the item before it, or null when the condition failed. */
  private async claim(userId: string, id: string, input: { set: string; condition: string; names: Record<string, string>; values: Item }): Promise<Item | null> {
    const result = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(userId, id),
          UpdateExpression: input.set,
          ConditionExpression: `attribute_exists(pk) AND (${input.condition})`,
          ExpressionAttributeNames: input.names,
          ExpressionAttributeValues: input.values,
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    return result ? (result.Attributes ?? {}) : null;
  }

  async setRelayAnswer(userId: string, id: string, slot: number, turn: CallTurn): Promise<void> {
    if (slot < 0 || slot >= MAX_STORED_TURNS) return;
    // messages[n] cannot take a placeholder name: the index is a validated integer in the expression.
    const path = `messages[${Math.floor(slot)}]`;
    let updated = await this.update(userId, id, {
      set: `SET ${path} = :turn`,
      condition: `attribute_not_exists(${path}.interrupted)`,
      values: { ':turn': turn },
    });
    if (!updated && turn.latency) {
      // An interrupt already wrote what was heard: keep it, add the figures.
      updated = await this.update(userId, id, { set: `SET ${path}.latency = :lat`, condition: `attribute_exists(${path})`, values: { ':lat': turn.latency } });
    }
    if (!updated) return;
    const messages = Array.isArray(updated.messages) ? (updated.messages as CallTurn[]) : [];
    await this.update(userId, id, { set: 'SET latency = :stats', values: { ':stats': latencyStats(messages) } });
  }

  async setRelayHeard(userId: string, id: string, slot: number, heard: string): Promise<void> {
    if (slot < 0 || slot >= MAX_STORED_TURNS) return;
    const path = `messages[${Math.floor(slot)}]`;
    await this.update(userId, id, {
      set: `SET ${path}.content = :heard, ${path}.interrupted = :t`,
      condition: `attribute_exists(${path})`,
      values: { ':heard': heard, ':t': true },
    });
  }
}

export class DynamoCallRepository extends DynamoLiveCallItems implements CallRepository {
  async create(call: StoredCall): Promise<{ created: boolean; call: StoredCall }> {
    const turns = call.messages.slice(0, MAX_STORED_TURNS);
    // Issue 33: the call (its transcript embedded), its CallSid guard and its by-number key go `callTranscripts` days after the call.
    const ttl = this.retention ? { expiresAt: expiryFor((await this.retention.get(call.userId)).retention, 'callTranscripts', call.createdAt) } : {};
    const item: Item = {
      ...call,
      ...this.key(call.userId, call.id),
      entity: 'voiceCall',
      messages: turns,
      messageCount: call.messages.length,
      deliveries: call.deliveries ?? [],
      ...(call.status === 'active' ? { gsi1pk: ACTIVE_CALLS_PK, gsi1sk: activeCallsSk(call) } : {}),
      ...ttl,
    };
    try {
      // Retried while it only collides with another call's transaction on the per-user counters
      // (two calls ringing at once); a retried webhook fails on the callSid guard instead.
      await transactWrite(this.db, [
            { Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
            {
              Put: {
                TableName: this.tableName,
                Item: { pk: userPk(call.userId), sk: callSidSk(call.callSid), entity: 'voiceCallSid', callId: call.id, ...ttl },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            callsTotalAdd(this.tableName, call.userId, 1),
            callStartedUpdate(this.tableName, call.userId, call.createdAt),
            // Issue 17: the caller's calls, newest first, for the contact's timeline (no Query on caller numbers otherwise).
            ...(CALLER_E164_RE.test(call.phoneNumber)
              ? [{ Put: { TableName: this.tableName, Item: { pk: userPk(call.userId), sk: callByNumberSk(call.phoneNumber, call.id), entity: 'voiceCallByNumber', callId: call.id, ...ttl } } }]
              : []),
      ]);
      return { created: true, call: { ...call, messages: turns } };
    } catch (error) {
      const codes = cancellationReasons(error)?.map((r) => r.code) ?? [];
      if (codes[1] !== 'ConditionalCheckFailed' && codes[1] !== 'TransactionConflict') throw error;
      // Twilio retried the incoming webhook (or raced it): answer with the call stored first.
      for (let attempt = 0; attempt < 5; attempt++) {
        const existing = await this.getBySid(call.userId, call.callSid);
        if (existing) return { created: false, call: existing };
        // The caller's data was erased meanwhile: the call is not stored again.
        if (await this.isErasedSid(call.userId, call.callSid)) throw new ErasedCallError();
        await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
      }
      throw error;
    }
  }

  async getBySid(userId: string, callSid: string): Promise<StoredCall | null> {
    if (!callSid || callSid.length > 64) return null;
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: callSidSk(callSid) }, ConsistentRead: true }),
    );
    return typeof Item?.callId === 'string' ? this.get(userId, Item.callId) : null;
  }

  async isErasedSid(userId: string, callSid: string): Promise<boolean> {
    if (!callSid || callSid.length > 64) return false;
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: callSidSk(callSid) }, ConsistentRead: true }),
    );
    return Item?.erased === true && !isExpired(Item.expiresAt);
  }

  async appendTurns(userId: string, id: string, expectedCount: number, turns: CallTurn[], silences: number): Promise<boolean> {
    const room = Math.max(0, MAX_STORED_TURNS - expectedCount);
    const kept = turns.slice(0, room);
    const set = kept.length
      ? 'SET messages = list_append(if_not_exists(messages, :empty), :turns), messageCount = :next, silences = :s'
      : 'SET messageCount = :next, silences = :s';
    const values: Item = { ':expected': expectedCount, ':next': expectedCount + turns.length, ':s': silences };
    if (kept.length) Object.assign(values, { ':turns': kept, ':empty': [] });
    const updated = await this.update(userId, id, {
      set,
      condition: expectedCount === 0 ? 'attribute_not_exists(messageCount) OR messageCount = :expected' : 'messageCount = :expected',
      values,
    });
    return updated !== null;
  }

  async setSilences(userId: string, id: string, expected: number, silences: number): Promise<boolean> {
    const updated = await this.update(userId, id, {
      set: 'SET silences = :s',
      condition: expected === 0 ? 'attribute_not_exists(silences) OR silences = :expected' : 'silences = :expected',
      values: { ':s': silences, ':expected': expected },
    });
    return updated !== null;
  }

  async finish(
    userId: string,
    id: string,
    end: { status: 'completed' | 'hung_up' | 'failed'; endedAt: string; duration: number; endReason: NonNullable<StoredCall['endReason']>; billedMinutes: number },
  ): Promise<StoredCall | null> {
    const updated = await this.update(userId, id, {
      // Leaves the active-calls index in the same write.
      set: 'SET #st = :st, endedAt = :at, #dur = :d, endReason = :r, billedMinutes = :m REMOVE gsi1pk, gsi1sk',
      condition: '#st = :active',
      names: { '#st': 'status', '#dur': 'duration' },
      values: { ':st': end.status, ':at': end.endedAt, ':d': end.duration, ':r': end.endReason, ':m': end.billedMinutes, ':active': 'active' },
    });
    return updated ? toCall(updated) : null;
  }

  async activeStartedBefore(startedBefore: string, limit: number): Promise<StoredCall[]> {
    const items = await queryItems(
      this.db,
      {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
        ExpressionAttributeValues: { ':pk': ACTIVE_CALLS_PK, ':before': startedBefore },
      },
      limit,
    );
    return items.map(toCall);
  }

  /**
   * The recording on its call and, with a retention reader (issue 33), in the same transaction its
   * due item in the day its `recordings` retention ends (the recording-retention schedule deletes
   * it at Twilio then): a recording is never stored without the item that deletes it.
   */
  async setRecording(userId: string, id: string, recording: NonNullable<StoredCall['recording']>, now: Date = new Date()): Promise<void> {
    if (!this.retention) {
      await this.update(userId, id, { set: 'SET recording = :rec', values: { ':rec': recording } });
      return;
    }
    if (!isId(id)) return;
    const days = (await this.retention.get(userId)).retention.recordings;
    try {
      await transactWrite(this.db, [
        {
          Update: {
            TableName: this.tableName,
            Key: this.key(userId, id),
            UpdateExpression: 'SET recording = :rec',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':rec': recording },
          },
        },
        { Put: { TableName: this.tableName, Item: recordingDueItem({ accountId: userId, callId: id, recordingSid: recording.sid, day: recordingDueDay(now, days), dueAt: retentionExpiresAt(now, days), days }) } },
      ]);
    } catch (error) {
      // The call is gone (erased): nothing to attach the recording to.
      if (!conditionFailedAt(error, 0)) throw error;
    }
  }

  /**
   * A recording deleted at Twilio when its retention ended (issue 33): the call shows "Recording
   * deleted after N days" instead of a player. Only while the call still holds that recording.
   */
  async markRecordingDeleted(userId: string, id: string, recordingSid: string, deleted: { at: string; days: number }): Promise<void> {
    if (!isId(id)) return;
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(userId, id),
          UpdateExpression: 'SET recording = :none, recordingDeleted = :deleted',
          ConditionExpression: 'attribute_exists(pk) AND recording.sid = :sid',
          ExpressionAttributeValues: { ':none': null, ':deleted': deleted, ':sid': recordingSid },
        }),
      )
      .catch(ignoreConditionFailure);
  }

  async setSummary(userId: string, id: string, result: { summaryStatus: SummaryState; summary: CallSummary | null; summaryError?: string }): Promise<void> {
    await this.update(userId, id, {
      set: result.summaryError !== undefined ? 'SET summaryStatus = :ss, summary = :sum, summaryError = :err' : 'SET summaryStatus = :ss, summary = :sum REMOVE summaryError',
      values: { ':ss': result.summaryStatus, ':sum': result.summary, ...(result.summaryError !== undefined ? { ':err': result.summaryError } : {}) },
    });
  }

  /** A forwarded call's analysis so far, for its handoff notice e-mail (issue 34: rendered when it is sent). */
  async setHandoffSummary(userId: string, id: string, summary: CallSummary | null): Promise<void> {
    await this.update(userId, id, { set: 'SET handoffSummary = :h', values: { ':h': summary } });
  }

  async addDelivery(userId: string, id: string, attempt: SummaryDeliveryAttempt): Promise<void> {
    await this.update(userId, id, {
      set: 'SET deliveries = list_append(if_not_exists(deliveries, :empty), :a)',
      values: { ':empty': [], ':a': [attempt] },
    });
  }

  /** The list items (no transcript), newest first, page by page. */
  private listItems(userId: string, pageSize: number): AsyncGenerator<Item[]> {
    return queryPages(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':lo': 'VCALL#', ':hi': 'VCALL#~' },
      ProjectionExpression: LIST_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(LIST_ATTRIBUTES.map((a, i) => [`#a${i}`, a])),
      ScanIndexForward: false,
      Limit: pageSize,
      ConsistentRead: true,
    });
  }

  async page(userId: string, input: { page: number; limit: number; search: string }): Promise<CallPage & { messageCounts: number[] }> {
    const page = Math.max(1, Math.floor(input.page));
    const limit = Math.max(1, Math.floor(input.limit));
    const offset = (page - 1) * limit;
    const digits = digitsOf(input.search);
    // Issue 33: a call past its retention is not listed (the total, a counter, still counts it until DynamoDB deletes it).
    const nowMs = Date.now();
    const rows: Item[] = [];
    let total: number;
    if (digits) {
      for await (const items of this.listItems(userId, 500)) {
        for (const it of items) {
          if (isExpired(it.expiresAt, nowMs)) continue;
          if (digitsOf(String(it.phoneNumber ?? '')).includes(digits) || digitsOf(String(it.internalNumber ?? '')).includes(digits)) rows.push(it);
        }
        if (rows.length >= CALL_SEARCH_READ_CAP) break;
      }
      total = rows.length;
    } else {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: STATS_SK }, ConsistentRead: true }));
      total = Math.max(0, Number(Item?.total) || 0);
      if (offset < total) {
        for await (const items of this.listItems(userId, Math.min(1000, offset + limit - rows.length))) {
          rows.push(...items.filter((it) => !isExpired(it.expiresAt, nowMs)));
          if (rows.length >= offset + limit) break;
        }
      }
    }
    const slice = rows.slice(offset, offset + limit);
    return {
      items: slice.map((it) => ({ ...toCall(it), messages: [] })),
      messageCounts: slice.map((it) => Math.max(0, Number(it.messageCount) || 0)),
      total,
    };
  }
}
