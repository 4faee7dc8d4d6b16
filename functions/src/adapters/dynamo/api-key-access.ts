/**
 * The per-request side of API keys (see ACCESS-PATTERNS.md "API keys"), apart from the
 * repository so the authorizer and the public API's functions bundle only GetItem/UpdateItem:
 * the hash lookup, and the per-key request window with lastUsedAt on the key item.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { ApiKeyIdentity, ApiKeyLookup, ApiKeyUsage, UseDecision } from '../../domain/api-keys/ports.js';
import { conditionHolds, unlessConditionFails } from './conditions.js';
import { userPk } from './keys.js';


export const keySk = (id: string) => `APIKEY#${id}`;
export const lookupKey = (keyHash: string) => ({ pk: `APIKEYHASH#${keyHash}`, sk: 'APIKEY' });

export class DynamoApiKeyAccess implements ApiKeyLookup, ApiKeyUsage {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

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
      // This window's counter, when the key is still this key and the window is current.
      const counted = await unlessConditionFails(
        this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'ADD cnt :one',
            ConditionExpression: 'keyHash = :h AND win = :w',
            ExpressionAttributeValues: { ':one': 1, ':h': input.keyHash, ':w': win },
            ReturnValues: 'UPDATED_NEW',
          }),
        ),
      );
      if (counted) {
        const count = Number(counted.Attributes?.cnt ?? 0);
        return count > input.max ? { kind: 'limited', retryAfterSeconds } : { kind: 'allowed' };
      }
      // Else a new window starts (unless another request started it first).
      const started = await conditionHolds(
        this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'SET win = :w, cnt = :one, lastUsedAt = :at',
            ConditionExpression: 'keyHash = :h AND (attribute_not_exists(win) OR win < :w)',
            ExpressionAttributeValues: { ':one': 1, ':h': input.keyHash, ':w': win, ':at': new Date(input.nowMs).toISOString() },
          }),
        ),
      );
      if (started) return { kind: 'allowed' };
      const { Item } = await this.db.send(
        new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true, ProjectionExpression: 'keyHash' }),
      );
      if (!Item || Item.keyHash !== input.keyHash) return { kind: 'invalid' };
    }
    // Three lost races in a row on one key: let the request through rather than fail it.
    return { kind: 'allowed' };
  }
}
