/**
 * POST /api/webhooks/stripe. Nothing is parsed before the Stripe-Signature check over the raw
 * body (300 s tolerance); a bad, missing or stale signature is a 400 and nothing is written.
 * Reading the signing secret is part of that check: without it the answer is a plain 500.
 * A processing failure is a 500 so Stripe redelivers (the event's claim was released); an event
 * about a subscription Stripe does not know is a 200 (redelivering for days cannot help).
 */
import { webhookSecrets, webhookService } from '../composition/stripe-webhook.js';
import { logger } from '../adapters/logger.js';
import { toBillingEvent, verifyStripeEvent } from '../adapters/stripe/events.js';
import { billingServerMessages as msg } from '../domain/billing/messages.js';
import { httpGroup, json, type RouteTable } from '../http/handler.js';

const OUTCOME_MESSAGES = {
  processed: msg.eventProcessed,
  duplicate: msg.eventDuplicate,
  ignored: msg.eventSubscriptionUnknown,
} as const;

export const routes: RouteTable = {
  'POST /api/webhooks/stripe': async (req) => {
    const secrets = await webhookSecrets();
    if (!secrets) return { raw: json(500, { success: false, message: 'Internal server error' }) };
    const event = verifyStripeEvent(req.rawBody, req.headers['stripe-signature'], secrets.webhookSecret);
    if (!event) return { raw: json(400, { success: false, message: msg.invalidSignature }) };
    logger.appendKeys({ stripeEventId: event.id, stripeEventType: event.type });
    const billingEvent = toBillingEvent(event, secrets.prices);
    if (!billingEvent) return { message: msg.eventIgnored };
    return { message: OUTCOME_MESSAGES[await webhookService().handle(billingEvent)] };
  },
};

export const handler = httpGroup(routes);
