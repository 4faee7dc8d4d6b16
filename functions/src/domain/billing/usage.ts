/**
 * Plan limits where the action happens (issue: "the server ALSO enforces the limit"). A route
 * that creates a contact, sends a message or records voice minutes calls `reserve` in the same
 * request, BEFORE writing anything: one conditional UpdateItem adds the amount only if the
 * result stays within the plan's limit, so concurrent requests can never overshoot it. If the
 * route's own write then fails, it calls `release` (and `release` on delete, for contacts).
 */
import { isActiveStatus, type PlanId, type UsageAction } from '../../contract/billing.js';
import { LimitExceededError, PaymentRequiredError } from '../errors.js';
import { billingServerMessages } from './messages.js';
import { planById } from './plans.js';
import type { StoredSubscription, SubscriptionRepository, UsageRepository } from './ports.js';
import { ACTION_METRIC, isUnlimited, limitMessage } from './rules.js';

export interface UsageDeps {
  subscriptions: SubscriptionRepository;
  usage: UsageRepository;
}

/** The subscription that grants access, or a 402. */
export async function requireActiveSubscription(
  subscriptions: SubscriptionRepository,
  userId: string,
): Promise<StoredSubscription & { plan: PlanId }> {
  const stored = await subscriptions.get(userId);
  if (!stored?.plan || !isActiveStatus(stored.status)) throw new PaymentRequiredError(billingServerMessages.subscriptionRequired);
  return stored as StoredSubscription & { plan: PlanId };
}

/** Per-period counters (messages, minutes) live under the period's start; contacts are not periodic. */
export const periodOf = (stored: StoredSubscription): string | null => stored.currentPeriodStart ?? null;

export function createUsageService(deps: UsageDeps) {
  return {
    /**
     * Reserves `amount` of an action for the user: 402 without an active subscription, 403 with
     * a clear text when over the plan's limit (nothing written then). Returns the new count.
     */
    async reserve(userId: string, action: UsageAction, amount = 1): Promise<number> {
      const stored = await requireActiveSubscription(deps.subscriptions, userId);
      const limit = planById(stored.plan).limits[ACTION_METRIC[action].limit];
      if (!isUnlimited(limit) && amount > limit) throw new LimitExceededError(limitMessage(action, limit));
      const value = await deps.usage.add(userId, action, periodOf(stored), amount, isUnlimited(limit) ? -1 : limit);
      if (value === null) throw new LimitExceededError(limitMessage(action, limit));
      return value;
    },

    /** Gives back a reservation (a failed write after reserve, or a deleted contact). */
    async release(userId: string, action: UsageAction, amount = 1): Promise<void> {
      const stored = await deps.subscriptions.get(userId);
      await deps.usage.subtract(userId, action, stored ? periodOf(stored) : null, amount);
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
