/**
 * Saved replies in the single table (see ACCESS-PATTERNS.md "Saved replies"):
 * - reply item  pk=USER#{sub}, sk=SAVEDREPLY#{id}: title, titleKey, text, createdAt, updatedAt
 * - title item  pk=USER#{sub}, sk=SAVEDREPLYTITLE#{titleKey}: replyId (case-insensitive uniqueness)
 * - count item  pk=USER#{sub}, sk=SAVEDREPLIES#COUNT: n (capped in the create transaction)
 * Create, rename and delete change the reply, its title item and the count in ONE transaction.
 */
import { GetCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { SavedReplyRepository, SavedReplyWriteOutcome, StoredSavedReply } from '../../domain/conversations/saved-replies.js';
import { itemCodec } from './item-codec.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';
import { countDown, countUpTo, transactOrFailedAt, type TransactItem } from './transact.js';

const REPLY_PREFIX = 'SAVEDREPLY#';
const replyKey = (userId: string, id: string) => ({ pk: userPk(userId), sk: `${REPLY_PREFIX}${id}` });
const titleKeyOf = (userId: string, titleKey: string) => ({ pk: userPk(userId), sk: `SAVEDREPLYTITLE#${titleKey}` });
const countKey = (userId: string) => ({ pk: userPk(userId), sk: 'SAVEDREPLIES#COUNT' });

const fromItem = itemCodec<StoredSavedReply>({
  id: String,
  userId: String,
  title: String,
  titleKey: String,
  text: String,
  createdAt: String,
  updatedAt: String,
});

export class DynamoSavedReplyRepository implements SavedReplyRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(userId: string): Promise<StoredSavedReply[]> {
    const items = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':sk': REPLY_PREFIX },
      ConsistentRead: true,
    });
    return items.map(fromItem);
  }

  async get(userId: string, id: string): Promise<StoredSavedReply | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: replyKey(userId, id), ConsistentRead: true }));
    return Item ? fromItem(Item) : null;
  }

  async create(reply: StoredSavedReply, max: number): Promise<SavedReplyWriteOutcome> {
    const failed = await transactOrFailedAt(this.db, [
      countUpTo(this.tableName, countKey(reply.userId), max, 'savedReplyCount'),
      this.putTitle(reply),
      {
        Put: {
          TableName: this.tableName,
          Item: { ...replyKey(reply.userId, reply.id), entity: 'savedReply', ...reply },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
    if (failed === null) return 'ok';
    return failed === 0 ? 'tooMany' : 'duplicateTitle';
  }

  async replace(before: StoredSavedReply, next: StoredSavedReply): Promise<SavedReplyWriteOutcome> {
    const moves = before.titleKey !== next.titleKey;
    const failed = await transactOrFailedAt(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: replyKey(before.userId, before.id),
          UpdateExpression: 'SET title = :title, titleKey = :key, #text = :text, updatedAt = :at',
          // The title read before: two renames of one reply cannot both move its title item.
          ConditionExpression: 'attribute_exists(pk) AND titleKey = :old',
          ExpressionAttributeNames: { '#text': 'text' },
          ExpressionAttributeValues: { ':title': next.title, ':key': next.titleKey, ':text': next.text, ':at': next.updatedAt, ':old': before.titleKey },
        },
      },
      ...(moves ? [this.putTitle(next), this.deleteTitle(before)] : []),
    ]);
    if (failed === null) return 'ok';
    return failed === 1 ? 'duplicateTitle' : 'changed';
  }

  async remove(reply: StoredSavedReply): Promise<boolean> {
    const failed = await transactOrFailedAt(this.db, [
      {
        Delete: {
          TableName: this.tableName,
          Key: replyKey(reply.userId, reply.id),
          ConditionExpression: 'titleKey = :key',
          ExpressionAttributeValues: { ':key': reply.titleKey },
        },
      },
      this.deleteTitle(reply),
      countDown(this.tableName, countKey(reply.userId)),
    ]);
    return failed === null;
  }

  /** The title item; never takes a title another reply holds. */
  private putTitle(reply: StoredSavedReply): TransactItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: { ...titleKeyOf(reply.userId, reply.titleKey), entity: 'savedReplyTitle', replyId: reply.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  /** The reply's own title item only. */
  private deleteTitle(reply: StoredSavedReply): TransactItem {
    return {
      Delete: {
        TableName: this.tableName,
        Key: titleKeyOf(reply.userId, reply.titleKey),
        ConditionExpression: 'replyId = :id',
        ExpressionAttributeValues: { ':id': reply.id },
      },
    };
  }
}
