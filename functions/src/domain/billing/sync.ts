/**
 * Applies a provider subscription state to the user's item under the ordering rules of
 * rules.ts, with an optimistic-locking write (the item's version): two deliveries racing for
 * the same user cannot both win with stale reads.
 */
import { decideApply } from './rules.js';
import {
  StaleWriteError,
  type BillingLogger,
  type StoredSubscription,
  type SubscriptionRepository,
  type SubscriptionState,
} from './ports.js';

const MAX_ATTEMPTS = 5;

export async function applyState(
  deps: { subscriptions: SubscriptionRepository; log: BillingLogger },
  userId: string,
  input: { state: SubscriptionState; created: number; deleted: boolean; now: Date; fresh?: boolean },
): Promise<StoredSubscription | null> {
  const { subscriptions, log } = deps;
  const { state, created, deleted, fresh } = input;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const stored = await subscriptions.get(userId);
    const decision = decideApply(stored, { state, created, deleted, fresh });
    if (!decision.apply) {
      log.info('Subscription state not applied', { subscriptionId: state.subscriptionId, reason: decision.reason });
      return stored;
    }
    const sameSubscription = stored?.stripeSubscriptionId === state.subscriptionId;
    const plan = state.plan ?? (sameSubscription ? stored?.plan : undefined);
    if (!plan) {
      log.warn('Subscription price is not one of the configured plans; state not applied', {
        subscriptionId: state.subscriptionId,
      });
      return stored;
    }
    try {
      await subscriptions.saveState(
        userId,
        {
          state: { ...state, plan },
          // Never move the ordering mark backwards (a late deletion may be older than the mark).
          created: Math.max(created, stored?.lastEventCreated ?? 0),
          ended: deleted || (sameSubscription && !!stored?.ended),
          updatedAt: input.now.toISOString(),
        },
        stored ? stored.version : null,
      );
      return await subscriptions.get(userId);
    } catch (error) {
      if (error instanceof StaleWriteError) continue;
      throw error;
    }
  }
  throw new Error('Subscription item kept changing while applying a state');
}
