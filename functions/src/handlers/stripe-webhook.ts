/**
 * POST /api/webhooks/stripe. The route's declared verification runs first
 * (adapters/stripe/webhook-verifier.ts): nothing is parsed before the Stripe-Signature check over
 * the raw body (300 s tolerance); a bad, missing or stale signature is a 400 and nothing is
 * written; an unreadable signing secret a plain 500.
 * A processing failure is a 500 so Stripe redelivers (the event's claim was released); an event
 * about a subscription Stripe does not know is a 200 (redelivering for days cannot help).
 */
import { stripeWebhookVerifier, toBillingEvent, webhookService } from '../composition/stripe-webhook.js';
import { logger } from '../adapters/logger.js';
import { billingServerMessages as msg } from '../domain/billing/messages.js';
import { httpGroup, type RouteTable } from '../http/handler.js';
import { webhookVerification } from '../http/webhook-verification.js';

const OUTCOME_MESSAGES = {
  processed: msg.eventProcessed,
  duplicate: msg.eventDuplicate,
  ignored: msg.eventSubscriptionUnknown,
} as const;

export const routes: RouteTable = {
  'POST /api/webhooks/stripe': async (req) => {
    const { event, prices } = req.webhook('stripe');
    logger.appendKeys({ stripeEventId: event.id, stripeEventType: event.type });
    const billingEvent = toBillingEvent(event, prices);
    if (!billingEvent) return { message: msg.eventIgnored };
    return { message: OUTCOME_MESSAGES[await webhookService().handle(billingEvent)] };
  },
};

export const handler = httpGroup(routes, { webhooks: webhookVerification({ stripe: stripeWebhookVerifier }) });
