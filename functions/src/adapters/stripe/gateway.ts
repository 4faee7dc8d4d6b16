/**
 * PaymentGateway over the official Stripe SDK. Translates Stripe objects to domain states
 * (in any API version's shape, see shapes.ts and ARCHITECTURE §9) and
 * Stripe errors to domain errors with user-facing texts (no Stripe internals in responses).
 */
import Stripe from 'stripe';
import type { PlanId } from '../../contract/billing.js';
import { billingServerMessages as msg } from '../../domain/billing/messages.js';
import { accountCurrency, type BillingCurrency } from '../../domain/billing/currency.js';
import { planAmountMinor, type PriceIds } from '../../domain/billing/plans.js';
import type { Language } from '../../domain/i18n/messages.js';
import type { CheckoutSessionInfo, CheckoutSessionRequest, PaymentGateway, SubscriptionState } from '../../domain/billing/ports.js';
import { BadGatewayError, NotFoundError, PaymentRequiredError } from '../../domain/errors.js';
import { logger } from '../logger.js';
import { idOf, toSubscriptionState } from './shapes.js';

const isMissing = (error: unknown): boolean =>
  error instanceof Stripe.errors.StripeError && (error.statusCode === 404 || error.code === 'resource_missing');

/** Stripe error → domain error: card problems are the customer's (402), the rest is a 502 with a plain text. */
export function toDomainError(error: unknown, notFound?: string): Error {
  if (!(error instanceof Stripe.errors.StripeError)) return error as Error;
  logger.warn('Stripe request failed', { type: error.type, code: error.code, statusCode: error.statusCode, requestId: error.requestId });
  if (error instanceof Stripe.errors.StripeCardError) return new PaymentRequiredError(error.message || msg.providerRejected);
  if (notFound && isMissing(error)) return new NotFoundError(notFound);
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    return new BadGatewayError(msg.providerUnavailable);
  }
  return new BadGatewayError(msg.providerRejected);
}

/**
 * A multi-currency price's amount in `currency` (smallest unit): its own amount when that is its
 * default currency, else its `currency_options` entry (present only when expanded); null when
 * the price cannot charge in that currency.
 */
export function amountIn(
  price: { currency: string; unit_amount: number | null; currency_options?: Record<string, { unit_amount: number | null }> | null },
  currency: string,
): number | null {
  const option = price.currency_options?.[currency];
  if (option) return option.unit_amount;
  return price.currency === currency ? price.unit_amount : null;
}

/** Stripe Checkout's locale for each app language (Stripe's documented values: 'es' is Spanish of Spain, 'es-419' Latin America's). */
const CHECKOUT_LOCALE: Record<Language, Stripe.Checkout.SessionCreateParams.Locale> = { en: 'en', es: 'es' };

/** How long a checked price stays trusted: a price's amounts cannot change at Stripe (only new prices), but its currency options can. */
const PRICE_CHECK_TTL_MS = 10 * 60_000;

export class StripePaymentGateway implements PaymentGateway {
  /** `${priceId}:${currency}` → when the price was found to charge the plan's amount in that currency. */
  private readonly checkedPrices = new Map<string, number>();

  /** `connect`: the SDK client and the plans' price ids (read from the Stripe secret at first use). */
  constructor(private readonly connect: () => Promise<{ stripe: Stripe; prices: PriceIds }>) {}

  private async call<T>(work: (stripe: Stripe, prices: PriceIds) => Promise<T>, notFound?: string): Promise<T> {
    try {
      const { stripe, prices } = await this.connect();
      return await work(stripe, prices);
    } catch (error) {
      throw toDomainError(error, notFound);
    }
  }

  private price(prices: PriceIds, plan: PlanId): string {
    const price = prices[plan];
    if (!price) {
      logger.error('No Stripe price id configured for a plan', { plan });
      throw new BadGatewayError(msg.providerRejected);
    }
    return price;
  }

