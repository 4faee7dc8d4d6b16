/**
 * Stripe webhook events, after the handler verified the signature: each event id is processed
 * once (a conditional claim; a failed processing releases it so Stripe's redelivery retries),
 * and subscription states are applied under the ordering rules (rules.ts decideApply).
 */
import { isActiveStatus } from '../../contract/billing.js';
import type {
  BillingClock,
  BillingEvent,
  BillingLogger,
  EventClaims,
  PaymentGateway,
  SubscriptionRepository,
} from './ports.js';
import { StaleWriteError } from './ports.js';
import { applyState } from './sync.js';

export interface WebhookDeps {
  subscriptions: SubscriptionRepository;
  claims: EventClaims;
  gateway: PaymentGateway;
  clock: BillingClock;
  log: BillingLogger;
}

export type WebhookOutcome = 'processed' | 'duplicate';

export function createWebhookService(deps: WebhookDeps) {
  const now = () => new Date(deps.clock.now());

  async function userOf(customerId: string | null, metadataUserId: string | null): Promise<string | null> {
    if (customerId) {
      const linked = await deps.subscriptions.userIdByCustomer(customerId);
      if (linked) return linked;
    }
    return metadataUserId;
  }

  async function onSubscription(event: Extract<BillingEvent, { kind: 'subscription' }>) {
    const userId = await userOf(event.state.customerId, event.state.userId);
    if (!userId) {
      deps.log.warn('Subscription event for an unknown customer ignored', { eventId: event.id });
      return;
    }
    await applyState(deps, userId, { state: event.state, created: event.created, deleted: event.deleted, now: now() });
  }

  async function onCheckout(event: Extract<BillingEvent, { kind: 'checkout' }>) {
    const userId = event.userId ?? (event.customerId ? await deps.subscriptions.userIdByCustomer(event.customerId) : null);
    if (!userId) {
      deps.log.warn('Checkout event without a known user ignored', { eventId: event.id });
      return;
    }
    if (event.customerId) await deps.subscriptions.linkCustomer(userId, event.customerId);
    if (!event.subscriptionId) return;
    const stored = await deps.subscriptions.get(userId);
    if (stored?.stripeSubscriptionId === event.subscriptionId && stored.status) return;
    // The subscription events may come later (or never be retried): read the state now.
    const state = await deps.gateway.retrieveSubscription(event.subscriptionId);
    await applyState(deps, userId, {
      state,
      created: Math.max(event.created, Math.floor(deps.clock.now() / 1000)),
      deleted: false,
      now: now(),
      fresh: true,
    });
  }

  /** invoice.payment_failed: an active subscription becomes past_due; invoice.paid: a past_due/unpaid one active again. */
  async function onInvoice(event: Extract<BillingEvent, { kind: 'invoice' }>) {
    if (!event.subscriptionId || !event.customerId) return;
    const userId = await deps.subscriptions.userIdByCustomer(event.customerId);
    if (!userId) return;
    for (let attempt = 0; attempt < 5; attempt++) {
      const stored = await deps.subscriptions.get(userId);
      if (!stored?.status || stored.stripeSubscriptionId !== event.subscriptionId || stored.ended) return;
      if (stored.lastEventCreated !== undefined && event.created < stored.lastEventCreated) return;
      const next = event.paid
        ? stored.status === 'past_due' || stored.status === 'unpaid'
          ? 'active'
          : null
        : isActiveStatus(stored.status)
          ? 'past_due'
          : null;
      if (!next) return;
      try {
        await deps.subscriptions.saveStatus(
          userId,
          { status: next, providerStatus: next, created: event.created, updatedAt: now().toISOString() },
          stored.version,
        );
        return;
      } catch (error) {
        if (!(error instanceof StaleWriteError)) throw error;
      }
    }
    throw new Error('Subscription item kept changing while applying an invoice event');
  }

  return {
    async handle(event: BillingEvent): Promise<WebhookOutcome> {
      if (!(await deps.claims.claim(event.id, event.type))) return 'duplicate';
      try {
        if (event.kind === 'subscription') await onSubscription(event);
        else if (event.kind === 'checkout') await onCheckout(event);
        else await onInvoice(event);
        await deps.claims.markDone(event.id);
        return 'processed';
      } catch (error) {
        await deps.claims.release(event.id).catch((releaseError: unknown) =>
          deps.log.error('Could not release a webhook event claim', { eventId: event.id, error: String(releaseError) }),
        );
        throw error;
      }
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
