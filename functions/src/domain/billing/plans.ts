/**
 * The one place where plans are defined (SPEC §3 Plan, §9). Limits use -1 for unlimited. Each
 * plan's Stripe price id comes from configuration (STRIPE_PRICE_STARTER, ...), wired in
 * composition/stripe.ts: one multi-currency Stripe price per plan (USD, with an EUR currency
 * option). Stripe charges what the price says, and the gateway checks it against PLAN_PRICES
 * before every checkout or plan change, so keep the Stripe prices equal to this table.
 *
 * `features` are what a plan offers besides its limits (the screens show the limits from
 * `limits`, with numbers in the reader's locale; the seats too, issue 32's "2 team members").
 * Every feature here is something the server really allows on that plan: paid features (API
 * keys, webhooks, agents, transcripts) need an active subscription of any plan, so every plan
 * lists them; plans differ in limits and support.
 */
import { API_KEY_LIMITS } from '../../contract/api-keys.js';
import { PLAN_IDS, PLAN_RANK, UNLIMITED, type Plan, type PlanId } from '../../contract/billing.js';
import { SEATS_BY_PLAN } from '../../contract/team-roles.js';
import { DEFAULT_CURRENCY, type BillingCurrency } from './currency.js';

/** Price per plan and currency, in whole units per interval: the one table of amounts. */
export const PLAN_PRICES: Record<PlanId, Record<BillingCurrency, number>> = {
  starter: { usd: 29, eur: 29 },
  professional: { usd: 79, eur: 79 },
  enterprise: { usd: 199, eur: 199 },
};

/** What every plan includes (all of it is open to any active subscription). */
const EVERY_PLAN = [
  'AI agents for WhatsApp and voice calls',
  'Call summaries by e-mail, WhatsApp or webhook',
  'Call transcripts and action points',
  `API access with up to ${API_KEY_LIMITS.perUser} API keys`,
];

export const PLANS: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    description: 'For small businesses getting their first AI agent live.',
    price: PLAN_PRICES.starter[DEFAULT_CURRENCY],
    currency: DEFAULT_CURRENCY,
    interval: 'month',
    features: [...EVERY_PLAN, 'E-mail support'],
    disabled: false,
    limits: { contacts: 500, messagesPerMonth: 1_000, minutesPerMonth: 100, seats: SEATS_BY_PLAN.starter },
  },
  {
    id: 'professional',
    name: 'Professional',
    description: 'For growing teams that talk to customers every day.',
    price: PLAN_PRICES.professional[DEFAULT_CURRENCY],
    currency: DEFAULT_CURRENCY,
    interval: 'month',
    features: [...EVERY_PLAN, 'Priority support'],
    disabled: false,
    limits: { contacts: 5_000, messagesPerMonth: 10_000, minutesPerMonth: 500, seats: SEATS_BY_PLAN.professional },
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    description: 'For businesses that need no limits and dedicated help.',
    price: PLAN_PRICES.enterprise[DEFAULT_CURRENCY],
    currency: DEFAULT_CURRENCY,
    interval: 'month',
    features: [...EVERY_PLAN, 'Priority support', 'Dedicated onboarding', 'Dedicated account manager'],
    disabled: false,
    limits: { contacts: UNLIMITED, messagesPerMonth: UNLIMITED, minutesPerMonth: UNLIMITED, seats: SEATS_BY_PLAN.enterprise },
  },
];

/** The plans as an account paying in `currency` sees them (fresh copies). */
export function plansIn(currency: BillingCurrency): Plan[] {
  return PLANS.map((p) => ({ ...p, price: PLAN_PRICES[p.id][currency], currency, features: [...p.features], limits: { ...p.limits } }));
}

/** A plan's amount in the currency's smallest unit (cents): what Stripe must charge. */
export const planAmountMinor = (plan: PlanId, currency: BillingCurrency): number => Math.round(PLAN_PRICES[plan][currency] * 100);

export function planById(id: PlanId): Plan {
  const plan = PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

export const isPlanId = (value: unknown): value is PlanId =>
  typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);

/** Stripe price id per plan, from configuration. */
export type PriceIds = Record<PlanId, string>;

/** The plan a Stripe price id belongs to, or null for a price this app does not sell. */
export function planOfPrice(prices: PriceIds, priceId: string | null | undefined): PlanId | null {
  if (!priceId) return null;
  return PLAN_IDS.find((id) => prices[id] === priceId) ?? null;
}

export { PLAN_RANK };
