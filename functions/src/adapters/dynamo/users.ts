/**
 * UserRepository over the single table: pk=USER#{sub}, sk=PROFILE (indexed by e-mail on gsi1:
 * gsi1pk=EMAIL#{sha256(email)}, gsi1sk=PROFILE); subscription at sk=SUBSCRIPTION.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '../aws/dynamo-document.js';
import type { DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { ProfilePatch, UserProfile, UserRepository } from '../../domain/auth/ports.js';
import { conditionHolds, unlessConditionFails } from './conditions.js';
import { withoutKeys } from './item-codec.js';
import { emailPk, userPk } from './keys.js';

const PROFILE = 'PROFILE';
const ACTIVE_STATUSES = new Set(['active', 'trialing']);

const toProfile = (item: Record<string, unknown>) => withoutKeys<UserProfile>(item);

export class DynamoUserRepository implements UserRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(userId: string): Promise<UserProfile | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: PROFILE }, ConsistentRead: true }),
    );
    return Item ? toProfile(Item) : null;
  }

  async findByEmail(email: string): Promise<UserProfile | null> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
        ExpressionAttributeValues: { ':pk': emailPk(email), ':sk': PROFILE },
        Limit: 1,
      }),
    );
    return Items?.[0] ? toProfile(Items[0]) : null;
  }

  async create(profile: UserProfile): Promise<boolean> {
    return conditionHolds(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: userPk(profile.userId),
            sk: PROFILE,
            gsi1pk: emailPk(profile.email),
            gsi1sk: PROFILE,
            entity: 'user',
            ...profile,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async update(userId: string, patch: ProfilePatch, updatedAt: string): Promise<UserProfile | null> {
    const entries = Object.entries({ ...patch, updatedAt }).filter(([, v]) => v !== undefined);
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = {};
    const sets = entries.map(([k, v], i) => {
      names[`#f${i}`] = k;
      values[`:v${i}`] = v;
      return `#f${i} = :v${i}`;
    });
    const updated = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: PROFILE },
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes ? toProfile(updated.Attributes) : null;
  }

  hasActiveSubscription(userId: string): Promise<boolean> {
    return hasActiveSubscription(this.db, this.tableName, userId);
  }
}

/**
 * Whether the user's subscription is active or trialing: one GetItem of the SUBSCRIPTION item
 * projecting `status`. A function of its own so the HTTP layer's paid-feature check (every route
 * group) bundles only this, not the repository.
 */
export async function hasActiveSubscription(db: DynamoDBDocumentClient, tableName: string, userId: string): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: { pk: userPk(userId), sk: 'SUBSCRIPTION' },
      // Strongly consistent: a subscription the webhook just recorded opens the paid routes at once.
      ConsistentRead: true,
      ProjectionExpression: '#s',
      ExpressionAttributeNames: { '#s': 'status' },
    }),
  );
  return typeof Item?.status === 'string' && ACTIVE_STATUSES.has(Item.status);
}
