/**
 * The fake Stripe's state and behaviour, without HTTP: customers, checkout and portal sessions,
 * subscriptions, invoices and the events they emit. server.ts maps the REST API, the browser
 * pages and the /_test control API onto these methods.
 *
 * Time is a fake clock (real time + an offset tests can advance); event `created` values are
 * strictly increasing so consumers can order events even within one second.
 */
import Stripe from 'stripe';
import { bool, expandList, int, list, metadataParam, obj, str, type Params } from './form.js';
import {
  addInterval,
  apiList,
  checkoutLineItemObject,
  checkoutSessionObject,
  currencyOptionsObject,
  customerObject,
  invoiceObject,
  newId,
  portalSessionObject,
  previousAttributes,
  priceObject,
  subscriptionItemObject,
  subscriptionObject,
  type CheckoutSessionObject,
  type CustomerObject,
  type InvoiceObject,
  type Metadata,
  type PortalSessionObject,
  type StripeEventObject,
  type SubscriptionObject,
} from './objects.js';
import { CHECKOUT_LOCALES, isCheckoutLocale } from './locales.js';
import { unitAmountIn, type LocalPrice } from './prices.js';

export const API_VERSION: string = Stripe.API_VERSION;

// ---------------------------------------------------------------- errors

export interface StripeErrorBody {
  type: 'invalid_request_error' | 'api_error' | 'idempotency_error' | 'card_error';
  message: string;
  code?: string;
  param?: string;
  doc_url?: string;
}

/** An error answered in Stripe's shape: `{ "error": { type, code, message, param } }`. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
    this.name = 'StripeApiError';
  }
}

export const notFound = (kind: string, id: string, param = 'id') =>
  new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${id}'`,
    param,
    doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
  });

const missingParam = (param: string) =>
  new StripeApiError(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    message: `Missing required param: ${param}.`,
    param,
    doc_url: 'https://stripe.com/docs/error-codes/parameter-missing',
  });

const invalidParam = (param: string, message: string) =>
  new StripeApiError(400, { type: 'invalid_request_error', code: 'parameter_invalid', message, param });

// ---------------------------------------------------------------- state

interface StoredCheckout {
  session: CheckoutSessionObject;
  priceId: string;
  /** The currency the session charges in (absent in states saved before multi-currency prices: the price's default). */
  currency?: string;
  quantity: number;
  trialPeriodDays: number | null;
  subscriptionMetadata: Metadata;
}

export interface FakeStripeData {
  version: 1;
  /** Seconds added to the real clock (advance()). */
  clockOffset: number;
  lastEventCreated: number;
  invoiceSequence: number;
  customers: Record<string, CustomerObject>;
  checkouts: Record<string, StoredCheckout>;
  portalSessions: Record<string, PortalSessionObject>;
  subscriptions: Record<string, SubscriptionObject>;
  invoices: Record<string, InvoiceObject>;
  events: StripeEventObject[];
  /** Subscriptions GET /v1/subscriptions/:id serves in the pre-2025 shape (POST /_test/subscriptions/:id/legacy-shape). */
  legacyShape: Record<string, true>;
}

export const emptyData = (): FakeStripeData => ({
  version: 1,
  clockOffset: 0,
  lastEventCreated: 0,
  invoiceSequence: 0,
  customers: {},
  checkouts: {},
  portalSessions: {},
  subscriptions: {},
  invoices: {},
  events: [],
  legacyShape: {},
});

/** Events kept in memory and in stripe.json; older ones are dropped. */
const MAX_EVENTS = 2000;

/** What caused an event: an API request (with its idempotency key) or Stripe itself (null). */
export interface RequestContext {
  requestId: string | null;
  idempotencyKey: string | null;
}
const AUTOMATIC: RequestContext = { requestId: null, idempotencyKey: null };

