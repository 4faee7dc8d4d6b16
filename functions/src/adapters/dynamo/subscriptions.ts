/**
 * Billing items over the single table (see ACCESS-PATTERNS.md):
 * - pk=USER#{sub}, sk=SUBSCRIPTION: the subscription item (status read by DynamoUserRepository
 *   .hasActiveSubscription), indexed by Stripe customer on gsi1 (gsi1pk=STRIPE_CUSTOMER#{cus}).
 *   Writes are optimistic: `version` must be what the domain read.
 * - pk=USER#{sub}, sk=USAGE#{periodStart} (messagesSent, minutes) and sk=USAGE#CONTACTS (count):
 *   atomic ADD with the limit in the condition.
 * - pk=STRIPE_EVENT#{evt_id}, sk=EVENT: webhook idempotency claims (TTL 30 days).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type UpdateCommandInput } from '../aws/dynamo-document.js';
import type { DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { PlanId, SubscriptionStatus, UsageAction } from '../../contract/billing.js';
import {
  StaleWriteError,
  type EventClaims,
  type StoredSubscription,
  type SubscriptionRepository,
  type SubscriptionState,
  type UsageCounters,
  type UsageRepository,
} from '../../domain/billing/ports.js';
import { batchGetItems } from './batch.js';
import { conditionHolds, ignoreConditionFailure, unlessConditionFails } from './conditions.js';
import { anyStr, bool, itemCodec, strOrNull } from './item-codec.js';
import { userPk } from './keys.js';

export const SUBSCRIPTION_SK = 'SUBSCRIPTION';
export const customerGsiPk = (customerId: string) => `STRIPE_CUSTOMER#${customerId}`;
export const usageSk = (periodStart: string | null) => `USAGE#${periodStart ?? 'NONE'}`;
export const CONTACTS_USAGE_SK = 'USAGE#CONTACTS';
export const eventPk = (eventId: string) => `STRIPE_EVENT#${eventId}`;
export const EVENT_SK = 'EVENT';

const subscriptionCodec = itemCodec<StoredSubscription>({
  userId: String,
  plan: anyStr as (v: unknown) => PlanId | undefined,
  status: anyStr as (v: unknown) => SubscriptionStatus | undefined,
  currentPeriodStart: strOrNull,
  currentPeriodEnd: strOrNull,
  cancelAtPeriodEnd: bool,
  trialEnd: strOrNull,
  stripeCustomerId: anyStr,
  stripeSubscriptionId: anyStr,
  stripeStatus: anyStr,
  currency: anyStr,
  lastEventCreated: (v) => (typeof v === 'number' ? v : undefined),
  ended: bool,
  trialUsed: bool,
  version: (v) => (typeof v === 'number' ? v : 0),
  updatedAt: anyStr,
});
/** Items written before `userId` was stored carry it only in their key. */
const toStored = (item: Record<string, unknown>) =>
  subscriptionCodec({ ...item, userId: item.userId ?? String(item.pk).slice('USER#'.length) });

