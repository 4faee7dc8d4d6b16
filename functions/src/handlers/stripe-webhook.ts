/**
 * POST /api/webhooks/stripe. Nothing is parsed before the Stripe-Signature check over the raw
 * body (300 s tolerance); a bad, missing or stale signature is a 400 and nothing is written.
 * A processing failure is a 500 so Stripe redelivers (the event's claim was released).
 */
import { priceIds, webhookSecret, webhookService } from '../composition/stripe-webhook.js';
import { logger } from '../adapters/logger.js';
import { toBillingEvent, verifyStripeEvent } from '../adapters/stripe/events.js';
import { billingServerMessages as msg } from '../domain/billing/messages.js';
import { httpGroup, json, type RouteTable } from '../http/handler.js';

export const routes: RouteTable = {
  'POST /api/webhooks/stripe': async (req) => {
    const secret = webhookSecret();
    if (!secret) {
      logger.error('STRIPE_WEBHOOK_SECRET is not configured: webhook refused');
      return { raw: json(500, { success: false, message: 'Internal server error' }) };
    }
    const event = verifyStripeEvent(req.rawBody, req.headers['stripe-signature'], secret);
    if (!event) return { raw: json(400, { success: false, message: msg.invalidSignature }) };
    logger.appendKeys({ stripeEventId: event.id, stripeEventType: event.type });
    const billingEvent = toBillingEvent(event, priceIds());
    if (!billingEvent) return { message: msg.eventIgnored };
    const outcome = await webhookService().handle(billingEvent);
    return { message: outcome === 'duplicate' ? msg.eventDuplicate : msg.eventProcessed };
  },
};

export const handler = httpGroup(routes);
