import { describe, expect, it } from 'vitest';
import { PLAN_IDS } from '../../../src/contract/billing.js';
import { PLANS, planById, planOfPrice } from '../../../src/domain/billing/plans.js';
import {
  canDowngrade,
  canUpgrade,
  decideApply,
  fits,
  limitMessage,
  mapStripeStatus,
  planChange,
  remaining,
  utilization,
} from '../../../src/domain/billing/rules.js';
import type { StoredSubscription } from '../../../src/domain/billing/ports.js';

describe('plans', () => {
  it('defines starter < professional < enterprise with at least 4 features each and -1 as unlimited', () => {
    expect(PLANS.map((p) => p.id)).toEqual([...PLAN_IDS]);
    for (const plan of PLANS) {
      expect(plan.features.length).toBeGreaterThanOrEqual(4);
      expect(plan.price).toBeGreaterThan(0);
      expect(plan.currency).toBe('usd');
    }
    expect(PLANS.map((p) => p.price)).toEqual([29, 79, 199]);
    expect(planById('starter').limits).toEqual({ contacts: 500, messagesPerMonth: 1000, minutesPerMonth: 100, seats: 2 });
    expect(planById('enterprise').limits).toEqual({ contacts: -1, messagesPerMonth: -1, minutesPerMonth: -1, seats: 20 });
  });

  it('maps configured price ids back to plans and unknown prices to null', () => {
    const prices = { starter: 'price_a', professional: 'price_b', enterprise: 'price_c' };
    expect(planOfPrice(prices, 'price_b')).toBe('professional');
    expect(planOfPrice(prices, 'price_other')).toBeNull();
    expect(planOfPrice({ ...prices, starter: '' }, '')).toBeNull();
  });
});

describe('plan changes (SPEC §4)', () => {
  it('orders plans and never treats the current plan as a change', () => {
    expect(planChange('starter', 'professional')).toBe('upgrade');
    expect(planChange('starter', 'enterprise')).toBe('upgrade');
    expect(planChange('enterprise', 'starter')).toBe('downgrade');
    expect(planChange('professional', 'starter')).toBe('downgrade');
    expect(planChange('professional', 'professional')).toBe('current');
  });

  it('allows upgrade below the top plan and downgrade above starter, neither without a plan', () => {
    expect([canUpgrade('starter'), canUpgrade('professional'), canUpgrade('enterprise'), canUpgrade(null)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect([canDowngrade('starter'), canDowngrade('professional'), canDowngrade('enterprise'), canDowngrade(undefined)]).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});

describe('Stripe status mapping', () => {
  it('keeps the product statuses and maps the others to states without access', () => {
    for (const s of ['active', 'trialing', 'past_due', 'unpaid', 'canceled']) expect(mapStripeStatus(s)).toBe(s);
    expect(mapStripeStatus('incomplete')).toBe('unpaid');
    expect(mapStripeStatus('incomplete_expired')).toBe('canceled');
    expect(mapStripeStatus('paused')).toBe('past_due');
    expect(mapStripeStatus('something_new')).toBe('unpaid');
  });
});

describe('event ordering', () => {
  const stored = (o: Partial<StoredSubscription> = {}): StoredSubscription => ({
    userId: 'u',
    plan: 'starter',
    status: 'active',
    stripeSubscriptionId: 'sub_1',
    lastEventCreated: 100,
    version: 3,
    ...o,
  });
  const incoming = (created: number, o: { subscriptionId?: string; status?: 'active' | 'past_due' | 'canceled'; deleted?: boolean } = {}) => ({
    state: { subscriptionId: o.subscriptionId ?? 'sub_1', status: o.status ?? 'active' },
    created,
    deleted: o.deleted ?? false,
  });

  it('applies anything when nothing is stored', () => {
    expect(decideApply(null, incoming(1)).apply).toBe(true);
    expect(decideApply(stored({ stripeSubscriptionId: undefined }), incoming(1)).apply).toBe(true);
  });

  it('never lets an older update overwrite a newer state; same-second and newer apply', () => {
    expect(decideApply(stored(), incoming(99))).toEqual({ apply: false, reason: 'older than the stored state' });
    expect(decideApply(stored(), incoming(100)).apply).toBe(true);
    expect(decideApply(stored(), incoming(101)).apply).toBe(true);
  });

  it('lets a deletion of the stored subscription win even when older, and nothing revives it', () => {
    expect(decideApply(stored(), incoming(50, { deleted: true, status: 'canceled' })).apply).toBe(true);
    const ended = stored({ ended: true, status: 'canceled' });
    expect(decideApply(ended, incoming(500)).apply).toBe(false);
    expect(decideApply(ended, incoming(500, { deleted: true })).apply).toBe(false);
  });

  it('ignores deletions of another subscription and does not let another inactive one replace an active one', () => {
    expect(decideApply(stored(), incoming(500, { subscriptionId: 'sub_old', deleted: true })).apply).toBe(false);
    expect(decideApply(stored(), incoming(500, { subscriptionId: 'sub_old', status: 'past_due' })).apply).toBe(false);
    // A new subscription after the old one was canceled replaces it.
    expect(decideApply(stored({ status: 'canceled', ended: true }), incoming(500, { subscriptionId: 'sub_new' })).apply).toBe(true);
    expect(decideApply(stored({ status: 'canceled' }), incoming(50, { subscriptionId: 'sub_new' })).apply).toBe(false);
  });
});

describe('usage math', () => {
  it('computes utilization with one decimal, null when unlimited', () => {
    expect(utilization(0, 500)).toBe(0);
    expect(utilization(400, 500)).toBe(80);
    expect(utilization(1, 3)).toBe(33.3);
    expect(utilization(600, 500)).toBe(120);
    expect(utilization(10_000, -1)).toBeNull();
    expect(utilization(0, 0)).toBe(0);
  });

  it('computes remaining (never negative, null when unlimited) and whether an amount fits', () => {
    expect(remaining(499, 500)).toBe(1);
    expect(remaining(600, 500)).toBe(0);
    expect(remaining(5, -1)).toBeNull();
    expect(fits(499, 500, 1)).toBe(true);
    expect(fits(500, 500, 1)).toBe(false);
    expect(fits(499, 500, 2)).toBe(false);
    expect(fits(1e9, -1, 1e9)).toBe(true);
  });

  it('explains each limit with the plan number and what to do', () => {
    expect(limitMessage('contacts', 500)).toBe('Contact limit reached: your plan allows 500 contacts. Upgrade your plan to add more.');
    expect(limitMessage('messages', 10000)).toBe(
      'Monthly message limit reached: your plan allows 10,000 messages per month. Upgrade your plan to send more.',
    );
    expect(limitMessage('minutes', 100)).toContain('100 minutes per month');
  });
});

describe('fresh provider reads', () => {
  it('apply even when the stored mark is ahead (provider clock), but never revive an ended subscription', () => {
    const stored: StoredSubscription = { userId: 'u', plan: 'starter', status: 'active', stripeSubscriptionId: 'sub_1', lastEventCreated: 10_000, version: 1 };
    const state = { subscriptionId: 'sub_1', status: 'active' as const };
    expect(decideApply(stored, { state, created: 5_000, deleted: false }).apply).toBe(false);
    expect(decideApply(stored, { state, created: 5_000, deleted: false, fresh: true }).apply).toBe(true);
    expect(decideApply({ ...stored, ended: true }, { state, created: 5_000, deleted: false, fresh: true }).apply).toBe(false);
  });
});
