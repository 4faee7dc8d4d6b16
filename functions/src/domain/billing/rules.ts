/**
 * Pure billing rules (SPEC §4, §9): plan changes, Stripe status mapping, which subscription
 * state wins when webhook events arrive twice or out of order, and usage arithmetic.
 */
import {
  PLAN_RANK,
  UNLIMITED,
  isActiveStatus,
  type PlanId,
  type PlanLimits,
  type SubscriptionStatus,
  type UsageAction,
} from '../../contract/billing.js';
import type { StoredSubscription, SubscriptionState } from './ports.js';

// ---- plan changes ----

export type PlanChange = 'upgrade' | 'downgrade' | 'current';

/** Upgrade goes up the order starter < professional < enterprise, downgrade down; the same plan is 'current'. */
export function planChange(current: PlanId, target: PlanId): PlanChange {
  const diff = PLAN_RANK[target] - PLAN_RANK[current];
  return diff > 0 ? 'upgrade' : diff < 0 ? 'downgrade' : 'current';
}

/** SPEC §4: upgrade is possible unless on the top plan or without a subscription. */
export const canUpgrade = (current: PlanId | null | undefined): boolean =>
  !!current && PLAN_RANK[current] < PLAN_RANK.enterprise;

/** SPEC §4: downgrade only above starter. */
export const canDowngrade = (current: PlanId | null | undefined): boolean =>
  !!current && PLAN_RANK[current] > PLAN_RANK.starter;

// ---- Stripe statuses ----

/**
 * Stripe has more subscription statuses than the product (SPEC §3). The mapping keeps every
 * status that does not grant access outside 'active'/'trialing':
 * incomplete (first payment not done) → unpaid, incomplete_expired → canceled,
 * paused (trial ended without a payment method) → past_due; unknown future values → unpaid.
 */
export function mapStripeStatus(stripeStatus: string): SubscriptionStatus {
  switch (stripeStatus) {
    case 'active':
    case 'trialing':
    case 'past_due':
    case 'unpaid':
    case 'canceled':
      return stripeStatus;
    case 'incomplete':
      return 'unpaid';
    case 'incomplete_expired':
      return 'canceled';
    case 'paused':
      return 'past_due';
    default:
      return 'unpaid';
  }
}

// ---- event ordering ----

export type ApplyDecision = { apply: true } | { apply: false; reason: string };

/**
 * Whether a subscription state carried by an event created at `created` (epoch seconds) may
 * replace what is stored. Events can be redelivered and arrive out of order (ARCHITECTURE §9):
 * - an event older than the stored state never overwrites it (a state just read from the provider
 *   is never older, whatever the clocks say);
 * - customer.subscription.deleted of the stored subscription always wins (a deletion is final),
 *   and once a subscription has ended no later update of it revives it;
 * - a state of another subscription (an old one, or a new one after a cancellation) replaces the
 *   stored one only if it grants access or the stored one does not, and a deletion of another
 *   subscription is ignored.
 */
export function decideApply(
  stored: StoredSubscription | null,
  incoming: {
    state: Pick<SubscriptionState, 'subscriptionId' | 'status'>;
    created: number;
    deleted: boolean;
    /** Just read from the provider (a call's answer, a retrieve): newer than any stored event. */
    fresh?: boolean;
  },
): ApplyDecision {
  if (!stored?.stripeSubscriptionId) return { apply: true };
  const same = stored.stripeSubscriptionId === incoming.state.subscriptionId;
  const older = !incoming.fresh && stored.lastEventCreated !== undefined && incoming.created < stored.lastEventCreated;
  if (same) {
    if (incoming.deleted) return stored.ended ? { apply: false, reason: 'already deleted' } : { apply: true };
    if (stored.ended) return { apply: false, reason: 'subscription already ended' };
    return older ? { apply: false, reason: 'older than the stored state' } : { apply: true };
  }
  if (incoming.deleted) return { apply: false, reason: 'deletion of another subscription' };
  if (older) return { apply: false, reason: 'older than the stored state' };
  if (isActiveStatus(incoming.state.status) || !isActiveStatus(stored.status)) return { apply: true };
  return { apply: false, reason: 'another subscription is active' };
}

// ---- usage ----

/** The counter a usage action moves, and the limit that bounds it. */
export const ACTION_METRIC = {
  contacts: { usage: 'contacts', limit: 'contacts' },
  messages: { usage: 'messagesSent', limit: 'messagesPerMonth' },
  minutes: { usage: 'minutes', limit: 'minutesPerMonth' },
} as const satisfies Record<UsageAction, { usage: string; limit: keyof PlanLimits }>;

export const isUnlimited = (limit: number): boolean => limit === UNLIMITED || limit < 0;

/** Percentage of the limit used, one decimal; null when unlimited; a zero limit is 100% (or 0 when unused). */
export function utilization(used: number, limit: number): number | null {
  if (isUnlimited(limit)) return null;
  if (limit === 0) return used > 0 ? 100 : 0;
  return Math.round((used / limit) * 1000) / 10;
}

/** What is left under the limit (never negative); null when unlimited. */
export function remaining(used: number, limit: number): number | null {
  if (isUnlimited(limit)) return null;
  return Math.max(0, limit - used);
}

/** Whether `amount` more fits under the limit. */
export function fits(used: number, limit: number, amount: number): boolean {
  return isUnlimited(limit) || used + amount <= limit;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The user-facing text when an action would go over the plan's limit. */
export function limitMessage(action: UsageAction, limit: number): string {
  switch (action) {
    case 'contacts':
      return `Contact limit reached: your plan allows ${fmt(limit)} contacts. Upgrade your plan to add more.`;
    case 'messages':
      return `Monthly message limit reached: your plan allows ${fmt(limit)} messages per month. Upgrade your plan to send more.`;
    case 'minutes':
      return `Monthly voice minute limit reached: your plan allows ${fmt(limit)} minutes per month. Upgrade your plan for more call time.`;
  }
}
