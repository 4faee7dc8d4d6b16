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
  /**
   * Issue 33: an account being (or already) deleted. Its events are acknowledged and nothing is
   * written: the deletion cancelled the subscription itself, and a late customer.subscription.deleted
   * (or any other event naming it) must not write a subscription item back into the emptied partition.
   */
  closedAccounts?: { isClosed(userId: string): Promise<boolean> };
}

/** 'ignored': the event names a subscription the provider does not know (a 404): redelivering cannot help. */
export type WebhookOutcome = 'processed' | 'duplicate' | 'ignored';
type Applied = 'processed' | 'ignored';

export function createWebhookService(deps: WebhookDeps) {
  const now = () => new Date(deps.clock.now());

  async function userOf(customerId: string | null, metadataUserId: string | null): Promise<string | null> {
    if (customerId) {
      const linked = await deps.subscriptions.userIdByCustomer(customerId);
      if (linked) return linked;
    }
    return metadataUserId;
  }

  async function closed(userId: string, event: BillingEvent): Promise<boolean> {
    if (!(await deps.closedAccounts?.isClosed(userId))) return false;
    deps.log.info('Event for a deleted account: nothing written', { eventId: event.id, type: event.type });
    return true;
  }

  async function onSubscription(event: Extract<BillingEvent, { kind: 'subscription' }>): Promise<Applied> {
    const userId = await userOf(event.state.customerId, event.state.userId);
    if (!userId) {
      deps.log.warn('Subscription event for an unknown customer ignored', { eventId: event.id });
      return 'processed';
    }
    if (await closed(userId, event)) return 'processed';
    await applyState(deps, userId, { state: event.state, created: event.created, deleted: event.deleted, now: now() });
    return 'processed';
  }

  /** Applies the subscription as the provider has it now; 'ignored' when the provider does not know it. */
  async function applyProviderState(event: BillingEvent, userId: string, subscriptionId: string): Promise<Applied> {
    const state = await deps.gateway.retrieveSubscription(subscriptionId);
    if (!state) {
      deps.log.warn('Webhook event names a subscription the provider does not know; ignored', {
        eventId: event.id,
        subscriptionId,
      });
      return 'ignored';
    }
    await applyState(deps, userId, {
      state,
      created: Math.max(event.created, Math.floor(deps.clock.now() / 1000)),
      deleted: false,
      now: now(),
      fresh: true,
    });
    return 'processed';
  }

  async function onCheckout(event: Extract<BillingEvent, { kind: 'checkout' }>): Promise<Applied> {
    const userId = event.userId ?? (event.customerId ? await deps.subscriptions.userIdByCustomer(event.customerId) : null);
    if (!userId) {
      deps.log.warn('Checkout event without a known user ignored', { eventId: event.id });
      return 'processed';
    }
    if (await closed(userId, event)) return 'processed';
    if (event.customerId) await deps.subscriptions.linkCustomer(userId, event.customerId);
    if (!event.subscriptionId) return 'processed';
    const stored = await deps.subscriptions.get(userId);
    if (stored?.stripeSubscriptionId === event.subscriptionId && stored.status) return 'processed';
    // The subscription events may come later (or never be retried): read the state now.
    return applyProviderState(event, userId, event.subscriptionId);
  }

  /**
   * invoice.payment_failed: an active subscription becomes past_due. invoice.paid /
   * invoice.payment_succeeded: the subscription is read from the provider (a paid renewal moves
   * the period, and usage counts per period; a payment after a failure makes it active again).
   */
  async function onInvoice(event: Extract<BillingEvent, { kind: 'invoice' }>): Promise<Applied> {
    if (!event.subscriptionId || !event.customerId) return 'processed';
    const userId = await deps.subscriptions.userIdByCustomer(event.customerId);
    if (!userId || (await closed(userId, event))) return 'processed';
    for (let attempt = 0; attempt < 5; attempt++) {
      const stored = await deps.subscriptions.get(userId);
      if (!stored?.status || stored.stripeSubscriptionId !== event.subscriptionId || stored.ended) return 'processed';
      if (event.paid) return applyProviderState(event, userId, event.subscriptionId);
      if (stored.lastEventCreated !== undefined && event.created < stored.lastEventCreated) return 'processed';
      if (!isActiveStatus(stored.status)) return 'processed';
      try {
        await deps.subscriptions.saveStatus(
          userId,
          { status: 'past_due', providerStatus: 'past_due', created: event.created, updatedAt: now().toISOString() },
          stored.version,
        );
        return 'processed';
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
        const outcome =
          event.kind === 'subscription'
            ? await onSubscription(event)
            : event.kind === 'checkout'
              ? await onCheckout(event)
              : await onInvoice(event);
        await deps.claims.markDone(event.id);
        return outcome;
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
