/**
 * Plan limits and access: a failed payment closes the premium server calls (402), usage is
 * reserved against the plan's limit in one conditional write (the contact-create primitive,
 * exercised here through DynamoDB Local), and check-limit/analytics answer through the API.
 */
import { describe, expect, it } from 'vitest';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../../src/contract/auth.js';
import type { LimitCheck, Subscription, SubscriptionAnalytics } from '../../src/contract/billing.js';
import { DynamoSubscriptionRepository, DynamoUsageRepository } from '../../src/adapters/dynamo/subscriptions.js';
import { createUsageService } from '../../src/domain/billing/usage.js';
import { LimitExceededError, PaymentRequiredError } from '../../src/domain/errors.js';
import { db, get, getItem, post, registerUser, tableName } from '../support/api.js';
import { currentSubscription, subscribedUser } from '../support/billing.js';
import { fakeStripe } from '../support/fake-stripe-client.js';

const usage = () =>
  createUsageService({
    subscriptions: new DynamoSubscriptionRepository(db(), tableName()),
    usage: new DynamoUsageRepository(db(), tableName()),
  });

const setContacts = (userId: string, count: number) =>
  db().send(new PutCommand({ TableName: tableName(), Item: { pk: `USER#${userId}`, sk: 'USAGE#CONTACTS', entity: 'usage', count } }));

describe('payment failure', () => {
  it('payment_failed → past_due: onboarding/subscription only, premium calls refuse with 402, renewal restores access', async () => {
    const { token, userId, subscriptionId } = await subscribedUser('starter');
    expect((await post('/api/subscription/check-limit', { action: 'contacts' }, token)).status).toBe(200);

    await fakeStripe().payFailed(subscriptionId);

    expect((await currentSubscription(token))?.status).toBe('past_due');
    expect((await get<User>('/api/me', token)).body.data?.hasActiveSubscription).toBe(false);
    const check = await post('/api/subscription/check-limit', { action: 'contacts' }, token);
    expect(check.status).toBe(402);
    expect(check.body).toEqual({ success: false, message: 'An active subscription is required' });
    await expect(usage().reserve(userId, 'contacts')).rejects.toThrow(PaymentRequiredError);
    // The subscription screen still works: state, plans, analytics, portal.
    expect((await get('/api/subscription/analytics', token)).status).toBe(200);
    expect((await post('/api/subscription/portal', undefined, token)).status).toBe(200);
    // A new checkout is no way around the unpaid invoice.
    expect((await post('/api/subscription/checkout', { plan: 'starter' }, token)).status).toBe(409);

    await fakeStripe().renew(subscriptionId);
    expect((await currentSubscription(token))?.status).toBe('active');
    expect((await get<User>('/api/me', token)).body.data?.hasActiveSubscription).toBe(true);
  });
});

describe('usage limits', () => {
  it('refuses a contact beyond the plan limit with a clear 403 text and writes nothing', async () => {
    const { userId } = await subscribedUser('starter');
    await setContacts(userId, 499);

    expect(await usage().reserve(userId, 'contacts')).toBe(500);
    const refused = usage().reserve(userId, 'contacts');
    await expect(refused).rejects.toThrow(LimitExceededError);
    await expect(usage().reserve(userId, 'contacts')).rejects.toThrow(
      'Contact limit reached: your plan allows 500 contacts. Upgrade your plan to add more.',
    );
    expect((await getItem(`USER#${userId}`, 'USAGE#CONTACTS'))?.count).toBe(500);

    await usage().release(userId, 'contacts');
    expect((await getItem(`USER#${userId}`, 'USAGE#CONTACTS'))?.count).toBe(499);
  });

  it('never overshoots the limit under concurrent reservations', async () => {
    const { userId } = await subscribedUser('starter');
    await setContacts(userId, 490);
    const results = await Promise.allSettled(Array.from({ length: 25 }, () => usage().reserve(userId, 'contacts')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect((await getItem(`USER#${userId}`, 'USAGE#CONTACTS'))?.count).toBe(500);
  });

  it('counts messages in the current billing period and reports analytics and check-limit through the API', async () => {
    const { token, userId } = await subscribedUser('starter');
    await setContacts(userId, 500);
    await usage().reserve(userId, 'messages', 250);
    await usage().reserve(userId, 'minutes', 100);
    await expect(usage().reserve(userId, 'minutes', 1)).rejects.toThrow(/Monthly voice minute limit reached/);

    const current = (await currentSubscription(token)) as Subscription;
    const analytics = await get<SubscriptionAnalytics>('/api/subscription/analytics', token);
    expect(analytics.status).toBe(200);
    expect(analytics.body.data).toEqual({
      usage: { contacts: 500, messagesSent: 250, minutes: 100 },
      limits: { contacts: 500, messagesPerMonth: 1000, minutesPerMonth: 100, seats: 2 },
      currentPeriod: { start: current.currentPeriodStart, end: current.currentPeriodEnd },
      plan: 'starter',
      utilization: { contacts: 100, messagesSent: 25, minutes: 100 },
    });
    expect(await getItem(`USER#${userId}`, `USAGE#${current.currentPeriodStart}`)).toMatchObject({ messagesSent: 250, minutes: 100 });

    const full = await post<LimitCheck>('/api/subscription/check-limit', { action: 'contacts' }, token);
    expect(full.status).toBe(200);
    expect(full.body).toEqual({
      success: true,
      message: 'Contact limit reached: your plan allows 500 contacts. Upgrade your plan to add more.',
      data: { allowed: false, action: 'contacts', current: 500, limit: 500, remaining: 0 },
    });
    const fits = await post<LimitCheck>('/api/subscription/check-limit', { action: 'messages', amount: 750 }, token);
    expect(fits.body.data).toEqual({ allowed: true, action: 'messages', current: 250, limit: 1000, remaining: 750 });
    expect((await post<LimitCheck>('/api/subscription/check-limit', { action: 'messages', amount: 751 }, token)).body.data?.allowed).toBe(false);
    const bad = await post('/api/subscription/check-limit', { action: 'contacts', amount: 0 }, token);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Amount must be a whole number of at least 1');
  });

  it('answers without a subscription: current null, analytics 404, check-limit 402', async () => {
    const { session } = await registerUser();
    const current = await get('/api/subscription/current', session.token);
    expect(current.body).toEqual({ success: true, message: 'No subscription found', data: null });
    const analytics = await get('/api/subscription/analytics', session.token);
    expect(analytics.status).toBe(404);
    expect(analytics.body.message).toBe('No subscription found');
    expect((await post('/api/subscription/check-limit', { action: 'messages' }, session.token)).status).toBe(402);
    await expect(usage().reserve(session.user._id, 'contacts')).rejects.toThrow('An active subscription is required');
  });
});
