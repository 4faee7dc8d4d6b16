/**
 * Stripe webhook deliveries: signature verification over the raw body (the SDK's own check,
 * 300 s tolerance) and translation of the handled event types into domain BillingEvents.
 */
import Stripe from 'stripe';
import type { PriceIds } from '../../domain/billing/plans.js';
import type { BillingEvent } from '../../domain/billing/ports.js';
import { toSubscriptionState } from './gateway.js';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The verified event, or null when the signature is missing, wrong or too old. */
export function verifyStripeEvent(rawBody: Buffer, signature: string | undefined, secret: string): Stripe.Event | null {
  if (!signature || !secret) return null;
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return null;
    // constructEvent also throws when a correctly signed body is not JSON.
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** The domain's view of an event; null for types the product does not handle. */
export function toBillingEvent(event: Stripe.Event, prices: PriceIds): BillingEvent | null {
  const base = { id: event.id, type: event.type, created: event.created };
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return {
        ...base,
        kind: 'subscription',
        state: toSubscriptionState(event.data.object, prices),
        deleted: event.type === 'customer.subscription.deleted',
      };
    case 'checkout.session.completed': {
      const session = event.data.object;
      if (session.mode !== 'subscription') return null;
      return {
        ...base,
        kind: 'checkout',
        userId: session.client_reference_id || session.metadata?.userId || null,
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      return {
        ...base,
        kind: 'invoice',
        paid: event.type === 'invoice.paid',
        customerId: idOf(invoice.customer),
        // Current API version: the subscription is under parent.subscription_details.
        subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
      };
    }
    default:
      return null;
  }
}
