/** In-memory billing ports for unit tests (same contracts as the DynamoDB and Stripe adapters). */
import type { PlanId, SubscriptionStatus, UsageAction } from '../../../src/contract/billing.js';
import {
  StaleWriteError,
  type CheckoutSessionInfo,
  type EventClaims,
  type PaymentGateway,
  type StoredSubscription,
  type SubscriptionRepository,
  type SubscriptionState,
  type UsageCounters,
  type UsageRepository,
} from '../../../src/domain/billing/ports.js';

export const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

export class FakeClock {
  constructor(public ms = Date.parse('2026-03-01T12:00:00Z')) {}
  now() {
    return this.ms;
  }
  seconds() {
    return Math.floor(this.ms / 1000);
  }
}

export class MemorySubscriptions implements SubscriptionRepository {
  items = new Map<string, StoredSubscription>();

  async get(userId: string) {
    const item = this.items.get(userId);
    return item ? { ...item } : null;
  }
  async userIdByCustomer(customerId: string) {
    return [...this.items.values()].find((i) => i.stripeCustomerId === customerId)?.userId ?? null;
  }
  async linkCustomer(userId: string, customerId: string) {
    const item = this.items.get(userId);
    if (item?.stripeCustomerId && item.stripeCustomerId !== customerId) return;
    this.items.set(userId, { ...(item ?? { userId, version: 0 }), stripeCustomerId: customerId, version: (item?.version ?? 0) + 1 });
  }
  private check(userId: string, expected: number | null) {
    const item = this.items.get(userId);
    if (expected === null ? !!item : item?.version !== expected) throw new StaleWriteError();
    return item;
  }
  async saveState(
    userId: string,
    input: { state: SubscriptionState & { plan: PlanId }; created: number; ended: boolean; updatedAt: string },
    expected: number | null,
  ) {
    const item = this.check(userId, expected);
    const { state } = input;
    this.items.set(userId, {
      ...item,
      userId,
      plan: state.plan,
      status: state.status,
      currentPeriodStart: state.currentPeriodStart,
      currentPeriodEnd: state.currentPeriodEnd,
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      trialEnd: state.trialEnd,
      stripeCustomerId: state.customerId,
      stripeSubscriptionId: state.subscriptionId,
      stripeStatus: state.providerStatus,
      // As the DynamoDB repository: a state without a currency keeps the stored one.
      ...(state.currency ? { currency: state.currency } : {}),
      lastEventCreated: input.created,
      ended: input.ended,
      trialUsed: true,
      updatedAt: input.updatedAt,
      version: (item?.version ?? 0) + 1,
    });
  }
  async saveStatus(
    userId: string,
    input: { status: SubscriptionStatus; providerStatus: string; created: number; updatedAt: string },
    expected: number,
  ) {
    const item = this.check(userId, expected)!;
    this.items.set(userId, {
      ...item,
      status: input.status,
      stripeStatus: input.providerStatus,
      lastEventCreated: input.created,
      version: item.version + 1,
    });
  }
}

export class MemoryUsage implements UsageRepository {
  counters = new Map<string, number>();
  private key(userId: string, action: UsageAction, period: string | null) {
    return action === 'contacts' ? `${userId}|contacts` : `${userId}|${action}|${period}`;
  }
  async read(userId: string, period: string | null): Promise<UsageCounters> {
    const get = (a: UsageAction) => this.counters.get(this.key(userId, a, period)) ?? 0;
    return { contacts: get('contacts'), messagesSent: get('messages'), minutes: get('minutes') };
  }
  async add(userId: string, action: UsageAction, period: string | null, amount: number, limit: number) {
    const key = this.key(userId, action, period);
    const next = (this.counters.get(key) ?? 0) + amount;
    if (limit >= 0 && next > limit) return null;
    this.counters.set(key, next);
    return next;
  }
  async subtract(userId: string, action: UsageAction, period: string | null, amount: number) {
    const key = this.key(userId, action, period);
    this.counters.set(key, Math.max(0, (this.counters.get(key) ?? 0) - amount));
  }
}

export class MemoryClaims implements EventClaims {
  claims = new Map<string, 'processing' | 'done'>();
  async claim(id: string) {
    if (this.claims.has(id)) return false;
    this.claims.set(id, 'processing');
    return true;
  }
  async markDone(id: string) {
    this.claims.set(id, 'done');
  }
  async release(id: string) {
    this.claims.delete(id);
  }
}

export function subState(overrides: Partial<SubscriptionState> = {}): SubscriptionState {
  return {
    subscriptionId: 'sub_1',
    customerId: 'cus_1',
    plan: 'starter',
    status: 'trialing',
    providerStatus: 'trialing',
    currentPeriodStart: '2026-03-01T12:00:00.000Z',
    currentPeriodEnd: '2026-03-06T12:00:00.000Z',
    cancelAtPeriodEnd: false,
    trialEnd: '2026-03-06T12:00:00.000Z',
    userId: 'user-1',
    ...overrides,
  };
}

/** A scriptable Stripe stand-in recording the calls. */
export class FakeGateway implements PaymentGateway {
  calls: { method: string; args: unknown[] }[] = [];
  subscriptions = new Map<string, SubscriptionState>();
  sessions = new Map<string, CheckoutSessionInfo>();
  private n = 0;

  private record(method: string, ...args: unknown[]) {
    this.calls.push({ method, args });
  }
  callsOf(method: string) {
    return this.calls.filter((c) => c.method === method);
  }
  async createCustomer(input: { userId: string }) {
    this.record('createCustomer', input);
    return `cus_${++this.n}`;
  }
  async createCheckoutSession(input: Parameters<PaymentGateway['createCheckoutSession']>[0]) {
    this.record('createCheckoutSession', input);
    const id = `cs_test_${++this.n}`;
    this.sessions.set(id, { id, paymentStatus: 'unpaid', userId: input.userId, customerId: input.customerId, subscriptionId: null });
    return { id, url: `https://checkout.stripe.test/${id}` };
  }
  async retrieveCheckoutSession(id: string) {
    this.record('retrieveCheckoutSession', id);
    const session = this.sessions.get(id);
    if (!session) throw new Error('missing');
    return session;
  }
  async retrieveSubscription(id: string) {
    this.record('retrieveSubscription', id);
    // Like Stripe's 404 for a subscription it does not know.
    return this.subscriptions.get(id) ?? null;
  }
  async changePlan(id: string, plan: PlanId) {
    this.record('changePlan', id, plan);
    const next = { ...this.subscriptions.get(id)!, plan };
    this.subscriptions.set(id, next);
    return next;
  }
  async cancelNow(id: string) {
    this.record('cancelNow', id);
    const next = { ...this.subscriptions.get(id)!, status: 'canceled' as const, providerStatus: 'canceled' };
    this.subscriptions.set(id, next);
    return next;
  }
  async cancelAtPeriodEnd(id: string) {
    this.record('cancelAtPeriodEnd', id);
    const next = { ...this.subscriptions.get(id)!, cancelAtPeriodEnd: true };
    this.subscriptions.set(id, next);
    return next;
  }
  async createPortalSession(customerId: string, returnUrl: string) {
    this.record('createPortalSession', customerId, returnUrl);
    return `https://billing.stripe.test/${customerId}`;
  }
}
