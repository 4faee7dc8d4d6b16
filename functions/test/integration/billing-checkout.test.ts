/** Checkout on the fake Stripe → signed webhooks → an active (trialing) subscription. */
import { describe, expect, it } from 'vitest';
import type { User } from '../../src/contract/auth.js';
import type { Plan, VerifySessionResponse } from '../../src/contract/billing.js';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { api, db, get, post, registerUser, tableName } from '../support/api.js';
import { currentSubscription, eventClaim, startCheckout, subscribedUser, subscriptionItem } from '../support/billing.js';
import { fakeStripe, stripePrices } from '../support/fake-stripe-client.js';

describe('plans', () => {
  it('lists the three plans in order with prices, features and limits', async () => {
    const { session } = await registerUser();
    const res = await get<Plan[]>('/api/subscription/plans', session.token);
    expect(res.status).toBe(200);
    expect(res.body.data!.map((p) => [p.id, p.price, p.currency, p.interval, p.disabled])).toEqual([
      ['starter', 29, 'usd', 'month', false],
      ['professional', 79, 'usd', 'month', false],
      ['enterprise', 199, 'usd', 'month', false],
    ]);
    expect(res.body.data![2]!.limits).toEqual({ contacts: -1, messagesPerMonth: -1, minutesPerMonth: -1, seats: 20 });
    // Issue 32: the people each plan seats, the owner included.
    expect(res.body.data!.map((p) => p.limits.seats)).toEqual([2, 5, 20]);
    expect((await get('/api/subscription/plans')).status).toBe(401);
  });
});

describe('checkout → webhook → active', () => {
  it('starts a 5-day trial through Stripe Checkout and activates the account when the webhooks arrive', async () => {
    const user = await registerUser();
    const token = user.session.token;
    const userId = user.session.user._id;
    expect(await currentSubscription(token)).toBeNull();

    const { url, sessionId } = await startCheckout(token, 'professional');
    expect(url).toContain(sessionId);
    const [created] = await fakeStripe().requests({ path: '/v1/checkout/sessions', method: 'POST' }).then((rs) =>
      rs.filter((r) => r.params.client_reference_id === userId),
    );
    expect(created!.params).toMatchObject({
      mode: 'subscription',
      client_reference_id: userId,
      line_items: [{ price: stripePrices().professional, quantity: '1' }],
      subscription_data: { trial_period_days: '5', metadata: { userId } },
    });
    expect(String(created!.params.success_url)).toMatch(/\/subscription\/success\?session_id=\{CHECKOUT_SESSION_ID\}$/);

    const paid = await fakeStripe().payCheckout(sessionId);
    const customer = String(paid.session.customer);
    const deliveries = await fakeStripe().deliveries({ customer, settled: true });
    expect(deliveries.map((d) => [d.type, d.state])).toEqual(
      expect.arrayContaining([
        ['customer.subscription.created', 'delivered'],
        ['checkout.session.completed', 'delivered'],
        ['invoice.paid', 'delivered'],
      ]),
    );
    for (const d of deliveries) expect((await eventClaim(d.eventId))?.state).toBe('done');

    const subscription = await currentSubscription(token);
    expect(subscription).toMatchObject({ plan: 'professional', status: 'trialing', cancelAtPeriodEnd: false });
    expect(Date.parse(subscription!.trialEnd!) - Date.parse(subscription!.currentPeriodStart!)).toBe(5 * 86_400_000);
    expect(await subscriptionItem(userId)).toMatchObject({
      stripeCustomerId: customer,
      stripeSubscriptionId: paid.subscription!.id,
      gsi1pk: `STRIPE_CUSTOMER#${customer}`,
      status: 'trialing',
      trialUsed: true,
    });
    expect((await get<User>('/api/me', token)).body.data?.hasActiveSubscription).toBe(true);

    const verified = await get('/api/subscription/verify-session/' + sessionId, token);
    expect(verified.status).toBe(200);
    expect(verified.body as unknown as VerifySessionResponse).toEqual({
      success: true,
      message: 'Payment verified successfully',
      session: { id: sessionId, payment_status: 'no_payment_required' },
      subscription: { plan: 'professional', currentPeriodEnd: subscription!.currentPeriodEnd },
    });
  });

  it('refuses a second checkout while the subscription is active', async () => {
    const { token } = await subscribedUser('starter');
    const res = await post('/api/subscription/checkout', { plan: 'enterprise' }, token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ success: false, message: 'You already have an active subscription. Change your plan instead.' });
  });

  it('validates the plan and hides other users\' sessions', async () => {
    const { session } = await registerUser();
    const bad = await post('/api/subscription/checkout', { plan: 'gold' }, session.token);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Plan must be one of starter, professional, enterprise');
    expect((await post('/api/subscription/checkout', {}, session.token)).body.message).toBe('Plan is required');

    const other = await subscribedUser();
    const foreign = await get(`/api/subscription/verify-session/${other.sessionId}`, session.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Checkout session not found');
    expect((await get('/api/subscription/verify-session/cs_test_doesnotexist', session.token)).status).toBe(404);
    expect((await get('/api/subscription/verify-session/not-a-session', session.token)).status).toBe(400);
  });

  it('syncs the subscription on the success page when the webhook has not arrived yet', async () => {
    const user = await registerUser();
    const token = user.session.token;
    const { sessionId } = await startCheckout(token, 'starter');
    const paid = await fakeStripe().payCheckout(sessionId);
    // Simulate a webhook that is late: forget what the deliveries wrote.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: `USER#${user.session.user._id}`, sk: 'SUBSCRIPTION' } }));
    expect(await currentSubscription(token)).toBeNull();

    const verified = await api('GET', `/api/subscription/verify-session/${sessionId}`, { token });
    expect(verified.body).toMatchObject({ success: true, subscription: { plan: 'starter' } });
    expect(await subscriptionItem(user.session.user._id)).toMatchObject({
      status: 'trialing',
      stripeSubscriptionId: paid.subscription!.id,
    });
  });
});
