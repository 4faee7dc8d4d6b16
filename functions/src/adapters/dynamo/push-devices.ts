/**
 * Web Push devices and settings in the single table (issue 29; ACCESS-PATTERNS.md "Web Push"):
 * - device item  pk=USER#{sub}, sk=PUSHDEV#{id} (id = the endpoint's SHA-256, 22 base64url
 *   characters): endpoint, p256dh, auth, label, createdAt, lastPushAt, expirationTime
 * - count item   pk=USER#{sub}, sk=PUSHDEV#COUNT: n (capped in the create transaction)
 * - settings     pk=USER#{sub}, sk=PUSH#SETTINGS: escalations, waiting, email (missing = PUSH_DEFAULTS)
 * A new device and the count change in ONE transaction, so the cap holds under concurrency.
 * Issue 32: per person — a member's three kinds of item carry `PERSON#{personId}#` in front of
 * their sort key (person-keys.ts; cap and settings per person); the account's own person keeps
 * the keys above.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { PUSH_DEFAULTS, type PushSettings } from '../../contract/push.js';
import type { PushDeviceRepository, StoredPushDevice } from '../../domain/notifications/push.js';
import { conditionHolds } from './conditions.js';
import { itemCodec, optNum, optStr, str } from './item-codec.js';
import { userPk } from './keys.js';
import { personSk } from './person-keys.js';
import { queryItems } from './query-items.js';
import { cancellationReasons, countDown, countUpTo, transactWrite } from './transact.js';

const DEVICE_PREFIX = 'PUSHDEV#';
const deviceKey = (userId: string, personId: string, id: string) => ({ pk: userPk(userId), sk: personSk(userId, personId, `${DEVICE_PREFIX}${id}`) });
const countKey = (userId: string, personId: string) => ({ pk: userPk(userId), sk: personSk(userId, personId, 'PUSHDEV#COUNT') });
const settingsKey = (userId: string, personId: string) => ({ pk: userPk(userId), sk: personSk(userId, personId, 'PUSH#SETTINGS') });

const fromItem = itemCodec<StoredPushDevice>({
  id: str,
  userId: str,
  personId: optStr,
  endpoint: str,
  p256dh: str,
  auth: str,
  label: str,
  createdAt: str,
  lastPushAt: optStr,
  expirationTime: optNum,
});

export class DynamoPushDeviceRepository implements PushDeviceRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(userId: string, personId: string): Promise<StoredPushDevice[]> {
    const items = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      // The count item shares the prefix; it has no endpoint.
      FilterExpression: 'attribute_exists(endpoint)',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':sk': personSk(userId, personId, DEVICE_PREFIX) },
      ConsistentRead: true,
    });
    return items.map(fromItem);
  }

  async get(userId: string, personId: string, id: string): Promise<StoredPushDevice | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: deviceKey(userId, personId, id), ConsistentRead: true }));
    return Item ? fromItem(Item) : null;
  }

  async save(device: StoredPushDevice, max: number): Promise<'created' | 'updated' | 'tooMany'> {
    const personId = device.personId ?? device.userId;
    const item = { ...deviceKey(device.userId, personId, device.id), entity: 'pushDevice', ...device };
    try {
      await transactWrite(this.db, [
        countUpTo(this.tableName, countKey(device.userId, personId), max, 'pushDeviceCount'),
        { Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      ]);
      return 'created';
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      // The device exists: the same endpoint subscribed again takes its new keys (the count stays).
      if (reasons[1]?.code === 'ConditionalCheckFailed') {
        await this.db.send(new PutCommand({ TableName: this.tableName, Item: item }));
        return 'updated';
      }
      if (reasons[0]?.code === 'ConditionalCheckFailed') return 'tooMany';
      throw error;
    }
  }

  async remove(userId: string, personId: string, id: string): Promise<boolean> {
    try {
      await transactWrite(this.db, [
        { Delete: { TableName: this.tableName, Key: deviceKey(userId, personId, id), ConditionExpression: 'attribute_exists(pk)' } },
        countDown(this.tableName, countKey(userId, personId)),
      ]);
      return true;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      if (reasons[0]?.code === 'ConditionalCheckFailed') return false;
      // A count that lost track (never below 0): the device goes anyway.
      return conditionHolds(this.db.send(new DeleteCommand({ TableName: this.tableName, Key: deviceKey(userId, personId, id), ConditionExpression: 'attribute_exists(pk)' })));
    }
  }

  async touch(userId: string, personId: string, id: string, at: string): Promise<void> {
    await conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: deviceKey(userId, personId, id),
          UpdateExpression: 'SET lastPushAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': at },
        }),
      ),
    );
  }

  async settings(userId: string, personId: string): Promise<PushSettings> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: settingsKey(userId, personId) }));
    return {
      escalations: typeof Item?.escalations === 'boolean' ? Item.escalations : PUSH_DEFAULTS.escalations,
      waiting: typeof Item?.waiting === 'boolean' ? Item.waiting : PUSH_DEFAULTS.waiting,
      email: typeof Item?.email === 'boolean' ? Item.email : PUSH_DEFAULTS.email,
    };
  }

  async saveSettings(userId: string, personId: string, settings: PushSettings): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...settingsKey(userId, personId), entity: 'pushSettings', escalations: settings.escalations, waiting: settings.waiting, email: settings.email },
      }),
    );
  }
}
