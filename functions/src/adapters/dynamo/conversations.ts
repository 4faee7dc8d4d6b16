/**
 * WhatsApp conversations over the single table (ACCESS-PATTERNS.md, "WhatsApp: conversations and
 * messages"):
 *
 * - pk=USER#{u}, sk=CONV#{id}: the conversation; gsi1pk=USER#{u}#CONVS#{status},
 *   gsi1sk={lastMessageAt}#{id}: by status, latest activity first.
 * - pk=USER#{u}, sk=WACUST#{waId}: the customer's open conversation (conversationId), every
 *   conversation of the customer (conversationIds, a string set), profile and contact link;
 *   gsi1pk=USER#{u}#CONTACT#{contactId}, gsi1sk=WACUST#{waId} when linked.
 * - pk=USER#{u}, sk=CONVS#STATS: conversations per status (moved inside the status-change
 *   transaction, so the board's counts never disagree with the statuses).
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { CONVERSATION_STATUSES, type ConversationStats, type ConversationStatus } from '../../contract/whatsapp.js';
import type {
  AssigneeFilter,
  ConversationActivity,
  ConversationListInput,
  ConversationPatch,
  ConversationRepository,
  CustomerRef,
  StoredConversation,
} from '../../domain/conversations/ports.js';
import { isExpired } from '../../domain/privacy/retention.js';
import { newId } from '../../lib/ids.js';
import { DynamoActivityCounters } from './activity.js';
import { batchGetItems } from './batch.js';
import { ignoreConditionFailure, unlessConditionFails } from './conditions.js';
import { withoutKeys } from './item-codec.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';
import { conditionFailedAt, transactWrite, type TransactItem } from './transact.js';
import type { DynamoMessageRepository } from './messages.js';
import { contactGsi, convSk, customerSk, DynamoWhatsAppCustomers } from './whatsapp-customers.js';

type Item = Record<string, unknown>;

export { convSk, customerSk };
export const statusGsi = (userId: string, status: ConversationStatus) => `USER#${userId}#CONVS#${status}`;
const STATS_SK = 'CONVS#STATS';

/** The CONVS#STATS move inside a transaction (also a person's erasure's: −1 per conversation it deletes). */
export function conversationStatsAdd(tableName: string, userId: string, deltas: Partial<Record<ConversationStatus, number>>): TransactItem {
  const names = Object.keys(deltas);
  return {
    Update: {
      TableName: tableName,
      Key: { pk: userPk(userId), sk: STATS_SK },
      UpdateExpression: `ADD ${names.map((_, i) => `#s${i} :d${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#s${i}`, n])),
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:d${i}`, deltas[n as ConversationStatus]])),
    },
  };
}
const OPEN_STATUSES: readonly ConversationStatus[] = ['active', 'requires_human'];
/** Items read per status for a searched list. */
export const SEARCH_READ_CAP = 2000;
const ID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

// expiresAt (the TTL: `messages` days after the last activity, issue 33) stays on the item.
const toConversation = (item: Item) => withoutKeys<StoredConversation>(item, ['expiresAt']);
/** Conversations past their retention read as absent (DynamoDB deletes them within days, not at once). */
const live = (items: readonly Item[], nowMs = Date.now()) => items.filter((item) => !isExpired(item.expiresAt, nowMs));

export class DynamoConversationRepository implements ConversationRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly messages: DynamoMessageRepository,
  ) {
    this.activity = new DynamoActivityCounters(db, tableName);
  }

  /** The dashboard's hourly counters (conversations opened, escalations), beside the writes. */
  private readonly activity: DynamoActivityCounters;

  private transact(items: TransactItem[]): Promise<void> {
    return transactWrite(this.db, items);
  }

  private statsAdd(userId: string, deltas: Partial<Record<ConversationStatus, number>>): TransactItem {
    return conversationStatsAdd(this.tableName, userId, deltas);
  }

  private async conversationItem(userId: string, c: StoredConversation): Promise<Item> {
    const expiresAt = await this.messages.messagesExpiry(userId, c.lastMessageAt);
    return {
      pk: userPk(userId),
      sk: convSk(c.id),
      gsi1pk: statusGsi(userId, c.status),
      gsi1sk: `${c.lastMessageAt}#${c.id}`,
      entity: 'conversation',
      ...c,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
    };
  }

  /** A conversation past its retention reads as absent (a customer writing again opens a new one), unless `expired` (its deletion). */
  async get(userId: string, id: string, options: { expired?: boolean } = {}): Promise<StoredConversation | null> {
    if (!ID_RE.test(id)) return null;
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: convSk(id) }, ConsistentRead: true }));
    return Item && (options.expired || !isExpired(Item.expiresAt)) ? toConversation(Item) : null;
  }

  /** The customer's latest conversation (any status) by their pointer, without opening one (issue 30: a booking message's 24-hour window). */
  async latestFor(userId: string, waId: string): Promise<StoredConversation | null> {
    const { Item: pointer } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: customerSk(waId) }, ConsistentRead: true }));
    return typeof pointer?.conversationId === 'string' ? this.get(userId, pointer.conversationId) : null;
  }

  async getMany(userId: string, ids: readonly string[]): Promise<StoredConversation[]> {
    const valid = [...new Set(ids.filter((id) => ID_RE.test(id)))];
    const keys = valid.map((id) => ({ pk: userPk(userId), sk: convSk(id) }));
    return live(await batchGetItems(this.db, this.tableName, keys, { consistentRead: true })).map(toConversation);
  }

  async findOrOpen(userId: string, customer: CustomerRef, now: string): Promise<{ conversation: StoredConversation; opened: boolean }> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const { Item: pointer } = await this.db.send(
        new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: customerSk(customer.waId) }, ConsistentRead: true }),
      );
      const currentId = typeof pointer?.conversationId === 'string' ? pointer.conversationId : null;
      if (currentId) {
        const current = await this.get(userId, currentId);
        if (current && OPEN_STATUSES.includes(current.status)) return { conversation: current, opened: false };
      }
      const contactId = customer.contactId || (typeof pointer?.contactId === 'string' ? pointer.contactId : '');
      const conversation: StoredConversation = {
        id: newId(Date.parse(now) || Date.now()),
        status: 'active',
        notes: '',
        escalationReason: '',
        customerWaId: customer.waId,
        customerPhone: customer.phone,
        customerName: customer.name,
        contactId,
        phoneNumberId: customer.phoneNumberId,
        lastMessage: null,
        lastAgent: null,
        createdAt: now,
        updatedAt: now,
        lastMessageAt: now,
        lastInboundAt: null,
        closedAt: null,
        escalatedAt: null,
        messageCount: 0,
        humanAt: null,
        aiPaused: false,
        assignee: null,
        unreadCount: 0,
      };
      const sets = ['conversationId = :id', 'waId = :waId', 'phone = :phone', '#name = :name', 'entity = :entity', 'firstSeenAt = if_not_exists(firstSeenAt, :now)'];
      const values: Item = {
        ':id': conversation.id,
        ':waId': customer.waId,
        ':phone': customer.phone,
        ':name': customer.name,
        ':entity': 'waCustomer',
        ':now': now,
        ':ids': new Set([conversation.id]),
      };
      if (contactId) {
        sets.push('contactId = :cid', 'gsi1pk = :g1', 'gsi1sk = :g2');
        Object.assign(values, { ':cid': contactId, ':g1': contactGsi(userId, contactId), ':g2': customerSk(customer.waId) });
      }
      if (currentId) values[':old'] = currentId;
      try {
        await this.transact([
          { Put: { TableName: this.tableName, Item: await this.conversationItem(userId, conversation), ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Update: {
              TableName: this.tableName,
              Key: { pk: userPk(userId), sk: customerSk(customer.waId) },
              UpdateExpression: `SET ${sets.join(', ')} ADD conversationIds :ids`,
              ConditionExpression: currentId ? 'conversationId = :old' : 'attribute_not_exists(conversationId)',
              ExpressionAttributeNames: { '#name': 'name' },
              ExpressionAttributeValues: values,
            },
          },
          this.statsAdd(userId, { active: 1 }),
        ]);
        // With the message counters: in the inbound worker, one ACT write per delivery.
        await this.messages.addActivity(userId, now, { conv: 1 });
        return { conversation, opened: true };
      } catch (error) {
        // Another message of the customer opened one first: use it.
        if (conditionFailedAt(error, 1)) continue;
        throw error;
      }
    }
    throw new Error('Could not find or open the conversation (too much contention)');
  }

  async touch(userId: string, id: string, a: ConversationActivity): Promise<StoredConversation | null> {
    if (!ID_RE.test(id)) return null;
    const values: Item = { ':n': a.messageCountDelta, ':now': new Date().toISOString() };
    const sets = ['updatedAt = :now'];
    if (a.customerName) {
      sets.push('customerName = :cname');
      values[':cname'] = a.customerName;
    }
    if (a.contactId) {
      sets.push('contactId = :cid');
      values[':cid'] = a.contactId;
    }
    if (a.humanAt) {
      // A person replied: the AI stays quiet (takeover.ts), in the same write as the activity.
      sets.push('humanAt = :hat', 'aiPaused = :paused');
      Object.assign(values, { ':hat': a.humanAt, ':paused': true });
    }
    const adds = ['messageCount :n'];
    if (a.unreadDelta) {
      adds.push('unreadCount :unread');
      values[':unread'] = a.unreadDelta;
    }
    // Issue 33: the conversation is kept `messages` days after its last activity (the settings' cached read).
    const expiresAt = await this.messages.messagesExpiry(userId, a.lastMessageAt);
    const latest = [
      'lastMessage = :lm',
      'lastMessageAt = :at',
      'gsi1sk = :g1sk',
      ...(a.lastAgent ? ['lastAgent = :la'] : []),
      ...(expiresAt !== undefined ? ['expiresAt = :exp'] : []),
    ];
    const latestValues: Item = {
      ':at': a.lastMessageAt,
      ':lm': a.lastMessage,
      ':g1sk': `${a.lastMessageAt}#${id}`,
      ...(a.lastAgent ? { ':la': a.lastAgent } : {}),
      ...(expiresAt !== undefined ? { ':exp': expiresAt } : {}),
    };
    // The 24-hour window's start only moves forward (issue 29): a late redelivery of an old message
    // must not pull it back (lastInboundAt is stored null until the customer's first message).
    const inbound = a.lastInboundAt
      ? { set: 'lastInboundAt = :in', values: { ':in': a.lastInboundAt, ':nul': 'NULL' }, forward: '(attribute_not_exists(lastInboundAt) OR attribute_type(lastInboundAt, :nul) OR lastInboundAt <= :in)' }
      : null;
    // Only a newer message becomes the last one (workers may finish out of order); the first write
    // that holds is the only one made (the counts move once). Usually the first.
    const attempts = [
      ...(inbound ? [{ latest: true, inbound: true }] : []),
      { latest: true, inbound: false },
      ...(inbound ? [{ latest: false, inbound: true }] : []),
      { latest: false, inbound: false },
    ];
    for (const attempt of attempts) {
      const withInbound = attempt.inbound && inbound;
      const written = await unlessConditionFails(
        this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: convSk(id) },
            UpdateExpression: `SET ${[...sets, ...(withInbound ? [withInbound.set] : []), ...(attempt.latest ? latest : [])].join(', ')} ADD ${adds.join(', ')}`,
            ConditionExpression: ['attribute_exists(pk)', ...(attempt.latest ? ['lastMessageAt <= :at'] : []), ...(withInbound ? [withInbound.forward] : [])].join(' AND '),
            ExpressionAttributeValues: { ...values, ...(attempt.latest ? latestValues : {}), ...(withInbound ? withInbound.values : {}) },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      );
      if (written) return written.Attributes ? toConversation(written.Attributes) : null;
    }
    return null;
  }

  async update(userId: string, id: string, patch: ConversationPatch, now: string, expectedStatus?: ConversationStatus): Promise<StoredConversation | null> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await this.get(userId, id);
      if (!before) return null;
      if (expectedStatus && before.status !== expectedStatus) return null;
      const after: StoredConversation = { ...before, updatedAt: now };
      if (patch.notes !== undefined) after.notes = patch.notes;
      if (patch.escalationReason !== undefined) after.escalationReason = patch.escalationReason;
      if (patch.status !== undefined && patch.status !== before.status) {
        after.status = patch.status;
        if (patch.status === 'closed') after.closedAt = now;
        else if (before.status === 'closed') after.closedAt = null;
      }
      if (patch.closedAt !== undefined) after.closedAt = patch.closedAt;
      if (patch.escalatedAt !== undefined) after.escalatedAt = patch.escalatedAt;
      // Takeover and assignment: written only when given (older items may lack them).
      const extra: Item = {};
      if (patch.humanAt !== undefined) extra.humanAt = after.humanAt = patch.humanAt;
      if (patch.aiPaused !== undefined) extra.aiPaused = after.aiPaused = patch.aiPaused;
      if (patch.assignee !== undefined) extra.assignee = after.assignee = patch.assignee;
      const extraNames = Object.keys(extra);
      const items: TransactItem[] = [
        {
          Update: {
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: convSk(id) },
            UpdateExpression:
              'SET #st = :st, notes = :notes, escalationReason = :reason, closedAt = :closed, escalatedAt = :esc, updatedAt = :now, gsi1pk = :g1' +
              extraNames.map((n) => `, ${n} = :x_${n}`).join(''),
            ConditionExpression: 'attribute_exists(pk) AND #st = :before',
            ExpressionAttributeNames: { '#st': 'status' },
            ExpressionAttributeValues: {
              ...Object.fromEntries(extraNames.map((n) => [`:x_${n}`, extra[n]])),
              ':st': after.status,
              ':notes': after.notes,
              ':reason': after.escalationReason,
              ':closed': after.closedAt,
              ':esc': after.escalatedAt,
              ':now': now,
              ':g1': statusGsi(userId, after.status),
              ':before': before.status,
            },
          },
        },
      ];
      if (after.status !== before.status) items.push(this.statsAdd(userId, { [before.status]: -1, [after.status]: 1 }));
      try {
        await this.transact(items);
        // Read back: a message may have touched it meanwhile (lastMessage, count).
        return (await this.get(userId, id)) ?? after;
      } catch (error) {
        if (conditionFailedAt(error, 0)) continue;
        throw error;
      }
    }
    return null;
  }

  async escalate(userId: string, id: string, reason: string, now: string): Promise<StoredConversation | null> {
    const escalated = await this.update(
      userId,
      id,
      { status: 'requires_human', escalationReason: reason, escalatedAt: now, humanAt: now, aiPaused: true },
      now,
    );
    if (escalated) await this.activity.add(userId, now, { esc: 1 });
    return escalated;
  }

  async markRead(userId: string, id: string): Promise<void> {
    if (!ID_RE.test(id)) return;
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: convSk(id) },
          UpdateExpression: 'SET unreadCount = :zero',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':zero': 0 },
        }),
      )
      .catch(ignoreConditionFailure);
  }

  /** The status index, newest first; `assignee` filters (user id, or null = unassigned) while the pages are read. */
  private async queryStatus(userId: string, status: ConversationStatus, cap: number, since?: string, assignee?: AssigneeFilter): Promise<Item[]> {
    const filter =
      assignee === undefined
        ? {}
        : assignee === null
          ? { FilterExpression: 'attribute_not_exists(assignee) OR attribute_type(assignee, :none)' }
          : { FilterExpression: 'assignee = :assignee' };
    return queryItems(
      this.db,
      {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: since ? 'gsi1pk = :pk AND gsi1sk >= :since' : 'gsi1pk = :pk',
        ...filter,
        ExpressionAttributeValues: {
          ':pk': statusGsi(userId, status),
          ...(since ? { ':since': since } : {}),
          ...(assignee === null ? { ':none': 'NULL' } : assignee !== undefined ? { ':assignee': assignee } : {}),
        },
        ScanIndexForward: false,
      },
      cap,
    );
  }

  async page(userId: string, input: ConversationListInput): Promise<{ items: StoredConversation[]; total: number }> {
    const statuses: readonly ConversationStatus[] = input.status ? [input.status] : CONVERSATION_STATUSES;
    const term = fold(input.search.trim());
    const want = input.offset + input.limit;
    // A search or an assignee filter reads up to SEARCH_READ_CAP per status and counts what matched.
    const filtered = Boolean(term) || input.assignee !== undefined;
    const read = await Promise.all(statuses.map((s) => this.queryStatus(userId, s, filtered ? SEARCH_READ_CAP : want, undefined, input.assignee)));
    let items = live(read.flat())
      .sort((a, b) => String(b.gsi1sk).localeCompare(String(a.gsi1sk)))
      .map(toConversation);
    let total: number;
    if (term) {
      items = items.filter((c) =>
        fold(`${c.customerName} ${c.customerPhone} ${c.customerWaId} ${c.notes} ${c.escalationReason} ${c.lastMessage?.body ?? ''}`).includes(term),
      );
    }
    if (filtered) {
      total = items.length;
    } else {
      const stats = await this.rawStats(userId);
      total = statuses.reduce((acc: number, s: ConversationStatus) => acc + Math.max(0, Number(stats[s]) || 0), 0);
    }
    return { items: items.slice(input.offset, want), total };
  }

  async listActiveSince(userId: string, status: ConversationStatus, since: string, limit: number, assignee?: AssigneeFilter): Promise<StoredConversation[]> {
    return live(await this.queryStatus(userId, status, limit, since, assignee)).map(toConversation);
  }

  private async rawStats(userId: string): Promise<Partial<Record<ConversationStatus, number>>> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: STATS_SK }, ConsistentRead: true }));
    return (Item ?? {}) as Partial<Record<ConversationStatus, number>>;
  }

  async stats(userId: string): Promise<ConversationStats> {
    const raw = await this.rawStats(userId);
    const n = (s: ConversationStatus) => Math.max(0, Number(raw[s]) || 0);
    return { total: n('active') + n('requires_human') + n('closed') + n('archived'), active: n('active'), requiresHuman: n('requires_human'), closed: n('closed'), archived: n('archived') };
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const conv = await this.get(userId, id, { expired: true });
    if (!conv) return false;
    try {
      await this.transact([
        {
          Delete: {
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: convSk(id) },
            ConditionExpression: '#st = :st',
            ExpressionAttributeNames: { '#st': 'status' },
            ExpressionAttributeValues: { ':st': conv.status },
          },
        },
        this.statsAdd(userId, { [conv.status]: -1 }),
      ]);
    } catch (error) {
      if (conditionFailedAt(error, 0)) return this.remove(userId, id);
      throw error;
    }
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: customerSk(conv.customerWaId) },
          UpdateExpression: 'REMOVE conversationId DELETE conversationIds :ids',
          ConditionExpression: 'conversationId = :id',
          ExpressionAttributeValues: { ':id': id, ':ids': new Set([id]) },
        }),
      )
      .catch(async (error: unknown) => {
        ignoreConditionFailure(error);
        // Not the customer's open one: just forget it in the customer's list.
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: customerSk(conv.customerWaId) },
            UpdateExpression: 'DELETE conversationIds :ids',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':ids': new Set([id]) },
          }),
        ).catch(ignoreConditionFailure);
      });
    await this.messages.removeAllOf(userId, id);
    return true;
  }

  // Contact links and the customer list live in DynamoWhatsAppCustomers (whatsapp-customers.ts),
  // so the contacts bundle gets them without the conversation and message code.
  unlinkContact(userId: string, contactId: string): Promise<void> {
    return this.customerLinks().unlinkContact(userId, contactId);
  }

  linkContact(userId: string, waId: string, contactId: string): Promise<void> {
    return this.customerLinks().linkContact(userId, waId, contactId);
  }

  customers(userId: string): AsyncIterable<Array<{ waId: string; phone: string; name: string; contactId: string }>> {
    return this.customerLinks().customers(userId);
  }

  private links?: DynamoWhatsAppCustomers;
  private customerLinks(): DynamoWhatsAppCustomers {
    return (this.links ??= new DynamoWhatsAppCustomers(this.db, this.tableName));
  }
}
