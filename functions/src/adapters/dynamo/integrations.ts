/**
 * IntegrationRepository over the single table (ACCESS-PATTERNS.md, "Integrations, agents and
 * knowledge"): pk=USER#{sub}, sk=INTEGRATION#{type}; by id on gsi1 (gsi1pk=INTEGRATION#{id},
 * gsi1sk=INTEGRATION) for the webhook URLs of later channels. Credentials hold sealed secrets.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { IntegrationType } from '../../contract/integrations.js';
import type { IntegrationHealth } from '../../contract/integration-health.js';
import { healthNotificationKey, type IntegrationHealthStore } from '../../domain/integrations/health.js';
import type { IntegrationRecord, IntegrationRepository } from '../../domain/integrations/records.js';
import type { StoredNotification } from '../../domain/notifications/ports.js';
import { conditionHolds, unlessConditionFails } from './conditions.js';
import { withoutKeys } from './item-codec.js';
import { userPk } from './keys.js';
import { notificationWrites } from './notifications.js';
import { conditionFailedAt, transactWrite } from './transact.js';

const sk = (type: IntegrationType) => `INTEGRATION#${type}`;
const INDEX_SK = 'INTEGRATION';

const toRecord = (item: Record<string, unknown>) => withoutKeys<IntegrationRecord>(item);

export class DynamoIntegrationRepository implements IntegrationRepository, IntegrationHealthStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(userId: string, type: IntegrationType): Promise<IntegrationRecord | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: sk(type) }, ConsistentRead: true }),
    );
    return Item ? toRecord(Item) : null;
  }

  async list(userId: string): Promise<IntegrationRecord[]> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
        ExpressionAttributeValues: { ':pk': userPk(userId), ':sk': 'INTEGRATION#' },
        ConsistentRead: true,
      }),
    );
    return (Items ?? []).map(toRecord);
  }

  /** The integration with this id (webhooks of later channels carry it), or null. */
  async getById(id: string): Promise<IntegrationRecord | null> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
        ExpressionAttributeValues: { ':pk': `INTEGRATION#${id}`, ':sk': INDEX_SK },
        Limit: 1,
      }),
    );
    return Items?.[0] ? toRecord(Items[0]) : null;
  }

  async put(record: IntegrationRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: userPk(record.userId),
          sk: sk(record.type),
          gsi1pk: `INTEGRATION#${record.id}`,
          gsi1sk: INDEX_SK,
          entity: 'integration',
          ...record,
        },
      }),
    );
  }

  async update(
    userId: string,
    type: IntegrationType,
    patch: { isActive?: boolean; settings?: Record<string, unknown>; updatedAt: string },
  ): Promise<IntegrationRecord | null> {
    const sets = ['updatedAt = :updatedAt'];
    const values: Record<string, unknown> = { ':updatedAt': patch.updatedAt };
    if (patch.isActive !== undefined) {
      sets.push('isActive = :isActive');
      values[':isActive'] = patch.isActive;
    }
    if (patch.settings !== undefined) {
      sets.push('settings = :settings');
      values[':settings'] = patch.settings;
    }
    const updated = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: sk(type) },
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes ? toRecord(updated.Attributes) : null;
  }

  /**
   * The needs-attention flag (issue 34) and its notification in one transaction, conditional on
   * the integration existing and not already flagged for this reason: one notification per
   * incident however many calls fail at once.
   */
  async markNeedsAttention(userId: string, type: IntegrationType, health: IntegrationHealth, notification: StoredNotification): Promise<boolean> {
    try {
      await transactWrite(this.db, [
        {
          Update: {
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: sk(type) },
            UpdateExpression: 'SET #h = :h',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#h) OR #h.#r <> :r)',
            ExpressionAttributeNames: { '#h': 'health', '#r': 'reason' },
            ExpressionAttributeValues: { ':h': health, ':r': health.reason },
          },
        },
        ...notificationWrites(this.tableName, notification, healthNotificationKey(type, health)),
      ]);
      return true;
    } catch (error) {
      // Already flagged for this reason (or gone), or this very flag's notification exists.
      if (conditionFailedAt(error, 0) || conditionFailedAt(error, 1)) return false;
      throw error;
    }
  }

  /** Removes the flag raised at `since` (a newer one stays): false when there was none. */
  clearHealth(userId: string, type: IntegrationType, since: string): Promise<boolean> {
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: sk(type) },
          UpdateExpression: 'REMOVE #h',
          ConditionExpression: '#h.#s = :since',
          ExpressionAttributeNames: { '#h': 'health', '#s': 'since' },
          ExpressionAttributeValues: { ':since': since },
        }),
      ),
    );
  }

  async delete(userId: string, type: IntegrationType): Promise<boolean> {
    const { Attributes } = await this.db.send(
      new DeleteCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: sk(type) }, ReturnValues: 'ALL_OLD' }),
    );
    return Attributes !== undefined;
  }
}
