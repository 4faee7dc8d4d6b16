/**
 * WhatsApp messages over the single table (ACCESS-PATTERNS.md, "WhatsApp: conversations and
 * messages"):
 *
 * - pk=USER#{u}#CONV#{convId}, sk=MSG#{mid}: the message (mid = time-sortable id, so key order is
 *   time order). Message id = `{convId}-{mid}`. gsi1pk=USER#{u}#MSGS, gsi1sk={mid}: all messages
 *   of a user by time (Message Hub).
 * - pk=USER#{u}, sk=WAMID#{wamid}: inbound idempotency claim (state) / outbound wamid → message
 *   (status webhooks). TTL 30 days.
 * - pk=USER#{u}, sk=MSGSTATS#{yyyy-mm-dd} and MSGSTATS#ALL: counters (ADD on every write).
 *
 * Counters are plain UpdateItem ADDs next to the write (not inside its transaction): ADDs on one
 * item never conflict, where transactions touching one hot counter item would cancel each other
 * under a burst of messages. The cost: a crash between the write and its ADD loses that count.
 */
import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '../aws/dynamo-document.js';
import type { MessageStats, MessageStatus, TimeFilter } from '../../contract/whatsapp.js';
import type { ActivityDeltas } from '../../domain/dashboard/ports.js';
import {
  statusCanMove,
  type InboundInsertResult,
  type InboundState,
  type MessageFailureDetail,
  type MessageMediaUpdate,
  type MessageListInput,
  type MessageRepository,
  type ReplyClaim,
  type ReplyDraft,
  type StatusUpdateResult,
  type StoredMessage,
} from '../../domain/conversations/ports.js';
import { expiryFor, isExpired, type RetentionReader } from '../../domain/privacy/retention.js';
import { logger } from '../logger.js';
import { DynamoActivityCounters, hourAttributes, utcHourOf } from './activity.js';
import { batchDeleteKeys, batchGetItems } from './batch.js';
import { conditionHolds, unlessConditionFails } from './conditions.js';
import { withoutKeys } from './item-codec.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';
import { conditionFailedAt } from './transact.js';

type Item = Record<string, unknown>;

export const convMsgPk = (userId: string, convId: string) => `USER#${userId}#CONV#${convId}`;
export const msgSk = (mid: string) => `MSG#${mid}`;
export const userMsgsGsi = (userId: string) => `USER#${userId}#MSGS`;
export const wamidSk = (wamid: string) => `WAMID#${wamid}`;
const statsSk = (day: string) => `MSGSTATS#${day}`;
/** 30 days: Meta redelivers for up to 7; status webhooks come within days. */
export const WAMID_TTL_SECONDS = 30 * 24 * 3600;
/** Items read (newest first) for a filtered Message Hub list. */
export const FILTERED_READ_CAP = 5000;

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'ptt', 'document', 'sticker']);