  /**
   * The plan's price id after checking (expand[]=currency_options) that Stripe charges exactly
   * the plan table's amount in `currency`: the customer pays what the app showed, or nothing.
   */
  private async chargeablePrice(s: Stripe, prices: PriceIds, plan: PlanId, currency: BillingCurrency): Promise<string> {
    const priceId = this.price(prices, plan);
    const key = `${priceId}:${currency}`;
    const checkedAt = this.checkedPrices.get(key);
    if (checkedAt !== undefined && Date.now() - checkedAt < PRICE_CHECK_TTL_MS) return priceId;
    const price = await s.prices.retrieve(priceId, { expand: ['currency_options'] });
    const amount = amountIn(price, currency);
    const expected = planAmountMinor(plan, currency);
    if (amount !== expected) {
      logger.error('The Stripe price does not charge the plan table amount in this currency', { plan, priceId, currency, amount, expected });
      throw new BadGatewayError(amount === null ? msg.currencyUnavailable : msg.providerRejected);
    }
    this.checkedPrices.set(key, Date.now());
    return priceId;
  }

  createCustomer(input: { userId: string; email: string; name: string }): Promise<string> {
    return this.call(async (s) => {
      const customer = await s.customers.create(
        { email: input.email, name: input.name, metadata: { userId: input.userId } },
        // A retried request never makes a second customer.
        { idempotencyKey: `customer-${input.userId}` },
      );
      return customer.id;
    });
  }

  createCheckoutSession(input: CheckoutSessionRequest): Promise<{ id: string; url: string }> {
    return this.call(async (s, prices) => {
      const price = await this.chargeablePrice(s, prices, input.plan, input.currency);
      const session = await s.checkout.sessions.create({
        mode: 'subscription',
        // The account's currency, not the one Checkout would guess from the browser's IP address.
        currency: input.currency,
        // The account's language, not the browser's ('auto'): Stripe's 'es' is Spain's Spanish.
        locale: CHECKOUT_LOCALE[input.language],
        customer: input.customerId,
        client_reference_id: input.userId,
        line_items: [{ price, quantity: 1 }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        metadata: { userId: input.userId, plan: input.plan },
        subscription_data: {
          metadata: { userId: input.userId },
          ...(input.trialDays ? { trial_period_days: input.trialDays } : {}),
        },
      });
      if (!session.url) throw new BadGatewayError(msg.providerRejected);
      return { id: session.id, url: session.url };
    });
  }

  retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionInfo> {
    return this.call(async (s) => {
      const session = await s.checkout.sessions.retrieve(sessionId);
      return {
        id: session.id,
        paymentStatus: session.payment_status,
        userId: session.client_reference_id || session.metadata?.userId || null,
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
      };
    }, msg.sessionNotFound);
  }

  retrieveSubscription(subscriptionId: string): Promise<SubscriptionState | null> {
    return this.call(async (s, prices) => {
      try {
        return toSubscriptionState(await s.subscriptions.retrieve(subscriptionId), prices);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    });
  }

  changePlan(subscriptionId: string, plan: PlanId): Promise<SubscriptionState> {
    return this.call(async (s, prices) => {
      const current = await s.subscriptions.retrieve(subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new BadGatewayError(msg.providerRejected);
      // The subscription keeps its currency: the new price is charged in that currency's option.
      const price = await this.chargeablePrice(s, prices, plan, accountCurrency(null, current.currency));
      const updated = await s.subscriptions.update(subscriptionId, {
        items: [{ id: item.id, price }],
        proration_behavior: 'create_prorations',
      });
      return toSubscriptionState(updated, prices);
    });
  }

  cancelNow(subscriptionId: string): Promise<SubscriptionState> {
    return this.call(async (s, prices) => toSubscriptionState(await s.subscriptions.cancel(subscriptionId), prices));
  }

  cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionState> {
    return this.call(async (s, prices) =>
      toSubscriptionState(await s.subscriptions.update(subscriptionId, { cancel_at_period_end: true }), prices),
    );
  }

  createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    return this.call(async (s) => (await s.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl })).url);
  }
}
