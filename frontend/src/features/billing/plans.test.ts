import { describe, expect, it } from 'vitest';
import type { Plan, Subscription } from '@agentdesk/functions/contract';
import { currentPlanOf, needsBillingFix, planAction, planPermissions, sortPlans, subscriptionView } from './plans';

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
