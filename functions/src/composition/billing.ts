/** Wires the billing group (checkout, plan change, cancel, portal, verify-session): Stripe + DynamoDB. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { dynamoTeamSeats } from '../adapters/dynamo/team-seats.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { logger } from '../adapters/logger.js';
import { createBillingService } from '../domain/billing/billing-service.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { subscriptionRepository } from './billing-table.js';
import { paymentGateway } from './stripe.js';

export const billingService = once(() =>
  createBillingService({
    subscriptions: subscriptionRepository(),
    gateway: paymentGateway(),
    profiles: new DynamoUserRepository(documentClient(), config().TABLE_NAME),
    accountCountry: accountCountry(),
    clock: { now: () => Date.now() },
    log: logger,
    appUrl: config().APP_URL,
    seats: dynamoTeamSeats(documentClient(), config().TABLE_NAME),
  }),
);