export interface FakeStripeEngineOptions {
  /** Public origin of the fake (checkout and portal page URLs). */
  baseUrl: string;
  prices: LocalPrice[];
  data?: FakeStripeData;
  /** Called for every emitted event, in order (the webhook deliverer). */
  onEvent?: (event: StripeEventObject) => void;
}

export interface PayResult {
  session: CheckoutSessionObject;
  subscription: SubscriptionObject | null;
  /** Where the browser goes next: success_url with {CHECKOUT_SESSION_ID} filled in. */
  redirect: string;
}

const clone = <T>(value: T): T => structuredClone(value);

export class FakeStripeEngine {
  data: FakeStripeData;
  readonly prices: LocalPrice[];
  /** Public origin of the fake, for checkout and portal page URLs. */
  baseUrl: string;
  private readonly onEvent: (event: StripeEventObject) => void;

  constructor(options: FakeStripeEngineOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
    this.prices = options.prices;
    this.data = options.data ?? emptyData();
    this.onEvent = options.onEvent ?? (() => undefined);
  }

  /** Fake clock, Unix seconds. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.data.clockOffset;
  }

  price(id: string, param = 'price'): LocalPrice {
    const price = this.prices.find((p) => p.id === id);
    if (!price) throw notFound('price', id, param);
    return price;
  }

  /** GET /v1/prices/:id (currency_options only with expand[]=currency_options). */
  priceObject(id: string, params: Params) {
    return this.expand(priceObject(this.price(id), 0), params);
  }

  /** GET /v1/prices: active recurring prices, filtered by currency (the default one, as Stripe does) and lookup_keys. */
  listPrices(params: Params) {
    const currency = str(params, 'currency')?.toLowerCase();
    const lookupKeys = list(params, 'lookup_keys').filter((k): k is string => typeof k === 'string');
    const data = this.prices
      .filter((p) => !currency || p.currency === currency)
      .filter((p) => lookupKeys.length === 0 || lookupKeys.includes(p.planId))
      .map((p) => priceObject(p, 0));
    return this.expand(apiList(data.slice(0, int(params, 'limit') ?? 10), '/v1/prices'), params);
  }

  /**
   * The price's amount in `currency`, as Stripe picks it from a multi-currency price (its
   * default currency or a currency option); Stripe's 400 when the price has no such option.
   */
  private amountIn(price: LocalPrice, currency: string, param: string): number {
    const amount = unitAmountIn(price, currency);
    if (amount === null) {
      throw invalidParam(param, `The price specified (${price.id}) does not support the currency ${currency}. Add a currency option for ${currency} to the price, or use a price in ${currency}.`);
    }
    return amount;
  }

  /** The subscription's price amount in the subscription's currency. */
  private subscriptionAmount(subscription: SubscriptionObject): { price: LocalPrice; unitAmount: number } {
    const price = this.itemPrice(subscription);
    return { price, unitAmount: this.amountIn(price, String(subscription.currency), 'currency') };
  }

  // -------------------------------------------------------------- events

