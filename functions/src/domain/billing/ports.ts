/**
 * Ports of the billing domain: the subscription item, usage counters, webhook event claims
 * (DynamoDB adapters) and the payment provider (the Stripe adapter). Unit tests use fakes.
 */
import type { PlanId, SubscriptionStatus, UsageAction } from '../../contract/billing.js';
import type { Language } from '../i18n/messages.js';
import type { BillingCurrency } from './currency.js';

/** A subscription as the payment provider reports it, already translated to our terms. */
export interface SubscriptionState {
  subscriptionId: string;
  customerId: string;
  /** null when the subscription's price is not one of our plans' prices. */
  plan: PlanId | null;
  status: SubscriptionStatus;
  /** The provider's own status (e.g. 'incomplete'), kept for support. */
  providerStatus: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  trialEnd: string | null;
  /** Our user id from the subscription's metadata, when present. */
  userId: string | null;
  /** ISO 4217, lower case: what the subscription is charged in (fixed for its life at Stripe). */
  currency?: string;
}

/** The subscription item of a user (pk=USER#{sub}, sk=SUBSCRIPTION). */
export interface StoredSubscription {
  userId: string;
  plan?: PlanId;
  status?: SubscriptionStatus;
  currentPeriodStart?: string | null;
  currentPeriodEnd?: string | null;
  cancelAtPeriodEnd?: boolean;
  trialEnd?: string | null;
  stripeCustomerId?: string;
  stripeSubscriptionId?: string;
  stripeStatus?: string;
  /** The subscription's currency ('usd', 'eur'), as the provider last reported it. */
  currency?: string;
  /** created (epoch seconds) of the newest event or provider read applied. */
  lastEventCreated?: number;
  /** The stored subscription was deleted at the provider (final). */
  ended?: boolean;
  /** The customer already had a subscription: no second free trial. */
  trialUsed?: boolean;
  /** Optimistic-locking counter of the item. */
  version: number;
  updatedAt?: string;
}

export class StaleWriteError extends Error {
  constructor() {
    super('The subscription item changed since it was read');
    this.name = 'StaleWriteError';
  }
}

export interface SubscriptionRepository {
  get(userId: string): Promise<StoredSubscription | null>;
  /** The user whose subscription item holds this Stripe customer id. */
  userIdByCustomer(customerId: string): Promise<string | null>;
  /** Records the customer of a user (before any subscription exists); keeps a customer already linked. */
  linkCustomer(userId: string, customerId: string): Promise<void>;
  /**
   * Writes a provider state for the user (and sets `trialUsed`) if the item still has
   * `expectedVersion` (null: no item yet); throws StaleWriteError otherwise. `created` becomes
   * the item's ordering mark (lastEventCreated).
   */
  saveState(
    userId: string,
    input: { state: SubscriptionState & { plan: PlanId }; created: number; ended: boolean; updatedAt: string },
    expectedVersion: number | null,
  ): Promise<void>;
  /** Sets only the status (invoice events), with the same version check. */
  saveStatus(
    userId: string,
    input: { status: SubscriptionStatus; providerStatus: string; created: number; updatedAt: string },
    expectedVersion: number,
  ): Promise<void>;
}

export interface UsageCounters {
  contacts: number;
  messagesSent: number;
  minutes: number;
}

export interface UsageRepository {
  /** The contacts count and the counters of the period starting at `periodStart`. */
  read(userId: string, periodStart: string | null): Promise<UsageCounters>;
  /**
   * Adds `amount` to the action's counter in one conditional write: only if the result stays
   * within `limit` (-1: unconditional). Returns the new value, or null when it would not fit.
   */
  add(userId: string, action: UsageAction, periodStart: string | null, amount: number, limit: number): Promise<number | null>;
  /** Subtracts up to `amount` (never below zero). */
  subtract(userId: string, action: UsageAction, periodStart: string | null, amount: number): Promise<void>;
}

export interface EventClaims {
  /** True when this call claimed the event (first delivery, or a stale unfinished claim). */
  claim(eventId: string, type: string): Promise<boolean>;
  markDone(eventId: string): Promise<void>;
  /** Forgets a claim whose processing failed, so the provider's redelivery is processed. */
  release(eventId: string): Promise<void>;
}

export interface CheckoutSessionInfo {
  id: string;
  /** paid | unpaid | no_payment_required */
  paymentStatus: string;
  /** client_reference_id, else metadata.userId. */
  userId: string | null;
  customerId: string | null;
  subscriptionId: string | null;
}

export interface CheckoutSessionRequest {
  customerId: string;
  userId: string;
  plan: PlanId;
  /** The currency the session charges in (the price's currency option): the account's. */
  currency: BillingCurrency;
  /** The language the checkout page speaks: the account's. */
  language: Language;
  trialDays: number | null;
  successUrl: string;
  cancelUrl: string;
}

/** The payment provider (Stripe). Errors are thrown as domain errors by the adapter. */
export interface PaymentGateway {
  createCustomer(input: { userId: string; email: string; name: string }): Promise<string>;
  createCheckoutSession(input: CheckoutSessionRequest): Promise<{ id: string; url: string }>;
  retrieveCheckoutSession(sessionId: string): Promise<CheckoutSessionInfo>;
  /** null when the provider does not know the subscription (404): nothing to apply. */
  retrieveSubscription(subscriptionId: string): Promise<SubscriptionState | null>;
  /** Moves the subscription to the plan's price with prorations; returns the new state. */
  changePlan(subscriptionId: string, plan: PlanId): Promise<SubscriptionState>;
  cancelNow(subscriptionId: string): Promise<SubscriptionState>;
  cancelAtPeriodEnd(subscriptionId: string): Promise<SubscriptionState>;
  createPortalSession(customerId: string, returnUrl: string): Promise<string>;
}

/** A provider webhook event, translated by the adapter (unknown types never reach the domain). */
export type BillingEvent =
  | { kind: 'subscription'; id: string; type: string; created: number; state: SubscriptionState; deleted: boolean }
  | {
      kind: 'checkout';
      id: string;
      type: string;
      created: number;
      userId: string | null;
      customerId: string | null;
      subscriptionId: string | null;
    }
  | {
      kind: 'invoice';
      id: string;
      type: string;
      created: number;
      paid: boolean;
      customerId: string | null;
      subscriptionId: string | null;
    };

export interface BillingClock {
  /** Epoch milliseconds. */
  now(): number;
}

/** Structured logging (the Powertools logger satisfies it); never log secrets or bodies. */
export interface BillingLogger {
  info(message: string, attributes: Record<string, unknown>): void;
  warn(message: string, attributes: Record<string, unknown>): void;
  error(message: string, attributes: Record<string, unknown>): void;
}
