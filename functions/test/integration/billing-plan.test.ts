/** Plan changes (SPEC §4), cancellation and the billing portal, against the fake Stripe. */
import { describe, expect, it } from 'vitest';
import type { User } from '../../src/contract/auth.js';
import type { PortalResponse, Subscription } from '../../src/contract/billing.js';
import { api, get, post, registerUser } from '../support/api.js';
import { currentSubscription, startCheckout, subscribedUser, subscriptionItem } from '../support/billing.js';
import { fakeStripe, stripePrices } from '../support/fake-stripe-client.js';

const putPlan = (plan: string, token: string) => api<Subscription>('PUT', '/api/subscription/plan', { body: { plan }, token });

describe('PUT /api/subscription/plan', () => {
  it('upgrades and downgrades between any two plans with prorations, storing the new plan at once', async () => {
    const { token, userId, subscriptionId } = await subscribedUser('starter');

    const up = await putPlan('enterprise', token);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ success: true, message: 'Plan updated successfully', data: { plan: 'enterprise', status: 'trialing' } });
    expect((await subscriptionItem(userId))?.plan).toBe('enterprise');
    const [update] = (await fakeStripe().requests({ path: `/v1/subscriptions/${subscriptionId}`, method: 'POST' })).slice(-1);
    expect(update!.params).toMatchObject({ proration_behavior: 'create_prorations', items: [{ price: stripePrices().enterprise }] });

    const down = await putPlan('professional', token);
    expect(down.body.data?.plan).toBe('professional');
    expect((await putPlan('starter', token)).body.data?.plan).toBe('starter');
    expect((await currentSubscription(token))?.plan).toBe('starter');
  });

  it('never changes to the current plan, and needs an existing subscription', async () => {
    const { token } = await subscribedUser('professional');
    const same = await putPlan('professional', token);
    expect(same.status).toBe(400);
    expect(same.body.message).toBe('You are already on this plan');

    const { session } = await registerUser();
    const none = await putPlan('starter', session.token);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ success: false, message: 'No subscription found' });
    expect((await putPlan('platinum', token)).status).toBe(400);
  });
});

describe('POST /api/subscription/cancel', () => {
  it('cancels at the period end: still active until then', async () => {
    const { token, subscriptionId } = await subscribedUser('starter');
    const res = await post<Subscription>('/api/subscription/cancel', { immediately: false }, token);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Your subscription will be canceled at the end of the current billing period');
    expect(res.body.data).toMatchObject({ status: 'trialing', cancelAtPeriodEnd: true });
    expect((await get<User>('/api/me', token)).body.data?.hasActiveSubscription).toBe(true);
    const [update] = (await fakeStripe().requests({ path: `/v1/subscriptions/${subscriptionId}`, method: 'POST' })).slice(-1);
    expect(update!.params).toMatchObject({ cancel_at_period_end: 'true' });
    // Asking again changes nothing.
    expect((await post('/api/subscription/cancel', {}, token)).body.message).toMatch(/already scheduled/);
  });

  it('cancels immediately: access ends, changes are refused, a new checkout has no second trial', async () => {
    const { token, userId, subscriptionId } = await subscribedUser('starter');
    const res = await post<Subscription>('/api/subscription/cancel', { immediately: true }, token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Subscription canceled', data: { status: 'canceled' } });
    expect(await subscriptionItem(userId)).toMatchObject({ status: 'canceled', ended: true, stripeSubscriptionId: subscriptionId });
    expect((await get<User>('/api/me', token)).body.data?.hasActiveSubscription).toBe(false);
    expect((await putPlan('professional', token)).body.message).toBe('Your subscription has ended. Choose a plan to subscribe again.');

    const { sessionId } = await startCheckout(token, 'professional');
    const [created] = (await fakeStripe().requests({ path: '/v1/checkout/sessions', method: 'POST' })).filter(
      (r) => r.params.client_reference_id === userId,
    ).slice(-1);
    expect(created!.params.subscription_data).not.toHaveProperty('trial_period_days');
    const paid = await fakeStripe().payCheckout(sessionId);
    expect(paid.subscription?.status).toBe('active');
    expect(await currentSubscription(token)).toMatchObject({ plan: 'professional', status: 'active' });
  });
});

describe('POST /api/subscription/portal', () => {
  it('opens the customer portal for a subscriber and answers 404 without a Stripe customer', async () => {
    const { token, customerId } = await subscribedUser('starter');
    const res = await post<PortalResponse>('/api/subscription/portal', undefined, token);
    expect(res.status).toBe(200);
    expect(res.body.data?.url).toMatch(/^http/);
    const [created] = (await fakeStripe().requests({ path: '/v1/billing_portal/sessions', method: 'POST' })).filter(
      (r) => r.params.customer === customerId,
    );
    expect(String(created!.params.return_url)).toMatch(/\/subscription$/);

    const { session } = await registerUser();
    expect((await post('/api/subscription/portal', undefined, session.token)).status).toBe(404);
  });
});
