import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { toBillingEvent, verifyStripeEvent } from '../../../src/adapters/stripe/events.js';
import { toDomainError } from '../../../src/adapters/stripe/gateway.js';
import { BadGatewayError, NotFoundError, PaymentRequiredError, ValidationError } from '../../../src/domain/errors.js';

const prices = { starter: 'price_s', professional: 'price_p', enterprise: 'price_e' };
const secret = 'whsec_unit_test';

function subscriptionEvent(type: string, status = 'trialing') {
  return {
    id: 'evt_1',
    object: 'event',
    type,
    created: 1_770_000_000,
    data: {
      object: {
        id: 'sub_1',
        object: 'subscription',
        customer: 'cus_1',
        status,
        cancel_at_period_end: false,
        trial_end: 1_770_432_000,
        metadata: { userId: 'user-1' },
        items: {
          object: 'list',
          data: [{ id: 'si_1', price: { id: 'price_p' }, current_period_start: 1_770_000_000, current_period_end: 1_770_432_000 }],
        },
      },
    },
  };
}

describe('Stripe webhook signature', () => {
  const payload = JSON.stringify(subscriptionEvent('customer.subscription.created'));

  it('accepts a body signed with the secret by the SDK helper', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    const checked = verifyStripeEvent(Buffer.from(payload), header, secret);
    expect('event' in checked && checked.event.id).toBe('evt_1');
  });

  it('refuses a forged, tampered, stale or missing signature', () => {
    const refused = { refused: 'signature' };
    const forged = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect(verifyStripeEvent(Buffer.from(payload), forged, secret)).toEqual(refused);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
    expect(verifyStripeEvent(Buffer.from(payload.replace('trialing', 'active')), header, secret)).toEqual(refused);
    const stale = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(verifyStripeEvent(Buffer.from(payload), stale, secret)).toEqual(refused);
    expect(verifyStripeEvent(Buffer.from(payload), undefined, secret)).toEqual(refused);
    expect(verifyStripeEvent(Buffer.from(payload), header, '')).toEqual(refused);
  });

  it('tells a correctly signed body that is not JSON, or JSON that is not an event, from a bad signature', () => {
    const sign = (body: string) => Stripe.webhooks.generateTestHeaderString({ payload: body, secret });
    for (const body of ['not json', '{"id":"evt_1",', ''])
      expect(verifyStripeEvent(Buffer.from(body), sign(body), secret), body).toEqual({ refused: 'not_json' });
    for (const body of ['null', '42', '"evt_1"', '[]', '{}', '{"id":"evt_1"}', '{"id":1,"type":"x"}'])
      expect(verifyStripeEvent(Buffer.from(body), sign(body), secret), body).toEqual({ refused: 'not_event' });
  });
});

describe('Stripe event translation', () => {
  it('reads the period from the subscription item and the plan from the price', () => {
    const event = toBillingEvent(subscriptionEvent('customer.subscription.updated', 'incomplete') as unknown as Stripe.Event, prices);
    expect(event).toEqual({
      kind: 'subscription',
      id: 'evt_1',
      type: 'customer.subscription.updated',
      created: 1_770_000_000,
      deleted: false,
      state: {
        subscriptionId: 'sub_1',
        customerId: 'cus_1',
        plan: 'professional',
        status: 'unpaid',
        providerStatus: 'incomplete',
        currentPeriodStart: new Date(1_770_000_000_000).toISOString(),
        currentPeriodEnd: new Date(1_770_432_000_000).toISOString(),
        cancelAtPeriodEnd: false,
        trialEnd: new Date(1_770_432_000_000).toISOString(),
        userId: 'user-1',
      },
    });
  });

  it('finds an invoice\'s subscription under parent.subscription_details and ignores other types', () => {
    const invoice = {
      id: 'evt_2',
      type: 'invoice.payment_failed',
      created: 5,
      data: { object: { id: 'in_1', customer: 'cus_1', parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } } } },
    };
    expect(toBillingEvent(invoice as unknown as Stripe.Event, prices)).toMatchObject({
      kind: 'invoice',
      paid: false,
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
    });
    expect(toBillingEvent({ id: 'evt_3', type: 'charge.succeeded', created: 1, data: { object: {} } } as unknown as Stripe.Event, prices)).toBeNull();
  });
});

describe('Stripe event translation across API versions', () => {
  const invoiceEvent = (type: string, object: Record<string, unknown>) =>
    ({ id: 'evt_i', type, created: 7, data: { object: { id: 'in_1', object: 'invoice', customer: 'cus_1', ...object } } }) as unknown as Stripe.Event;

  it('finds the subscription of an invoice in the pre-2025 shape (an id or an expanded object), for every invoice type', () => {
    expect(toBillingEvent(invoiceEvent('invoice.payment_failed', { subscription: 'sub_old' }), prices)).toMatchObject({ kind: 'invoice', paid: false, subscriptionId: 'sub_old' });
    expect(toBillingEvent(invoiceEvent('invoice.paid', { subscription: { id: 'sub_obj', object: 'subscription' } }), prices)).toMatchObject({ paid: true, subscriptionId: 'sub_obj' });
    expect(toBillingEvent(invoiceEvent('invoice.payment_succeeded', { subscription: 'sub_old', parent: null }), prices)).toMatchObject({ paid: true, subscriptionId: 'sub_old' });
    expect(toBillingEvent(invoiceEvent('invoice.paid', { parent: null }), prices)).toMatchObject({ subscriptionId: null });
  });

  it('reads the period from the subscription when its items carry none (pre-2025 shape)', () => {
    const old = subscriptionEvent('customer.subscription.updated', 'active');
    const object = old.data.object as Record<string, unknown> & { items: { data: Record<string, unknown>[] } };
    object.items.data = [{ id: 'si_1', price: { id: 'price_s' } }];
    object.current_period_start = 1_760_000_000;
    object.current_period_end = 1_762_592_000;
    expect(toBillingEvent(old as unknown as Stripe.Event, prices)).toMatchObject({
      kind: 'subscription',
      state: { plan: 'starter', status: 'active', currentPeriodStart: new Date(1_760_000_000_000).toISOString(), currentPeriodEnd: new Date(1_762_592_000_000).toISOString() },
    });
  });

  it('refuses a handled event whose object fits no shape with a 400 error', () => {
    const broken = { id: 'evt_b', type: 'customer.subscription.updated', created: 1, data: { object: { id: 'sub_1', status: 42 } } };
    expect(() => toBillingEvent(broken as unknown as Stripe.Event, prices)).toThrow(ValidationError);
  });
});

describe('Stripe errors', () => {
  it('become clear domain errors without Stripe internals', () => {
    const card = new Stripe.errors.StripeCardError({ message: 'Your card was declined.', type: 'card_error' });
    expect(toDomainError(card)).toBeInstanceOf(PaymentRequiredError);
    const missing = new Stripe.errors.StripeInvalidRequestError({ message: 'No such checkout.session: cs_x', type: 'invalid_request_error', code: 'resource_missing', statusCode: 404 } as never);
    expect(toDomainError(missing, 'Checkout session not found')).toEqual(new NotFoundError('Checkout session not found'));
    const down = new Stripe.errors.StripeConnectionError({ message: 'ECONNREFUSED 127.0.0.1', type: 'api_connection_error' } as never);
    const mapped = toDomainError(down);
    expect(mapped).toBeInstanceOf(BadGatewayError);
    expect(mapped.message).not.toContain('127.0.0.1');
  });
});