  private emit(
    type: string,
    object: { id: string },
    context: RequestContext,
    previous?: Record<string, unknown>,
  ): StripeEventObject {
    const created = Math.max(this.now(), this.data.lastEventCreated + 1);
    this.data.lastEventCreated = created;
    const event: StripeEventObject = {
      id: newId('evt'),
      object: 'event',
      api_version: API_VERSION,
      created,
      data: { object: clone(object), ...(previous ? { previous_attributes: clone(previous) } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: context.requestId, idempotency_key: context.idempotencyKey },
      type,
    };
    this.data.events.push(event);
    if (this.data.events.length > MAX_EVENTS) this.data.events.splice(0, this.data.events.length - MAX_EVENTS);
    this.onEvent(event);
    return event;
  }

  // -------------------------------------------------------------- customers

  createCustomer(params: Params): CustomerObject {
    const customer = customerObject({
      id: newId('cus', 14),
      created: this.now(),
      email: str(params, 'email') ?? null,
      name: str(params, 'name') ?? null,
      description: str(params, 'description') ?? null,
      phone: str(params, 'phone') ?? null,
      metadata: metadataParam(params) ?? {},
    });
    this.data.customers[customer.id] = customer;
    return customer;
  }

  getCustomer(id: string, param = 'id'): CustomerObject {
    const customer = this.data.customers[id];
    if (!customer) throw notFound('customer', id, param);
    return customer;
  }

  listCustomers(params: Params) {
    const email = str(params, 'email');
    const data = newestFirst(Object.values(this.data.customers)
      .filter((c) => email === undefined || c.email === email));
    return apiList(data.slice(0, int(params, 'limit') ?? 10), '/v1/customers');
  }

  // -------------------------------------------------------------- checkout

  createCheckoutSession(params: Params): CheckoutSessionObject {
    const mode = str(params, 'mode');
    if (!mode) throw missingParam('mode');
    if (mode !== 'subscription') {
      throw invalidParam('mode', `The local fake Stripe only supports mode=subscription, not '${mode}'.`);
    }
    const lineItems = list(params, 'line_items');
    const first = lineItems[0];
    if (!first || typeof first !== 'object' || Array.isArray(first)) throw missingParam('line_items');
    const priceId = str(first, 'price');
    if (!priceId) throw missingParam('line_items[0][price]');
    const price = this.price(priceId, 'line_items[0][price]');
    const quantity = int(first, 'quantity') ?? 1;
    if (!Number.isInteger(quantity) || quantity < 1) {
      throw invalidParam('line_items[0][quantity]', 'Invalid integer: quantity must be at least 1.');
    }
    const customerId = str(params, 'customer');
    if (customerId) this.getCustomer(customerId, 'customer');
    const customerEmail = str(params, 'customer_email');
    if (customerId && customerEmail) {
      throw invalidParam('customer_email', 'You may only specify one of these parameters: customer, customer_email.');
    }
    const subscriptionData = obj(params, 'subscription_data');
    const trialDays = int(subscriptionData, 'trial_period_days');
    if (trialDays !== undefined && (!Number.isInteger(trialDays) || trialDays < 1 || trialDays > 730)) {
      throw invalidParam('subscription_data[trial_period_days]', 'trial_period_days must be between 1 and 730.');
    }
    // Stripe picks the currency of a multi-currency price from the customer's location unless the
    // session names one; the fake has no location, so without `currency` it is the price's default.
    const currency = (str(params, 'currency') ?? price.currency).toLowerCase();
    const unitAmount = this.amountIn(price, currency, 'currency');
    // The page's language: one of Stripe's documented locales, else Stripe's 400; none = the browser's ('auto').
    const locale = str(params, 'locale') || undefined;
    if (locale !== undefined && !isCheckoutLocale(locale)) {
      throw invalidParam('locale', `Invalid locale: must be one of ${CHECKOUT_LOCALES.join(', ')}`);
    }
    const id = newId('cs_test', 58);
    const amount = trialDays ? 0 : unitAmount * quantity;
    const session = checkoutSessionObject({
      id,
      created: this.now(),
      url: `${this.baseUrl}/checkout/${id}`,
      customer: customerId ?? null,
      customerEmail: customerEmail ?? null,
      clientReferenceId: str(params, 'client_reference_id') ?? null,
      successUrl: str(params, 'success_url') ?? null,
      cancelUrl: str(params, 'cancel_url') ?? null,
      allowPromotionCodes: bool(params, 'allow_promotion_codes') ?? null,
      amount,
      currency,
      locale: locale ?? null,
      metadata: metadataParam(params) ?? {},
    });
    this.data.checkouts[id] = {
      session,
      priceId: price.id,
      currency,
      quantity,
      trialPeriodDays: trialDays ?? null,
      subscriptionMetadata: metadataParam(subscriptionData) ?? {},
    };
    return session;
  }

  checkout(id: string): StoredCheckout {
    const stored = this.data.checkouts[id];
    if (!stored) throw notFound('checkout.session', id);
    return stored;
  }

  checkoutLineItems(id: string) {
    const { session, priceId, quantity } = this.checkout(id);
    const price = this.price(priceId);
    const amount = (session.amount_total as number | null) ?? 0;
    return apiList(
      [checkoutLineItemObject(price, quantity, session.created as number, amount, String(session.currency))],
      `/v1/checkout/sessions/${id}/line_items`,
    );
  }

  /**
   * The Pay button: creates the customer (if the session had only an e-mail) and the
   * subscription, completes the session and emits customer.subscription.created,
   * checkout.session.completed and invoice.paid, in that order.
   */
  payCheckout(id: string): PayResult {
    const stored = this.checkout(id);
    const { session } = stored;
    if (session.status === 'expired') throw invalidParam('session', 'This Checkout Session has expired.');
    if (session.status === 'complete') {
      const subscription = session.subscription ? (this.data.subscriptions[session.subscription] ?? null) : null;
      return { session, subscription, redirect: this.successRedirect(session) };
    }
    const now = this.now();
    if (now > (session.expires_at as number)) {
      session.status = 'expired';
      session.url = null;
      throw invalidParam('session', 'This Checkout Session has expired.');
    }
    const customer = session.customer
      ? this.getCustomer(session.customer)
      : this.createCustomer(session.customer_email ? { email: session.customer_email } : {});
    const price = this.price(stored.priceId);
    const currency = stored.currency ?? price.currency;
    const unitAmount = this.amountIn(price, currency, 'currency');
    const trialEnd = stored.trialPeriodDays ? now + stored.trialPeriodDays * 86_400 : null;
    const subscriptionId = newId('sub');
    const item = subscriptionItemObject({
      id: newId('si', 14),
      subscription: subscriptionId,
      price,
      quantity: stored.quantity,
      created: now,
      periodStart: now,
      // During a trial Stripe's current period is the trial itself.
      periodEnd: trialEnd ?? addInterval(now, price.interval),
    });
    const subscription = subscriptionObject({
      id: subscriptionId,
      customer: customer.id,
      status: trialEnd ? 'trialing' : 'active',
      item,
      // The session's currency: the subscription (and its invoices) stay in it for good.
      currency,
      created: now,
      trialStart: trialEnd ? now : null,
      trialEnd,
      metadata: { ...stored.subscriptionMetadata },
    });
    this.data.subscriptions[subscription.id] = subscription;
    const invoice = this.createInvoice(subscription, {
      amount: trialEnd ? 0 : unitAmount * stored.quantity,
      paid: true,
      billingReason: 'subscription_create',
      description: trialEnd
        ? `Trial period for ${price.name}`
        : `${stored.quantity} × ${price.name} (at ${formatAmount(unitAmount, currency)} / ${price.interval})`,
    });
    subscription.latest_invoice = invoice.id;

    session.status = 'complete';
    session.payment_status = trialEnd ? 'no_payment_required' : 'paid';
    session.customer = customer.id;
    session.customer_details = {
      address: null,
      email: customer.email,
      name: customer.name,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    session.subscription = subscription.id;
    session.invoice = invoice.id;
    session.url = null;

    this.emit('customer.subscription.created', subscription, AUTOMATIC);
    this.emit('checkout.session.completed', session, AUTOMATIC);
    this.emit('invoice.paid', invoice, AUTOMATIC);
    return { session, subscription, redirect: this.successRedirect(session) };
  }

  /** Where the browser lands after paying (the fake's own page when no success_url was given). */
  successRedirect(session: CheckoutSessionObject): string {
    const url = session.success_url ?? `${this.baseUrl}/checkout/${session.id}`;
    return url.split('{CHECKOUT_SESSION_ID}').join(session.id);
  }

  // -------------------------------------------------------------- billing portal

  createPortalSession(params: Params): PortalSessionObject {
    const customerId = str(params, 'customer');
    if (!customerId) throw missingParam('customer');
    this.getCustomer(customerId, 'customer');
    const id = newId('bps');
    const session = portalSessionObject({
      id,
      created: this.now(),
      customer: customerId,
      returnUrl: str(params, 'return_url') ?? null,
      url: `${this.baseUrl}/portal/${id}`,
    });
    this.data.portalSessions[id] = session;
    return session;
  }

  portalSession(id: string): PortalSessionObject {
    const session = this.data.portalSessions[id];
    if (!session) throw notFound('billing_portal.session', id);
    return session;
  }

  // -------------------------------------------------------------- subscriptions

  getSubscription(id: string): SubscriptionObject {
    const subscription = this.data.subscriptions[id];
    if (!subscription) throw notFound('subscription', id);
    return subscription;
  }

  /**
   * A subscription as GET /v1/subscriptions/:id serves it: the current shape, or for a
   * subscription switched to the legacy shape the one of API versions before 2025-03-31.basil
   * (current_period_start/end on the subscription, none on its items). Stored state is unchanged.
   */
  servedSubscription(id: string): SubscriptionObject {
    const subscription = this.getSubscription(id);
    if (!this.data.legacyShape[id]) return subscription;
    const legacy = clone(subscription);
    const item = legacy.items.data[0];
    legacy.current_period_start = item?.current_period_start ?? null;
    legacy.current_period_end = item?.current_period_end ?? null;
    for (const entry of legacy.items.data as Record<string, unknown>[]) {
      delete entry.current_period_start;
      delete entry.current_period_end;
    }
    return legacy;
  }

  setLegacyShape(id: string, legacy: boolean): void {
    this.getSubscription(id);
    if (legacy) this.data.legacyShape[id] = true;
    else delete this.data.legacyShape[id];
  }

  listSubscriptions(params: Params) {
    const customer = str(params, 'customer');
    const price = str(params, 'price');
    const status = str(params, 'status');
    const data = newestFirst(Object.values(this.data.subscriptions)
      .filter((s) => !customer || s.customer === customer)
      .filter((s) => !price || s.items.data.some((i) => i.price.id === price))
      .filter((s) => {
        if (status === 'all') return true;
        if (status === 'ended') return s.status === 'canceled';
        if (status) return s.status === status;
        return s.status !== 'canceled';
      }));
    return apiList(data.slice(0, int(params, 'limit') ?? 10), '/v1/subscriptions');
  }

  /** POST /v1/subscriptions/:id: plan change (items), cancel_at_period_end, metadata, trial_end=now. */
  updateSubscription(id: string, params: Params, context: RequestContext = AUTOMATIC): SubscriptionObject {
    const subscription = this.getSubscription(id);
    const before = clone(subscription);
    const items = list(params, 'items');
    const cancelAtPeriodEnd = bool(params, 'cancel_at_period_end');
    const trialEnd = str(params, 'trial_end');
    if (subscription.status === 'canceled' && (items.length > 0 || cancelAtPeriodEnd !== undefined || trialEnd)) {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message: 'A canceled subscription can only update its cancellation_details and metadata.',
      });
    }
    const now = this.now();
    items.forEach((entry, index) => {
      if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return;
      const priceId = str(entry, 'price');
      if (!priceId) return;
      const price = this.price(priceId, `items[${index}][price]`);
      // A subscription keeps its currency: the new price must have an option in it.
      this.amountIn(price, String(subscription.currency), `items[${index}][price]`);
      const itemId = str(entry, 'id');
      const current = itemId ? subscription.items.data.find((i) => i.id === itemId) : subscription.items.data[0];
      if (itemId && !current) throw notFound('subscription_item', itemId, `items[${index}][id]`);
      if (!current) return;
      const replacement = subscriptionItemObject({
        id: itemId ?? newId('si', 14),
        subscription: subscription.id,
        price,
        quantity: int(entry, 'quantity') ?? current.quantity,
        created: itemId ? (current.created as number) : now,
        periodStart: current.current_period_start,
        periodEnd: current.current_period_end,
      });
      subscription.items.data[subscription.items.data.indexOf(current)] = replacement;
    });
    if (cancelAtPeriodEnd !== undefined) this.setCancelAtPeriodEnd(subscription, cancelAtPeriodEnd);
    if (trialEnd === 'now' && subscription.status === 'trialing') this.startNewPeriod(subscription, 'active');
    const metadata = metadataParam(params);
    if (metadata) subscription.metadata = mergeMetadata(subscription.metadata, metadata, params.metadata === '');
    this.emitUpdated(before, subscription, context);
    return subscription;
  }

