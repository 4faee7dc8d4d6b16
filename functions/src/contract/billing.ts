/**
 * Billing contract (SPEC §3 Subscription/Plan/analytics, §4, §7 Subscription, §9). Used by the
 * handlers (validation), the frontend (types) and tests.
 */
import * as z from 'zod/mini';
import './zod-locale.js';

export const PLAN_IDS = ['starter', 'professional', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** Plan order for upgrade/downgrade decisions (SPEC §4): starter < professional < enterprise. */
export const PLAN_RANK: Record<PlanId, number> = { starter: 0, professional: 1, enterprise: 2 };

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Active means active or trialing (SPEC §4). */
export const isActiveStatus = (status: SubscriptionStatus | undefined | null): boolean =>
  status === 'active' || status === 'trialing';

export const TRIAL_DAYS = 5;
/** Usage at or above this percentage shows 'Approaching limit' (SPEC §9). */
export const NEAR_LIMIT_PERCENT = 80;
/** A limit of -1 means unlimited (SPEC §3). */
export const UNLIMITED = -1;

export interface PlanLimits {
  contacts: number;
  messagesPerMonth: number;
  minutesPerMonth: number;
  /** Issue 32: people in the account, the owner included (contract/team.ts SEATS_BY_PLAN). */
  seats: number;
}

export interface Plan {
  id: PlanId;
  name: string;
  description: string;
  /** Whole currency units per interval, e.g. 79 (dollars). */
  price: number;
  /** ISO 4217, lower case as Stripe uses it: 'usd'. */
  currency: string;
  interval: 'month' | 'year';
  features: string[];
  /** A disabled plan cannot be chosen; the UI shows a contact-us note. */
  disabled: boolean;
  limits: PlanLimits;
}

export interface Subscription {
  plan: PlanId;
  status: SubscriptionStatus;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  trialEnd: string | null;
}

/** The usage metrics a plan limits; also the `action` values of POST /check-limit. */
export const USAGE_ACTIONS = ['contacts', 'messages', 'minutes'] as const;
export type UsageAction = (typeof USAGE_ACTIONS)[number];

export interface SubscriptionAnalytics {
  usage: { contacts: number; messagesSent: number; minutes: number };
  limits: PlanLimits;
  currentPeriod: { start: string | null; end: string | null };
  plan: PlanId;
  /** Percentage of each limit used (0..100+, one decimal); null when the limit is unlimited. */
  utilization: { contacts: number | null; messagesSent: number | null; minutes: number | null };
}

export interface LimitCheck {
  allowed: boolean;
  action: UsageAction;
  current: number;
  /** -1 = unlimited. */
  limit: number;
  /** null when unlimited. */
  remaining: number | null;
}

/** GET /verify-session/{id}: top-level fields as SPEC §7 names them. */
export interface VerifySessionResponse {
  success: boolean;
  message: string;
  session: { id: string; payment_status: string };
  subscription: { plan: PlanId; currentPeriodEnd: string | null } | null;
}

export const billingMessages = {
  planRequired: 'Plan is required',
  planInvalid: 'Plan must be one of starter, professional, enterprise',
  actionInvalid: 'Action must be one of contacts, messages, minutes',
  amountInvalid: 'Amount must be a whole number of at least 1',
} as const;

const plan = z.enum(PLAN_IDS, { error: (issue) => (issue.input === undefined ? billingMessages.planRequired : billingMessages.planInvalid) });

export const checkoutRequest = z.object({ plan });
export const changePlanRequest = z.object({ plan });
export const cancelRequest = z.object({ immediately: z._default(z.boolean(), false) });
export const checkLimitRequest = z.object({
  action: z.enum(USAGE_ACTIONS, { error: billingMessages.actionInvalid }),
  amount: z._default(z.int({ error: billingMessages.amountInvalid }).check(z.minimum(1, billingMessages.amountInvalid)), 1),
});

/** POST /checkout: data. The browser goes to `url`; `sessionId` is the Checkout session (cs_...). */
export interface CheckoutResponse {
  url: string;
  sessionId: string;
}

/** POST /portal: data. */
export interface PortalResponse {
  url: string;
}
