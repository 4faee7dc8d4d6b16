/**
 * The fake Stripe server in-process, driven by the official SDK: idempotency keys, API-key
 * checks and errors in Stripe's shapes, the subscription lifecycle (clock, simulations,
 * portal forms) and state that survives a restart.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { localWebhookSecret, startFakeStripe, type FakeStripe } from '../../../local/fake-stripe/server.js';

const running: FakeStripe[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const fake of running.splice(0)) await fake.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function start(options: { stateFile?: string } = {}) {
  const fake = await startFakeStripe({ webhookSecret: 'whsec_unit', ...options });
  running.push(fake);
  const url = new URL(fake.url);
  const stripe = new Stripe('sk_test_unit', { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
  return { fake, stripe };
}

async function subscribe(stripe: Stripe, fake: FakeStripe, trialDays?: number) {
  const customer = await stripe.customers.create({ email: 'owner@example.com', metadata: { userId: 'u-1' } });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    line_items: [{ price: 'price_local_starter', quantity: 1 }],
    success_url: 'http://app.test/subscription/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://app.test/pricing',
    ...(trialDays ? { subscription_data: { trial_period_days: trialDays } } : {}),
  });
  const paid = fake.engine.payCheckout(session.id);
  return { customer, session, subscriptionId: paid.subscription!.id };
}

const eventTypes = (fake: FakeStripe) => fake.engine.data.events.map((e) => e.type);

describe('fake Stripe API: idempotency, auth and errors', () => {
  it('answers a repeated Idempotency-Key with the first response instead of creating again', async () => {
    const { fake, stripe } = await start();

    const first = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'key-1' });
    const again = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'key-1' });

    expect(again.id).toBe(first.id);
    expect(Object.keys(fake.engine.data.customers)).toEqual([first.id]);
    expect(fake.requests.map((r) => [r.idempotencyKey, r.replayed])).toEqual([
      ['key-1', false],
      ['key-1', true],
    ]);
  });

  it('rejects a reused Idempotency-Key with different parameters (idempotency_error)', async () => {
    const { stripe } = await start();
    await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey: 'key-2' });

    const error = await stripe.customers.create({ email: 'b@example.com' }, { idempotencyKey: 'key-2' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('accepts any sk_test_ key and answers others with 401 in Stripe’s error shape', async () => {
    const { fake } = await start();

    const live = await fetch(`${fake.url}/v1/customers`, { headers: { authorization: 'Bearer sk_live_123456789' } });
    const none = await fetch(`${fake.url}/v1/customers`);
    const test = await fetch(`${fake.url}/v1/customers`, { headers: { authorization: 'Bearer sk_test_anything' } });

    expect(live.status).toBe(401);
    expect(await live.json()).toEqual({ error: { type: 'invalid_request_error', message: expect.stringContaining('Invalid API Key') } });
    expect(none.status).toBe(401);
    expect(test.status).toBe(200);
  });

  it('answers unknown ids and missing params like Stripe, which the SDK turns into typed errors', async () => {
    const { stripe } = await start();

    const missing = await stripe.subscriptions.retrieve('sub_nope').catch((e: unknown) => e as Stripe.errors.StripeError);
    const badPrice = await stripe.checkout.sessions
      .create({ mode: 'subscription', line_items: [{ price: 'price_nope', quantity: 1 }], success_url: 'http://x' })
      .catch((e: unknown) => e as Stripe.errors.StripeError);

    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing', message: "No such subscription: 'sub_nope'" });
    expect(badPrice).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'line_items[0][price]' });
  });
});

describe('fake Stripe subscription lifecycle', () => {
  it('pays a checkout without trial: active, a one-month period on the item, a paid invoice', async () => {
    const { fake, stripe } = await start();

    const { session, subscriptionId } = await subscribe(stripe, fake);

    const completed = await stripe.checkout.sessions.retrieve(session.id);
    const subscription = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice'] });
    const item = subscription.items.data[0]!;
    const invoice = subscription.latest_invoice as Stripe.Invoice;
    expect(completed).toMatchObject({ status: 'complete', payment_status: 'paid', subscription: subscriptionId, url: null });
    expect(subscription.status).toBe('active');
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(28 * 86_400);
    expect(item.current_period_end - item.current_period_start).toBeLessThanOrEqual(31 * 86_400);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 2900, parent: { subscription_details: { subscription: subscriptionId } } });
    expect(eventTypes(fake)).toEqual(['customer.subscription.created', 'checkout.session.completed', 'invoice.paid']);
  });

  it('ends a trial and renews when the clock passes the period end', async () => {
    const { fake, stripe } = await start();
    const { subscriptionId } = await subscribe(stripe, fake, 5);

    fake.engine.advance(6 * 86_400);

    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    expect(subscription.status).toBe('active');
    expect(subscription.items.data[0]!.current_period_end).toBeGreaterThan(fake.engine.now());
    expect(eventTypes(fake).slice(3)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    const updated = fake.engine.data.events.at(-1)!;
    expect(updated.data.previous_attributes).toMatchObject({ status: 'trialing' });
  });

  it('cancels at period end once the clock gets there, emitting customer.subscription.deleted', async () => {
    const { fake, stripe } = await start();
    const { subscriptionId } = await subscribe(stripe, fake);
    const scheduled = await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });

    fake.engine.advance(32 * 86_400);

    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    expect(scheduled.cancel_at).toBe(scheduled.items.data[0]!.current_period_end);
    expect(subscription.status).toBe('canceled');
    expect(subscription.ended_at).toBe(scheduled.cancel_at);
    expect(eventTypes(fake).slice(3)).toEqual(['customer.subscription.updated', 'customer.subscription.deleted']);
  });

  it('simulates a failed renewal (past_due) and a successful one (active again)', async () => {
    const { fake, stripe } = await start();
    const { subscriptionId } = await subscribe(stripe, fake);

    fake.engine.simulatePaymentFailed(subscriptionId);
    const pastDue = await stripe.subscriptions.retrieve(subscriptionId);
    fake.engine.simulateRenewal(subscriptionId);
    const renewed = await stripe.subscriptions.retrieve(subscriptionId);

    expect(pastDue.status).toBe('past_due');
    expect(renewed.status).toBe('active');
    expect(eventTypes(fake).slice(3)).toEqual([
      'invoice.payment_failed',
      'customer.subscription.updated',
      'invoice.paid',
      'customer.subscription.updated',
    ]);
    expect(fake.engine.data.events[3]!.data.object).toMatchObject({ status: 'open', amount_due: 2900, amount_paid: 0 });
  });

  it('gives strictly increasing `created` to events emitted within the same second', async () => {
    const { fake, stripe } = await start();
    await subscribe(stripe, fake);

    const created = fake.engine.data.events.map((e) => e.created);

    expect(created).toEqual([...created].sort((a, b) => a - b));
    expect(new Set(created).size).toBe(created.length);
  });
});

describe('fake Stripe pages', () => {
  it('renders the checkout page with the test-mode banner, plan, price and trial', async () => {
    const { stripe } = await start();
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: 'new@example.com',
      line_items: [{ price: 'price_local_professional', quantity: 1 }],
      success_url: 'http://app.test/ok',
      cancel_url: 'http://app.test/pricing',
      subscription_data: { trial_period_days: 5 },
    });

    const html = await (await fetch(session.url!)).text();

    expect(html).toContain('Test mode — no real payment');
    expect(html).toContain('Professional');
    expect(html).toContain('$79.00');
    expect(html).toContain('5-day free trial');
    expect(html).toContain(`action="/checkout/${session.id}/pay"`);
    expect(html).toContain('href="http://app.test/pricing"');
  });

  it('Pay creates the customer from customer_email and redirects (303) to success_url', async () => {
    const { fake, stripe } = await start();
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: 'new@example.com',
      line_items: [{ price: 'price_local_starter', quantity: 1 }],
      success_url: 'http://app.test/subscription/success?session_id={CHECKOUT_SESSION_ID}',
    });

    const response = await fetch(`${fake.url}/checkout/${session.id}/pay`, { method: 'POST', redirect: 'manual' });

    const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['customer'] });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`http://app.test/subscription/success?session_id=${session.id}`);
    expect((completed.customer as Stripe.Customer).email).toBe('new@example.com');
  });

  it('portal forms change the plan and cancel at period end, then redirect back to the portal', async () => {
    const { fake, stripe } = await start();
    const { customer, subscriptionId } = await subscribe(stripe, fake);
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://app.test/subscription' });
    const post = (action: string, body = '') =>
      fetch(`${fake.url}/portal/${portal.id}/subscriptions/${subscriptionId}/${action}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
      });

    const page = await (await fetch(portal.url)).text();
    const switched = await post('switch', 'price=price_local_enterprise');
    await post('cancel-at-period-end');

    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    expect(page).toContain('Test mode — no real payment');
    expect(page).toContain('Switch to Enterprise');
    expect(page).toContain('href="http://app.test/subscription"');
    expect(switched.status).toBe(303);
    expect(switched.headers.get('location')).toMatch(new RegExp(`^/portal/${portal.id}\\?message=`));
    expect(subscription.items.data[0]!.price.id).toBe('price_local_enterprise');
    expect(subscription.cancel_at_period_end).toBe(true);
    const updates = fake.engine.data.events.filter((e) => e.type === 'customer.subscription.updated');
    expect(updates).toHaveLength(2);
    expect(updates[0]!.data.previous_attributes).toHaveProperty('items');
  });

  it('a portal session cannot act on another customer’s subscription', async () => {
    const { fake, stripe } = await start();
    const { subscriptionId } = await subscribe(stripe, fake);
    const other = await stripe.customers.create({ email: 'other@example.com' });
    const portal = await stripe.billingPortal.sessions.create({ customer: other.id });

    const response = await fetch(`${fake.url}/portal/${portal.id}/subscriptions/${subscriptionId}/cancel-now`, {
      method: 'POST',
      redirect: 'manual',
    });

    expect(response.status).toBe(404);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('active');
  });
});

describe('fake Stripe persistence', () => {
  it('keeps subscriptions across a restart when given a state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-stripe-'));
    dirs.push(dir);
    const stateFile = join(dir, 'stripe.json');
    const first = await start({ stateFile });
    const { subscriptionId } = await subscribe(first.stripe, first.fake);
    await first.fake.stop();

    const second = await start({ stateFile });
    const subscription = await second.stripe.subscriptions.retrieve(subscriptionId);

    expect(subscription.status).toBe('active');
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toHaveProperty('subscriptions');
  });

  it('creates one whsec_local_ webhook secret per data dir and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-stripe-'));
    dirs.push(dir);

    const first = localWebhookSecret(dir);
    const second = localWebhookSecret(dir);

    expect(first).toMatch(/^whsec_local_[0-9a-f]{48}$/);
    expect(second).toBe(first);
  });
});
