/**
 * Onboarding-only mode (issue 19: a user with no subscription saw the full sidebar on /subscription
 * while every link sent them back to onboarding), in the Spanish UI: the sidebar offers only
 * onboarding, the subscription page and logout; no bell or profile link.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { ONBOARDING_HEADING, callApi, eventually, newPage, pathOf, register, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const mailboxUrl = inject('mailboxUrl');

const browser = useBrowser();

describe('without a subscription', () => {
  it('the sidebar shows only onboarding, subscription and logout', async () => {
    const page = await newPage(browser());
    await register(page, appUrl, mailboxUrl, `nosub+${randomUUID().slice(0, 8)}@example.com`);
    await eventually(() => page.getByRole('heading', { name: ONBOARDING_HEADING }).count()).toBe(1);
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Lucía Muñoz', language: 'es' });

    await page.goto(`${appUrl}/subscription`);
    const nav = page.getByRole('navigation', { name: 'Navegación principal' });
    await eventually(() => nav.getByRole('link').count()).toBe(2);
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Empezar', 'Suscripción']);
    expect(await page.getByTestId('nav-logout').textContent()).toBe('Cerrar sesión');
    expect(await page.getByTestId('notification-bell').count()).toBe(0);
    expect(await page.locator('a[href="/profile"]').count()).toBe(0);

    // 'Empezar' opens onboarding (the plan choice's story), no bounce.
    await nav.getByRole('link', { name: 'Empezar' }).click();
    await eventually(() => pathOf(page)).toBe('/onboarding');
    await eventually(() => page.getByTestId('nav-logout').count()).toBe(0);
    await page.context().close();
  });
});
