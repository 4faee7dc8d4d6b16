/**
 * Plan-change rules (SPEC §4): active means active or trialing; starter < professional <
 * enterprise; upgrade is possible unless on the top plan or without a subscription; downgrade
 * only above starter; the current plan is never selectable; without a subscription a plan is
 * bought through checkout, with one it is changed directly.
 */
import { isActiveStatus, PLAN_IDS, PLAN_RANK, type Plan, type PlanId, type PlanLimits, type Subscription } from '@agentdesk/functions/contract';

const TOP_RANK = Math.max(...PLAN_IDS.map((id) => PLAN_RANK[id]));
const BOTTOM_RANK = Math.min(...PLAN_IDS.map((id) => PLAN_RANK[id]));

export interface PlanPermissions {
  canUpgrade: boolean;
  canDowngrade: boolean;
}

/** A subscription that still holds a plan (anything but canceled) counts as existing. */
export function hasExistingSubscription(sub: Subscription | null | undefined): sub is Subscription {
  return Boolean(sub) && sub!.status !== 'canceled';
}

/** The plan the user holds, or null without an existing subscription. */
export function currentPlanOf(sub: Subscription | null | undefined): PlanId | null {
  return hasExistingSubscription(sub) ? sub.plan : null;
}

export function planPermissions(current: PlanId | null): PlanPermissions {
  if (!current) return { canUpgrade: false, canDowngrade: false };
  return { canUpgrade: PLAN_RANK[current] < TOP_RANK, canDowngrade: PLAN_RANK[current] > BOTTOM_RANK };
}

export type PlanActionKind = 'get-started' | 'current' | 'upgrade' | 'downgrade';

export interface PlanAction {
  kind: PlanActionKind;
  /** Whether the button can be pressed. */
  enabled: boolean;
  /** How choosing it is carried out: a checkout (no subscription) or a direct plan change. */
  via: 'checkout' | 'change' | null;
}

/** The button a plan card shows for the user's current plan (SPEC §2 Subscription, §4). */
export function planAction(current: PlanId | null, target: Pick<Plan, 'id' | 'disabled'>, permissions = planPermissions(current)): PlanAction {
  if (!current) return { kind: 'get-started', enabled: !target.disabled, via: 'checkout' };
  if (target.id === current) return { kind: 'current', enabled: false, via: null };
  if (PLAN_RANK[target.id] > PLAN_RANK[current]) {
    return { kind: 'upgrade', enabled: permissions.canUpgrade && !target.disabled, via: 'change' };
  }
  return { kind: 'downgrade', enabled: permissions.canDowngrade && !target.disabled, via: 'change' };
}

/** Plans in their fixed order (starter, professional, enterprise), whatever order the server sent. */
export function sortPlans(plans: readonly Plan[]): Plan[] {
  return [...plans].sort((a, b) => (PLAN_RANK[a.id] ?? 99) - (PLAN_RANK[b.id] ?? 99));
}

export const POPULAR_PLAN: PlanId = 'professional';

/**
 * Which view /subscription shows: the subscription dashboard for an active (or trialing)
 * subscription; 'No Subscription Found' when the account says it is subscribed but no
 * subscription comes back; otherwise plan selection.
 */
export function subscriptionView(sub: Subscription | null | undefined, userHasActiveSubscription: boolean): 'dashboard' | 'none' | 'plans' {
  if (sub && isActiveStatus(sub.status)) return 'dashboard';
  if (!sub && userHasActiveSubscription) return 'none';
  return 'plans';
}

/** Whether the last payment failed and the card needs fixing in the billing portal. */
export function needsBillingFix(sub: Subscription | null | undefined): boolean {
  return sub?.status === 'past_due' || sub?.status === 'unpaid';
}

/**
 * What a plan change changes, shown before it is confirmed (issue 29): an upgrade lists what
 * you gain (limits raised, features added), a downgrade what you lose (limits lowered, features
 * removed) — never a mix, so an upgrade does not read as a loss.
 */
export interface PlanChange {
  direction: 'upgrade' | 'downgrade';
  limits: { metric: keyof PlanLimits; from: number; to: number }[];
  /** Gained on an upgrade, lost on a downgrade. */
  features: string[];
}

/** The plan lines and the plan-change lists, in this order (issue 32: the seats, owner included). */
export const LIMIT_METRICS: readonly (keyof PlanLimits)[] = ['contacts', 'messagesPerMonth', 'minutesPerMonth', 'seats'];

/** Whether limit `a` allows more than `b` (-1 is unlimited). */
const allowsMore = (a: number, b: number) => a !== b && (a < 0 || (b >= 0 && a > b));

export function planChange(from: Plan, to: Plan): PlanChange {
  const upgrade = PLAN_RANK[to.id] > PLAN_RANK[from.id];
  const [better, worse] = upgrade ? [to, from] : [from, to];
  return {
    direction: upgrade ? 'upgrade' : 'downgrade',
    limits: LIMIT_METRICS.filter((m) => allowsMore(better.limits[m], worse.limits[m])).map((metric) => ({
      metric,
      from: from.limits[metric],
      to: to.limits[metric],
    })),
    features: better.features.filter((f) => !worse.features.includes(f)),
  };
}
