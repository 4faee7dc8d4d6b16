/** Wires the Stripe webhook group: signature verifier, event translation, idempotent processing. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoAccountDeletions } from '../adapters/dynamo/account-deletions.js';
import { logger } from '../adapters/logger.js';
import type { StripeSecrets } from '../adapters/stripe/secrets.js';
import { createStripeWebhookVerifier } from '../adapters/stripe/webhook-verifier.js';
import { createWebhookService } from '../domain/billing/webhook-service.js';
import { once } from '../lib/once.js';
import { eventClaims, subscriptionRepository } from './billing-table.js';
import { paymentGateway, stripeSecrets } from './stripe.js';

/** The domain's view of a verified event (null for types the product does not handle). */
export { toBillingEvent } from '../adapters/stripe/events.js';

export const webhookService = once(() =>
  createWebhookService({
    subscriptions: subscriptionRepository(),
    claims: eventClaims(),
    gateway: paymentGateway(),
    clock: { now: () => Date.now() },
    log: logger,
    // Issue 33: an account being deleted gets nothing written back by a late event.
    closedAccounts: new DynamoAccountDeletions(documentClient(), config().TABLE_NAME),
  }),
);

/** The webhook secret and price ids; null (logged, never shown) when the secret cannot be read or has no webhook secret. */
export async function webhookSecrets(): Promise<StripeSecrets | null> {
  try {
    const secrets = await stripeSecrets();
    if (secrets.webhookSecret) return secrets;
    logger.error('The Stripe webhook secret is not configured: webhook refused');
  } catch (error) {
    logger.error('The Stripe secret could not be read: webhook refused', { error: String(error) });
  }
  return null;
}

/** Stripe-Signature with the configuration's signing secret, run by the HTTP wrapper before the route. */
export const stripeWebhookVerifier = once(() => createStripeWebhookVerifier({ secrets: webhookSecrets }));
