/**
 * Test helpers for the fake Stripe that the integration stack runs (local billing mode):
 * the official SDK pointed at it, the plan → price ids, the /_test control API and
 * Stripe-signed webhook requests.
 *
 *   const stripe = stripeClient();
 *   const { redirect } = await fakeStripe().payCheckout(session.id);
 *   const deliveries = await fakeStripe().deliveries({ customer, settled: true });
 */
import { inject } from 'vitest';
import Stripe from 'stripe';
import type { PlanId } from '../../src/contract/billing.js';
import type { RecordedRequest } from '../../local/fake-stripe/server.js';
import type { Delivery } from '../../local/fake-stripe/webhooks.js';
import type {
  CheckoutSessionObject,
  StripeEventObject,
  SubscriptionObject,
} from '../../local/fake-stripe/objects.js';

export type { Delivery, RecordedRequest, StripeEventObject };

/** The official SDK pointed at the fake (host/port/protocol from the URL), as the app's adapter does. */
export function stripeClient(apiUrl: string = inject('stripeApiUrl'), key: string = inject('stripeSecretKey')): Stripe {
  const url = new URL(apiUrl);
  return new Stripe(key, {
    host: url.hostname,
    port: url.port,
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 0,
  });
}

/** Plan id → price id (STRIPE_PRICE_*). */
export function stripePrices(): Record<PlanId, string> {
  return JSON.parse(inject('stripePrices')) as Record<PlanId, string>;
}

/** A body and Stripe-Signature header for POST /api/webhooks/stripe, signed as Stripe signs. */
export function signedStripeWebhook(
  event: object,
  options: { secret?: string; timestamp?: number } = {},
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(event, null, 2);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: options.secret ?? inject('stripeWebhookSecret'),
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  return { body, headers: { 'content-type': 'application/json', 'stripe-signature': signature } };
}

export interface PayResult {
  session: CheckoutSessionObject;
  subscription: SubscriptionObject | null;
  /** success_url with {CHECKOUT_SESSION_ID} filled in: where the browser would go. */
  redirect: string;
}

export interface DeliveryFilter {
  type?: string;
  customer?: string;
  /** data.object.id */
  object?: string;
  event?: string;
  /** Wait until no delivery is pending or waiting for a retry. */
  settled?: boolean;
}

/** The /_test control API. The fake is shared by every test file: filter by your own ids. */
export function fakeStripe(apiUrl: string = inject('stripeApiUrl')) {
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as T;
    if (!response.ok) throw new Error(`fake Stripe ${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const query = (params: Record<string, string | undefined>) => {
    const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
    const text = q.toString();
    return text ? `?${text}` : '';
  };
  return {
    /** Recorded /v1 calls (method, path, parsed params, idempotency key, status); `path` is a prefix filter. */
    requests: (filter: { path?: string; method?: string } = {}) =>
      call<RecordedRequest[]>('GET', `/_test/requests${query(filter)}`),
    /** Webhook deliveries, one per event, with every attempt's status. */
    deliveries: (filter: DeliveryFilter = {}) =>
      call<Delivery[]>(
        'GET',
        `/_test/deliveries${query({ ...filter, settled: filter.settled ? '1' : undefined })}`,
      ),
    /** The checkout page's Pay button; events are delivered before this resolves. */
    payCheckout: (sessionId: string) =>
      call<PayResult>('POST', `/_test/checkout/${encodeURIComponent(sessionId)}/pay`),
    /** Portal's "Simulate failed payment": past_due, invoice.payment_failed + customer.subscription.updated. */
    payFailed: (subscriptionId: string) =>
      call<{ subscription: SubscriptionObject }>('POST', `/_test/subscriptions/${encodeURIComponent(subscriptionId)}/pay-failed`),
    /** Portal's "Simulate successful renewal": new period, active, invoice.paid + customer.subscription.updated. */
    renew: (subscriptionId: string) =>
      call<{ subscription: SubscriptionObject }>('POST', `/_test/subscriptions/${encodeURIComponent(subscriptionId)}/renew`),
    /**
     * Serve the subscription (GET /v1/subscriptions/:id) as API versions before 2025-03-31.basil
     * did: the period on the subscription, none on its items (`legacy: false` switches back).
     */
    legacyShape: (subscriptionId: string, legacy = true) =>
      call<{ subscription: SubscriptionObject }>('POST', `/_test/subscriptions/${encodeURIComponent(subscriptionId)}/legacy-shape`, { legacy }),
    clock: () => call<{ now: number; offset: number }>('GET', '/_test/clock'),
  };
}
