/** Wires the Stripe webhook group: signature secret, event translation, idempotent processing. */
import { config } from '../config.js';
import { logger } from '../adapters/logger.js';
import { createWebhookService } from '../domain/billing/webhook-service.js';
import { once } from '../lib/once.js';
import { eventClaims, subscriptionRepository } from './billing-table.js';
import { paymentGateway, priceIds } from './stripe.js';

export const webhookService = once(() =>
  createWebhookService({
    subscriptions: subscriptionRepository(),
    claims: eventClaims(),
    gateway: paymentGateway(),
    clock: { now: () => Date.now() },
    log: logger,
  }),
);

export const webhookSecret = () => config().STRIPE_WEBHOOK_SECRET;
export { priceIds };
