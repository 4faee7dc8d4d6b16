/**
 * Billing helpers for the integration tests: a registered user who went through Checkout on
 * the fake Stripe (its webhooks delivered before payCheckout resolves), and self-signed
 * subscription events built from the real subscription object.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { CheckoutResponse, PlanId, Subscription, SubscriptionStatus } from '../../src/contract/billing.js';
import { api, db, get, getItem, post, registerUser, tableName, type RegisteredUser } from './api.js';
import { fakeStripe, signedStripeWebhook, stripeClient, stripePrices } from './fake-stripe-client.js';

export interface Subscriber {
  user: RegisteredUser;
  token: string;
  userId: string;
  sessionId: string;
  subscriptionId: string;
  customerId: string;
}

export async function startCheckout(token: string, plan: PlanId): Promise<CheckoutResponse> {
  const res = await post<CheckoutResponse>('/api/subscription/checkout', { plan }, token);
  if (res.status !== 200 || !res.body.data) throw new Error(`checkout failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}

/** Registers a user and pays a Checkout for the plan (a 5-day trial: status trialing). */
export async function subscribedUser(plan: PlanId = 'starter'): Promise<Subscriber> {
  const user = await registerUser();
  const token = user.session.token;
  const { sessionId } = await startCheckout(token, plan);
  const paid = await fakeStripe().payCheckout(sessionId);
  if (!paid.subscription) throw new Error('the fake did not create a subscription');
  return {
    user,
    token,
    userId: user.session.user._id,
    sessionId,
    subscriptionId: paid.subscription.id,
    customerId: String(paid.session.customer),
  };
}

/**
 * Writes a user's subscription item straight into the table (no Stripe round trip): what the
 * plan limits and the HTTP layer's paid-feature check read. For tests about something else than
 * billing; billing tests go through Checkout (subscribedUser).
 */
export async function grantSubscription(
  userId: string,
  options: { plan?: PlanId; status?: SubscriptionStatus } = {},
): Promise<void> {
  const start = new Date();
  const end = new Date(start.getTime() + 30 * 24 * 3600 * 1000);
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        pk: `USER#${userId}`,
        sk: 'SUBSCRIPTION',
        entity: 'subscription',
        userId,
        plan: options.plan ?? 'enterprise',
        status: options.status ?? 'active',
        currentPeriodStart: start.toISOString(),
        currentPeriodEnd: end.toISOString(),
        cancelAtPeriodEnd: false,
        trialEnd: null,
        version: 1,
      },
    }),
  );
}

/** A registered user with an active subscription item (grantSubscription): may use every paid feature. */
export async function paidUser(options: { name?: string; plan?: PlanId } = {}): Promise<{ user: RegisteredUser; token: string; userId: string }> {
  const user = await registerUser(options.name ? { name: options.name } : {});
  const userId = user.session.user._id;
  await grantSubscription(userId, { plan: options.plan });
  return { user, token: user.session.token, userId };
}

export const subscriptionItem = (userId: string) => getItem(`USER#${userId}`, 'SUBSCRIPTION');
export const eventClaim = (eventId: string) => getItem(`STRIPE_EVENT#${eventId}`, 'EVENT');

export async function currentSubscription(token: string): Promise<Subscription | null> {
  const res = await get<Subscription | null>('/api/subscription/current', token);
  if (res.status !== 200) throw new Error(`current failed: ${res.status}`);
  return res.body.data ?? null;
}

let counter = 0;

/**
 * A customer.subscription.* event about a real (fake-Stripe) subscription, with overrides
 * applied to the object. `createdOffset` (seconds) is relative to the newest of the fake's
 * clock and the item's ordering mark (the fake keeps event times strictly increasing, so under
 * load they run ahead of the wall clock).
 */
