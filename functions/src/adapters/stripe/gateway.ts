/**
 * PaymentGateway over the official Stripe SDK. Translates Stripe objects to domain states
 * (current API version: periods live on the subscription items, see ARCHITECTURE §9) and
 * Stripe errors to domain errors with user-facing texts (no Stripe internals in responses).
 */
import Stripe from 'stripe';
import type { PlanId } from '../../contract/billing.js';
import { billingServerMessages as msg } from '../../domain/billing/messages.js';
import { planOfPrice, type PriceIds } from '../../domain/billing/plans.js';
import type { CheckoutSessionInfo, CheckoutSessionRequest, PaymentGateway, SubscriptionState } from '../../domain/billing/ports.js';
import { mapStripeStatus } from '../../domain/billing/rules.js';
import { BadGatewayError, NotFoundError, PaymentRequiredError } from '../../domain/errors.js';
import { logger } from '../logger.js';

const iso = (epochSeconds: number | null | undefined): string | null =>
  typeof epochSeconds === 'number' ? new Date(epochSeconds * 1000).toISOString() : null;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** A Stripe subscription in our terms. */
export function toSubscriptionState(sub: Stripe.Subscription, prices: PriceIds): SubscriptionState {
  const item = sub.items?.data?.[0];
  return {
    subscriptionId: sub.id,
    customerId: idOf(sub.customer) ?? '',
    plan: planOfPrice(prices, item?.price?.id),
    status: mapStripeStatus(sub.status),
    providerStatus: sub.status,
    currentPeriodStart: iso(item?.current_period_start),
    currentPeriodEnd: iso(item?.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
    trialEnd: iso(sub.trial_end),
    userId: sub.metadata?.userId || null,
  };
}

/** Stripe error → domain error: card problems are the customer's (402), the rest is a 502 with a plain text. */
export function toDomainError(error: unknown, notFound?: string): Error {
  if (!(error instanceof Stripe.errors.StripeError)) return error as Error;
  logger.warn('Stripe request failed', { type: error.type, code: error.code, statusCode: error.statusCode, requestId: error.requestId });
  if (error instanceof Stripe.errors.StripeCardError) return new PaymentRequiredError(error.message || msg.providerRejected);
  if (notFound && (error.statusCode === 404 || error.code === 'resource_missing')) return new NotFoundError(notFound);
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    return new BadGatewayError(msg.providerUnavailable);
  }
  return new BadGatewayError(msg.providerRejected);
}

export class StripePaymentGateway implements PaymentGateway {
  constructor(
    private readonly stripe: () => Stripe,
    private readonly prices: PriceIds,
  ) {}

  private async call<T>(work: (stripe: Stripe) => Promise<T>, notFound?: string): Promise<T> {
    try {
      return await work(this.stripe());
    } catch (error) {
      throw toDomainError(error, notFound);
    }
  }

  private price(plan: PlanId): string {
    const price = this.prices[plan];
    if (!price) {
      logger.error('No Stripe price id configured for a plan', { plan });
      throw new BadGatewayError(msg.providerRejected);
    }
    return price;
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
    const price = this.price(input.plan);
    return this.call(async (s) => {
      const session = await s.checkout.sessions.create({
        mode: 'subscription',
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

  retrieveSubscription(subscriptionId: string): Promise<SubscriptionState> {
    return this.call(async (s) => toSubscriptionState(await s.subscriptions.retrieve(subscriptionId), this.prices));
  }

  changePlan(subscriptionId: string, plan: PlanId): Promise<SubscriptionState> {
    const price = this.price(plan);
    return this.call(async (s) => {
      const current = await s.subscriptions.retrieve(subscriptionId);
      const item = current.items.data[0];
      if (!item) throw new BadGatewayError(msg.providerRejected);
      const updated = await s.subscriptions.update(subscriptionId, {
        items: [{ id: item.id, price }],
        proration_behavior: 'create_prorations',
      });
      return toSubscriptionState(updated, this.prices);
    });
  }

  cancelNow(subscriptionId: string): Promise<SubscriptionState> {
    return this.call(async (s) => toSubscriptionState(await s.subscriptions.cancel(subscriptionId), this.prices));
  }

  cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionState> {
    return this.call(async (s) =>
      toSubscriptionState(await s.subscriptions.update(subscriptionId, { cancel_at_period_end: true }), this.prices),
    );
  }

  createPortalSession(customerId: string, returnUrl: string): Promise<string> {
    return this.call(async (s) => (await s.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl })).url);
  }
}
