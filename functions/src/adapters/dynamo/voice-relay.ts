/**
 * The voice relay's small items (issue 16; ACCESS-PATTERNS.md "Voice relay"):
 *
 * - pk=RELAYCONN#{connectionId}, sk=RELAYCONN: {userId, callId, agentId, connectedAt, expiresAt}. Written
 *   by an accepted $connect, deleted by $disconnect, so each frame finds its call in one read.
 *   Keyed by the connection, not the tenant: a frame carries only API Gateway's connection id
 *   (unguessable, and the item holds pointers only; the call itself is read under USER#).
 * - pk=USER#{u}, sk=VRELAY#{callId}: the call's turn state {answerSlot, answerSent, cancelSlot, heard,
 *   doneSlot}: which agent turn is streaming (the latest started: one at a time, issue 28), whether
 *   it was fully sent, the cancel flag an interrupt sets, and the latest answer whose invocation
 *   posts nothing more (a superseded answer's acknowledgement, which the newer one waits for). The
 *   streaming invocation reads it between posts (a few hundred bytes, unlike the call item).
 *
 * Both expire (expiresAt) 3 hours after they are written: longer than API Gateway's 2-hour
 * connection limit; readers ignore expired items.
 *
 * A connection record never changes while its connection lives, so a warm container keeps the
 * ones it wrote or read (bounded): a caller's frames after the first skip that read, which sits
 * before everything else a prompt does. A record deleted by another container is only stale here
 * for a connection that sends no more frames ($disconnect, or closed after a wrong setup).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { AnswerCheck, AnswerStart, InterruptOutcome, RelayConnectionRecord, RelayConnectionStore, RelayTurnState, TurnStatus } from '../../domain/voice/relay/ports.js';
import { conditionHolds, unlessConditionFails } from './conditions.js';
import { userPk } from './keys.js';

export const RELAY_ITEM_TTL_S = 3 * 60 * 60;
const connectionKey = (connectionId: string) => ({ pk: `RELAYCONN#${connectionId}`, sk: 'RELAYCONN' });
export const relayStateSk = (callId: string) => `VRELAY#${callId}`;

const expiresAt = (now: number) => Math.floor(now / 1000) + RELAY_ITEM_TTL_S;
const live = (item: Record<string, unknown> | undefined, now: number) => item && !(typeof item.expiresAt === 'number' && item.expiresAt * 1000 <= now);

/** Connection records a warm container remembers (a relay container serves a few calls at a time). */
export const RELAY_CONNECTIONS_REMEMBERED = 500;

export class DynamoRelayConnectionStore implements RelayConnectionStore {
  /** connectionId → the record and when its item expires (epoch s); oldest first. */
  private readonly remembered = new Map<string, { record: RelayConnectionRecord; expiresAt: number }>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  private remember(record: RelayConnectionRecord, expires: number): void {
    this.remembered.delete(record.connectionId);
    this.remembered.set(record.connectionId, { record, expiresAt: expires });
    if (this.remembered.size > RELAY_CONNECTIONS_REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
  }

  async put(record: RelayConnectionRecord): Promise<void> {
    const expires = expiresAt(this.now());
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...connectionKey(record.connectionId), entity: 'relayConnection', ...record, expiresAt: expires },
      }),
    );
    this.remember(record, expires);
  }

  async get(connectionId: string): Promise<RelayConnectionRecord | null> {
    if (!connectionId || connectionId.length > 128) return null;
    const known = this.remembered.get(connectionId);
    if (known && live(known, this.now())) return known.record;
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: connectionKey(connectionId), ConsistentRead: true }));
    if (!live(Item, this.now()) || typeof Item?.userId !== 'string' || typeof Item.callId !== 'string') return null;
    const agentId = typeof Item.agentId === 'string' ? Item.agentId : Item.agentId === null ? null : undefined;
    const languages = Array.isArray(Item.languages) ? Item.languages.filter((l): l is string => typeof l === 'string') : undefined;
    const record = {
      connectionId,
      userId: Item.userId,
      callId: Item.callId,
      ...(agentId !== undefined ? { agentId } : {}),
      ...(languages ? { languages } : {}),
      connectedAt: String(Item.connectedAt ?? ''),
    };
    if (typeof Item.expiresAt === 'number') this.remember(record, Item.expiresAt);
    return record;
  }

  async delete(connectionId: string): Promise<void> {
    if (!connectionId || connectionId.length > 128) return;
    this.remembered.delete(connectionId);
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: connectionKey(connectionId) }));
  }
}

interface TurnStateItem {
  answerSlot?: number;
  answerSent?: boolean;
  cancelSlot?: number;
  heard?: string;
  /** When the cancelSlot answer was interrupted (epoch ms). */
  cancelAt?: number;
  doneSlot?: number;
  /** When the doneSlot answer was settled (epoch ms): fully sent, or acknowledged as cut. */
  doneAt?: number;
}

