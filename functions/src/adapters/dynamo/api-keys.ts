/**
 * API keys in the single table (see ACCESS-PATTERNS.md "API keys"):
 * - key item      pk=USER#{sub}, sk=APIKEY#{id}: name, prefix, keyHash, createdAt, lastUsedAt,
 *                 and the request window (win = window start, epoch s; cnt = requests in it)
 * - lookup item   pk=APIKEYHASH#{sha256}, sk=APIKEY: userId, keyId (the authorizer's GetItem)
 * - count item    pk=USER#{sub}, sk=APIKEYS#COUNT: n (keys of the user, capped in the create transaction)
 * Create, regenerate and delete change the key item and its lookup in ONE transaction.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { ApiKeyIdentity, ApiKeyRepository, ApiKeyUsage, CreateOutcome, StoredApiKey, UseDecision } from '../../domain/api-keys/ports.js';
import { userPk } from './keys.js';

const keySk = (id: string) => `APIKEY#${id}`;
const lookupKey = (keyHash: string) => ({ pk: `APIKEYHASH#${keyHash}`, sk: 'APIKEY' });
const countKey = (userId: string) => ({ pk: userPk(userId), sk: 'APIKEYS#COUNT' });

type Item = Record<string, unknown>;

function fromItem(item: Item): StoredApiKey {
  return {
    id: String(item.id),
    userId: String(item.userId),
    name: String(item.name),
    prefix: String(item.prefix),
    keyHash: String(item.keyHash),
    createdAt: String(item.createdAt),
    lastUsedAt: typeof item.lastUsedAt === 'string' ? item.lastUsedAt : null,
  };
}

const cancelledAt = (error: unknown, index: number): boolean =>
  error instanceof TransactionCanceledException && error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';

const conditionFailed = (error: unknown): boolean =>
  error instanceof ConditionalCheckFailedException || error instanceof TransactionCanceledException;

export class DynamoApiKeyRepository implements ApiKeyRepository, ApiKeyUsage {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(userId: string): Promise<StoredApiKey[]> {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
          ExpressionAttributeValues: { ':pk': userPk(userId), ':sk': 'APIKEY#' },
          ScanIndexForward: false,
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      items.push(...((page.Items ?? []) as Item[]));
      start = page.LastEvaluatedKey as Item | undefined;
    } while (start);
    return items.map(fromItem);
  }

  async get(userId: string, id: string): Promise<StoredApiKey | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: keySk(id) }, ConsistentRead: true }),
    );
    return Item ? fromItem(Item) : null;
  }

  async create(key: StoredApiKey, max: number): Promise<CreateOutcome> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: countKey(key.userId),
                UpdateExpression: 'ADD n :one SET entity = :entity',
                ConditionExpression: 'attribute_not_exists(n) OR n < :max',
                ExpressionAttributeValues: { ':one': 1, ':max': max, ':entity': 'apiKeyCount' },
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: { pk: userPk(key.userId), sk: keySk(key.id), entity: 'apiKey', ...key, lastUsedAt: undefined },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: this.tableName,
                Item: { ...lookupKey(key.keyHash), entity: 'apiKeyLookup', userId: key.userId, keyId: key.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return 'created';
    } catch (error) {
      if (cancelledAt(error, 0)) return 'tooMany';
      throw error;
    }
  }

  async replaceSecret(
    userId: string,
    id: string,
    expected: { keyHash: string },
    next: { keyHash: string; prefix: string },
  ): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: { pk: userPk(userId), sk: keySk(id) },
                // A new secret starts a fresh request window.
                UpdateExpression: 'SET keyHash = :next, prefix = :prefix REMOVE win, cnt',
                ConditionExpression: 'keyHash = :old',
                ExpressionAttributeValues: { ':next': next.keyHash, ':prefix': next.prefix, ':old': expected.keyHash },
              },
            },
            { Delete: { TableName: this.tableName, Key: lookupKey(expected.keyHash) } },
            {
              Put: {
                TableName: this.tableName,
                Item: { ...lookupKey(next.keyHash), entity: 'apiKeyLookup', userId, keyId: id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (cancelledAt(error, 0)) return false;
      throw error;
    }
  }

  async remove(userId: string, id: string, keyHash: string): Promise<boolean> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: this.tableName,
                Key: { pk: userPk(userId), sk: keySk(id) },
                ConditionExpression: 'keyHash = :h',
                ExpressionAttributeValues: { ':h': keyHash },
              },
            },
            { Delete: { TableName: this.tableName, Key: lookupKey(keyHash) } },
            {
              Update: {
                TableName: this.tableName,
                Key: countKey(userId),
                UpdateExpression: 'ADD n :minus',
                ConditionExpression: 'n > :zero',
                ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
              },
            },
          ],
        }),
      );
      return true;
    } catch (error) {
      if (cancelledAt(error, 0)) return false;
      throw error;
    }
  }

  async findByHash(keyHash: string): Promise<ApiKeyIdentity | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: lookupKey(keyHash), ProjectionExpression: 'userId, keyId' }),
    );
    if (!Item || typeof Item.userId !== 'string' || typeof Item.keyId !== 'string') return null;
    return { userId: Item.userId, keyId: Item.keyId };
  }

  /**
   * Usually one UpdateItem: ADD cnt in the current window (condition: same window, same hash).
   * When the window has moved on: SET a new window with cnt = 1 and lastUsedAt (so lastUsedAt is
   * written at most once per window). When both conditions fail, one consistent read tells a
   * deleted/regenerated key (invalid) from a concurrent window change (retry).
   */
  async recordUse(input: { userId: string; keyId: string; keyHash: string; nowMs: number; max: number; windowSeconds: number }): Promise<UseDecision> {
    const key = { pk: userPk(input.userId), sk: keySk(input.keyId) };
    const nowS = Math.floor(input.nowMs / 1000);
    const win = nowS - (nowS % input.windowSeconds);
    const retryAfterSeconds = Math.max(1, win + input.windowSeconds - nowS);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const { Attributes } = await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'ADD cnt :one',
            ConditionExpression: 'keyHash = :h AND win = :w',
            ExpressionAttributeValues: { ':one': 1, ':h': input.keyHash, ':w': win },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        const count = Number(Attributes?.cnt ?? 0);
        return count > input.max ? { kind: 'limited', retryAfterSeconds } : { kind: 'allowed' };
      } catch (error) {
        if (!conditionFailed(error)) throw error;
      }
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'SET win = :w, cnt = :one, lastUsedAt = :at',
            ConditionExpression: 'keyHash = :h AND (attribute_not_exists(win) OR win < :w)',
            ExpressionAttributeValues: { ':one': 1, ':h': input.keyHash, ':w': win, ':at': new Date(input.nowMs).toISOString() },
          }),
        );
        return { kind: 'allowed' };
      } catch (error) {
        if (!conditionFailed(error)) throw error;
      }
      const current = await this.get(input.userId, input.keyId);
      if (!current || current.keyHash !== input.keyHash) return { kind: 'invalid' };
    }
    // Three lost races in a row on one key: let the request through rather than fail it.
    return { kind: 'allowed' };
  }
}
