/** POST /api/webhooks/stripe: signature, idempotency, ordering (events signed with the SDK's test-header helper). */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { api, provided } from '../support/api.js';
import {
  checkoutCompletedEvent,
  currentSubscription,
  eventClaim,
  invoiceEvent,
  postWebhook,
  subscribedUser,
  subscriptionEvent,
  subscriptionItem,
  type ApiShape,
} from '../support/billing.js';
import { fakeStripe, stripeClient } from '../support/fake-stripe-client.js';

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();

describe('Stripe signature', () => {
  it('refuses a forged, stale or missing signature with 400 and changes nothing', async () => {
    const { userId, subscriptionId } = await subscribedUser('starter');
    const before = await subscriptionItem(userId);
    const event = await subscriptionEvent(subscriptionId, 'customer.subscription.updated', { createdOffset: 60, plan: 'enterprise', status: 'active' });

    const forged = await postWebhook(event, { secret: 'whsec_forged_by_someone_else' });
    const stale = await postWebhook(event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    const missing = await postWebhook(event, { signature: null });
    const garbage = await postWebhook(event, { signature: 't=1,v1=deadbeef' });
    for (const res of [forged, stale, missing, garbage]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, message: 'Invalid Stripe signature' });
    }
    expect(await eventClaim(event.id)).toBeUndefined();
    expect(await subscriptionItem(userId)).toEqual(before);

    // The same event correctly signed (within the 300 s tolerance) is applied.
    const ok = await postWebhook(event, { timestamp: Math.floor(Date.now() / 1000) - 200 });
    expect(ok.status).toBe(200);
    expect(await subscriptionItem(userId)).toMatchObject({ plan: 'enterprise', status: 'active' });
  });

  it('says what is wrong with a correctly signed body that is not JSON, or not an event (it said "Invalid Stripe signature")', async () => {
    const signed = (body: string) => ({
      'content-type': 'application/json',
      'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: provided('stripeWebhookSecret') }),
    });

    const notJson = await api('POST', '/api/webhooks/stripe', { rawBody: '{"id":"evt_x","type":', headers: signed('{"id":"evt_x","type":') });
    const notEvent = await api('POST', '/api/webhooks/stripe', { rawBody: 'null', headers: signed('null') });

    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({ success: false, message: 'Stripe webhook body is not valid JSON' });
    expect(notEvent.status).toBe(400);
    expect(notEvent.body).toEqual({ success: false, message: 'Stripe webhook body is not a Stripe event (an object with an id and a type)' });
  });

  it('answers 200 to event types it does not handle, without claiming them', async () => {
    const res = await postWebhook({ id: 'evt_test_unhandled_1', object: 'event', type: 'charge.succeeded', created: 1, data: { object: { id: 'ch_1' } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Event type ignored' });
    expect(await eventClaim('evt_test_unhandled_1')).toBeUndefined();
  });
});

describe('idempotency and ordering', () => {
  it('processes the same event delivered 3 times once', async () => {
    const { userId, subscriptionId, token } = await subscribedUser('starter');
    const event = await subscriptionEvent(subscriptionId, 'customer.subscription.updated', { createdOffset: 10, cancelAtPeriodEnd: true });
    const versionBefore = Number((await subscriptionItem(userId))!.version);

    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await postWebhook(event));
    expect(answers.map((a) => [a.status, a.body.message])).toEqual([
      [200, 'Event processed'],
      [200, 'Event already processed'],
      [200, 'Event already processed'],
    ]);
    expect(await eventClaim(event.id)).toMatchObject({ state: 'done', type: 'customer.subscription.updated' });
    expect(Number((await subscriptionItem(userId))!.version)).toBe(versionBefore + 1);
    expect((await currentSubscription(token))?.cancelAtPeriodEnd).toBe(true);
  });

  it('does not let an older subscription.updated overwrite a newer state', async () => {
    const { userId, subscriptionId, token } = await subscribedUser('starter');
    const newer = await subscriptionEvent(subscriptionId, 'customer.subscription.updated', { createdOffset: 20, plan: 'professional', status: 'active' });
    const older = await subscriptionEvent(subscriptionId, 'customer.subscription.updated', { createdOffset: 10, plan: 'enterprise', status: 'past_due' });

    expect((await postWebhook(newer)).status).toBe(200);
    expect((await postWebhook(older)).status).toBe(200);

    expect(await currentSubscription(token)).toMatchObject({ plan: 'professional', status: 'active' });
    expect((await subscriptionItem(userId))!.lastEventCreated).toBe(newer.created);
    // The older event was processed (claimed), just not applied.
    expect((await eventClaim(older.id))?.state).toBe('done');
  });

  it('lets customer.subscription.deleted win over newer updates; nothing revives the subscription', async () => {
    const { subscriptionId, token } = await subscribedUser('starter');
    const update = await subscriptionEvent(subscriptionId, 'customer.subscription.updated', { createdOffset: 30, status: 'active' });
    const deleted = await subscriptionEvent(subscriptionId, 'customer.subscription.deleted', { createdOffset: 20, status: 'canceled' });
    const late = await subscriptionEvent(subscriptionId, 'customer.subscription.updated', { createdOffset: 40, status: 'active' });

    await postWebhook(update);
    await postWebhook(deleted);
    expect((await currentSubscription(token))?.status).toBe('canceled');
    await postWebhook(late);
    expect((await currentSubscription(token))?.status).toBe('canceled');
  });
});

describe('events of every Stripe API version (a webhook endpoint may be pinned to an old one)', () => {
  it.each<ApiShape>(['legacy', 'current'])('invoice.payment_failed in the %s shape moves an active subscription to past_due', async (shape) => {
    const subscriber = await subscribedUser('starter');
    expect((await subscriptionItem(subscriber.userId))?.status).toBe('trialing');
    const event = await invoiceEvent('invoice.payment_failed', subscriber, { createdOffset: 10, shape });

    const res = await postWebhook(event);

    expect([res.status, res.body.message]).toEqual([200, 'Event processed']);
    expect(await subscriptionItem(subscriber.userId)).toMatchObject({ status: 'past_due', lastEventCreated: event.created });
    expect((await currentSubscription(subscriber.token))?.status).toBe('past_due');
  });

  it('invoice.paid in the legacy shape applies the subscription as Stripe has it, its period read from the subscription when the items carry none', async () => {
    const subscriber = await subscribedUser('starter');
    // Our copy drifted: past_due with an older period (as if a renewal's events were lost).
    const drifted = await subscriptionEvent(subscriber.subscriptionId, 'customer.subscription.updated', {
      createdOffset: 10,
      status: 'past_due',
      period: { start: 1_700_000_000, end: 1_702_592_000 },
    });
    expect((await postWebhook(drifted)).status).toBe(200);
    expect(await subscriptionItem(subscriber.userId)).toMatchObject({ status: 'past_due', currentPeriodStart: iso(1_700_000_000) });
    // Stripe answers in the legacy shape: the period on the subscription only.
    await fakeStripe().legacyShape(subscriber.subscriptionId);
    const served = (await stripeClient().subscriptions.retrieve(subscriber.subscriptionId)) as unknown as {
      status: string;
      current_period_start: number;
      current_period_end: number;
      items: { data: { current_period_start?: number }[] };
    };
    expect(served.items.data[0]!.current_period_start).toBeUndefined();
    const paid = await invoiceEvent('invoice.paid', subscriber, { createdOffset: 20, shape: 'legacy' });

    const res = await postWebhook(paid);

    expect([res.status, res.body.message]).toEqual([200, 'Event processed']);
    expect(await subscriptionItem(subscriber.userId)).toMatchObject({
      status: served.status,
      currentPeriodStart: iso(served.current_period_start),
      currentPeriodEnd: iso(served.current_period_end),
    });
    expect(served.status).toBe('trialing');
  });

  it('customer.subscription.updated in the legacy shape takes the period from the subscription', async () => {
    const subscriber = await subscribedUser('starter');
    const event = await subscriptionEvent(subscriber.subscriptionId, 'customer.subscription.updated', {
      createdOffset: 10,
      status: 'active',
      period: { start: 1_800_000_000, end: 1_802_592_000 },
      shape: 'legacy',
    });
    expect(JSON.stringify(event.data.object.items)).not.toContain('current_period');

    expect((await postWebhook(event)).status).toBe(200);

    expect(await currentSubscription(subscriber.token)).toMatchObject({
      status: 'active',
      currentPeriodStart: iso(1_800_000_000),
      currentPeriodEnd: iso(1_802_592_000),
    });
  });

  it('answers 200 "ignored" to events about a subscription Stripe does not know (404), and changes nothing', async () => {
    const subscriber = await subscribedUser('starter');
    const { version: _linkCustomerCountsAVersion, ...before } = (await subscriptionItem(subscriber.userId))!;
    const unknown = `sub_unknown_${Date.now().toString(36)}`;
    const checkout = checkoutCompletedEvent({ ...subscriber, subscriptionId: unknown });

    const res = await postWebhook(checkout);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Event ignored: the subscription does not exist at Stripe' });
    expect(await subscriptionItem(subscriber.userId)).toMatchObject(before);
    expect(await eventClaim(checkout.id)).toMatchObject({ state: 'done' });
    expect(await fakeStripe().requests({ path: `/v1/subscriptions/${unknown}` })).toMatchObject([{ method: 'GET', status: 404 }]);

    // The same for a paid invoice of a stored subscription Stripe no longer knows.
    const foreign = await subscriptionEvent(subscriber.subscriptionId, 'customer.subscription.updated', { createdOffset: 10, status: 'active' });
    foreign.data.object.id = unknown;
    expect((await postWebhook(foreign)).status).toBe(200);
    const stored = await subscriptionItem(subscriber.userId);
    expect(stored).toMatchObject({ stripeSubscriptionId: unknown, status: 'active' });
    const invoice = await postWebhook(await invoiceEvent('invoice.paid', { ...subscriber, subscriptionId: unknown }, { createdOffset: 20, shape: 'current' }));
    expect([invoice.status, invoice.body.message]).toEqual([200, 'Event ignored: the subscription does not exist at Stripe']);
    expect(await subscriptionItem(subscriber.userId)).toEqual(stored);
  });
});
