/**
 * CodeStore over the single table: pk=EMAIL#{sha256(email)}, sk=VERIFY | RESET.
 * Only the salted hash is stored; expiresAt is the TTL attribute (readers check it too).
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '../aws/dynamo-document.js';
import type { DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { CodePurpose, CodeStore, StoredCode } from '../../domain/auth/ports.js';
import { conditionHolds, ignoreConditionFailure, unlessConditionFails } from './conditions.js';
import { emailPk } from './keys.js';

const SK: Record<CodePurpose, string> = { verify: 'VERIFY', reset: 'RESET' };

export class DynamoCodeStore implements CodeStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private key(purpose: CodePurpose, email: string) {
    return { pk: emailPk(email), sk: SK[purpose] };
  }

  async put(purpose: CodePurpose, email: string, code: StoredCode): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { ...this.key(purpose, email), entity: 'code', ...code } }),
    );
  }

  async get(purpose: CodePurpose, email: string): Promise<StoredCode | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: this.key(purpose, email), ConsistentRead: true }),
    );
    if (!Item) return null;
    return {
      hash: String(Item.hash),
      salt: String(Item.salt),
      expiresAt: Number(Item.expiresAt),
      attempts: Number(Item.attempts ?? 0),
      createdAt: String(Item.createdAt),
    };
  }

  async reserveAttempt(purpose: CodePurpose, email: string, hash: string, max: number): Promise<number | null> {
    const counted = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(purpose, email),
          UpdateExpression: 'ADD attempts :one',
          ConditionExpression: '#h = :hash AND (attribute_not_exists(attempts) OR attempts < :max)',
          ExpressionAttributeNames: { '#h': 'hash' },
          ExpressionAttributeValues: { ':one': 1, ':hash': hash, ':max': max },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    return counted ? Number(counted.Attributes?.attempts ?? 0) : null;
  }

  async releaseAttempt(purpose: CodePurpose, email: string, hash: string): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(purpose, email),
          UpdateExpression: 'ADD attempts :minusOne',
          ConditionExpression: '#h = :hash AND attempts > :zero',
          ExpressionAttributeNames: { '#h': 'hash' },
          ExpressionAttributeValues: { ':minusOne': -1, ':hash': hash, ':zero': 0 },
        }),
      )
      .catch(ignoreConditionFailure);
  }

  async consume(purpose: CodePurpose, email: string, hash: string): Promise<boolean> {
    return conditionHolds(
      this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: this.key(purpose, email),
          ConditionExpression: '#h = :hash',
          ExpressionAttributeNames: { '#h': 'hash' },
          ExpressionAttributeValues: { ':hash': hash },
        }),
      ),
    );
  }

  async delete(purpose: CodePurpose, email: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: this.key(purpose, email) }));
  }
}