/** `{convId}-{mid}` → parts; null for a malformed id. */
export function splitMessageId(id: string): { convId: string; mid: string } | null {
  const m = /^([0-9A-HJKMNP-TV-Z]{26})-([0-9A-HJKMNP-TV-Z]{26})$/.exec(id);
  return m ? { convId: m[1]!, mid: m[2]! } : null;
}

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** The 10-character time prefix of ids made at `ms` (lower bound of a time range on id keys). */
export function idTimePrefix(ms: number): string {
  let out = '';
  let rest = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

const DAY_MS = 24 * 3600 * 1000;
const TIME_FILTER_DAYS: Record<TimeFilter, number> = { today: 1, lastWeek: 7, lastMonth: 30, all: 0 };

/** UTC start (ms) of the first day a filter covers; null = all time. */
export function timeFilterStart(filter: TimeFilter, now: string): number | null {
  const days = TIME_FILTER_DAYS[filter];
  if (!days) return null;
  const today = Date.parse(`${now.slice(0, 10)}T00:00:00.000Z`);
  return today - (days - 1) * DAY_MS;
}

/** The counter items a time filter sums: its UTC days, or the all-time item. */
export function statsDays(filter: TimeFilter, now: string): string[] {
  const start = timeFilterStart(filter, now);
  if (start === null) return ['ALL'];
  const days: string[] = [];
  for (let t = start; t <= Date.parse(now); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** Counter deltas of a message existing (sign +1) or going away (−1). */
/** The dashboard's hourly metrics of a counter delta: messages in/out and failed ones. */
function activityDeltas(deltas: Record<string, number>) {
  return { in: deltas.in ?? 0, out: deltas.out ?? 0, fail: deltas.s_failed ?? 0 };
}

function countDeltas(m: Pick<StoredMessage, 'fromMe' | 'status' | 'type' | 'hasMedia'>, sign: number): Record<string, number> {
  const d: Record<string, number> = { total: sign, [m.fromMe ? 'out' : 'in']: sign, [`t_${m.type}`]: sign };
  // Delivery statuses are about what we sent: a customer's message is stored 'delivered' and must not count as sent.
  if (m.fromMe) d[`s_${m.status}`] = sign;
  if (m.hasMedia || MEDIA_TYPES.has(m.type)) d.media = sign;
  return d;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

// expiresAt (the TTL, issue 33) stays on the item: a record written again is stamped again.
const toMessage = (item: Item) => withoutKeys<StoredMessage>(item, ['mid', 'expiresAt']);
/** Items read back, without the ones past their retention (DynamoDB deletes them within days, not at once). */
const live = (items: readonly Item[], nowMs = Date.now()) => items.filter((item) => !isExpired(item.expiresAt, nowMs));

/** What the Message Hub's search reads of a message: its text, numbers, and what its media became (issue 31: a transcript, a document's text). */
function searchText(m: StoredMessage): string {
  const media = m.media;
  return [
    m.body,
    m.from,
    m.to,
    media?.caption,
    media?.filename,
    media?.transcript?.text,
    media?.textPreview,
    m.location?.name,
    m.location?.address,
    ...(m.contactCards ?? []).map((c) => c.name),
  ]
    .filter(Boolean)
    .join(' ');
}

export class DynamoMessageRepository implements MessageRepository {
  /** Deferred counter deltas by counter sk (deferred mode only). */
  private readonly pending = new Map<string, { userId: string; deltas: Record<string, number> }>();
  /** Deferred dashboard deltas by `{userId} {UTC day}`: `{metric}{HH}` attributes. */
  private readonly pendingActivity = new Map<string, { userId: string; day: string; attrs: Record<string, number> }>();
  /** The dashboard's hourly counters (ACT#{day}), written beside MSGSTATS. */
  private readonly activity: DynamoActivityCounters;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: () => number = Date.now,
    /** Batch counter ADDs until flushCounters() (the inbound worker, which calls it per delivery). */
    private readonly deferCounters = false,
    /** The account's retention (issue 33): every message is stamped with its `expiresAt`; none = kept (tests, tools). */
    private readonly retention?: RetentionReader,
  ) {
    this.activity = new DynamoActivityCounters(db, tableName);
  }

  /**
   * When something of the account's WhatsApp history written at `at` expires: `messages` days
   * later (issue 33). One read of the settings a minute per container (the store's cache); undefined
   * without a retention reader.
   */
  async messagesExpiry(userId: string, at: string): Promise<number | undefined> {
    if (!this.retention) return undefined;
    return expiryFor((await this.retention.get(userId)).retention, 'messages', at);
  }

  private async messageItem(userId: string, m: StoredMessage): Promise<Item> {
    const parts = splitMessageId(m.id);
    if (!parts) throw new Error(`Malformed message id ${m.id}`);
    const expiresAt = await this.messagesExpiry(userId, m.createdAt);
    return {
      pk: convMsgPk(userId, parts.convId),
      sk: msgSk(parts.mid),
      gsi1pk: userMsgsGsi(userId),
      gsi1sk: parts.mid,
      entity: 'message',
      ...m,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
  }

  private key(userId: string, id: string) {
    const parts = splitMessageId(id);
    return parts ? { pk: convMsgPk(userId, parts.convId), sk: msgSk(parts.mid) } : null;
  }

  /** ADDs deltas to the message's day item and the all-time item (or queues them in deferred mode). */
  async count(userId: string, createdAt: string, deltas: Record<string, number>): Promise<void> {
    const days = [createdAt.slice(0, 10), 'ALL'];
    if (this.deferCounters) {
      for (const day of days) {
        const key = `${userId} ${day}`;
        const entry = this.pending.get(key) ?? { userId, deltas: {} };
        for (const [k, v] of Object.entries(deltas)) entry.deltas[k] = (entry.deltas[k] ?? 0) + v;
        this.pending.set(key, entry);
      }
      const { day, hour } = utcHourOf(createdAt);
      const act = this.pendingActivity.get(`${userId} ${day}`) ?? { userId, day, attrs: {} };
      for (const [k, v] of Object.entries(hourAttributes(hour, activityDeltas(deltas)))) act.attrs[k] = (act.attrs[k] ?? 0) + v;
      this.pendingActivity.set(`${userId} ${day}`, act);
      return;
    }
    await Promise.all([...days.map((day) => this.addCounters(userId, day, deltas)), this.activity.add(userId, createdAt, activityDeltas(deltas))]);
  }

  /**
   * Dashboard deltas of something else the delivery did (a conversation opened): queued with the
   * message counters in deferred mode (one ACT write per delivery instead of one more on the
   * message's path, issue 28), written now otherwise.
   */
  async addActivity(userId: string, at: string, deltas: ActivityDeltas): Promise<void> {
    if (!this.deferCounters) return this.activity.add(userId, at, deltas);
    const { day, hour } = utcHourOf(at);
    const act = this.pendingActivity.get(`${userId} ${day}`) ?? { userId, day, attrs: {} };
    for (const [k, v] of Object.entries(hourAttributes(hour, deltas))) act.attrs[k] = (act.attrs[k] ?? 0) + v;
    this.pendingActivity.set(`${userId} ${day}`, act);
  }

  private async addCounters(userId: string, day: string, deltas: Record<string, number>): Promise<void> {
    const names = Object.keys(deltas).filter((k) => deltas[k] !== 0);
    if (names.length === 0) return;
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: statsSk(day) },
        UpdateExpression: `ADD ${names.map((_, i) => `#a${i} :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#a${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, deltas[n]])),
      }),
    );
  }

  async flushCounters(): Promise<void> {
    const batch = [...this.pending];
    const activity = [...this.pendingActivity.values()];
    this.pending.clear();
    this.pendingActivity.clear();
    await Promise.all([
      ...batch.map(([key, { userId, deltas }]) => this.addCounters(userId, key.slice(userId.length + 1), deltas)),
      ...activity.map(({ userId, day, attrs }) =>
        this.activity.addRaw(userId, day, attrs).catch((error: unknown) => logger.error('Dashboard: the message counters failed; the count is lost', { error: error as Error, userId })),
      ),
    ]);
  }

  async insertInbound(userId: string, message: StoredMessage, claim?: ReplyClaim): Promise<InboundInsertResult> {
    const nowSec = Math.floor(this.clock() / 1000);
    const state: InboundState = claim ? 'replying' : 'received';
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: this.tableName, Item: await this.messageItem(userId, message), ConditionExpression: 'attribute_not_exists(pk)' } },
            {
              Put: {
                TableName: this.tableName,
                Item: {
                  pk: userPk(userId),
                  sk: wamidSk(message.waMessageId),
                  entity: 'wamid',
                  dir: 'in',
                  messageId: message.id,
                  state,
                  ...(claim ? { owner: claim.owner, leaseUntil: claim.now + claim.leaseMs } : {}),
                  expiresAt: nowSec + WAMID_TTL_SECONDS,
                },
                ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
                ExpressionAttributeValues: { ':now': nowSec },
              },
            },
          ],
        }),
      );
    } catch (error) {
      if (!conditionFailedAt(error, 1)) throw error;
      const claim = await this.getWamid(userId, message.waMessageId);
      const earlier = claim ? await this.get(userId, String(claim.messageId), { expired: true }) : null;
      if (!claim || !earlier) throw new Error('wamid claimed but its message is missing', { cause: error });
      return { isNew: false, message: earlier, state: claim.state as InboundState };
    }
    await this.count(userId, message.createdAt, countDeltas(message, 1));
    return { isNew: true, message, state };
  }

  private async getWamid(userId: string, wamid: string): Promise<Item | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: wamidSk(wamid) }, ConsistentRead: true }),
    );
    return Item ?? null;
  }

  async claimReply(userId: string, waMessageId: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: wamidSk(waMessageId) },
          UpdateExpression: 'SET #st = :replying, #owner = :owner, leaseUntil = :until',
          ConditionExpression: '#st = :received OR (#st = :replying AND (#owner = :owner OR leaseUntil < :now))',
          ExpressionAttributeNames: { '#st': 'state', '#owner': 'owner' },
          ExpressionAttributeValues: { ':replying': 'replying', ':received': 'received', ':owner': owner, ':until': now + leaseMs, ':now': now },
        }),
      ),
    );
  }

  async finishInbound(userId: string, waMessageId: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: wamidSk(waMessageId) },
        UpdateExpression: 'SET #st = :handled REMOVE #owner, leaseUntil',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#st': 'state', '#owner': 'owner' },
        ExpressionAttributeValues: { ':handled': 'handled' },
      }),
    );
  }

  async noteReply(userId: string, messageId: string, reply: ReplyDraft): Promise<void> {
    const key = this.key(userId, messageId);
    if (!key) return;
    await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET #reply = :reply',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#reply': 'reply' },
          ExpressionAttributeValues: { ':reply': { id: reply.id, state: reply.state } },
        }),
      ),
    );
  }

  async updateMedia(userId: string, messageId: string, update: MessageMediaUpdate): Promise<StoredMessage | null> {
    const key = this.key(userId, messageId);
    // Only these three fields, whatever else the caller's object carries.
    const fields = (['media', 'location', 'contactCards'] as const).filter((f) => update[f] !== undefined);
    if (!key || fields.length === 0) return key ? this.get(userId, messageId) : null;
    const written = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: `SET ${fields.map((f) => `#${f} = :${f}`).join(', ')}`,
          // A customer's message that still exists (never an outgoing one, never a deleted one recreated).
          ConditionExpression: 'attribute_exists(pk) AND #fromMe = :false',
          ExpressionAttributeNames: { '#fromMe': 'fromMe', ...Object.fromEntries(fields.map((f) => [`#${f}`, f])) },
          ExpressionAttributeValues: { ':false': false, ...Object.fromEntries(fields.map((f) => [`:${f}`, update[f]])) },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return written?.Attributes ? toMessage(written.Attributes) : null;
  }

  async insertOutbound(userId: string, message: StoredMessage, options: { replyTo?: string } = {}): Promise<void> {
    const put = { TableName: this.tableName, Item: await this.messageItem(userId, message), ConditionExpression: 'attribute_not_exists(pk)' };
    const inbound = options.replyTo ? this.key(userId, options.replyTo) : null;
    if (inbound) {
      const reply: ReplyDraft = { id: message.id, state: 'sending' };
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: put },
            {
              Update: {
                TableName: this.tableName,
                Key: inbound,
                UpdateExpression: 'SET #reply = :reply',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeNames: { '#reply': 'reply' },
                ExpressionAttributeValues: { ':reply': reply },
              },
            },
          ],
        }),
      );
    } else {
      await this.db.send(new PutCommand(put));
    }
    await this.count(userId, message.createdAt, countDeltas(message, 1));
  }

  /** Conditional status move (from one of `from`); counters follow. Null when not found or not in `from`. */
  private async move(
    userId: string,
    id: string,
    from: readonly MessageStatus[],
    to: MessageStatus,
    extra: { set?: Record<string, unknown>; remove?: string[]; add?: Record<string, number>; condition?: { expression: string; values: Record<string, unknown> } } = {},
  ): Promise<StoredMessage | null> {
    const key = this.key(userId, id);
    if (!key) return null;
    const sets = ['#st = :to', ...Object.keys(extra.set ?? {}).map((k) => `#${k} = :${k}`)];
    const names: Record<string, string> = { '#st': 'status' };
    const values: Record<string, unknown> = { ':to': to };
    for (const [k, v] of Object.entries(extra.set ?? {})) {
      names[`#${k}`] = k;
      values[`:${k}`] = v;
    }
    from.forEach((s, i) => (values[`:f${i}`] = s));
    let expr = `SET ${sets.join(', ')}`;
    if (extra.remove?.length) {
      for (const k of extra.remove) names[`#${k}`] = k;
      expr += ` REMOVE ${extra.remove.map((k) => `#${k}`).join(', ')}`;
    }
    if (extra.add) {
      for (const [k, v] of Object.entries(extra.add)) {
        names[`#${k}`] = k;
        values[`:${k}`] = v;
      }
      expr += ` ADD ${Object.keys(extra.add).map((k) => `#${k} :${k}`).join(', ')}`;
    }
    if (extra.condition) Object.assign(values, extra.condition.values);
    const result = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: expr,
          ConditionExpression: `attribute_exists(pk) AND #st IN (${from.map((_, i) => `:f${i}`).join(', ')})${extra.condition ? ` AND ${extra.condition.expression}` : ''}`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    if (!result) return null;
    const before = toMessage(result.Attributes ?? {});
    if (before.fromMe) await this.count(userId, before.createdAt, { [`s_${before.status}`]: -1, [`s_${to}`]: 1 });
    const after: StoredMessage = { ...before, ...(extra.set as Partial<StoredMessage>), status: to };
    for (const k of extra.remove ?? []) delete (after as unknown as Item)[k];
    if (extra.add) for (const [k, v] of Object.entries(extra.add)) (after as unknown as Item)[k] = (Number((before as unknown as Item)[k]) || 0) + v;
    return after;
  }

  async markSent(userId: string, id: string, waMessageId: string): Promise<StoredMessage | null> {
    const nowSec = Math.floor(this.clock() / 1000);
    // The wamid index (status webhooks find the message by it) and the move, side by side.
    const [, moved] = await Promise.all([
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: userPk(userId), sk: wamidSk(waMessageId), entity: 'wamid', dir: 'out', messageId: id, expiresAt: nowSec + WAMID_TTL_SECONDS },
        }),
      ),
      this.move(userId, id, ['pending'], 'sent', { set: { waMessageId } }),
    ]);
    return moved;
  }

  markFailed(userId: string, id: string, error: string, detail: MessageFailureDetail = {}): Promise<StoredMessage | null> {
    const set: Record<string, unknown> = { error };
    if (detail.errorCode) set.errorCode = detail.errorCode;
    if (detail.errorReason) set.errorReason = detail.errorReason;
    return this.move(userId, id, ['pending', 'sent'], 'failed', { set });
  }

  async adoptSend(userId: string, id: string, waMessageId: string): Promise<StoredMessage | null> {
    // Only our outgoing message that never got a wamid: a reference cannot move anything else.
    const moved = await this.move(userId, id, ['pending', 'failed'], 'sent', {
      set: { waMessageId },
      remove: ['error', 'errorCode', 'errorReason'],
      condition: { expression: 'fromMe = :fromMe AND waMessageId = :none', values: { ':fromMe': true, ':none': '' } },
    });
    if (!moved) return null;
    const nowSec = Math.floor(this.clock() / 1000);
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: userPk(userId), sk: wamidSk(waMessageId), entity: 'wamid', dir: 'out', messageId: id, expiresAt: nowSec + WAMID_TTL_SECONDS },
      }),
    );
    return moved;
  }

  async updateStatusByWamid(userId: string, waMessageId: string, status: MessageStatus, error?: string): Promise<StatusUpdateResult> {
    const claim = await this.getWamid(userId, waMessageId);
    if (!claim || claim.dir !== 'out') return 'unknown';
    const id = String(claim.messageId);
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.get(userId, id);
      if (!current) return 'unknown';
      if (!statusCanMove(current.status, status)) return 'stale';
      const moved = await this.move(userId, id, [current.status], status, status === 'failed' && error ? { set: { error } } : {});
      if (moved) return 'updated';
    }
    return 'stale';
  }

  async recent(userId: string, conversationId: string, limit: number): Promise<StoredMessage[]> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': convMsgPk(userId, conversationId), ':sk': 'MSG#' },
        ScanIndexForward: false,
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    return live(Items ?? []).map(toMessage).reverse();
  }

  async listByConversation(userId: string, conversationId: string, cap: number): Promise<StoredMessage[]> {
    return live(await this.conversationItems(userId, conversationId, cap)).map(toMessage);
  }

  /** Every message item of a conversation, expired ones too (what a delete must remove). */
  private async conversationItems(userId: string, conversationId: string, cap: number): Promise<Item[]> {
    return queryItems(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': convMsgPk(userId, conversationId), ':sk': 'MSG#' },
        ConsistentRead: true,
      },
      cap,
    );
  }

  /** Newest first, within [since, now], reading at most `cap` items. */
  private async readRange(userId: string, since: number | null, cap: number): Promise<StoredMessage[]> {
    const items = await queryItems(
      this.db,
      {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: since === null ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND gsi1sk >= :since',
        ExpressionAttributeValues: { ':pk': userMsgsGsi(userId), ...(since === null ? {} : { ':since': idTimePrefix(since) }) },
        ScanIndexForward: false,
      },
      cap,
    );
    return live(items).map(toMessage);
  }

  async page(userId: string, input: MessageListInput): Promise<{ items: StoredMessage[]; total: number }> {
    const since = timeFilterStart(input.timeFilter, input.now);
    const offset = (input.page - 1) * input.limit;
    const filtered = input.search !== '' || input.status !== '' || input.fromMe !== undefined;
    if (!filtered) {
      const [stats, items] = await Promise.all([
        this.stats(userId, input.timeFilter, input.now),
        this.readRange(userId, since, Math.min(FILTERED_READ_CAP, offset + input.limit)),
      ]);
      return { items: items.slice(offset, offset + input.limit), total: stats.totalMessages };
    }
    const term = fold(input.search.trim());
    const matches = (await this.readRange(userId, since, FILTERED_READ_CAP)).filter(
      (m) =>
        (input.status === '' || m.status === input.status) &&
        (input.fromMe === undefined || m.fromMe === input.fromMe) &&
        (term === '' || fold(searchText(m)).includes(term)),
    );
    return { items: matches.slice(offset, offset + input.limit), total: matches.length };
  }

  async stats(userId: string, timeFilter: TimeFilter, now: string): Promise<MessageStats> {
    const keys = statsDays(timeFilter, now).map((day) => ({ pk: userPk(userId), sk: statsSk(day) }));
    const items = await batchGetItems(this.db, this.tableName, keys);
    const sum = (name: string) => items.reduce((acc, it) => acc + (Number(it[name]) || 0), 0);
    return {
      totalMessages: sum('total'),
      sentMessages: sum('out'),
      receivedMessages: sum('in'),
      mediaMessages: sum('media'),
      statusBreakdown: { pending: sum('s_pending'), sent: sum('s_sent'), delivered: sum('s_delivered'), read: sum('s_read'), failed: sum('s_failed') },
      typeBreakdown: {
        chat: sum('t_chat'),
        image: sum('t_image'),
        video: sum('t_video'),
        audio: sum('t_audio') + sum('t_ptt'),
        document: sum('t_document'),
        sticker: sum('t_sticker'),
      },
    };
  }

  latest(userId: string, limit: number): Promise<StoredMessage[]> {
    return this.readRange(userId, null, limit);
  }

  /** A message past its retention reads as absent, unless `expired` (a redelivery finding the message its wamid names). */
  async get(userId: string, id: string, options: { expired?: boolean } = {}): Promise<StoredMessage | null> {
    const key = this.key(userId, id);
    if (!key) return null;
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return Item && (options.expired || !isExpired(Item.expiresAt)) ? toMessage(Item) : null;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const key = this.key(userId, id);
    if (!key) return false;
    const { Attributes } = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: key, ReturnValues: 'ALL_OLD' }));
    if (!Attributes) return false;
    const m = toMessage(Attributes);
    await Promise.all([this.count(userId, m.createdAt, countDeltas(m, -1)), this.deleteWamids(userId, [m])]);
    return true;
  }

  private async deleteWamids(userId: string, messages: readonly StoredMessage[]): Promise<void> {
    const keys = messages.filter((m) => m.waMessageId).map((m) => ({ pk: userPk(userId), sk: wamidSk(m.waMessageId) }));
    await this.batchDelete(keys);
  }

  private batchDelete(keys: Array<Record<string, unknown>>): Promise<void> {
    return batchDeleteKeys(this.db, this.tableName, keys);
  }

  /** Deletes every message of a conversation (and their wamid items), counters decremented per day. */
  async removeAllOf(userId: string, conversationId: string): Promise<number> {
    let removed = 0;
    for (;;) {
      const batch = (await this.conversationItems(userId, conversationId, 500)).map(toMessage);
      if (batch.length === 0) return removed;
      await this.batchDelete(batch.map((m) => this.key(userId, m.id)!));
      await this.deleteWamids(userId, batch);
      const byDay = new Map<string, Record<string, number>>();
      for (const m of batch) {
        const day = m.createdAt.slice(0, 10);
        const acc = byDay.get(day) ?? {};
        for (const [k, v] of Object.entries(countDeltas(m, -1))) acc[k] = (acc[k] ?? 0) + v;
        byDay.set(day, acc);
      }
      await Promise.all([...byDay].map(([day, deltas]) => this.count(userId, `${day}T00:00:00.000Z`, deltas)));
      removed += batch.length;
    }
  }

  beginRetry(userId: string, id: string): Promise<StoredMessage | null> {
    return this.move(userId, id, ['failed'], 'pending', { remove: ['error', 'errorCode', 'errorReason'], add: { retryCount: 1 } });
  }
}
