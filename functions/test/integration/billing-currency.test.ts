/**
 * Issue 29 item 3: prices in the customer's currency. A Spanish account sees the plans in
 * euros, its checkout is an EUR Checkout Session on the multi-currency price (the app checks
 * the price's EUR currency option first), the subscription, its invoices and the webhook events
 * are in euros, and the plans stay in euros through a plan change. An account elsewhere pays
 * dollars. Everything through the fake Stripe with the official SDK.
 */
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/contract/billing.js';
import { api, get, registerUser } from '../support/api.js';

const put = (path: string, body: unknown, token: string) => api('PUT', path, { body, token });
import { currentSubscription, startCheckout, subscriptionItem } from '../support/billing.js';
import { fakeStripe, stripeClient, stripePrices } from '../support/fake-stripe-client.js';

async function accountIn(country: string) {
  const user = await registerUser({ name: 'Clínica Peña' });
  const token = user.session.token;
  const saved = await put('/api/user/profile', { name: 'Clínica Peña', language: 'es', country }, token);
  expect(saved.status).toBe(200);
  return { token, userId: user.session.user._id };
}

const priced = async (token: string) => {
  const res = await get<Plan[]>('/api/subscription/plans', token);
  expect(res.status).toBe(200);
  return res.body.data!.map((p) => [p.id, p.price, p.currency]);
};

describe('prices in the account currency', () => {
  it('takes a Spanish account from euro plans through an EUR checkout to an EUR subscription, invoices and events', async () => {
    const { token, userId } = await accountIn('ES');
    const stripe = stripeClient();
    const prices = stripePrices();

    // The plans page's prices.
    expect(await priced(token)).toEqual([
      ['starter', 29, 'eur'],
      ['professional', 79, 'eur'],
      ['enterprise', 199, 'eur'],
    ]);

    // Checkout: the Checkout Session names the currency; the price was checked with its currency options.
    const { sessionId } = await startCheckout(token, 'professional');
    const [created] = (await fakeStripe().requests({ path: '/v1/checkout/sessions', method: 'POST' })).filter(
      (r) => r.params.client_reference_id === userId,
    );
    expect(created!.params).toMatchObject({ mode: 'subscription', currency: 'eur', line_items: [{ price: prices.professional, quantity: '1' }] });
    const checks = await fakeStripe().requests({ path: `/v1/prices/${prices.professional}`, method: 'GET' });
    expect(checks.some((r) => JSON.stringify(r.params.expand) === JSON.stringify(['currency_options']))).toBe(true);

    const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['line_items'] });
    expect(session.currency).toBe('eur');
    expect(session.line_items!.data[0]!.currency).toBe('eur');

    // The multi-currency price as Stripe serves it: currency_options only when expanded.
    const plain = await stripe.prices.retrieve(prices.professional);
    expect(plain.currency).toBe('usd');
    expect(plain.currency_options).toBeUndefined();
    const expanded = await stripe.prices.retrieve(prices.professional, { expand: ['currency_options'] });
    expect(expanded.currency_options?.eur?.unit_amount).toBe(7900);
    expect(expanded.currency_options?.usd?.unit_amount).toBe(7900);

    // Pay: the subscription is in euros, and so are the events the app received.
    const paid = await fakeStripe().payCheckout(sessionId);
    expect(paid.subscription!.currency).toBe('eur');
    const customer = String(paid.session.customer);
    const deliveries = await fakeStripe().deliveries({ customer, settled: true });
    expect(deliveries.map((d) => d.type)).toEqual(expect.arrayContaining(['customer.subscription.created', 'checkout.session.completed', 'invoice.paid']));
    for (const delivery of deliveries) {
      expect(delivery.state).toBe('delivered');
      const event = await stripe.events.retrieve(delivery.eventId);
      expect((event.data.object as { currency?: string }).currency, event.type).toBe('eur');
    }
    expect(await subscriptionItem(userId)).toMatchObject({ currency: 'eur', plan: 'professional', status: 'trialing' });

    // The billing page's plan and price.
    expect(await currentSubscription(token)).toMatchObject({ plan: 'professional' });
    expect((await priced(token))[1]).toEqual(['professional', 79, 'eur']);

    // A renewal charges 79 € (an EUR invoice).
    await fakeStripe().renew(paid.subscription!.id);
    const invoices = await stripe.invoices.list({ subscription: paid.subscription!.id });
    expect(invoices.data.map((i) => [i.currency, i.amount_paid])).toEqual([
      ['eur', 7900],
      ['eur', 0],
    ]);

    // A plan change keeps the subscription's currency: the next renewal is 199 €.
    const changed = await put('/api/subscription/plan', { plan: 'enterprise' }, token);
    expect(changed.status).toBe(200);
    const after = await stripe.subscriptions.retrieve(paid.subscription!.id);
    expect([after.currency, after.items.data[0]!.price.id]).toEqual(['eur', prices.enterprise]);
    await fakeStripe().renew(paid.subscription!.id);
    const [latest] = (await stripe.invoices.list({ subscription: paid.subscription!.id })).data;
    expect([latest!.currency, latest!.amount_paid]).toEqual(['eur', 19900]);
    expect((await priced(token))[2]).toEqual(['enterprise', 199, 'eur']);
  });

  it('keeps dollars for an account in Mexico, also in the Spanish UI', async () => {
    const { token, userId } = await accountIn('MX');
    expect(await priced(token)).toEqual([
      ['starter', 29, 'usd'],
      ['professional', 79, 'usd'],
      ['enterprise', 199, 'usd'],
    ]);
    const { sessionId } = await startCheckout(token, 'starter');
    const paid = await fakeStripe().payCheckout(sessionId);
    expect(paid.subscription!.currency).toBe('usd');
    expect(await subscriptionItem(userId)).toMatchObject({ currency: 'usd' });

    // Moving the account to Spain does not move a live subscription's currency (Stripe cannot).
    expect((await put('/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES' }, token)).status).toBe(200);
    expect((await priced(token)).map((p) => p[2])).toEqual(['usd', 'usd', 'usd']);
  });

  it('answers Stripe\'s 400 for a currency the price has no option for (the fake as Stripe)', async () => {
    const stripe = stripeClient();
    const customer = await stripe.customers.create({ email: 'gbp@example.com' });
    await expect(
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        currency: 'gbp',
        line_items: [{ price: stripePrices().starter, quantity: 1 }],
        success_url: 'http://localhost/ok',
      }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, param: 'currency' });
  });
});
