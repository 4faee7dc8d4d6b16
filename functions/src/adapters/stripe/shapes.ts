/**
 * The Stripe objects AgentDesk reads, in every API version a webhook endpoint may be pinned to
 * (an event's shape follows the endpoint's version, not the SDK's):
 * - 2025-03-31.basil and later: an invoice's subscription is at parent.subscription_details,
 *   and current_period_start/end live on the subscription items;
 * - before: invoice.subscription (an id, or the object when expanded) and the period on the
 *   subscription itself.
 * Only the fields read are declared; everything else is ignored.
 */
import * as z from 'zod/mini';
import type { PriceIds } from '../../domain/billing/plans.js';
import { planOfPrice } from '../../domain/billing/plans.js';
import type { SubscriptionState } from '../../domain/billing/ports.js';
import { mapStripeStatus } from '../../domain/billing/rules.js';

/** An id, or the expanded object carrying it. */
const ref = z.union([z.string(), z.object({ id: z.string() })]);
const epoch = z.nullish(z.number());

const subscriptionItem = z.object({
  price: z.nullish(z.object({ id: z.string() })),
  current_period_start: epoch,
  current_period_end: epoch,
});

export const stripeSubscription = z.object({
  id: z.string(),
  customer: ref,
  status: z.string(),
  currency: z.nullish(z.string()),
  items: z.nullish(z.object({ data: z.array(subscriptionItem) })),
  // Before 2025-03-31.basil.
  current_period_start: epoch,
  current_period_end: epoch,
  cancel_at_period_end: z.nullish(z.boolean()),
  trial_end: epoch,
  metadata: z.nullish(z.record(z.string(), z.string())),
});
export type StripeSubscriptionShape = z.infer<typeof stripeSubscription>;

export const stripeInvoice = z.object({
  customer: z.nullish(ref),
  // Before 2025-03-31.basil.
  subscription: z.nullish(ref),
  parent: z.nullish(z.object({ subscription_details: z.nullish(z.object({ subscription: z.nullish(ref) })) })),
});
export type StripeInvoiceShape = z.infer<typeof stripeInvoice>;

export const stripeCheckoutSession = z.object({
  mode: z.string(),
  client_reference_id: z.nullish(z.string()),
  metadata: z.nullish(z.record(z.string(), z.string())),
  customer: z.nullish(ref),
  subscription: z.nullish(ref),
});

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const iso = (epochSeconds: number | null | undefined): string | null =>
  typeof epochSeconds === 'number' ? new Date(epochSeconds * 1000).toISOString() : null;

/** The invoice's subscription id in either shape. */
export const invoiceSubscriptionId = (invoice: StripeInvoiceShape): string | null =>
  idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(invoice.subscription);

/** A Stripe subscription in our terms: the period from its first item, else from the subscription (older versions). */
export function toSubscriptionState(sub: StripeSubscriptionShape, prices: PriceIds): SubscriptionState {
  const item = sub.items?.data?.[0];
  return {
    subscriptionId: sub.id,
    customerId: idOf(sub.customer) ?? '',
    plan: planOfPrice(prices, item?.price?.id),
    status: mapStripeStatus(sub.status),
    providerStatus: sub.status,
    currentPeriodStart: iso(item?.current_period_start ?? sub.current_period_start),
    currentPeriodEnd: iso(item?.current_period_end ?? sub.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    trialEnd: iso(sub.trial_end),
    userId: sub.metadata?.userId || null,
    ...(sub.currency ? { currency: sub.currency.toLowerCase() } : {}),
  };
}
