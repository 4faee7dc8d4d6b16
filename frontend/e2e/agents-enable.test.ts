/**
 * New agents start disabled until they have instructions (issue 19), in the Spanish UI: the list's
 * switch and the detail page's 'Activar' are disabled and say why; once instructions are saved the
 * agent can be enabled.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Agent } from '@agentdesk/functions/contract';
import { callApi, eventually, newPage, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();
const WHY = 'Añade instrucciones en Detalles del agente antes de activarlo';

describe('enabling a new agent', () => {
  it('waits for instructions, and says so', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'enable');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    const agent = await callApi<Agent>(page, 'POST', '/api/agents', { name: 'Recepción' });
    expect(agent.enabled).toBe(false);

    await page.goto(`${appUrl}/agents`);
    const toggle = page.getByRole('switch', { name: 'Activar o desactivar Recepción' });
    await eventually(() => toggle.count()).toBe(1);
    expect(await toggle.isDisabled()).toBe(true);
    expect(await toggle.getAttribute('aria-describedby').then((id) => page.locator(`[id="${id}"]`).textContent())).toBe(WHY);

    await page.goto(`${appUrl}/agents/${agent._id}`);
    const enable = page.getByRole('button', { name: 'Activar', exact: true });
    await eventually(() => enable.count()).toBe(1);
    expect(await enable.isDisabled()).toBe(true);
    await enable.locator('xpath=..').hover();
    await eventually(() => page.getByRole('tooltip').textContent()).toBe(WHY);

    // With instructions saved, Activar works.
    await callApi(page, 'PUT', `/api/agents/${agent._id}`, { instructions: 'Responde con amabilidad y brevedad.' });
    await page.reload();
    await eventually(() => enable.isEnabled()).toBe(true);
    await enable.click();
    await eventually(() => page.getByText('Agente activado correctamente').count()).toBe(1);
    expect((await callApi<Agent>(page, 'GET', `/api/agents/${agent._id}`)).enabled).toBe(true);
    await page.context().close();
  });
});