export async function subscriptionEvent(
  subscriptionId: string,
  type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted',
  options: {
    createdOffset: number;
    plan?: PlanId;
    status?: string;
    cancelAtPeriodEnd?: boolean;
    /** Replaces the billing period (epoch seconds). */
    period?: { start: number; end: number };
    /** 'legacy': as API versions before 2025-03-31.basil sent it (the period on the subscription, none on the items). */
    shape?: ApiShape;
  },
) {
  const subscription = await stripeClient().subscriptions.retrieve(subscriptionId);
  const { now } = await fakeStripe().clock();
  const object = JSON.parse(JSON.stringify(subscription)) as Record<string, unknown> & {
    items: { data: { price: { id: string } }[] };
    metadata: Record<string, string>;
  };
  const item = object.metadata.userId ? await subscriptionItem(object.metadata.userId) : undefined;
  const base = Math.max(now, Number(item?.lastEventCreated ?? 0));
  if (options.plan) object.items.data[0]!.price.id = stripePrices()[options.plan];
  if (options.status) object.status = options.status;
  if (options.cancelAtPeriodEnd !== undefined) object.cancel_at_period_end = options.cancelAtPeriodEnd;
  const items = object.items.data as Record<string, unknown>[];
  if (options.period) {
    items[0]!.current_period_start = options.period.start;
    items[0]!.current_period_end = options.period.end;
  }
  if (options.shape === 'legacy') {
    object.current_period_start = items[0]!.current_period_start;
    object.current_period_end = items[0]!.current_period_end;
    for (const item of items) {
      delete item.current_period_start;
      delete item.current_period_end;
    }
  }
  return stripeEvent(type, object, base + options.createdOffset, options.shape);
}

/** current: API 2025-03-31.basil and later; legacy: the versions before it. */
export type ApiShape = 'current' | 'legacy';

const API_VERSION: Record<ApiShape, string> = { current: '2026-10-28.endive', legacy: '2024-06-20' };

function stripeEvent<T extends object>(type: string, object: T, created: number, shape: ApiShape = 'current') {
  return {
    id: `evt_test_${Date.now().toString(36)}_${++counter}_${Math.random().toString(36).slice(2, 8)}`,
    object: 'event',
    api_version: API_VERSION[shape],
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/**
 * An invoice.* event about a subscriber's subscription, in the current shape (the subscription
 * at parent.subscription_details) or the legacy one (invoice.subscription). `createdOffset` as in
 * subscriptionEvent.
 */
export async function invoiceEvent(
  type: 'invoice.paid' | 'invoice.payment_succeeded' | 'invoice.payment_failed',
  target: { userId: string; customerId: string; subscriptionId: string },
  options: { createdOffset: number; shape: ApiShape },
) {
  const { now } = await fakeStripe().clock();
  const item = await subscriptionItem(target.userId);
  const created = Math.max(now, Number(item?.lastEventCreated ?? 0)) + options.createdOffset;
  const paid = type !== 'invoice.payment_failed';
  const object: Record<string, unknown> = {
    id: `in_test_${++counter}_${Math.random().toString(36).slice(2, 10)}`,
    object: 'invoice',
    amount_due: 2900,
    amount_paid: paid ? 2900 : 0,
    billing_reason: 'subscription_cycle',
    created,
    currency: 'usd',
    customer: target.customerId,
    status: paid ? 'paid' : 'open',
  };
  if (options.shape === 'legacy') object.subscription = target.subscriptionId;
  else {
    object.parent = {
      quote_details: null,
      subscription_details: { metadata: { userId: target.userId }, subscription: target.subscriptionId },
      type: 'subscription_details',
    };
  }
  return stripeEvent(type, object, created, options.shape);
}

/** checkout.session.completed for a subscription-mode session (ids as given). */
export function checkoutCompletedEvent(input: { userId: string; customerId: string; subscriptionId: string }) {
  return stripeEvent(
    'checkout.session.completed',
    {
      id: `cs_test_${++counter}_${Math.random().toString(36).slice(2, 10)}`,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: input.userId,
      metadata: { userId: input.userId },
      customer: input.customerId,
      subscription: input.subscriptionId,
    },
    Math.floor(Date.now() / 1000),
  );
}

export async function postWebhook(event: object, options: { secret?: string; timestamp?: number; signature?: string | null } = {}) {
  const signed = signedStripeWebhook(event, options);
  const headers = { ...signed.headers };
  if (options.signature === null) delete (headers as Record<string, string>)['stripe-signature'];
  else if (options.signature !== undefined) headers['stripe-signature'] = options.signature;
  return api('POST', '/api/webhooks/stripe', { rawBody: signed.body, headers });
}
