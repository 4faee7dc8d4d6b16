import { describe, expect, it } from 'vitest';
import { createBillingService } from '../../../src/domain/billing/billing-service.js';
import type { BillingEvent } from '../../../src/domain/billing/ports.js';
import { createSubscriptionService } from '../../../src/domain/billing/subscription-service.js';
import { createUsageService } from '../../../src/domain/billing/usage.js';
import { createWebhookService } from '../../../src/domain/billing/webhook-service.js';
import { ConflictError, LimitExceededError, NotFoundError, PaymentRequiredError, ValidationError } from '../../../src/domain/errors.js';
import { FakeClock, FakeGateway, MemoryClaims, MemorySubscriptions, MemoryUsage, silentLog, subState } from './fakes.js';

function setup() {
  const clock = new FakeClock();
  const subscriptions = new MemorySubscriptions();
  const usage = new MemoryUsage();
  const claims = new MemoryClaims();
  const gateway = new FakeGateway();
  const profiles = { get: async (userId: string) => (userId === 'ghost' ? null : { email: `${userId}@example.com`, name: 'Ana' }) };
  const accountCountry = async () => 'US';
  // Issue 32: the people in each account (owner included); 1 unless a test seats a team.
  const team = new Map<string, number>();
  const seats = { used: async (accountId: string) => team.get(accountId) ?? 1 };
  const billing = createBillingService({ subscriptions, gateway, profiles, accountCountry, clock, log: silentLog, appUrl: 'https://app.test/', seats });
  const webhook = createWebhookService({ subscriptions, claims, gateway, clock, log: silentLog });
  const subscription = createSubscriptionService({ subscriptions, usage, accountCountry });
  const usageService = createUsageService({ subscriptions, usage });
  return { clock, subscriptions, usage, claims, gateway, billing, webhook, subscription, usageService, team };
}

const subEvent = (id: string, created: number, state = subState(), type = 'customer.subscription.updated'): BillingEvent => ({
  kind: 'subscription',
  id,
  type,
  created,
  state,
  deleted: type === 'customer.subscription.deleted',
});

