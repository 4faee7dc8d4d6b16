/**
 * The billing group (Stripe + DynamoDB): checkout, plan change, cancellation, billing portal
 * and the success page's session check. Every state the provider returns is stored at once,
 * so the screens are right before the webhook arrives.
 */
import {
  TRIAL_DAYS,
  isActiveStatus,
  type PlanId,
  type Subscription,
  type VerifySessionResponse,
} from '../../contract/billing.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { languageOf } from '../i18n/messages.js';
import { currencyForCountry } from './currency.js';
import { billingServerMessages as msg } from './messages.js';
import { planById } from './plans.js';
import type {
  BillingClock,
  BillingLogger,
  PaymentGateway,
  StoredSubscription,
  SubscriptionRepository,
  SubscriptionState,
} from './ports.js';
import { planChange } from './rules.js';
import { applyState } from './sync.js';
import { toSubscription } from './view.js';

export interface BillingDeps {
  subscriptions: SubscriptionRepository;
  gateway: PaymentGateway;
  /** The account's profile: the Stripe customer's e-mail and name, and the language Checkout speaks. */
  profiles: { get(userId: string): Promise<{ email: string; name: string; language?: string } | null> };
  /** The account's country (ISO alpha-2): a new subscription is charged in its currency. */
  accountCountry: (userId: string) => Promise<string>;
  clock: BillingClock;
  log: BillingLogger;
  /** Public origin of the app: Stripe sends the browser back here. */
  appUrl: string;
  /** Issue 32: how many people the account has now, its owner included (1 without a team). */
  seats: { used(accountId: string): Promise<number> };
}

const PAID_SESSION = new Set(['paid', 'no_payment_required']);

