/**
 * Stripe webhook deliveries: signature verification over the raw body (the SDK's own check,
 * 300 s tolerance) and translation of the handled event types into domain BillingEvents,
 * accepting the objects of every API version (shapes.ts).
 */
import Stripe from 'stripe';
import type * as z from 'zod/mini';
import type { PriceIds } from '../../domain/billing/plans.js';
import type { BillingEvent } from '../../domain/billing/ports.js';
import { ValidationError } from '../../domain/errors.js';
import { logger } from '../logger.js';
import {
  idOf,
  invoiceSubscriptionId,
  stripeCheckoutSession,
  stripeInvoice,
  stripeSubscription,
  toSubscriptionState,
} from './shapes.js';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export const INVALID_EVENT_MESSAGE = 'Invalid Stripe event payload';

/**
 * Why a delivery was refused: the signature is missing, wrong or too old; or it is right but the
 * body is not JSON, or JSON that is not an event (an object with an id and a type).
 */
export type StripeEventRefusal = 'signature' | 'not_json' | 'not_event';

/** The verified event, or why there is none. */
export function verifyStripeEvent(rawBody: Buffer, signature: string | undefined, secret: string): { event: Stripe.Event } | { refused: StripeEventRefusal } {
  if (!signature || !secret) return { refused: 'signature' };
  let event: unknown;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return { refused: 'signature' };
    // constructEvent checks the signature first, then parses: a SyntaxError means a correctly signed body that is not JSON.
    if (error instanceof SyntaxError) return { refused: 'not_json' };
    throw error;
  }
  const fields = event !== null && typeof event === 'object' && !Array.isArray(event) ? (event as { id?: unknown; type?: unknown }) : null;
  if (typeof fields?.id !== 'string' || typeof fields.type !== 'string') return { refused: 'not_event' };
  return { event: event as Stripe.Event };
}

/** What the event carries in data.object (verified events only). */
export interface VerifiedEvent {
  id: string;
  type: string;
  created: number;
  data: { object: unknown };
}

const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
]);
const PAID_INVOICE_EVENTS = new Set(['invoice.paid', 'invoice.payment_succeeded']);

/** data.object of a handled type that matches no known shape: a 400 (nothing written), logged with the failing paths only. */
function parseObject<T>(schema: z.ZodMiniType<T>, event: VerifiedEvent): T {
  const parsed = schema.safeParse(event.data?.object);
  if (parsed.success) return parsed.data;
  logger.warn('Stripe event object not understood', {
    paths: parsed.error.issues.map((issue) => issue.path.join('.')),
  });
  throw new ValidationError(INVALID_EVENT_MESSAGE);
}

/** The domain's view of an event; null for types the product does not handle. */
export function toBillingEvent(event: VerifiedEvent, prices: PriceIds): BillingEvent | null {
  const base = { id: event.id, type: event.type, created: event.created };
  if (SUBSCRIPTION_EVENTS.has(event.type)) {
    return {
      ...base,
      kind: 'subscription',
      state: toSubscriptionState(parseObject(stripeSubscription, event), prices),
      deleted: event.type === 'customer.subscription.deleted',
    };
  }
  if (PAID_INVOICE_EVENTS.has(event.type) || event.type === 'invoice.payment_failed') {
    const invoice = parseObject(stripeInvoice, event);
    return {
      ...base,
      kind: 'invoice',
      paid: PAID_INVOICE_EVENTS.has(event.type),
      customerId: idOf(invoice.customer),
      subscriptionId: invoiceSubscriptionId(invoice),
    };
  }
  if (event.type === 'checkout.session.completed') {
    const session = parseObject(stripeCheckoutSession, event);
    if (session.mode !== 'subscription') return null;
    return {
      ...base,
      kind: 'checkout',
      userId: session.client_reference_id || session.metadata?.userId || null,
      customerId: idOf(session.customer),
      subscriptionId: idOf(session.subscription),
    };
  }
  return null;
}