describe('webhook processing', () => {
  it('processes an event id once however often it is delivered', async () => {
    const { webhook, subscriptions, claims } = setup();
    const event = subEvent('evt_1', 100);
    expect(await webhook.handle(event)).toBe('processed');
    const first = await subscriptions.get('user-1');
    expect(await webhook.handle(event)).toBe('duplicate');
    expect(await webhook.handle(event)).toBe('duplicate');
    expect((await subscriptions.get('user-1'))!.version).toBe(first!.version);
    expect(claims.claims.get('evt_1')).toBe('done');
  });

  it('releases the claim when processing fails, so a redelivery is processed', async () => {
    const { webhook, subscriptions, claims } = setup();
    const save = subscriptions.saveState.bind(subscriptions);
    subscriptions.saveState = async () => {
      throw new Error('table down');
    };
    await expect(webhook.handle(subEvent('evt_1', 100))).rejects.toThrow('table down');
    expect(claims.claims.has('evt_1')).toBe(false);
    subscriptions.saveState = save;
    expect(await webhook.handle(subEvent('evt_1', 100))).toBe('processed');
    expect((await subscriptions.get('user-1'))?.status).toBe('trialing');
  });

  it('does not let an older subscription.updated overwrite a newer state', async () => {
    const { webhook, subscriptions } = setup();
    await webhook.handle(subEvent('evt_new', 200, subState({ plan: 'professional', status: 'active', providerStatus: 'active' })));
    await webhook.handle(subEvent('evt_old', 150, subState({ plan: 'starter', status: 'trialing' })));
    expect(await subscriptions.get('user-1')).toMatchObject({ plan: 'professional', status: 'active', lastEventCreated: 200 });
  });

  it('lets customer.subscription.deleted win over newer updates and never revives the subscription', async () => {
    const { webhook, subscriptions } = setup();
    await webhook.handle(subEvent('evt_upd', 300, subState({ status: 'active' })));
    await webhook.handle(
      subEvent('evt_del', 250, subState({ status: 'canceled', providerStatus: 'canceled' }), 'customer.subscription.deleted'),
    );
    await webhook.handle(subEvent('evt_late', 400, subState({ status: 'active' })));
    expect(await subscriptions.get('user-1')).toMatchObject({ status: 'canceled', ended: true, lastEventCreated: 300 });
  });

  it('resolves the user by the Stripe customer when the metadata has no user id', async () => {
    const { webhook, subscriptions } = setup();
    await subscriptions.linkCustomer('user-9', 'cus_9');
    await webhook.handle(subEvent('evt_1', 100, subState({ customerId: 'cus_9', userId: null })));
    expect((await subscriptions.get('user-9'))?.status).toBe('trialing');
  });

  const invoice = (id: string, created: number, paid: boolean, subscriptionId = 'sub_1'): BillingEvent => ({
    kind: 'invoice',
    id,
    type: paid ? 'invoice.paid' : 'invoice.payment_failed',
    created,
    paid,
    customerId: 'cus_1',
    subscriptionId,
  });

  it('moves an active subscription to past_due on invoice.payment_failed and applies Stripe\'s state on invoice.paid', async () => {
    const { webhook, subscriptions, gateway } = setup();
    await webhook.handle(subEvent('evt_1', 100, subState({ status: 'active' })));
    await webhook.handle(invoice('in_fail', 200, false));
    expect((await subscriptions.get('user-1'))?.status).toBe('past_due');
    await webhook.handle(invoice('in_old_fail', 150, false));
    expect((await subscriptions.get('user-1'))?.lastEventCreated).toBe(200);

    // A paid renewal: the subscription as Stripe has it now (active, the new period).
    gateway.subscriptions.set('sub_1', subState({ status: 'active', currentPeriodStart: '2026-04-01T00:00:00.000Z', currentPeriodEnd: '2026-05-01T00:00:00.000Z' }));
    expect(await webhook.handle(invoice('in_paid', 300, true))).toBe('processed');
    expect(await subscriptions.get('user-1')).toMatchObject({
      status: 'active',
      currentPeriodStart: '2026-04-01T00:00:00.000Z',
      currentPeriodEnd: '2026-05-01T00:00:00.000Z',
    });
    expect(gateway.callsOf('retrieveSubscription')).toEqual([{ method: 'retrieveSubscription', args: ['sub_1'] }]);
  });

  it('ignores (without failing) an event about a subscription Stripe does not know, and marks it done', async () => {
    const { webhook, subscriptions, claims } = setup();
    await webhook.handle(subEvent('evt_1', 100, subState({ status: 'active' })));
    const { version: _linkCustomerMayBumpIt, ...before } = (await subscriptions.get('user-1'))!;
    expect(await webhook.handle(invoice('in_paid', 200, true))).toBe('ignored');
    expect(
      await webhook.handle({ kind: 'checkout', id: 'evt_c', type: 'checkout.session.completed', created: 200, userId: 'user-1', customerId: 'cus_1', subscriptionId: 'sub_gone' }),
    ).toBe('ignored');
    expect(await subscriptions.get('user-1')).toMatchObject(before);
    expect(claims.claims.get('in_paid')).toBe('done');
    expect(await webhook.handle(invoice('in_paid', 200, true))).toBe('duplicate');
  });

  it('reads the subscription from Stripe on checkout.session.completed when no subscription event came yet', async () => {
    const { webhook, subscriptions, gateway } = setup();
    gateway.subscriptions.set('sub_1', subState());
    await webhook.handle({ kind: 'checkout', id: 'evt_c', type: 'checkout.session.completed', created: 100, userId: 'user-1', customerId: 'cus_1', subscriptionId: 'sub_1' });
    expect(await subscriptions.get('user-1')).toMatchObject({ status: 'trialing', stripeSubscriptionId: 'sub_1' });
    expect(gateway.callsOf('retrieveSubscription')).toHaveLength(1);
  });
});

