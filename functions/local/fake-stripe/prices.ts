/**
 * The prices the fake Stripe knows: one recurring price per plan, with ids the local stack
 * hands to the handlers as STRIPE_PRICE_STARTER / _PROFESSIONAL / _ENTERPRISE.
 */
import { PLAN_IDS, type Plan, type PlanId } from '../../src/contract/billing.js';
import { PLANS } from '../../src/domain/billing/plans.js';

export interface LocalPrice {
  id: string;
  product: string;
  planId: PlanId;
  /** Plan name shown on the checkout and portal pages. */
  name: string;
  /** Smallest currency unit (cents). */
  unitAmount: number;
  currency: string;
  interval: 'month' | 'year';
}

export const localPriceId = (plan: PlanId) => `price_local_${plan}`;

type PlanPricing = Pick<Plan, 'id' | 'name' | 'price' | 'currency' | 'interval'>;

/** Prices from the app's plan definitions, so the checkout page shows what the app charges. */
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
      interval: plan.interval,
    };
  });
}

/** {starter, professional, enterprise} → price id: what tests get as inject('stripePrices'). */
export function priceIdsByPlan(prices: readonly LocalPrice[]): Record<PlanId, string> {
  return Object.fromEntries(prices.map((p) => [p.planId, p.id])) as Record<PlanId, string>;
}
