/**
 * Prices in the customer's currency (issue 29 item 3), in a Spanish browser (es-ES, Madrid): the
 * account signs up as a Spanish one, the plans page shows euros the Spanish way ('79 €', '/mes',
 * never 'US$' or 'USD') and the limits with Spanish grouping ('10.000 mensajes al mes'), the
 * test checkout charges euros, the billing page shows the plan in euros, and the plan-change
 * dialog lists what an upgrade gains — or, on a downgrade, only what is lost.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Plan, Subscription } from '@agentdesk/functions/contract';
import type { User } from '../../functions/src/contract/auth.js';
import { ONBOARDING_HEADING, callApi, eventually, newPage, register, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');
const browser = useBrowser();

const texts = (values: string[]) => values.map((v) => v.replace(/\s/g, ' ').trim());

describe('prices in euros for a Spanish account', () => {
  it('shows, charges and changes plans in euros, and the plan dialog says what is gained or lost', async () => {
    const page = await newPage(browser(), { locale: 'es-ES', timezoneId: 'Europe/Madrid' });
    // The shared sign-up steps speak English: English for the sign-up only (the browser stays es-ES).
    await page.goto(`${appUrl}/login`);
    await page.evaluate(() => localStorage.setItem('agentdesk.language', 'en'));
    await register(page, appUrl, mailboxUrl, `euros+${randomUUID().slice(0, 8)}@example.com`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
    expect((await callApi<User>(page, 'GET', '/api/me')).country).toBe('ES');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    expect((await callApi<Plan[]>(page, 'GET', '/api/subscription/plans')).map((p) => p.currency)).toEqual(['eur', 'eur', 'eur']);

    // The plans page: euros, Spanish number grouping, no currency codes.
    await page.goto(`${appUrl}/subscription`);
    const professional = page.getByRole('region', { name: 'Profesional' });
    await eventually(() => professional.count()).toBe(1);
    expect((await professional.textContent())?.replace(/\s/g, ' ')).toContain('79 €/mes');
    expect(await professional.getByText('10.000 mensajes al mes').count()).toBe(1);
    expect(await professional.getByText('Acceso a la API con hasta 20 claves de API').count()).toBe(1);
    const everything = (await page.locator('main').textContent()) ?? '';
    expect(everything).toContain('€');
    expect(everything).not.toMatch(/US\$|USD|\$/);

    // Checkout in euros on the local test checkout, in the account's language (locale 'es').
    await professional.getByRole('button', { name: 'Empezar' }).click();
    await eventually(() => page.getByRole('button', { name: 'Pagar' }).count()).toBe(1);
    expect(await page.locator('.price').getAttribute('data-currency')).toBe('eur');
    expect((await page.locator('.price').textContent())?.replace(/\s/g, ' ')).toContain('79,00 €');
    await page.getByRole('button', { name: 'Pagar' }).click();
    await eventually(() => new URL(page.url()).pathname).toBe('/subscription/success');
    const plan = async () => (await callApi<Subscription>(page, 'GET', '/api/subscription/current')).plan;
    await eventually(plan).toBe('professional');

    // The billing page: the plan's price in euros.
    await page.goto(`${appUrl}/subscription?tab=billing`);
    const details = page.getByRole('region', { name: 'Detalles de la suscripción' });
    await eventually(async () => ((await details.textContent()) ?? '').replace(/\s/g, ' ')).toContain('79 €/mes');
    expect((await page.locator('main').textContent()) ?? '').not.toMatch(/US\$|USD/);

    // Upgrade: only what is gained, numbers in Spanish.
    await page.goto(`${appUrl}/subscription?tab=settings`);
    const enterprise = page.getByRole('region', { name: 'Empresa' });
    await eventually(() => enterprise.getByRole('button', { name: 'Mejorar' }).count()).toBe(1);
    await enterprise.getByRole('button', { name: 'Mejorar' }).click();
    const up = page.getByRole('dialog', { name: '¿Mejorar a Empresa?' });
    await eventually(() => up.count()).toBe(1);
    expect((await up.getByTestId('plan-change-price').textContent())?.replace(/\s/g, ' ')).toBe('Nuevo precio: 199 € al mes');
    expect(await up.getByRole('heading', { name: 'Lo que ganas' }).count()).toBe(1);
    expect(texts(await up.getByTestId('plan-change-limits').getByRole('listitem').allTextContents())).toEqual([
      'Contactos: 5000 → Ilimitado',
      'Mensajes: 10.000 → Ilimitado',
      'Minutos de voz: 500 → Ilimitado',
      'Miembros del equipo: 5 → 20',
    ]);
    expect(texts(await up.getByTestId('plan-change-added').getByRole('listitem').allTextContents())).toEqual([
      'Puesta en marcha dedicada',
      'Gestor de cuenta dedicado',
    ]);
    expect(await up.getByRole('heading', { name: 'Lo que pierdes' }).count()).toBe(0);
    expect(await up.getByTestId('plan-change-removed').count()).toBe(0);
    await up.getByRole('button', { name: 'Cancelar' }).click();
    await eventually(() => up.count()).toBe(0);

    // Downgrade: only what is lost.
    const starter = page.getByRole('region', { name: 'Inicial' });
    await starter.getByRole('button', { name: 'Bajar de plan' }).click();
    const down = page.getByRole('dialog', { name: '¿Bajar a Inicial?' });
    await eventually(() => down.count()).toBe(1);
    expect((await down.getByTestId('plan-change-price').textContent())?.replace(/\s/g, ' ')).toBe('Nuevo precio: 29 € al mes');
    expect(await down.getByRole('heading', { name: 'Lo que pierdes' }).count()).toBe(1);
    expect(texts(await down.getByTestId('plan-change-limits').getByRole('listitem').allTextContents())).toEqual([
      'Contactos: 5000 → 500',
      'Mensajes: 10.000 → 1000',
      'Minutos de voz: 500 → 100',
      'Miembros del equipo: 5 → 2',
    ]);
    expect(texts(await down.getByTestId('plan-change-removed').getByRole('listitem').allTextContents())).toEqual(['Soporte prioritario']);
    expect(await down.getByRole('heading', { name: 'Lo que ganas' }).count()).toBe(0);
    expect(await down.getByTestId('plan-change-added').count()).toBe(0);

    // Confirm: the subscription stays in euros on the cheaper plan.
    await down.getByRole('button', { name: 'Confirmar cambio' }).click();
    await eventually(plan).toBe('starter');
    await eventually(() => starter.getByRole('button', { name: 'Plan actual' }).count()).toBe(1);
    expect((await starter.textContent())?.replace(/\s/g, ' ')).toContain('29 €/mes');
    await page.context().close();
  });
});