describe('checkout and plan management', () => {
  it('creates the customer once, offers the 5-day trial only on the first subscription', async () => {
    const { billing, gateway, webhook } = setup();
    const first = await billing.checkout('user-1', 'starter');
    expect(first.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const [call] = gateway.callsOf('createCheckoutSession');
    expect(call!.args[0]).toMatchObject({
      customerId: 'cus_1',
      trialDays: 5,
      successUrl: 'https://app.test/subscription/success?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://app.test/subscription',
    });
    await billing.checkout('user-1', 'professional');
    expect(gateway.callsOf('createCustomer')).toHaveLength(1);
    // The subscription starts, then ends: a new checkout gets no second trial.
    await webhook.handle(subEvent('evt_1', 100, subState({ customerId: 'cus_1' })));
    await expect(billing.checkout('user-1', 'starter')).rejects.toThrow(ConflictError);
    await webhook.handle(subEvent('evt_2', 200, subState({ customerId: 'cus_1', status: 'canceled' }), 'customer.subscription.deleted'));
    await billing.checkout('user-1', 'starter');
    expect(gateway.callsOf('createCheckoutSession').at(-1)!.args[0]).toMatchObject({ trialDays: null, customerId: 'cus_1' });
  });

  it('refuses a checkout while a payment problem is open', async () => {
    const { billing, webhook } = setup();
    await webhook.handle(subEvent('evt_1', 100, subState({ status: 'past_due', providerStatus: 'past_due' })));
    await expect(billing.checkout('user-1', 'starter')).rejects.toThrow(/billing portal/);
  });

  it('changes plans up and down but never to the current one, and only with a subscription', async () => {
    const { billing, webhook, gateway } = setup();
    await expect(billing.changePlan('user-1', 'professional')).rejects.toThrow(NotFoundError);
    gateway.subscriptions.set('sub_1', subState({ status: 'active' }));
    await webhook.handle(subEvent('evt_1', 100, subState({ status: 'active' })));
    await expect(billing.changePlan('user-1', 'starter')).rejects.toThrow(ValidationError);
    expect((await billing.changePlan('user-1', 'enterprise')).plan).toBe('enterprise');
    expect((await billing.changePlan('user-1', 'starter')).plan).toBe('starter');
    expect(gateway.callsOf('changePlan').map((c) => c.args[1])).toEqual(['enterprise', 'starter']);
  });

  it('refuses a plan with fewer seats than the team (owner included), naming how many to remove; nothing changes at Stripe', async () => {
    const { billing, webhook, gateway, team, subscriptions } = setup();
    gateway.subscriptions.set('sub_1', subState({ status: 'active', plan: 'professional' }));
    await webhook.handle(subEvent('evt_1', 100, subState({ status: 'active', plan: 'professional' })));
    // The owner and three receptionists: Starter seats 2.
    team.set('user-1', 4);

    const error = await billing.changePlan('user-1', 'starter').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toBe('This plan has 2 seats and your team has 4 people, you included. Remove 2 from your team before changing to it.');
    expect(gateway.callsOf('changePlan')).toHaveLength(0);
    expect((await subscriptions.get('user-1'))?.plan).toBe('professional');
    // Exactly the plan's seats fit; an upgrade always does.
    team.set('user-1', 2);
    expect((await billing.changePlan('user-1', 'starter')).plan).toBe('starter');
    team.set('user-1', 5);
    expect((await billing.changePlan('user-1', 'professional')).plan).toBe('professional');
  });

  it('refuses a new subscription too small for the team that stayed after a cancellation', async () => {
    const { billing, team, gateway } = setup();
    team.set('user-1', 3);
    await expect(billing.checkout('user-1', 'starter')).rejects.toThrow('Remove 1 from your team');
    expect(gateway.callsOf('createCheckoutSession')).toHaveLength(0);
    expect((await billing.checkout('user-1', 'professional')).url).toMatch(/^https:/);
  });

  it('cancels at the period end (still active) or immediately (canceled, then no more changes)', async () => {
    const { billing, webhook, gateway } = setup();
    gateway.subscriptions.set('sub_1', subState({ status: 'active' }));
    await webhook.handle(subEvent('evt_1', 100, subState({ status: 'active' })));
    const later = await billing.cancel('user-1', false);
    expect(later.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    const now = await billing.cancel('user-1', true);
    expect(now.subscription.status).toBe('canceled');
    await expect(billing.changePlan('user-1', 'professional')).rejects.toThrow(ValidationError);
  });

  it('verifies only the caller\'s session and syncs the subscription when the webhook is late', async () => {
    const { billing, gateway, subscriptions } = setup();
    const { sessionId } = await billing.checkout('user-1', 'starter');
    gateway.subscriptions.set('sub_1', subState());
    gateway.sessions.set(sessionId, { id: sessionId, paymentStatus: 'paid', userId: 'user-1', customerId: 'cus_1', subscriptionId: 'sub_1' });
    await expect(billing.verifySession('user-2', sessionId)).rejects.toThrow(NotFoundError);
    const result = await billing.verifySession('user-1', sessionId);
    expect(result).toEqual({
      success: true,
      message: 'Payment verified successfully',
      session: { id: sessionId, payment_status: 'paid' },
      subscription: { plan: 'starter', currentPeriodEnd: '2026-03-06T12:00:00.000Z' },
    });
    expect((await subscriptions.get('user-1'))?.status).toBe('trialing');
  });
});

describe('usage limits', () => {
  it('needs an active subscription (402)', async () => {
    const { usageService, subscription, webhook } = setup();
    await expect(usageService.reserve('user-1', 'contacts')).rejects.toThrow(PaymentRequiredError);
    await webhook.handle(subEvent('evt_1', 100, subState({ status: 'past_due' })));
    await expect(usageService.reserve('user-1', 'contacts')).rejects.toThrow('An active subscription is required');
    await expect(subscription.checkLimit('user-1', 'contacts', 1)).rejects.toThrow(PaymentRequiredError);
  });

  it('reserves up to the plan limit and refuses beyond it without counting', async () => {
    const { usageService, subscription, usage, webhook } = setup();
    await webhook.handle(subEvent('evt_1', 100, subState({ status: 'active' })));
    usage.counters.set('user-1|contacts', 499);
    expect(await usageService.reserve('user-1', 'contacts')).toBe(500);
    await expect(usageService.reserve('user-1', 'contacts')).rejects.toThrow(LimitExceededError);
    await expect(usageService.reserve('user-1', 'contacts')).rejects.toThrow(
      'Contact limit reached: your plan allows 500 contacts. Upgrade your plan to add more.',
    );
    expect(usage.counters.get('user-1|contacts')).toBe(500);
    expect(await subscription.checkLimit('user-1', 'contacts', 1)).toEqual({ allowed: false, action: 'contacts', current: 500, limit: 500, remaining: 0 });
    await usageService.release('user-1', 'contacts');
    expect(await subscription.checkLimit('user-1', 'contacts', 1)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('counts messages per billing period (a new period starts at zero) and never limits enterprise', async () => {
    const { usageService, subscription, webhook } = setup();
    await webhook.handle(subEvent('evt_1', 100, subState({ status: 'active' })));
    await usageService.reserve('user-1', 'messages', 10);
    expect((await subscription.analytics('user-1')).usage.messagesSent).toBe(10);
    await webhook.handle(subEvent('evt_2', 200, subState({ status: 'active', currentPeriodStart: '2026-04-01T12:00:00.000Z' })));
    const analytics = await subscription.analytics('user-1');
    expect(analytics.usage.messagesSent).toBe(0);
    await webhook.handle(subEvent('evt_3', 300, subState({ status: 'active', plan: 'enterprise' })));
    expect(await usageService.reserve('user-1', 'minutes', 1_000_000)).toBe(1_000_000);
    expect((await subscription.analytics('user-1')).utilization).toEqual({ contacts: null, messagesSent: null, minutes: null });
  });

  it('answers 404 for analytics without a subscription', async () => {
    const { subscription } = setup();
    await expect(subscription.analytics('user-1')).rejects.toThrow('No subscription found');
  });
});
