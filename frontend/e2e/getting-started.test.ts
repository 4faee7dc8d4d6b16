/**
 * The getting-started checklist in the Spanish UI (issue 19): a new owner sees "Primeros pasos"
 * with the six steps to do, follows the first step's link to Integrations, connects ChatGPT in
 * its dialog, comes back to the dashboard and sees that step ticked (from the server's real
 * state, not from the click); "Ocultar" hides the checklist (also after a reload) and "Mostrar
 * primeros pasos" in the dashboard's header brings it back. axe-core (the shared ./axe.ts) finds no
 * serious WCAG AA violation in the checklist, before and after the tick.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { callApi, eventually, newPage, pathOf, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const CHECKLIST = '[data-testid="getting-started"]';

describe('getting-started checklist (Spanish UI)', () => {
  it('a new account follows the first step, completes it and sees it ticked; Ocultar hides the list, Mostrar primeros pasos brings it back', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'primeros-pasos');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });

    // A new account: every step to do, each with its link.
    await page.goto(`${appUrl}/`);
    const checklist = page.getByTestId('getting-started');
    await eventually(() => checklist.getByRole('heading', { name: 'Primeros pasos' }).count()).toBe(1);
    expect(await page.getByTestId('getting-started-progress').textContent()).toBe('0 de 6 completados');
    for (const step of ['chatgpt', 'agent', 'knowledge', 'channel', 'test', 'bookings']) {
      expect(await page.getByTestId(`getting-started-${step}`).getAttribute('data-done')).toBe('false');
    }
    expect(await checklist.getByText('1. Conecta ChatGPT').count()).toBe(1);
    expect(await checklist.getByText('5. Prueba tu agente').count()).toBe(1);
    expect(await checklist.getByText('6. Configura tus citas').count()).toBe(1);
    expect(await seriousViolations(page, CHECKLIST)).toEqual([]);

    // The first step's link: Integrations, where ChatGPT is connected in its dialog.
    await page.getByTestId('getting-started-chatgpt').getByRole('link', { name: 'Ir a Integraciones' }).click();
    await eventually(() => pathOf(page)).toBe('/integrations');
    const card = page.getByTestId('integration-chatgpt');
    await eventually(() => card.getByRole('button', { name: 'Conectar' }).count()).toBe(1);
    await card.getByRole('button', { name: 'Conectar' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Clave de API' }).fill(`sk-e2e-${randomBytes(8).toString('hex')}`);
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => page.getByText('Integración de ChatGPT configurada correctamente').count()).toBeGreaterThan(0);

    // Back on the dashboard (in-app navigation, no reload): the step is ticked, the others are not.
    await page.goBack();
    await eventually(() => pathOf(page)).toBe('/');
    await eventually(() => page.getByTestId('getting-started-chatgpt').getAttribute('data-done')).toBe('true');
    expect(await page.getByTestId('getting-started-chatgpt').getByText('Hecho').count()).toBe(1);
    expect(await page.getByTestId('getting-started-chatgpt').getByRole('link').count()).toBe(0);
    expect(await page.getByTestId('getting-started-agent').getAttribute('data-done')).toBe('false');
    expect(await page.getByTestId('getting-started-progress').textContent()).toBe('1 de 6 completados');
    expect(await seriousViolations(page, CHECKLIST)).toEqual([]);

    // Ocultar: gone now and after a reload (stored on the server).
    await checklist.getByRole('button', { name: 'Ocultar la lista de primeros pasos' }).click();
    await eventually(() => page.getByTestId('getting-started').count()).toBe(0);
    await page.reload();
    await eventually(() => page.getByRole('heading', { name: 'Panel', level: 1 }).count()).toBe(1);
    await eventually(() => page.getByTestId('stat-totalCalls').count()).toBe(1);
    expect(await page.getByTestId('getting-started').count()).toBe(0);
    expect((await callApi<{ hidden: boolean }>(page, 'GET', '/api/dashboard/getting-started')).hidden).toBe(true);

    // The way back: "Mostrar primeros pasos" in the dashboard's header shows it again, as it was.
    await page.getByRole('button', { name: 'Mostrar primeros pasos' }).click();
    await eventually(() => checklist.getByRole('heading', { name: 'Primeros pasos' }).count()).toBe(1);
    // Keyboard focus lands on the checklist (the button it was on is gone).
    await eventually(() => page.evaluate(() => document.activeElement?.id)).toBe('getting-started-title');
    expect(await page.getByTestId('getting-started-progress').textContent()).toBe('1 de 6 completados');
    expect(await page.getByRole('button', { name: 'Mostrar primeros pasos' }).count()).toBe(0);
    expect((await callApi<{ hidden: boolean }>(page, 'GET', '/api/dashboard/getting-started')).hidden).toBe(false);
  });

  it('says when the steps cannot be read, and Reintentar loads them', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'primeros-pasos-error');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    await page.route('**/api/dashboard/getting-started', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Service Unavailable' }) }),
    );

    await page.goto(`${appUrl}/`);
    const error = page.getByTestId('getting-started-error');
    await eventually(() => error.count()).toBe(1);
    expect(await error.getByText('No se pudieron cargar los primeros pasos.').count()).toBe(1);
    // The dashboard's own figures are not held back by the checklist's failure.
    await eventually(() => page.getByTestId('stat-totalCalls').count()).toBe(1);
    await page.unroute('**/api/dashboard/getting-started');
    await error.getByRole('button', { name: 'Reintentar' }).click();

    await eventually(() => page.getByTestId('getting-started').getByRole('heading', { name: 'Primeros pasos' }).count()).toBe(1);
    expect(await page.getByTestId('getting-started-error').count()).toBe(0);
  });
});
