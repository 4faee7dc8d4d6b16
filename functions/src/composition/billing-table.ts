/** The billing items of the single table (subscription, usage counters, webhook claims): DynamoDB only. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoEventClaims, DynamoSubscriptionRepository, DynamoUsageRepository } from '../adapters/dynamo/subscriptions.js';
import { once } from '../lib/once.js';

export const subscriptionRepository = once(() => new DynamoSubscriptionRepository(documentClient(), config().TABLE_NAME));
export const usageRepository = once(() => new DynamoUsageRepository(documentClient(), config().TABLE_NAME));
export const eventClaims = once(() => new DynamoEventClaims(documentClient(), config().TABLE_NAME));