  /** DELETE /v1/subscriptions/:id: cancel now. */
  cancelSubscription(id: string, context: RequestContext = AUTOMATIC): SubscriptionObject {
    const subscription = this.getSubscription(id);
    if (subscription.status === 'canceled') {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such subscription: '${id}'; it has already been canceled.`,
        param: 'id',
      });
    }
    const now = this.now();
    subscription.status = 'canceled';
    subscription.canceled_at = now;
    subscription.ended_at = now;
    subscription.cancel_at = null;
    subscription.cancel_at_period_end = false;
    subscription.cancellation_details = { comment: null, feedback: null, reason: 'cancellation_requested' };
    this.emit('customer.subscription.deleted', subscription, context);
    return subscription;
  }

  changePrice(id: string, priceId: string): SubscriptionObject {
    const subscription = this.getSubscription(id);
    const item = subscription.items.data[0];
    return this.updateSubscription(id, {
      items: [{ id: item?.id ?? '', price: priceId }],
      proration_behavior: 'create_prorations',
    });
  }

  setCancelAtPeriodEndById(id: string, value: boolean): SubscriptionObject {
    return this.updateSubscription(id, { cancel_at_period_end: String(value) });
  }

  /** The "Simulate failed payment" button: a renewal whose charge fails (past_due). */
  simulatePaymentFailed(id: string): SubscriptionObject {
    const subscription = this.activeSubscription(id);
    const before = clone(subscription);
    this.startNewPeriod(subscription, 'past_due');
    const { price, unitAmount } = this.subscriptionAmount(subscription);
    const invoice = this.createInvoice(subscription, {
      amount: unitAmount * (subscription.items.data[0]?.quantity ?? 1),
      paid: false,
      billingReason: 'subscription_cycle',
      description: `${price.name} (renewal, payment failed in local test mode)`,
    });
    subscription.latest_invoice = invoice.id;
    this.emit('invoice.payment_failed', invoice, AUTOMATIC);
    this.emitUpdated(before, subscription, AUTOMATIC);
    return subscription;
  }

  /** The "Simulate successful renewal" button: a new paid period starting now. */
  simulateRenewal(id: string): SubscriptionObject {
    const subscription = this.activeSubscription(id);
    this.renew(subscription, this.now());
    return subscription;
  }

  /**
   * Move the fake clock and do what Stripe does when time passes: end trials, renew periods
   * and cancel subscriptions whose cancel_at has come.
   */
  advance(seconds: number): number {
    this.data.clockOffset += seconds;
    const now = this.now();
    for (const subscription of Object.values(this.data.subscriptions)) {
      for (let guard = 0; guard < 1000 && subscription.status !== 'canceled'; guard++) {
        const periodEnd = subscription.items.data[0]?.current_period_end ?? Number.POSITIVE_INFINITY;
        if (subscription.cancel_at !== null && now >= subscription.cancel_at) {
          subscription.status = 'canceled';
          subscription.ended_at = subscription.cancel_at;
          subscription.cancellation_details = { comment: null, feedback: null, reason: 'cancellation_requested' };
          this.emit('customer.subscription.deleted', subscription, AUTOMATIC);
        } else if ((subscription.status === 'trialing' || subscription.status === 'active') && now >= periodEnd) {
          this.renew(subscription, periodEnd);
        } else break;
      }
    }
    return now;
  }

  // -------------------------------------------------------------- invoices

  getInvoice(id: string): InvoiceObject {
    const invoice = this.data.invoices[id];
    if (!invoice) throw notFound('invoice', id);
    return invoice;
  }

  listInvoices(params: Params) {
    const customer = str(params, 'customer');
    const subscription = str(params, 'subscription');
    const status = str(params, 'status');
    const data = newestFirst(Object.values(this.data.invoices)
      .filter((i) => !customer || i.customer === customer)
      .filter((i) => !subscription || i.parent.subscription_details?.subscription === subscription)
      .filter((i) => !status || i.status === status));
    return apiList(data.slice(0, int(params, 'limit') ?? 10), '/v1/invoices');
  }

  // -------------------------------------------------------------- expand[]

  /**
   * Replace ids by objects along `expand[]` paths (`subscription`, `customer`,
   * `latest_invoice`, `subscription.latest_invoice`, `data.customer` on lists). `line_items`
   * of a checkout session is handled by the caller.
   */
  expand<T>(value: T, params: Params): T {
    const paths = expandList(params);
    if (paths.length === 0) return value;
    const copy = clone(value) as unknown;
    for (const path of paths) this.expandPath(copy, path.split('.'));
    return copy as T;
  }

  private expandPath(target: unknown, path: string[]): void {
    if (!target || typeof target !== 'object' || path.length === 0) return;
    const [head, ...rest] = path as [string, ...string[]];
    const record = target as Record<string, unknown>;
    // A price's currency_options is not an id but a field Stripe leaves out unless expanded.
    if (head === 'currency_options' && rest.length === 0 && record.object === 'price' && typeof record.id === 'string') {
      const price = this.prices.find((p) => p.id === record.id);
      if (price) record.currency_options = currencyOptionsObject(price);
      return;
    }
    if (head === 'data' && Array.isArray(record.data)) {
      for (const entry of record.data) this.expandPath(entry, rest);
      return;
    }
    const current = record[head];
    if (typeof current === 'string') {
      const found = this.lookup(current);
      if (found) record[head] = clone(found);
    }
    if (rest.length > 0) this.expandPath(record[head], rest);
  }

  private lookup(id: string): object | undefined {
    if (id.startsWith('cus_')) return this.data.customers[id];
    if (id.startsWith('sub_')) return this.data.subscriptions[id];
    if (id.startsWith('in_')) return this.data.invoices[id];
    if (id.startsWith('cs_')) return this.data.checkouts[id]?.session;
    if (id.startsWith('price_')) {
      const price = this.prices.find((p) => p.id === id);
      return price ? priceObject(price, 0) : undefined;
    }
    return undefined;
  }

  // -------------------------------------------------------------- internals

  private activeSubscription(id: string): SubscriptionObject {
    const subscription = this.getSubscription(id);
    if (subscription.status === 'canceled') {
      throw new StripeApiError(400, { type: 'invalid_request_error', message: `Subscription ${id} is canceled.` });
    }
    return subscription;
  }

  private itemPrice(subscription: SubscriptionObject): LocalPrice {
    return this.price(subscription.items.data[0]?.price.id ?? '');
  }

  private setCancelAtPeriodEnd(subscription: SubscriptionObject, value: boolean): void {
    if (subscription.cancel_at_period_end === value) return;
    subscription.cancel_at_period_end = value;
    subscription.cancel_at = value ? (subscription.items.data[0]?.current_period_end ?? null) : null;
    // Stripe: canceled_at is the time of the cancel request, also for cancel at period end.
    subscription.canceled_at = value ? this.now() : null;
    subscription.cancellation_details = value
      ? { comment: null, feedback: null, reason: 'cancellation_requested' }
      : { comment: null, feedback: null, reason: null };
  }

  /** A new billing period from `start` (default now) on every item; ends a trial. */
  private startNewPeriod(subscription: SubscriptionObject, status: SubscriptionObject['status'], start = this.now()) {
    if (subscription.status === 'trialing') subscription.trial_end = Math.min(subscription.trial_end ?? start, start);
    subscription.status = status;
    for (const item of subscription.items.data) {
      const price = this.price(item.price.id);
      item.current_period_start = start;
      item.current_period_end = addInterval(start, price.interval);
    }
    subscription.billing_cycle_anchor = subscription.items.data[0]?.current_period_start ?? start;
    if (subscription.cancel_at_period_end) subscription.cancel_at = subscription.items.data[0]?.current_period_end ?? null;
  }

  private renew(subscription: SubscriptionObject, start: number): void {
    const before = clone(subscription);
    this.startNewPeriod(subscription, 'active', start);
    const { price, unitAmount } = this.subscriptionAmount(subscription);
    const quantity = subscription.items.data[0]?.quantity ?? 1;
    const invoice = this.createInvoice(subscription, {
      amount: unitAmount * quantity,
      paid: true,
      billingReason: 'subscription_cycle',
      description: `${quantity} × ${price.name} (at ${formatAmount(unitAmount, String(subscription.currency))} / ${price.interval})`,
    });
    subscription.latest_invoice = invoice.id;
    this.emit('invoice.paid', invoice, AUTOMATIC);
    this.emitUpdated(before, subscription, AUTOMATIC);
  }

  private createInvoice(
    subscription: SubscriptionObject,
    input: { amount: number; paid: boolean; billingReason: 'subscription_create' | 'subscription_cycle'; description: string },
  ): InvoiceObject {
    const item = subscription.items.data[0];
    if (!item) throw new Error(`subscription ${subscription.id} has no items`);
    const id = newId('in');
    this.data.invoiceSequence += 1;
    const price = this.price(item.price.id);
    const currency = String(subscription.currency);
    const invoice = invoiceObject({
      id,
      number: `LOCAL-${String(this.data.invoiceSequence).padStart(4, '0')}`,
      created: this.now(),
      customer: this.getCustomer(subscription.customer),
      subscription,
      item,
      price,
      currency,
      unitAmount: unitAmountIn(price, currency) ?? price.unitAmount,
      amount: input.amount,
      paid: input.paid,
      billingReason: input.billingReason,
      periodStart: item.current_period_start,
      periodEnd: item.current_period_end,
      description: input.description,
      hostedUrl: `${this.baseUrl}/invoices/${id}`,
    });
    this.data.invoices[id] = invoice;
    return invoice;
  }

  private emitUpdated(before: SubscriptionObject, after: SubscriptionObject, context: RequestContext): void {
    const previous = previousAttributes(before, after);
    if (Object.keys(previous).length > 0) this.emit('customer.subscription.updated', after, context, previous);
  }
}

function mergeMetadata(current: Metadata, update: Metadata, clearAll: boolean): Metadata {
  const next: Metadata = clearAll ? {} : { ...current };
  for (const [key, value] of Object.entries(update)) {
    if (value === '') delete next[key];
    else next[key] = value;
  }
  return next;
}

/** An amount (smallest unit) in its currency and a locale: '$79.00', '79,00 €' (es-ES). */
export function formatAmount(cents: number, currency: string, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

/** Stripe lists newest first; objects created in the same second come newest first too (as Stripe's ids sort), not in creation order. */
export function newestFirst<T extends { created: number }>(items: T[]): T[] {
  return items.reverse().sort((a, b) => b.created - a.created);
}
