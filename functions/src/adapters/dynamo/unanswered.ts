/**
 * Unanswered questions over the single table (ACCESS-PATTERNS.md, "Unanswered questions"):
 *
 *   pk = USER#{userId}#UNANSWERED#{agentId}   one partition per agent (tenant first)
 *   sk = Q#{id}                               time-sortable id: newest first with ScanIndexForward=false
 *   question, channel, askedAt, conversationId?, callId?, expiresAt (TTL, 90 days)
 *
 * Kept ≤ AGENT_LIMITS.unansweredKept per agent: the list reads the newest ones and deletes what
 * lies beyond (best effort; the TTL removes what a failed prune left). Readers skip expired items.
 */
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { UnansweredQuestion } from '../../contract/agents.js';
import { UNANSWERED_KEPT, type UnansweredStore } from '../../domain/knowledge/unanswered.js';
import { batchDeleteKeys } from './batch.js';
import { unlessConditionFails } from './conditions.js';
import { itemCodec, optStr, str, strOr } from './item-codec.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';

type Item = Record<string, unknown>;

export const unansweredPk = (userId: string, agentId: string) => `${userPk(userId)}#UNANSWERED#${agentId}`;
export const unansweredSk = (id: string) => `Q#${id}`;
export const UNANSWERED_TTL_SECONDS = 90 * 24 * 3600;
const ID = /^[0-9A-Za-z_-]{1,100}$/;

const toQuestion = itemCodec<UnansweredQuestion>({
  _id: str,
  question: str,
  channel: strOr<UnansweredQuestion['channel']>('chat'),
  askedAt: str,
  conversationId: optStr,
  callId: optStr,
});

const expired = (item: Item, nowMs: number) => typeof item.expiresAt === 'number' && item.expiresAt * 1000 <= nowMs;

export class DynamoUnansweredStore implements UnansweredStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  async add(userId: string, agentId: string, q: UnansweredQuestion): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: unansweredPk(userId, agentId),
          sk: unansweredSk(q._id),
          entity: 'unanswered',
          ...q,
          expiresAt: Math.floor(this.now() / 1000) + UNANSWERED_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async list(userId: string, agentId: string): Promise<UnansweredQuestion[]> {
    const pk = unansweredPk(userId, agentId);
    // One item more than kept tells whether there is anything to prune.
    const items = await queryItems(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': 'Q#', ':to': 'Q#~' },
        ScanIndexForward: false,
        ConsistentRead: true,
      },
      UNANSWERED_KEPT + 1,
    );
    const kept = items.slice(0, UNANSWERED_KEPT);
    if (items.length > UNANSWERED_KEPT) await this.prune(pk, String(kept[kept.length - 1]!.sk));
    const now = this.now();
    return kept.filter((i) => !expired(i, now)).map(toQuestion);
  }

  /** Deletes the questions older than `oldestKeptSk` (best effort: the TTL is the backstop). */
  private async prune(pk: string, oldestKeptSk: string): Promise<void> {
    try {
      const older = await queryItems(this.db, {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': pk, ':from': 'Q#', ':to': oldestKeptSk },
        ProjectionExpression: 'pk, sk',
      });
      await batchDeleteKeys(this.db, this.tableName, older.filter((i) => i.sk !== oldestKeptSk).map((i) => ({ pk: i.pk, sk: i.sk })));
    } catch {
      // The list is still right; the next listing or the TTL removes them.
    }
  }

  async remove(userId: string, agentId: string, ids: readonly string[]): Promise<string[]> {
    const pk = unansweredPk(userId, agentId);
    const unique = [...new Set(ids)].filter((id) => ID.test(id));
    const removed = await Promise.all(
      unique.map(async (id) => {
        const out = await unlessConditionFails(
          this.db.send(
            new DeleteCommand({ TableName: this.tableName, Key: { pk, sk: unansweredSk(id) }, ConditionExpression: 'attribute_exists(pk)' }),
          ),
        );
        return out ? id : null;
      }),
    );
    return removed.filter((id): id is string => id !== null);
  }

  async deleteAgent(userId: string, agentId: string): Promise<void> {
    const pk = unansweredPk(userId, agentId);
    const items = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'pk, sk',
    });
    await batchDeleteKeys(this.db, this.tableName, items.map((i) => ({ pk: i.pk, sk: i.sk })));
  }
}
