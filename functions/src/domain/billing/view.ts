/** Stored subscription item → the contract's Subscription (null when the user never subscribed). */
import type { Subscription } from '../../contract/billing.js';
import type { StoredSubscription } from './ports.js';

export function toSubscription(stored: StoredSubscription | null): Subscription | null {
  if (!stored?.plan || !stored.status) return null;
  return {
    plan: stored.plan,
    status: stored.status,
    currentPeriodStart: stored.currentPeriodStart ?? null,
    currentPeriodEnd: stored.currentPeriodEnd ?? null,
    cancelAtPeriodEnd: stored.cancelAtPeriodEnd ?? false,
    trialEnd: stored.trialEnd ?? null,
  };
}
