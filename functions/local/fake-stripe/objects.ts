/**
 * Stripe-shaped JSON objects, field for field as the API version the installed `stripe`
 * package pins (node_modules/stripe/esm/resources/*.d.ts). Only the fields AgentDesk could
 * read carry real values; the rest hold Stripe's defaults (null, [], false) so code written
 * against the SDK's types sees every key it expects.
 *
 * Current-API facts kept here (ARCHITECTURE §9): billing periods live on subscription items,
 * and an invoice names its subscription at parent.subscription_details.subscription.
 */
import { randomBytes } from 'node:crypto';
import { currencyOptionsOf, type LocalPrice } from './prices.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `cus_Q3x…`-style ids: prefix + base62. */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}_${out}`;
}

export type Metadata = Record<string, string>;

/** A Stripe list (`object: 'list'`). */
export interface ApiList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  total_count?: number;
  url: string;
}

export const apiList = <T>(data: T[], url: string, withCount = false): ApiList<T> => ({
  object: 'list',
  data,
  has_more: false,
  ...(withCount ? { total_count: data.length } : {}),
  url,
});

export interface CustomerObject {
  id: string;
  object: 'customer';
  email: string | null;
  name: string | null;
  metadata: Metadata;
  created: number;
  [key: string]: unknown;
}

export function customerObject(input: {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  description?: string | null;
  phone?: string | null;
  metadata: Metadata;
}): CustomerObject {
  return {
    id: input.id,
    object: 'customer',
    address: null,
    balance: 0,
    created: input.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: input.description ?? null,
    discount: null,
    email: input.email,
    invoice_prefix: input.id.slice(4, 12).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: input.metadata,
    name: input.name,
    next_invoice_sequence: 1,
    phone: input.phone ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export function priceObject(price: LocalPrice, created: number): Record<string, unknown> {
  return {
    id: price.id,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created,
    currency: price.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: price.planId,
    metadata: { plan: price.planId },
    nickname: price.name,
    product: price.product,
    recurring: { interval: price.interval, interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' },
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: 'recurring',
    unit_amount: price.unitAmount,
    unit_amount_decimal: String(price.unitAmount),
  };
}

/**
 * A price's `currency_options` as Stripe returns it, only when asked for with
 * `expand[]=currency_options` (every currency the price charges in, its default one included).
 */
export function currencyOptionsObject(price: LocalPrice): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(currencyOptionsOf(price)).map(([currency, amount]) => [
      currency,
      { custom_unit_amount: null, tax_behavior: 'unspecified', unit_amount: amount, unit_amount_decimal: String(amount) },
    ]),
  );
}

/** The legacy `plan` every subscription item still carries next to `price`. */
export function planObject(price: LocalPrice, created: number): Record<string, unknown> {
  return {
    id: price.id,
    object: 'plan',
    active: true,
    amount: price.unitAmount,
    amount_decimal: String(price.unitAmount),
    billing_scheme: 'per_unit',
    created,
    currency: price.currency,
    interval: price.interval,
    interval_count: 1,
    livemode: false,
    metadata: { plan: price.planId },
    meter: null,
    nickname: price.name,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete';

export interface SubscriptionItemObject {
  id: string;
  object: 'subscription_item';
  price: { id: string; [key: string]: unknown };
  quantity: number;
  current_period_start: number;
  current_period_end: number;
  subscription: string;
  [key: string]: unknown;
}

export interface SubscriptionObject {
  id: string;
  object: 'subscription';
  customer: string;
  status: SubscriptionStatus;
  items: ApiList<SubscriptionItemObject>;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  trial_start: number | null;
  trial_end: number | null;
  latest_invoice: string | null;
  metadata: Metadata;
  created: number;
  cancellation_details: { comment: string | null; feedback: string | null; reason: string | null };
  [key: string]: unknown;
}

export function subscriptionItemObject(input: {
  id: string;
  subscription: string;
  price: LocalPrice;
  quantity: number;
  created: number;
  periodStart: number;
  periodEnd: number;
}): SubscriptionItemObject {
  return {
    id: input.id,
    object: 'subscription_item',
    billing_thresholds: null,
    created: input.created,
    current_period_end: input.periodEnd,
    current_period_start: input.periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planObject(input.price, input.created),
    price: priceObject(input.price, input.created) as SubscriptionItemObject['price'],
    quantity: input.quantity,
    subscription: input.subscription,
    tax_rates: [],
  };
}

export function subscriptionObject(input: {
  id: string;
  customer: string;
  status: SubscriptionStatus;
  item: SubscriptionItemObject;
  currency: string;
  created: number;
  trialStart: number | null;
  trialEnd: number | null;
  metadata: Metadata;
}): SubscriptionObject {
  return {
    id: input.id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: input.item.current_period_end,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'flexible', updated_at: input.created },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: 'charge_automatically',
    created: input.created,
    currency: input.currency,
    customer: input.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: apiList([input.item], `/v1/subscription_items?subscription=${input.id}`, true),
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: input.created,
    status: input.status,
    test_clock: null,
    transfer_data: null,
    trial_end: input.trialEnd,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: input.trialStart,
  };
}

export interface InvoiceObject {
  id: string;
  object: 'invoice';
  customer: string;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  amount_due: number;
  amount_paid: number;
  created: number;
  parent: { subscription_details: { subscription: string; metadata: Metadata | null } | null; [key: string]: unknown };
  [key: string]: unknown;
}

export function invoiceObject(input: {
  id: string;
  number: string;
  created: number;
  customer: CustomerObject;
  subscription: SubscriptionObject;
  item: SubscriptionItemObject;
  price: LocalPrice;
  /** The subscription's currency, and the price's amount in it. */
  currency: string;
  unitAmount: number;
  amount: number;
  paid: boolean;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  periodStart: number;
  periodEnd: number;
  description: string;
  hostedUrl: string;
}): InvoiceObject {
  const { id, created, amount, paid } = input;
  const line = {
    id: newId('il'),
    object: 'line_item',
    amount,
    currency: input.currency,
    description: input.description,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: id,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: input.subscription.id,
        subscription_item: input.item.id,
      },
      type: 'subscription_item_details',
    },
    period: { end: input.periodEnd, start: input.periodStart },
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: input.price.id, product: input.price.product },
      type: 'price_details',
      unit_amount_decimal: String(input.unitAmount),
    },
    quantity: input.item.quantity,
    subscription: input.subscription.id,
    subtotal: amount,
    taxes: [],
  };
  return {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'AgentDesk (local test mode)',
    account_tax_ids: null,
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: paid ? amount : 0,
    amount_remaining: paid ? 0 : amount,
    amount_shipping: 0,
    application: null,
    attempt_count: 1,
    attempted: true,
    auto_advance: !paid,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: input.billingReason,
    collection_method: 'charge_automatically',
    created,
    currency: input.currency,
    custom_fields: null,
    customer: input.customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: input.customer.email,
    customer_name: input.customer.name,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: input.hostedUrl,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: apiList([line], `/v1/invoices/${id}/lines`, true),
    livemode: false,
    metadata: {},
    next_payment_attempt: paid ? null : created + 3 * 86_400,
    number: input.number,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: { ...input.subscription.metadata }, subscription: input.subscription.id },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: input.periodStart,
    period_start: input.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: paid ? 'paid' : 'open',
    status_transitions: {
      finalized_at: created,
      marked_uncollectible_at: null,
      paid_at: paid ? created : null,
      voided_at: null,
    },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    test_clock: null,
    total: amount,
    total_discount_amounts: [],
    total_excluding_tax: amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: created,
  };
}

