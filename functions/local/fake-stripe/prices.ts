/**
 * The prices the fake Stripe knows: one recurring multi-currency price per plan (USD by
 * default, with a currency option per other currency of the plan table, as the README has you
 * create them at Stripe), with ids the local stack hands to the handlers as
 * STRIPE_PRICE_STARTER / _PROFESSIONAL / _ENTERPRISE.
 */
import { PLAN_IDS, type Plan, type PlanId } from '../../src/contract/billing.js';
import { BILLING_CURRENCIES } from '../../src/domain/billing/currency.js';
import { PLAN_PRICES, PLANS } from '../../src/domain/billing/plans.js';

export interface LocalPrice {
  id: string;
  product: string;
  planId: PlanId;
  /** Plan name shown on the checkout and portal pages. */
  name: string;
  /** Smallest currency unit (cents), in the default `currency`. */
  unitAmount: number;
  /** The price's default currency. */
  currency: string;
  /**
   * Stripe's `currency_options`: currency → amount in its smallest unit, the default currency
   * included (absent in states saved before multi-currency prices: only the default then).
   */
  currencyOptions?: Record<string, number>;
  interval: 'month' | 'year';
}

/** The currencies a price charges in, with their amounts. */
export const currencyOptionsOf = (price: LocalPrice): Record<string, number> =>
  price.currencyOptions ?? { [price.currency]: price.unitAmount };

/** The price's amount in `currency` (smallest unit), or null when it has no such currency option. */
export const unitAmountIn = (price: LocalPrice, currency: string): number | null => currencyOptionsOf(price)[currency] ?? null;

export const localPriceId = (plan: PlanId) => `price_local_${plan}`;

type PlanPricing = Pick<Plan, 'id' | 'name' | 'price' | 'currency' | 'interval'>;

/** The plan table's amounts of a plan, in cents, per currency. */
const tableOptions = (planId: PlanId): Record<string, number> =>
  Object.fromEntries(BILLING_CURRENCIES.map((c) => [c, Math.round(PLAN_PRICES[planId][c] * 100)]));

/** Prices from the app's plan definitions (and its table of amounts per currency), so the checkout page shows what the app charges. */
export function localPrices(plans: readonly PlanPricing[] = PLANS): LocalPrice[] {
  return PLAN_IDS.map((planId) => {
    const plan = plans.find((p) => p.id === planId);
    if (!plan) throw new Error(`fake Stripe: no plan definition for '${planId}'`);
    return {
      id: localPriceId(planId),
      product: `prod_local_${planId}`,
      planId,
      name: plan.name,
      unitAmount: Math.round(plan.price * 100),
      currency: plan.currency.toLowerCase(),
      currencyOptions: { ...tableOptions(planId), [plan.currency.toLowerCase()]: Math.round(plan.price * 100) },
      interval: plan.interval,
    };
  });
}

/** {starter, professional, enterprise} → price id: what tests get as inject('stripePrices'). */
export function priceIdsByPlan(prices: readonly LocalPrice[]): Record<PlanId, string> {
  return Object.fromEntries(prices.map((p) => [p.planId, p.id])) as Record<PlanId, string>;
}