export class DynamoSubscriptionRepository implements SubscriptionRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private key(userId: string) {
    return { pk: userPk(userId), sk: SUBSCRIPTION_SK };
  }

  async get(userId: string): Promise<StoredSubscription | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: this.key(userId), ConsistentRead: true }),
    );
    return Item ? toStored(Item) : null;
  }

  async userIdByCustomer(customerId: string): Promise<string | null> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
        ExpressionAttributeValues: { ':pk': customerGsiPk(customerId), ':sk': SUBSCRIPTION_SK },
        Limit: 1,
      }),
    );
    const userId = Items?.[0]?.userId;
    return typeof userId === 'string' ? userId : null;
  }

  async linkCustomer(userId: string, customerId: string): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(userId),
          UpdateExpression:
            'SET stripeCustomerId = :cus, gsi1pk = :gpk, gsi1sk = :gsk, userId = :uid, entity = :entity ADD version :one',
          ConditionExpression: 'attribute_not_exists(stripeCustomerId) OR stripeCustomerId = :cus',
          ExpressionAttributeValues: {
            ':cus': customerId,
            ':gpk': customerGsiPk(customerId),
            ':gsk': SUBSCRIPTION_SK,
            ':uid': userId,
            ':entity': 'subscription',
            ':one': 1,
          },
        }),
      )
      // Another customer is already linked: keep it (the caller re-reads the item).
      .catch(ignoreConditionFailure);
  }

  private versionCondition(expectedVersion: number | null) {
    return expectedVersion === null
      ? { ConditionExpression: 'attribute_not_exists(pk)', values: {} }
      : expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(version) OR version = :v', values: { ':v': 0 } }
        : { ConditionExpression: 'version = :v', values: { ':v': expectedVersion } };
  }

  /** A versioned update of the subscription item: a failed condition means another writer came first. */
  private async versionedUpdate(userId: string, update: Omit<UpdateCommandInput, 'TableName' | 'Key'>): Promise<void> {
    const written = await conditionHolds(this.db.send(new UpdateCommand({ TableName: this.tableName, Key: this.key(userId), ...update })));
    if (!written) throw new StaleWriteError();
  }

  async saveState(
    userId: string,
    input: { state: SubscriptionState & { plan: PlanId }; created: number; ended: boolean; updatedAt: string },
    expectedVersion: number | null,
  ): Promise<void> {
    const { state } = input;
    const condition = this.versionCondition(expectedVersion);
    await this.versionedUpdate(userId, {
      UpdateExpression: [
        'SET #plan = :plan, #status = :status, currentPeriodStart = :cps, currentPeriodEnd = :cpe,',
        'cancelAtPeriodEnd = :cape, trialEnd = :te, stripeCustomerId = :cus, stripeSubscriptionId = :sid,',
        'stripeStatus = :ss, lastEventCreated = :created, ended = :ended, trialUsed = :true, updatedAt = :now,',
        'gsi1pk = :gpk, gsi1sk = :gsk, userId = :uid, entity = :entity',
        // A state without a currency (a hand-made event) keeps the one stored.
        ...(state.currency ? [', currency = :cur'] : []),
        'ADD version :one',
      ].join(' '),
      ConditionExpression: condition.ConditionExpression,
      ExpressionAttributeNames: { '#plan': 'plan', '#status': 'status' },
      ExpressionAttributeValues: {
        ...condition.values,
        ':plan': state.plan,
        ':status': state.status,
        ':cps': state.currentPeriodStart,
        ':cpe': state.currentPeriodEnd,
        ':cape': state.cancelAtPeriodEnd,
        ':te': state.trialEnd,
        ':cus': state.customerId,
        ':sid': state.subscriptionId,
        ':ss': state.providerStatus,
        ':created': input.created,
        ':ended': input.ended,
        ':true': true,
        ':now': input.updatedAt,
        ':gpk': customerGsiPk(state.customerId),
        ':gsk': SUBSCRIPTION_SK,
        ':uid': userId,
        ':entity': 'subscription',
        ':one': 1,
        ...(state.currency ? { ':cur': state.currency.toLowerCase() } : {}),
      },
    });
  }

  async saveStatus(
    userId: string,
    input: { status: SubscriptionStatus; providerStatus: string; created: number; updatedAt: string },
    expectedVersion: number,
  ): Promise<void> {
    const condition = this.versionCondition(expectedVersion);
    await this.versionedUpdate(userId, {
      UpdateExpression:
        'SET #status = :status, stripeStatus = :ss, lastEventCreated = :created, updatedAt = :now ADD version :one',
      ConditionExpression: `attribute_exists(pk) AND (${condition.ConditionExpression})`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ...condition.values,
        ':status': input.status,
        ':ss': input.providerStatus,
        ':created': input.created,
        ':now': input.updatedAt,
        ':one': 1,
      },
    });
  }
}

const COUNTER: Record<UsageAction, string> = { contacts: 'count', messages: 'messagesSent', minutes: 'minutes' };

