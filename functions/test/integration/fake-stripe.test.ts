/**
 * The integration stack's fake Stripe (local billing mode), driven by the official `stripe`
 * SDK exactly as the app's adapter drives it: customer → checkout → Pay → retrieve →
 * portal → plan change → cancel at period end → cancel now. Webhook deliveries are checked
 * in the fake's record (target, order, attempts), not through the app's handler.
 *
 * The fake is shared with every other integration file, so this file never resets it or
 * moves its clock, and it filters recorded data by its own customer.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import Stripe from 'stripe';
import { fakeStripe, stripeClient, stripePrices } from '../support/fake-stripe-client.js';

const stripeApiUrl = inject('stripeApiUrl');
const control = fakeStripe();

describe('fake Stripe through the official SDK', () => {
  it('runs a trial checkout to a subscription, then a plan change, cancel at period end and cancel now', async () => {
    // Arrange
    const stripe = stripeClient();
    const prices = stripePrices();
    const userId = randomUUID();
    const customer = await stripe.customers.create({ email: `${userId}@example.com`, metadata: { userId } });

    // Act: checkout and the Pay button
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: userId,
      line_items: [{ price: prices.starter, quantity: 1 }],
      success_url: 'http://localhost:3000/subscription/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://localhost:3000/pricing',
      subscription_data: { trial_period_days: 5, metadata: { userId, plan: 'starter' } },
      metadata: { userId, plan: 'starter' },
    });
    const checkoutPage = await (await fetch(session.url!)).text();
    const paid = await control.payCheckout(session.id);
    const completed = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription', 'line_items'] });

    // Assert: session and subscription in Stripe's shapes
    expect(session).toMatchObject({ object: 'checkout.session', status: 'open', payment_status: 'unpaid', customer: customer.id });
    expect(session.url).toBe(`${stripeApiUrl}/checkout/${session.id}`);
    expect(checkoutPage).toContain('Test mode — no real payment');
    expect(checkoutPage).toContain('5-day free trial');
    expect(paid.redirect).toBe(`http://localhost:3000/subscription/success?session_id=${session.id}`);
    expect(completed).toMatchObject({
      status: 'complete',
      payment_status: 'no_payment_required',
      customer: customer.id,
      client_reference_id: userId,
      metadata: { userId, plan: 'starter' },
    });
    expect(completed.line_items?.data[0]?.price?.id).toBe(prices.starter);
    const subscription = completed.subscription as Stripe.Subscription;
    const item = subscription.items.data[0]!;
    expect(subscription).toMatchObject({
      object: 'subscription',
      customer: customer.id,
      status: 'trialing',
      cancel_at_period_end: false,
      metadata: { userId, plan: 'starter' },
    });
    expect(subscription.trial_end! - subscription.trial_start!).toBe(5 * 86_400);
    expect(item.price).toMatchObject({ id: prices.starter, unit_amount: 2900, currency: 'usd', recurring: { interval: 'month' } });
    expect(item.current_period_start).toBe(subscription.trial_start);
    expect(item.current_period_end).toBe(subscription.trial_end);

    // Act: the portal, a plan change and cancel at period end
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://localhost:3000/subscription',
    });
    const portalPage = await (await fetch(portal.url)).text();
    const upgraded = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: prices.professional }],
      proration_behavior: 'create_prorations',
      metadata: { plan: 'professional' },
    });
    const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    const listed = await stripe.subscriptions.list({ customer: customer.id });

    // Assert
    expect(portal.url).toBe(`${stripeApiUrl}/portal/${portal.id}`);
    expect(portalPage).toContain('Test mode — no real payment');
    expect(portalPage).toContain('Return to AgentDesk');
    expect(upgraded.items.data[0]).toMatchObject({ id: item.id, price: { id: prices.professional, unit_amount: 7900 } });
    expect(upgraded.items.data[0]!.current_period_end).toBe(item.current_period_end);
    expect(upgraded.metadata).toEqual({ userId, plan: 'professional' });
    expect(canceling).toMatchObject({ cancel_at_period_end: true, cancel_at: item.current_period_end });
    expect(listed.data.map((s) => s.id)).toEqual([subscription.id]);

    // Act: cancel now
    const canceled = await stripe.subscriptions.cancel(subscription.id);
    const afterCancel = await stripe.subscriptions.list({ customer: customer.id });

    // Assert
    expect(canceled).toMatchObject({ status: 'canceled', cancel_at_period_end: false });
    expect(canceled.ended_at).toBeGreaterThan(0);
    expect(afterCancel.data).toEqual([]);

    // Assert: the calls were recorded with their bracket params, and the events went to the app's webhook in order
    const requests = await control.requests({ path: '/v1/checkout/sessions', method: 'POST' });
    const create = requests.find((r) => (r.params.metadata as Record<string, string> | undefined)?.userId === userId);
    expect(create?.params).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: prices.starter, quantity: '1' }],
      subscription_data: { trial_period_days: '5', metadata: { userId } },
    });
    expect(create?.idempotencyKey).toMatch(/^stripe-node-retry-/);
    const deliveries = await control.deliveries({ customer: customer.id });
    expect(deliveries.map((d) => d.type)).toEqual([
      'customer.subscription.created',
      'checkout.session.completed',
      'invoice.paid',
      'customer.subscription.updated',
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ]);
    for (const delivery of deliveries) {
      expect(delivery.url).toBe(`${inject('apiUrl')}/api/webhooks/stripe`);
    }
    // Pay waits for its events' first attempts before answering.
    for (const delivery of deliveries.slice(0, 3)) expect(delivery.attempts.length).toBeGreaterThan(0);
  });

  it('carries the current-API invoice shape: parent.subscription_details.subscription and line periods', async () => {
    const stripe = stripeClient();
    const customer = await stripe.customers.create({ email: `${randomUUID()}@example.com` });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: stripePrices().enterprise, quantity: 1 }],
      success_url: 'http://localhost:3000/subscription/success?session_id={CHECKOUT_SESSION_ID}',
    });

    const { subscription } = await control.payCheckout(session.id);
    const invoices = await stripe.invoices.list({ customer: customer.id });

    const invoice = invoices.data[0]!;
    expect(subscription?.status).toBe('active');
    expect(invoice).toMatchObject({
      status: 'paid',
      amount_paid: 19900,
      customer: customer.id,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription!.id } },
    });
    expect(invoice.lines.data[0]?.period).toEqual({
      start: subscription!.items.data[0]!.current_period_start,
      end: subscription!.items.data[0]!.current_period_end,
    });
  });

  it('rejects a key that is not a test key, as Stripe rejects an invalid key', async () => {
    const stripe = stripeClient(stripeApiUrl, 'sk_live_not_allowed_here');

    const error = await stripe.customers.list().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });
});
