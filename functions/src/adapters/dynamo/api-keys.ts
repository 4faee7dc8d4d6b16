/**
 * API keys in the single table (see ACCESS-PATTERNS.md "API keys"):
 * - key item      pk=USER#{sub}, sk=APIKEY#{id}: name, prefix, keyHash, createdAt, lastUsedAt,
 *                 and the request window (win = window start, epoch s; cnt = requests in it)
 * - lookup item   pk=APIKEYHASH#{sha256}, sk=APIKEY: userId, keyId (the authorizer's GetItem)
 * - count item    pk=USER#{sub}, sk=APIKEYS#COUNT: n (keys of the user, capped in the create transaction)
 * Create, regenerate and delete change the key item and its lookup in ONE transaction.
 * The per-request paths (authorizer lookup, rate limit) are in api-key-access.ts: no
 * transaction code in the bundles of the public API's functions.
 */
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { ApiKeyRepository, CreateOutcome, StoredApiKey } from '../../domain/api-keys/ports.js';
import { keySk, lookupKey } from './api-key-access.js';
import { itemCodec, strOrNull } from './item-codec.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';
import { conditionFailedAt, countDown, countUpTo, type TransactItem } from './transact.js';

const countKey = (userId: string) => ({ pk: userPk(userId), sk: 'APIKEYS#COUNT' });
const keyItemKey = (userId: string, id: string) => ({ pk: userPk(userId), sk: keySk(id) });

const fromItem = itemCodec<StoredApiKey>({
  id: String,
  userId: String,
  name: String,
  prefix: String,
  keyHash: String,
  createdAt: String,
  lastUsedAt: strOrNull,
});


export class DynamoApiKeyRepository implements ApiKeyRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(userId: string): Promise<StoredApiKey[]> {
    const items = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':sk': 'APIKEY#' },
      ScanIndexForward: false,
      ConsistentRead: true,
    });
    return items.map(fromItem);
  }

  async get(userId: string, id: string): Promise<StoredApiKey | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keyItemKey(userId, id), ConsistentRead: true }),
    );
    return Item ? fromItem(Item) : null;
  }

  async create(key: StoredApiKey, max: number): Promise<CreateOutcome> {
    const created = await this.transactUnlessFirstFails([
      countUpTo(this.tableName, countKey(key.userId), max, 'apiKeyCount'),
      {
        Put: {
          TableName: this.tableName,
          Item: { pk: userPk(key.userId), sk: keySk(key.id), entity: 'apiKey', ...key, lastUsedAt: undefined },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      this.putLookup(key.keyHash, key.userId, key.id),
    ]);
    return created ? 'created' : 'tooMany';
  }

  async replaceSecret(
    userId: string,
    id: string,
    expected: { keyHash: string },
    next: { keyHash: string; prefix: string },
  ): Promise<boolean> {
    return this.transactUnlessFirstFails([
      {
        Update: {
          TableName: this.tableName,
          Key: keyItemKey(userId, id),
          // A new secret starts a fresh request window.
          UpdateExpression: 'SET keyHash = :next, prefix = :prefix REMOVE win, cnt',
          ConditionExpression: 'keyHash = :old',
          ExpressionAttributeValues: { ':next': next.keyHash, ':prefix': next.prefix, ':old': expected.keyHash },
        },
      },
      { Delete: { TableName: this.tableName, Key: lookupKey(expected.keyHash) } },
      this.putLookup(next.keyHash, userId, id),
    ]);
  }

  async remove(userId: string, id: string, keyHash: string): Promise<boolean> {
    return this.transactUnlessFirstFails([
      {
        Delete: {
          TableName: this.tableName,
          Key: keyItemKey(userId, id),
          ConditionExpression: 'keyHash = :h',
          ExpressionAttributeValues: { ':h': keyHash },
        },
      },
      { Delete: { TableName: this.tableName, Key: lookupKey(keyHash) } },
      countDown(this.tableName, countKey(userId)),
    ]);
  }

  /** The lookup item of a key's hash; never overwrites another key's lookup. */
  private putLookup(keyHash: string, userId: string, keyId: string): TransactItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: { ...lookupKey(keyHash), entity: 'apiKeyLookup', userId, keyId },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  /**
   * One transaction (create, regenerate and delete each change the key item and its lookup
   * together); false when the first item's condition failed (the limit, or the key changed or is
   * gone), other errors thrown.
   */
  private async transactUnlessFirstFails(items: TransactItem[]): Promise<boolean> {
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (error) {
      if (conditionFailedAt(error, 0)) return false;
      throw error;
    }
  }
}
