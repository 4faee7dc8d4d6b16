/**
 * Plan changes confirm (issue 19: 'Upgrade' changed the plan to a higher price at once), in the
 * Spanish UI: a Starter subscriber (paid through the local test checkout) presses 'Mejorar' on
 * Profesional, sees the new price per month in the locale's currency format and the limits and
 * features that change; Cancel changes nothing, Confirm changes the plan.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Subscription } from '@agentdesk/functions/contract';
import { ONBOARDING_HEADING, callApi, eventually, newPage, register, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');

const browser = useBrowser();

describe('changing plan', () => {
  it('asks for confirmation with the new price and what changes, in Spanish', async () => {
    const page = await newPage(browser());
    await register(page, appUrl, mailboxUrl, `plan+${randomUUID().slice(0, 8)}@example.com`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
    // Starter through the local billing mode's test checkout; then the account speaks Spanish.
    const { url } = await callApi<{ url: string }>(page, 'POST', '/api/subscription/checkout', { plan: 'starter' });
    await page.goto(url);
    await page.getByRole('button', { name: 'Pay' }).click();
    await eventually(() => new URL(page.url()).pathname).toBe('/subscription/success');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    const plan = async () => (await callApi<Subscription>(page, 'GET', '/api/subscription/current')).plan;
    await eventually(plan).toBe('starter');

    await page.goto(`${appUrl}/subscription`);
    await page.getByRole('tab', { name: 'Ajustes' }).click();
    const professional = page.getByRole('region', { name: 'Profesional' });
    await professional.getByRole('button', { name: 'Mejorar' }).click();

    // The dialog: the new price per month (Intl, es-ES: '79 US$'), the limits and features that change.
    const dialog = page.getByRole('dialog', { name: '¿Mejorar a Profesional?' });
    await eventually(() => dialog.count()).toBe(1);
    expect((await dialog.getByTestId('plan-change-price').textContent())?.replace(/\s/g, ' ')).toBe('Nuevo precio: 79 US$ al mes');
    const limits = await dialog.getByTestId('plan-change-limits').getByRole('listitem').allTextContents();
    expect(limits.map((l) => l.replace(/\s/g, ' '))).toEqual(['Contactos: 500 → 5000', 'Mensajes: 1000 → 10.000', 'Minutos de voz: 100 → 500', 'Miembros del equipo: 2 → 5']);
    expect(await dialog.getByTestId('plan-change-added').getByRole('listitem').count()).toBeGreaterThan(0);

    // Cancel: nothing changed.
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await eventually(() => dialog.count()).toBe(0);
    expect(await plan()).toBe('starter');

    // Confirm: the plan changes.
    await professional.getByRole('button', { name: 'Mejorar' }).click();
    await dialog.getByRole('button', { name: 'Confirmar cambio' }).click();
    await eventually(plan).toBe('professional');
    await eventually(() => dialog.count()).toBe(0);
    await eventually(() => professional.getByRole('button', { name: 'Plan actual' }).count()).toBe(1);
    await page.context().close();
  });
});
