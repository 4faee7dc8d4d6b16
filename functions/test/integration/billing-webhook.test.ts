/** POST /api/webhooks/stripe: signature, idempotency, ordering (events signed with the SDK's test-header helper). */
import { describe, expect, it } from 'vitest';
import { currentSubscription, eventClaim, postWebhook, subscribedUser, subscriptionEvent, subscriptionItem } from '../support/billing.js';

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
