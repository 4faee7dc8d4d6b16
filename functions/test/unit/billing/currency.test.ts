/** Issue 29: the currency an account sees and pays, chosen by its country; the plan table in that currency. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { amountIn } from '../../../src/adapters/stripe/gateway.js';
import { toSubscriptionState } from '../../../src/adapters/stripe/shapes.js';
import { createBillingService } from '../../../src/domain/billing/billing-service.js';
import { billingServerMessages } from '../../../src/domain/billing/messages.js';
import { accountCurrency, currencyForCountry } from '../../../src/domain/billing/currency.js';
import { PLAN_PRICES, PLANS, planAmountMinor, plansIn } from '../../../src/domain/billing/plans.js';
import { createSubscriptionService } from '../../../src/domain/billing/subscription-service.js';
import { FakeClock, FakeGateway, MemorySubscriptions, MemoryUsage, silentLog, subState } from './fakes.js';

describe('currency by country', () => {
  it('charges euros in Spain, the euro area and the places that use the euro', () => {
    for (const country of ['ES', 'es', ' FR ', 'DE', 'IT', 'PT', 'IE', 'NL', 'BG', 'HR', 'AD', 'MC', 'RE', 'GP'])
      expect(currencyForCountry(country), country).toBe('eur');
  });

  it('keeps dollars elsewhere: the US, Latin America, the EU countries outside the euro', () => {
    for (const country of ['US', 'MX', 'AR', 'CO', 'CL', 'PE', 'EC', 'SV', 'PA', 'BR', 'GB', 'PL', 'SE', 'DK', 'CH', 'XX', '', null, undefined])
      expect(currencyForCountry(country), String(country)).toBe('usd');
  });

  it("follows the live subscription's currency over the country's (Stripe keeps a subscription's currency)", () => {
    expect(accountCurrency('ES', undefined)).toBe('eur');
    expect(accountCurrency('ES', 'usd')).toBe('usd');
    expect(accountCurrency('US', 'EUR')).toBe('eur');
    // A currency we do not sell in is not ours to show: the country decides.
    expect(accountCurrency('ES', 'gbp')).toBe('eur');
  });
});

describe('plan table', () => {
  it('has an amount per plan in every currency and prices the plans in it', () => {
    expect(PLAN_PRICES).toEqual({ starter: { usd: 29, eur: 29 }, professional: { usd: 79, eur: 79 }, enterprise: { usd: 199, eur: 199 } });
    expect(plansIn('eur').map((p) => [p.id, p.price, p.currency])).toEqual([
      ['starter', 29, 'eur'],
      ['professional', 79, 'eur'],
      ['enterprise', 199, 'eur'],
    ]);
    expect(plansIn('usd').map((p) => [p.id, p.price, p.currency])).toEqual(PLANS.map((p) => [p.id, p.price, 'usd']));
    expect(planAmountMinor('professional', 'eur')).toBe(7900);
  });

  it('says exactly what the server enforces on API keys, on every plan', () => {
    for (const plan of PLANS) {
      expect(plan.features).toContain('API access with up to 20 API keys');
      expect(plan.features.join(' ')).not.toMatch(/contacts|messages|minutes/);
    }
  });
});

describe('plan texts in Spanish', () => {
  it('has every plan description and feature and every billing message in the UI\'s Spanish catalogue', () => {
    const es = JSON.parse(readFileSync(new URL('../../../../frontend/src/features/billing/i18n/es-server.json', import.meta.url), 'utf8')) as Record<string, string>;
    const texts = [...PLANS.flatMap((p) => [p.description, ...p.features]), billingServerMessages.currencyUnavailable];
    expect(texts.filter((t) => !es[t])).toEqual([]);
  });
});

describe('the account currency in the services', () => {
  function setup(countries: Record<string, string>) {
    const subscriptions = new MemorySubscriptions();
    const gateway = new FakeGateway();
    const accountCountry = async (userId: string) => countries[userId] ?? 'US';
    const profiles = { get: async (userId: string) => ({ email: `${userId}@example.com`, name: 'Ana' }) };
    const billing = createBillingService({
      subscriptions,
      gateway,
      profiles,
      accountCountry,
      clock: new FakeClock(),
      log: silentLog,
      appUrl: 'https://app.test',
      seats: { used: async () => 1 },
    });
    const subscription = createSubscriptionService({ subscriptions, usage: new MemoryUsage(), accountCountry });
    return { subscriptions, gateway, billing, subscription };
  }

  it('starts a Spanish checkout in euros and an American one in dollars', async () => {
    const { billing, gateway } = setup({ 'user-es': 'ES', 'user-mx': 'MX' });
    await billing.checkout('user-es', 'professional');
    await billing.checkout('user-mx', 'professional');
    await billing.checkout('user-us', 'starter');
    expect(gateway.callsOf('createCheckoutSession').map((c) => (c.args[0] as { userId: string; currency: string }).currency)).toEqual([
      'eur',
      'usd',
      'usd',
    ]);
  });

  it("lists the plans in the account's currency, and in its subscription's once it has one", async () => {
    const { subscription, subscriptions } = setup({ 'user-1': 'ES' });
    expect((await subscription.plans('user-1')).map((p) => `${p.price} ${p.currency}`)).toEqual(['29 eur', '79 eur', '199 eur']);
    expect((await subscription.plans('user-2')).map((p) => `${p.price} ${p.currency}`)).toEqual(['29 usd', '79 usd', '199 usd']);

    // Subscribed in dollars before moving to Spain: plan changes stay in dollars.
    await subscriptions.saveState('user-1', { state: { ...subState(), plan: 'starter', currency: 'usd' }, created: 1, ended: false, updatedAt: 'now' }, null);
    expect((await subscription.plans('user-1')).map((p) => p.currency)).toEqual(['usd', 'usd', 'usd']);
    // Once that subscription ended, a new one starts in the country's currency.
    await subscriptions.saveState(
      'user-1',
      { state: { ...subState({ status: 'canceled' }), plan: 'starter', currency: 'usd' }, created: 2, ended: true, updatedAt: 'now' },
      1,
    );
    expect((await subscription.plans('user-1')).map((p) => p.currency)).toEqual(['eur', 'eur', 'eur']);
  });
});

describe('Stripe shapes', () => {
  it("reads a multi-currency price's amount in a currency from its currency_options", () => {
    const price = { currency: 'usd', unit_amount: 7900, currency_options: { usd: { unit_amount: 7900 }, eur: { unit_amount: 7900 } } };
    expect(amountIn(price, 'eur')).toBe(7900);
    expect(amountIn(price, 'usd')).toBe(7900);
    expect(amountIn({ currency: 'usd', unit_amount: 7900 }, 'usd')).toBe(7900);
    // Not expanded, or no EUR option: the price cannot charge euros.
    expect(amountIn({ currency: 'usd', unit_amount: 7900 }, 'eur')).toBeNull();
    expect(amountIn({ currency: 'usd', unit_amount: 7900, currency_options: { usd: { unit_amount: 7900 } } }, 'eur')).toBeNull();
  });

  it("keeps the subscription's currency", () => {
    const state = toSubscriptionState({ id: 'sub_1', customer: 'cus_1', status: 'active', currency: 'EUR', items: { data: [] } }, {
      starter: 'p_s',
      professional: 'p_p',
      enterprise: 'p_e',
    });
    expect(state.currency).toBe('eur');
  });
});
