/** The subscription group (DynamoDB only): current subscription, plans, analytics, limit checks. */
import type { LimitCheck, Plan, Subscription, SubscriptionAnalytics, UsageAction } from '../../contract/billing.js';
import { NotFoundError } from '../errors.js';
import { billingServerMessages } from './messages.js';
import { accountCurrency } from './currency.js';
import { planById, plansIn } from './plans.js';
import type { SubscriptionRepository, UsageRepository } from './ports.js';
import { ACTION_METRIC, fits, remaining, utilization } from './rules.js';
import { periodOf, requireActiveSubscription } from './usage.js';
import { toSubscription } from './view.js';

export interface SubscriptionDeps {
  subscriptions: SubscriptionRepository;
  usage: UsageRepository;
  /** The account's country (ISO alpha-2): it chooses the currency of the prices shown. */
  accountCountry: (userId: string) => Promise<string>;
}

export function createSubscriptionService(deps: SubscriptionDeps) {
  return {
    /** The plans priced in the account's currency: its live subscription's, else its country's. */
    async plans(userId: string): Promise<Plan[]> {
      const [stored, country] = await Promise.all([deps.subscriptions.get(userId), deps.accountCountry(userId)]);
      const held = stored && !stored.ended && stored.status !== 'canceled' ? stored.currency : undefined;
      return plansIn(accountCurrency(country, held));
    },

    async current(userId: string): Promise<Subscription | null> {
      return toSubscription(await deps.subscriptions.get(userId));
    },

    /** Usage of the current period against the plan's limits; 404 for a user who never subscribed. */
    async analytics(userId: string): Promise<SubscriptionAnalytics> {
      const stored = await deps.subscriptions.get(userId);
      const subscription = toSubscription(stored);
      if (!stored || !subscription) throw new NotFoundError(billingServerMessages.noSubscription);
      const { limits } = planById(subscription.plan);
      const usage = await deps.usage.read(userId, periodOf(stored));
      return {
        usage,
        limits: { ...limits },
        currentPeriod: { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd },
        plan: subscription.plan,
        utilization: {
          contacts: utilization(usage.contacts, limits.contacts),
          messagesSent: utilization(usage.messagesSent, limits.messagesPerMonth),
          minutes: utilization(usage.minutes, limits.minutesPerMonth),
        },
      };
    },

    /** Whether `amount` more of an action fits the plan (402 without an active subscription). Writes nothing. */
    async checkLimit(userId: string, action: UsageAction, amount: number): Promise<LimitCheck> {
      const stored = await requireActiveSubscription(deps.subscriptions, userId);
      const metric = ACTION_METRIC[action];
      const limit = planById(stored.plan).limits[metric.limit];
      const usage = await deps.usage.read(userId, periodOf(stored));
      const current = usage[metric.usage];
      return { allowed: fits(current, limit, amount), action, current, limit, remaining: remaining(current, limit) };
    },
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
