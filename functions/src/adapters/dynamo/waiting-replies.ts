/**
 * Customers' messages that got no answer and the provider incidents (issue 34; the domain:
 * domain/conversations/waiting.ts; ACCESS-PATTERNS.md "WhatsApp: conversations and messages"):
 *
 * - the message item: `noAnswer` {reason, at} while it waits;
 * - its wamid item (pk=USER#{u}, sk=WAMID#{wamid}): state `waiting` (claimed to `replying` by the
 *   answer action, `handled` once answered);
 * - the conversation item: `noAnswerIds` (string set of its waiting message ids: DynamoDB drops
 *   an emptied set, so "absent" is "none waiting"), `noAnswerReason`, `noAnswerAt`;
 * - pk=USER#{u}, sk=WAITING#CONVS: `conversationIds`, the account's conversations with waiting
 *   messages (taken off only while the conversation has none: a ConditionCheck in the same
 *   transaction);
 * - pk=USER#{u}, sk=INCIDENT#{provider}: `openedAt` (kept while open: if_not_exists), `reason`,
 *   `lastAt`; deleted when the provider answers again.
 */
import { DeleteCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { NoAnswerMarker, NoAnswerReason } from '../../contract/no-answer.js';
import type { StoredMessage } from '../../domain/conversations/ports.js';
import type { ProviderIncidentStore, WaitingReplyStore } from '../../domain/conversations/waiting.js';
import { conditionHolds, ignoreConditionFailure } from './conditions.js';
import { userPk } from './keys.js';
import { convMsgPk, msgSk, splitMessageId, wamidSk } from './messages.js';
import { cancellationReasons, conditionFailedAt, transactWrite, type TransactItem } from './transact.js';
import { convSk } from './whatsapp-customers.js';

export const WAITING_CONVERSATIONS_SK = 'WAITING#CONVS';
export const incidentSk = (provider: string) => `INCIDENT#${provider}`;

export class DynamoWaitingReplies implements WaitingReplyStore, ProviderIncidentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private messageKey(userId: string, messageId: string) {
    const parts = splitMessageId(messageId);
    if (!parts) throw new Error(`Malformed message id ${messageId}`);
    return { pk: convMsgPk(userId, parts.convId), sk: msgSk(parts.mid) };
  }

  private update(Key: Record<string, string>, UpdateExpression: string, values: Record<string, unknown> = {}, names?: Record<string, string>): TransactItem {
    return {
      Update: {
        TableName: this.tableName,
        Key,
        UpdateExpression,
        ConditionExpression: 'attribute_exists(pk)',
        ...(names ? { ExpressionAttributeNames: names } : {}),
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      },
    };
  }

  async markWaiting(userId: string, message: StoredMessage, marker: NoAnswerMarker): Promise<void> {
    await this.mark(userId, message, marker, false);
  }

  markLeft(userId: string, message: StoredMessage, marker: NoAnswerMarker): Promise<boolean> {
    return this.mark(userId, message, marker, true);
  }

  /** `fromHandled`: only while the wamid is handled (false when it is not, nothing written). */
  private async mark(userId: string, message: StoredMessage, marker: NoAnswerMarker, fromHandled: boolean): Promise<boolean> {
    const conversation = { pk: userPk(userId), sk: convSk(message.conversationId) };
    const wamid: TransactItem = {
      Update: {
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: wamidSk(message.waMessageId) },
        UpdateExpression: 'SET #st = :waiting REMOVE #owner, leaseUntil',
        ConditionExpression: fromHandled ? 'attribute_exists(pk) AND #st = :handled' : 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#st': 'state', '#owner': 'owner' },
        ExpressionAttributeValues: { ':waiting': 'waiting', ...(fromHandled ? { ':handled': 'handled' } : {}) },
      },
    };
    try {
      await transactWrite(this.db, [
        this.update(this.messageKey(userId, message.id), 'SET noAnswer = :m', { ':m': marker }),
        wamid,
        this.update(conversation, 'SET noAnswerReason = :r, noAnswerAt = :at ADD noAnswerIds :ids', { ':r': marker.reason, ':at': marker.at, ':ids': new Set([message.id]) }),
        {
          Update: {
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: WAITING_CONVERSATIONS_SK },
            UpdateExpression: 'SET entity = :e ADD conversationIds :cids',
            ExpressionAttributeValues: { ':e': 'waitingConversations', ':cids': new Set([message.conversationId]) },
          },
        },
      ]);
      return true;
    } catch (error) {
      // The conversation (with its messages) was deleted meanwhile: nothing waits any more.
      if (conditionFailedAt(error, 0) || conditionFailedAt(error, 2)) return false;
      // Already waiting or being answered (markLeft): handed to the agent before.
      if (fromHandled && conditionFailedAt(error, 1)) return false;
      throw error;
    }
  }

  claimWaiting(userId: string, waMessageId: string, owner: string, now: number, leaseMs: number): Promise<boolean> {
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: wamidSk(waMessageId) },
          UpdateExpression: 'SET #st = :replying, #owner = :owner, leaseUntil = :until',
          ConditionExpression: '#st = :waiting OR (#st = :replying AND (#owner = :owner OR leaseUntil < :now))',
          ExpressionAttributeNames: { '#st': 'state', '#owner': 'owner' },
          ExpressionAttributeValues: { ':replying': 'replying', ':waiting': 'waiting', ':owner': owner, ':until': now + leaseMs, ':now': now },
        }),
      ),
    );
  }

  async clearWaiting(userId: string, message: StoredMessage): Promise<void> {
    const items = [
      this.update(this.messageKey(userId, message.id), 'REMOVE noAnswer'),
      this.update({ pk: userPk(userId), sk: wamidSk(message.waMessageId) }, 'SET #st = :handled REMOVE #owner, leaseUntil', { ':handled': 'handled' }, { '#st': 'state', '#owner': 'owner' }),
      this.update({ pk: userPk(userId), sk: convSk(message.conversationId) }, 'DELETE noAnswerIds :ids', { ':ids': new Set([message.id]) }),
    ];
    try {
      await transactWrite(this.db, items);
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons?.some((r) => r.code === 'ConditionalCheckFailed')) throw error;
      // One of them is gone (a deleted message or conversation, an expired wamid): clear what is left.
      await Promise.all(items.map((item) => this.db.send(new UpdateCommand(item.Update!)).catch(ignoreConditionFailure)));
    }
    await this.forgetConversation(userId, message.conversationId);
  }

  async dropWaiting(userId: string, conversationId: string, messageId: string): Promise<void> {
    await this.db
      .send(new UpdateCommand(this.update({ pk: userPk(userId), sk: convSk(conversationId) }, 'DELETE noAnswerIds :ids', { ':ids': new Set([messageId]) }).Update!))
      .catch(ignoreConditionFailure);
    await this.forgetConversation(userId, conversationId);
  }

  async waitingConversations(userId: string): Promise<string[]> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: WAITING_CONVERSATIONS_SK }, ConsistentRead: true }),
    );
    const ids = Item?.conversationIds;
    return ids instanceof Set ? [...(ids as Set<string>)].sort() : [];
  }

  async forgetConversation(userId: string, conversationId: string): Promise<void> {
    try {
      await transactWrite(this.db, [
        {
          ConditionCheck: {
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: convSk(conversationId) },
            ConditionExpression: 'attribute_not_exists(noAnswerIds)',
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: WAITING_CONVERSATIONS_SK },
            UpdateExpression: 'DELETE conversationIds :cids',
            ExpressionAttributeValues: { ':cids': new Set([conversationId]) },
          },
        },
      ]);
    } catch (error) {
      // Messages of it wait (again): it stays listed.
      if (!conditionFailedAt(error, 0)) throw error;
    }
  }

  async open(userId: string, provider: string, reason: NoAnswerReason, at: string): Promise<{ openedAt: string }> {
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: incidentSk(provider) },
        UpdateExpression: 'SET entity = :e, openedAt = if_not_exists(openedAt, :at), lastAt = :at, #reason = :r',
        ExpressionAttributeNames: { '#reason': 'reason' },
        ExpressionAttributeValues: { ':e': 'providerIncident', ':at': at, ':r': reason },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { openedAt: typeof Attributes?.openedAt === 'string' ? Attributes.openedAt : at };
  }

  async close(userId: string, provider: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: incidentSk(provider) } }));
  }
}