export interface CheckoutSessionObject {
  id: string;
  object: 'checkout.session';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  customer: string | null;
  customer_email: string | null;
  subscription: string | null;
  success_url: string | null;
  cancel_url: string | null;
  url: string | null;
  metadata: Metadata;
  client_reference_id: string | null;
  [key: string]: unknown;
}

export function checkoutSessionObject(input: {
  id: string;
  created: number;
  url: string;
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  allowPromotionCodes: boolean | null;
  amount: number;
  currency: string;
  /** Stripe's `locale` of the hosted page (null: the browser's language). */
  locale: string | null;
  metadata: Metadata;
}): CheckoutSessionObject {
  return {
    id: input.id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: input.allowPromotionCodes,
    amount_subtotal: input.amount,
    amount_total: input.amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: input.created,
    currency: input.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: input.customer,
    customer_account: null,
    customer_creation: input.customer ? null : 'always',
    // Filled in when the customer completes the session.
    customer_details: null,
    customer_email: input.customerEmail,
    discounts: [],
    expires_at: input.created + 24 * 3600,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: input.locale,
    managed_payments: null,
    metadata: input.metadata,
    mode: 'subscription',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: input.url,
    wallet_options: null,
  };
}

export function checkoutLineItemObject(price: LocalPrice, quantity: number, created: number, amount: number, currency: string) {
  return {
    id: newId('li'),
    object: 'item',
    adjustable_quantity: null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency,
    description: price.name,
    metadata: {},
    price: priceObject(price, created),
    quantity,
  };
}

export interface PortalSessionObject {
  id: string;
  object: 'billing_portal.session';
  customer: string;
  return_url: string | null;
  url: string;
  created: number;
  [key: string]: unknown;
}

export function portalSessionObject(input: {
  id: string;
  created: number;
  customer: string;
  returnUrl: string | null;
  url: string;
}): PortalSessionObject {
  return {
    id: input.id,
    object: 'billing_portal.session',
    configuration: 'bpc_local_default',
    created: input.created,
    customer: input.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: input.returnUrl,
    url: input.url,
  };
}

export interface StripeEventObject {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  data: { object: { id: string; [key: string]: unknown }; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

/** Top-level keys whose values differ, with the old values: an update event's previous_attributes. */
export function previousAttributes(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = before[key] ?? null;
  }
  return out;
}

/** Add whole months (or years) in UTC, clamping the day like Stripe (Jan 31 + 1 month = Feb 28/29). */
export function addInterval(unixSeconds: number, interval: 'month' | 'year', count = 1): number {
  const d = new Date(unixSeconds * 1000);
  const months = interval === 'year' ? 12 * count : count;
  const day = d.getUTCDate();
  const target = new Date(
    Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}