export class DynamoUsageRepository implements UsageRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private key(userId: string, action: UsageAction, periodStart: string | null) {
    return { pk: userPk(userId), sk: action === 'contacts' ? CONTACTS_USAGE_SK : usageSk(periodStart) };
  }

  async read(userId: string, periodStart: string | null): Promise<UsageCounters> {
    const keys = [
      { pk: userPk(userId), sk: CONTACTS_USAGE_SK },
      { pk: userPk(userId), sk: usageSk(periodStart) },
    ];
    const items = await batchGetItems(this.db, this.tableName, keys, { consistentRead: true });
    const contacts = items.find((i) => i.sk === CONTACTS_USAGE_SK);
    const period = items.find((i) => i.sk === usageSk(periodStart));
    const n = (v: unknown) => (typeof v === 'number' && v > 0 ? v : 0);
    return { contacts: n(contacts?.count), messagesSent: n(period?.messagesSent), minutes: n(period?.minutes) };
  }

  async add(userId: string, action: UsageAction, periodStart: string | null, amount: number, limit: number): Promise<number | null> {
    const bounded = limit >= 0;
    const added = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(userId, action, periodStart),
          UpdateExpression: 'ADD #c :amount SET entity = :entity' + (action === 'contacts' ? '' : ', periodStart = :period'),
          // The result stays within the limit: nothing yet and amount <= limit, or count <= limit - amount.
          ...(bounded
            ? {
                ConditionExpression: '(attribute_not_exists(#c) AND :amount <= :limit) OR #c <= :max',
              }
            : {}),
          ExpressionAttributeNames: { '#c': COUNTER[action] },
          ExpressionAttributeValues: {
            ':amount': amount,
            ':entity': 'usage',
            ...(action === 'contacts' ? {} : { ':period': periodStart ?? 'NONE' }),
            ...(bounded ? { ':limit': limit, ':max': limit - amount } : {}),
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    return added ? Number(added.Attributes?.[COUNTER[action]] ?? amount) : null;
  }

  async subtract(userId: string, action: UsageAction, periodStart: string | null, amount: number): Promise<void> {
    const key = this.key(userId, action, periodStart);
    const names = { '#c': COUNTER[action] };
    const subtracted = await conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'ADD #c :neg',
          ConditionExpression: '#c >= :amount',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':neg': -amount, ':amount': amount },
        }),
      ),
    );
    if (subtracted) return;
    // Less than `amount` left (or no counter): clamp at zero.
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'SET #c = :zero',
          ConditionExpression: 'attribute_exists(#c) AND #c < :amount',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':zero': 0, ':amount': amount },
        }),
      )
      .catch(ignoreConditionFailure);
  }
}

/** Claims are kept 30 days (Stripe retries for up to 3 days). */
const CLAIM_TTL_SECONDS = 30 * 24 * 3600;
/** An unfinished claim this old belongs to a crashed invocation: the event may be claimed again. */
const STALE_CLAIM_SECONDS = 5 * 60;

export class DynamoEventClaims implements EventClaims {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  private key(eventId: string) {
    return { pk: eventPk(eventId), sk: EVENT_SK };
  }

  async claim(eventId: string, type: string): Promise<boolean> {
    const nowSeconds = Math.floor(this.now() / 1000);
    return conditionHolds(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...this.key(eventId),
            entity: 'stripeEvent',
            type,
            state: 'processing',
            claimedAt: nowSeconds,
            expiresAt: nowSeconds + CLAIM_TTL_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR (#state = :processing AND claimedAt < :stale) OR expiresAt < :now',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':processing': 'processing', ':stale': nowSeconds - STALE_CLAIM_SECONDS, ':now': nowSeconds },
        }),
      ),
    );
  }

  async markDone(eventId: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.key(eventId),
        UpdateExpression: 'SET #state = :done, processedAt = :now',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':done': 'done', ':now': new Date(this.now()).toISOString() },
      }),
    );
  }

  async release(eventId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: this.key(eventId) }));
  }
}
