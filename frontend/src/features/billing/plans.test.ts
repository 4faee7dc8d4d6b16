import { describe, expect, it } from 'vitest';
import type { Plan, Subscription } from '@agentdesk/functions/contract';
import { currentPlanOf, needsBillingFix, planAction, planChange, planPermissions, sortPlans, subscriptionView } from './plans';

const sub = (over: Partial<Subscription> = {}): Subscription => ({
  plan: 'professional',
  status: 'active',
  currentPeriodStart: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  trialEnd: null,
  ...over,
});
const plan = (id: Plan['id'], disabled = false) => ({ id, disabled });

describe('planPermissions', () => {
  it('allows nothing without a subscription', () => {
    expect(planPermissions(null)).toEqual({ canUpgrade: false, canDowngrade: false });
  });
  it('upgrades unless on the top plan, downgrades only above starter', () => {
    expect(planPermissions('starter')).toEqual({ canUpgrade: true, canDowngrade: false });
    expect(planPermissions('professional')).toEqual({ canUpgrade: true, canDowngrade: true });
    expect(planPermissions('enterprise')).toEqual({ canUpgrade: false, canDowngrade: true });
  });
});

describe('planAction', () => {
  it('offers Get Started through checkout without a plan', () => {
    expect(planAction(null, plan('starter'))).toEqual({ kind: 'get-started', enabled: true, via: 'checkout' });
    expect(planAction(null, plan('enterprise', true))).toEqual({ kind: 'get-started', enabled: false, via: 'checkout' });
  });
  it('never lets the current plan be chosen', () => {
    expect(planAction('professional', plan('professional'))).toEqual({ kind: 'current', enabled: false, via: null });
  });
  it('upgrades and downgrades by rank with a direct change', () => {
    expect(planAction('starter', plan('professional'))).toEqual({ kind: 'upgrade', enabled: true, via: 'change' });
    expect(planAction('enterprise', plan('starter'))).toEqual({ kind: 'downgrade', enabled: true, via: 'change' });
  });
  it('blocks a change when the permission is missing or the plan is disabled', () => {
    expect(planAction('starter', plan('enterprise'), { canUpgrade: false, canDowngrade: false })).toMatchObject({ kind: 'upgrade', enabled: false });
    expect(planAction('enterprise', plan('starter'), { canUpgrade: true, canDowngrade: false })).toMatchObject({ kind: 'downgrade', enabled: false });
    expect(planAction('starter', plan('enterprise', true))).toMatchObject({ kind: 'upgrade', enabled: false });
  });
});

describe('currentPlanOf / subscriptionView', () => {
  it('ignores a canceled subscription', () => {
    expect(currentPlanOf(sub({ status: 'canceled' }))).toBeNull();
    expect(currentPlanOf(sub({ status: 'past_due', plan: 'starter' }))).toBe('starter');
    expect(currentPlanOf(null)).toBeNull();
  });
  it('shows the dashboard only for active or trialing subscriptions', () => {
    expect(subscriptionView(sub(), true)).toBe('dashboard');
    expect(subscriptionView(sub({ status: 'trialing' }), true)).toBe('dashboard');
    expect(subscriptionView(sub({ status: 'past_due' }), false)).toBe('plans');
    expect(subscriptionView(null, false)).toBe('plans');
    expect(subscriptionView(null, true)).toBe('none');
  });
  it('flags failed payments', () => {
    expect(needsBillingFix(sub({ status: 'past_due' }))).toBe(true);
    expect(needsBillingFix(sub({ status: 'unpaid' }))).toBe(true);
    expect(needsBillingFix(sub())).toBe(false);
  });
});

describe('sortPlans', () => {
  it('orders starter, professional, enterprise', () => {
    const p = (id: Plan['id']) => ({ id }) as Plan;
    expect(sortPlans([p('enterprise'), p('starter'), p('professional')]).map((x) => x.id)).toEqual(['starter', 'professional', 'enterprise']);
  });
});

describe('planChange (what the confirmation shows)', () => {
  const full = (id: Plan['id'], limits: Plan['limits'], features: string[]): Plan => ({
    id,
    name: id,
    description: '',
    price: 0,
    currency: 'usd',
    interval: 'month',
    features,
    disabled: false,
    limits,
  });
  const starter = full('starter', { contacts: 500, messagesPerMonth: 1000, minutesPerMonth: 100, seats: 2 }, ['WhatsApp', 'E-mail support']);
  const pro = full('professional', { contacts: 5000, messagesPerMonth: 1000, minutesPerMonth: -1, seats: 5 }, ['WhatsApp', 'Voice', 'Priority support']);

  it('lists what an upgrade gains: the limits raised and the features added, nothing lost', () => {
    expect(planChange(starter, pro)).toEqual({
      direction: 'upgrade',
      limits: [
        { metric: 'contacts', from: 500, to: 5000 },
        { metric: 'minutesPerMonth', from: 100, to: -1 },
        // Issue 32: the team members the plan seats.
        { metric: 'seats', from: 2, to: 5 },
      ],
      // 'E-mail support' is not on the professional plan: an upgrade does not list it as a loss.
      features: ['Voice', 'Priority support'],
    });
  });

  it('lists what a downgrade loses: the limits lowered and the features removed, nothing gained', () => {
    expect(planChange(pro, starter)).toEqual({
      direction: 'downgrade',
      limits: [
        { metric: 'contacts', from: 5000, to: 500 },
        { metric: 'minutesPerMonth', from: -1, to: 100 },
        { metric: 'seats', from: 5, to: 2 },
      ],
      features: ['Voice', 'Priority support'],
    });
  });

  it('leaves out a limit that moves against the change', () => {
    const odd = full('enterprise', { contacts: 100, messagesPerMonth: -1, minutesPerMonth: 100, seats: 5 }, ['WhatsApp', 'Voice', 'Priority support']);
    expect(planChange(pro, odd).limits).toEqual([{ metric: 'messagesPerMonth', from: 1000, to: -1 }]);
    expect(planChange(odd, pro).limits).toEqual([{ metric: 'messagesPerMonth', from: -1, to: 1000 }]);
  });
});
