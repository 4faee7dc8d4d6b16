/** Wires the subscription group (current, plans, analytics, check-limit): DynamoDB only, no Stripe SDK. */
import { createSubscriptionService } from '../domain/billing/subscription-service.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { subscriptionRepository, usageRepository } from './billing-table.js';

export const subscriptionService = once(() =>
  createSubscriptionService({ subscriptions: subscriptionRepository(), usage: usageRepository(), accountCountry: accountCountry() }),
);