/** How an answer that did not finish as fully sent ended, from the state after its finish. */
const endedAs = (state: TurnStateItem | null, slot: number): { heard: string } | 'superseded' =>
  state?.cancelSlot === slot ? { heard: state.heard ?? '' } : 'superseded';

export class DynamoRelayTurnState implements RelayTurnState {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  private key(userId: string, callId: string) {
    return { pk: userPk(userId), sk: relayStateSk(callId) };
  }

  private async read(userId: string, callId: string): Promise<TurnStateItem | null> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: this.key(userId, callId),
        ConsistentRead: true,
        ProjectionExpression: 'answerSlot, answerSent, cancelSlot, heard, cancelAt, doneSlot, doneAt, expiresAt',
      }),
    );
    return live(Item, this.now()) ? (Item as TurnStateItem) : null;
  }

  async start(userId: string, callId: string, slot: number): Promise<AnswerStart> {
    // A late start of an older answer never replaces a newer one. The old state (same write) says
    // whether an older answer is still streaming: the new one waits for it to stop.
    const started = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(userId, callId),
          UpdateExpression: 'SET answerSlot = :slot, answerSent = :f, expiresAt = :exp, entity = :e REMOVE cancelSlot, heard, cancelAt',
          ConditionExpression: 'attribute_not_exists(answerSlot) OR answerSlot < :slot',
          ExpressionAttributeValues: { ':slot': slot, ':f': false, ':exp': expiresAt(this.now()), ':e': 'relayTurnState' },
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    if (!started) return { started: false, supersedes: null };
    const old = (live(started.Attributes, this.now()) ? started.Attributes : undefined) as TurnStateItem | undefined;
    const previous = old?.answerSlot;
    const streaming = typeof previous === 'number' && old!.answerSent !== true && !(typeof old!.doneSlot === 'number' && old!.doneSlot >= previous);
    return { started: true, supersedes: streaming ? previous : null };
  }

  async check(userId: string, callId: string, slot: number): Promise<AnswerCheck> {
    const state = await this.read(userId, callId);
    if (state?.cancelSlot === slot) return { heard: state.heard ?? '' };
    return typeof state?.answerSlot === 'number' && state.answerSlot > slot ? 'superseded' : 'go';
  }

  async interrupt(userId: string, callId: string, heard: string): Promise<InterruptOutcome> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const state = await this.read(userId, callId);
      if (typeof state?.answerSlot !== 'number') return null;
      const slot = state.answerSlot;
      if (state.answerSent) return { slot, streaming: false };
      const set = await conditionHolds(
        this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: this.key(userId, callId),
            UpdateExpression: 'SET cancelSlot = :slot, heard = :heard, cancelAt = :now',
            ConditionExpression: 'answerSlot = :slot AND answerSent = :f',
            ExpressionAttributeValues: { ':slot': slot, ':heard': heard, ':f': false, ':now': this.now() },
          }),
        ),
      );
      if (set) return { slot, streaming: true };
      // The answer finished (or a newer one started) between the read and the write: look again.
    }
    return null;
  }

  async finish(userId: string, callId: string, slot: number): Promise<'sent' | { heard: string } | 'superseded'> {
    const sent = await conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(userId, callId),
          UpdateExpression: 'SET answerSent = :t, doneSlot = :slot, doneAt = :now',
          ConditionExpression: 'answerSlot = :slot AND (attribute_not_exists(cancelSlot) OR cancelSlot <> :slot)',
          ExpressionAttributeValues: { ':slot': slot, ':t': true, ':now': this.now() },
        }),
      ),
    );
    if (sent) return 'sent';
    // Interrupted or superseded: acknowledge (a newer answer may be waiting for it) and read why, in one write.
    const acknowledged = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(userId, callId),
          UpdateExpression: 'SET doneSlot = :slot, doneAt = :now, expiresAt = if_not_exists(expiresAt, :exp)',
          ConditionExpression: 'attribute_not_exists(doneSlot) OR doneSlot < :slot',
          ExpressionAttributeValues: { ':slot': slot, ':now': this.now(), ':exp': expiresAt(this.now()) },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return endedAs(acknowledged ? (acknowledged.Attributes as TurnStateItem) : await this.read(userId, callId), slot);
  }

  async status(userId: string, callId: string, slot: number): Promise<TurnStatus> {
    const state = await this.read(userId, callId);
    // No state yet: that answer has not started (nothing to wait for, nothing heard).
    if (!state) return { over: false, stopped: true, overAt: null };
    const stopped = typeof state.doneSlot === 'number' && state.doneSlot >= slot;
    const over =
      stopped ||
      state.cancelSlot === slot ||
      (typeof state.answerSlot === 'number' && (state.answerSlot > slot || (state.answerSlot === slot && state.answerSent === true)));
    const at = state.cancelSlot === slot ? state.cancelAt : state.doneSlot === slot ? state.doneAt : undefined;
    return { over, stopped, overAt: over && typeof at === 'number' ? at : null };
  }
}
