/**
 * The one place where plans are defined (SPEC §3 Plan, §9). Prices are whole dollars per
 * interval; limits use -1 for unlimited. Each plan's Stripe price id comes from configuration
 * (STRIPE_PRICE_STARTER, ...), wired in composition/stripe.ts: Stripe charges what the price
 * id says, so keep these amounts equal to the Stripe prices.
 */
import { PLAN_IDS, PLAN_RANK, UNLIMITED, type Plan, type PlanId } from '../../contract/billing.js';

export const PLANS: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    description: 'For small businesses getting their first AI agent live.',
    price: 29,
    currency: 'usd',
    interval: 'month',
    features: [
      'Up to 500 contacts',
      '1,000 messages per month',
      '100 voice minutes per month',
      'AI agent for WhatsApp and voice calls',
      'Call summaries by e-mail or WhatsApp',
      'E-mail support',
    ],
    disabled: false,
    limits: { contacts: 500, messagesPerMonth: 1_000, minutesPerMonth: 100 },
  },
  {
    id: 'professional',
    name: 'Professional',
    description: 'For growing teams that talk to customers every day.',
    price: 79,
    currency: 'usd',
    interval: 'month',
    features: [
      'Up to 5,000 contacts',
      '10,000 messages per month',
      '500 voice minutes per month',
      'Multiple agents with custom tools',
      'Call transcripts and action points',
      'Priority support',
    ],
    disabled: false,
    limits: { contacts: 5_000, messagesPerMonth: 10_000, minutesPerMonth: 500 },
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    description: 'For businesses that need no limits and dedicated help.',
    price: 199,
    currency: 'usd',
    interval: 'month',
    features: [
      'Unlimited contacts',
      'Unlimited messages',
      'Unlimited voice minutes',
      'Dedicated onboarding',
      'Summary webhooks and API access',
      'Dedicated account manager',
    ],
    disabled: false,
    limits: { contacts: UNLIMITED, messagesPerMonth: UNLIMITED, minutesPerMonth: UNLIMITED },
  },
];

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