export function createBillingService(deps: BillingDeps) {
  const now = () => new Date(deps.clock.now());
  const nowSeconds = () => Math.floor(deps.clock.now() / 1000);
  const appUrl = deps.appUrl.replace(/\/+$/, '');

  /** Stores a state the provider just returned: it is at least as new as anything received so far. */
  const store = (userId: string, state: SubscriptionState, deleted = false) =>
    applyState(deps, userId, { state, created: nowSeconds(), deleted, now: now(), fresh: true });

  /** The stored subscription a change or cancellation acts on. */
  async function changeable(userId: string): Promise<StoredSubscription & { plan: PlanId; stripeSubscriptionId: string }> {
    const stored = await deps.subscriptions.get(userId);
    if (!stored?.plan || !stored.stripeSubscriptionId || !stored.status) throw new NotFoundError(msg.noSubscription);
    if (stored.ended || stored.status === 'canceled') throw new ValidationError(msg.subscriptionEnded);
    return stored as StoredSubscription & { plan: PlanId; stripeSubscriptionId: string };
  }

  const viewOf = (stored: StoredSubscription | null, fallback: SubscriptionState & { plan: PlanId }): Subscription =>
    toSubscription(stored) ?? {
      plan: fallback.plan,
      status: fallback.status,
      currentPeriodStart: fallback.currentPeriodStart,
      currentPeriodEnd: fallback.currentPeriodEnd,
      cancelAtPeriodEnd: fallback.cancelAtPeriodEnd,
      trialEnd: fallback.trialEnd,
    };

  async function customerOf(userId: string, stored: StoredSubscription | null, profile: { email: string; name: string }): Promise<string> {
    if (stored?.stripeCustomerId) return stored.stripeCustomerId;
    const customerId = await deps.gateway.createCustomer({ userId, email: profile.email, name: profile.name });
    await deps.subscriptions.linkCustomer(userId, customerId);
    // A concurrent checkout may have linked another customer first: use the stored one.
    return (await deps.subscriptions.get(userId))?.stripeCustomerId ?? customerId;
  }

  /**
   * A plan must seat everyone already in the account (issue 32): a downgrade (or a new plan after
   * a cancellation) below the team's size is refused, naming how many people to remove first,
   * rather than leave members the plan does not pay for.
   */
  async function assertTeamFits(userId: string, planId: PlanId): Promise<void> {
    const seats = planById(planId).limits.seats;
    const used = await deps.seats.used(userId);
    if (used > seats) throw new ConflictError(msg.teamTooLarge(seats, used, used - seats));
  }

  return {
    /**
     * Starts a Stripe Checkout for a user without a usable subscription, in the currency of the
     * account's country (a new subscription may start in another currency than an ended one) and
     * the account's language (not the browser's guess); the 5-day trial only once per customer.
     */
    async checkout(userId: string, planId: PlanId): Promise<{ url: string; sessionId: string }> {
      const plan = planById(planId);
      if (plan.disabled) throw new ValidationError(msg.planDisabled, 'plan');
      const stored = await deps.subscriptions.get(userId);
      if (stored?.status && !stored.ended) {
        if (isActiveStatus(stored.status)) throw new ConflictError(msg.alreadyActive);
        if (stored.status === 'past_due' || stored.status === 'unpaid') throw new ConflictError(msg.paymentProblem);
      }
      await assertTeamFits(userId, planId);
      const [profile, country] = await Promise.all([deps.profiles.get(userId), deps.accountCountry(userId)]);
      if (!profile) throw new NotFoundError(msg.userNotFound);
      const customerId = await customerOf(userId, stored, profile);
      const firstSubscription = !stored?.trialUsed && !stored?.stripeSubscriptionId;
      const session = await deps.gateway.createCheckoutSession({
        customerId,
        userId,
        plan: planId,
        currency: currencyForCountry(country),
        language: languageOf(profile.language),
        trialDays: firstSubscription ? TRIAL_DAYS : null,
        successUrl: `${appUrl}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${appUrl}/subscription`,
      });
      return { url: session.url, sessionId: session.id };
    },

    /** The success page: the session must be the caller's; syncs the subscription if the webhook is late. */
    async verifySession(userId: string, sessionId: string): Promise<VerifySessionResponse> {
      const session = await deps.gateway.retrieveCheckoutSession(sessionId);
      if (session.userId !== userId) throw new NotFoundError(msg.sessionNotFound);
      let stored = await deps.subscriptions.get(userId);
      if (session.subscriptionId && (stored?.stripeSubscriptionId !== session.subscriptionId || !stored.status)) {
        const state = await deps.gateway.retrieveSubscription(session.subscriptionId);
        if (state) stored = await store(userId, state);
      }
      const subscription = toSubscription(stored);
      const current = subscription && stored?.stripeSubscriptionId === session.subscriptionId ? subscription : null;
      const success = PAID_SESSION.has(session.paymentStatus) && !!current && isActiveStatus(current.status);
      return {
        success,
        message: success ? msg.paymentVerified : msg.paymentPending,
        session: { id: session.id, payment_status: session.paymentStatus },
        subscription: current ? { plan: current.plan, currentPeriodEnd: current.currentPeriodEnd } : null,
      };
    },

    /** Prorated change of an existing subscription to another plan (up or down, SPEC §4). */
    async changePlan(userId: string, planId: PlanId): Promise<Subscription> {
      const stored = await changeable(userId);
      if (planChange(stored.plan, planId) === 'current') throw new ValidationError(msg.samePlan, 'plan');
      if (planById(planId).disabled) throw new ValidationError(msg.planDisabled, 'plan');
      await assertTeamFits(userId, planId);
      const state = await deps.gateway.changePlan(stored.stripeSubscriptionId, planId);
      return viewOf(await store(userId, state), { ...state, plan: state.plan ?? planId });
    },

    /** Immediately (ends now, no refund) or at the period's end (stays active until then). */
    async cancel(userId: string, immediately: boolean): Promise<{ subscription: Subscription; message: string }> {
      const stored = await changeable(userId);
      if (!immediately && stored.cancelAtPeriodEnd) {
        return { subscription: toSubscription(stored)!, message: msg.alreadyCanceling };
      }
      const state = immediately
        ? await deps.gateway.cancelNow(stored.stripeSubscriptionId)
        : await deps.gateway.cancelAtPeriodEnd(stored.stripeSubscriptionId);
      const ended = immediately && state.status === 'canceled';
      const saved = await store(userId, state, ended);
      return {
        subscription: viewOf(saved, { ...state, plan: state.plan ?? stored.plan }),
        message: immediately ? msg.canceledNow : msg.canceledAtPeriodEnd,
      };
    },

    /** A Stripe billing portal session for the user's customer (payment method, invoices). */
    async portal(userId: string): Promise<{ url: string }> {
      const stored = await deps.subscriptions.get(userId);
      if (!stored?.stripeCustomerId) throw new NotFoundError(msg.noSubscription);
      return { url: await deps.gateway.createPortalSession(stored.stripeCustomerId, `${appUrl}/subscription`) };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
