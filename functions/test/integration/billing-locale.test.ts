/**
 * Issue 29: Stripe Checkout speaks the account's language. The app creates the Checkout Session
 * with `locale` from the account ('es' for a Spanish account, 'en' otherwise), whatever the
 * browser's language; the fake Stripe takes Stripe's documented locales (400 for others) and
 * renders its checkout page in the session's language ('auto': the browser's). Through the
 * official SDK against the fake.
 */
import { describe, expect, it } from 'vitest';
import { api, registerUser } from '../support/api.js';
import { startCheckout } from '../support/billing.js';
import { fakeStripe, stripeClient, stripePrices } from '../support/fake-stripe-client.js';

async function account(language: 'en' | 'es', country: string) {
  const user = await registerUser({ name: 'Clínica Peña' });
  const token = user.session.token;
  const saved = await api('PUT', '/api/user/profile', { body: { name: 'Clínica Peña', language, country }, token });
  expect(saved.status).toBe(200);
  return { token, userId: user.session.user._id };
}

/** The hosted checkout page as a browser with this Accept-Language gets it. */
async function checkoutHtml(url: string, acceptLanguage: string): Promise<string> {
  const res = await fetch(url, { headers: { 'accept-language': acceptLanguage } });
  expect(res.status).toBe(200);
  return (await res.text()).replace(/\s/g, ' ');
}

/** What the app asked Stripe for this user's checkout. */
async function createdFor(userId: string) {
  const created = (await fakeStripe().requests({ path: '/v1/checkout/sessions', method: 'POST' })).filter((r) => r.params.client_reference_id === userId);
  expect(created).toHaveLength(1);
  return created[0]!.params;
}

describe('Stripe Checkout in the account language', () => {
  it('a Spanish account gets a Spanish checkout (locale es) even in an English browser, and a Spanish completed page', async () => {
    const { token, userId } = await account('es', 'ES');
    const { sessionId, url } = await startCheckout(token, 'professional');
    expect(await createdFor(userId)).toMatchObject({ locale: 'es', currency: 'eur' });
    const session = await stripeClient().checkout.sessions.retrieve(sessionId);
    expect(session.locale).toBe('es');

    const html = await checkoutHtml(url, 'en-US,en;q=0.9');
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Suscríbete a Professional');
    // The amount in the session's language, not the English browser's format.
    expect(html).toContain('79,00 € al mes');
    expect(html).toContain('5 días de prueba gratis');
    expect(html).toContain('>Pagar</button>');
    expect(html).toContain('>Cancelar</a>');
    expect(html).toContain('Modo de prueba: no se cobra nada');
    expect(html).not.toMatch(/>Pay<|Subscribe to|per month|free trial/);

    await fakeStripe().payCheckout(sessionId);
    const done = await checkoutHtml(url, 'en-US');
    expect(done).toContain('Pago completado');
    expect(done).toContain('Continuar en AgentDesk');
  });

  it('an English account gets an English checkout (locale en) even in a Spanish browser', async () => {
    const { token, userId } = await account('en', 'US');
    const { sessionId, url } = await startCheckout(token, 'starter');
    expect(await createdFor(userId)).toMatchObject({ locale: 'en', currency: 'usd' });
    expect((await stripeClient().checkout.sessions.retrieve(sessionId)).locale).toBe('en');

    const html = await checkoutHtml(url, 'es-ES,es;q=0.9');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Subscribe to Starter');
    expect(html).toContain('$29.00 per month');
    expect(html).toContain('5-day free trial');
    expect(html).toContain('>Pay</button>');
    expect(html).not.toMatch(/Pagar|Suscríbete/);
  });

  it('takes Stripe\'s documented locales (auto follows the browser) and answers Stripe\'s 400 for any other', async () => {
    const stripe = stripeClient();
    const customer = await stripe.customers.create({ email: 'locale@example.com' });
    const create = (locale: string) =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer: customer.id,
        currency: 'eur',
        // An unknown value is sent as it is: the SDK's type lists the documented ones.
        locale: locale as 'auto',
        line_items: [{ price: stripePrices().starter, quantity: 1 }],
        success_url: 'http://localhost/ok',
      });

    const auto = await create('auto');
    expect(auto.locale).toBe('auto');
    expect(await checkoutHtml(auto.url!, 'es-ES,es;q=0.9')).toContain('>Pagar</button>');
    expect(await checkoutHtml(auto.url!, 'en-GB')).toContain('>Pay</button>');

    // Latin American Spanish: Spanish texts, amounts in the Mexican browser's format.
    const latam = await create('es-419');
    const mx = await checkoutHtml(latam.url!, 'es-MX');
    expect(mx).toContain('>Pagar</button>');
    expect(mx).toContain('EUR 29.00');

    for (const bad of ['xx', 'es-ES']) {
      await expect(create(bad), bad).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, param: 'locale' });
    }
  });
});
