/** The Stripe gateway and the plans' price ids from configuration: only the billing and webhook groups import this. */
import { config } from '../config.js';
import { stripeClient } from '../adapters/stripe/client.js';
import { StripePaymentGateway } from '../adapters/stripe/gateway.js';
import type { PriceIds } from '../domain/billing/plans.js';
import { once } from '../lib/once.js';

export const priceIds = once(
  (): PriceIds => ({
    starter: config().STRIPE_PRICE_STARTER,
    professional: config().STRIPE_PRICE_PROFESSIONAL,
    enterprise: config().STRIPE_PRICE_ENTERPRISE,
  }),
);

export const paymentGateway = once(() => new StripePaymentGateway(stripeClient, priceIds()));
