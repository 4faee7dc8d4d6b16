/**
 * WCAG AA on the main screens (issue 19: several badges and the 'Disable' button were below AA
 * contrast), in the Spanish UI: axe-core (frontend/e2e/axe.ts) finds no serious or critical
 * violation on the dashboard, agents list, every agent tab, contacts, conversations, voice,
 * integrations, profile, subscription and API keys of a subscribed owner with an agent.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Agent } from '@agentdesk/functions/contract';
import { axePage, seriousViolations, type AxeFinding } from './axe.js';
import { callApi, chatGptAndAgent, eventually, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

describe('accessibility (axe, WCAG 2.1 AA)', () => {
  it('finds no serious or critical violation on the main screens in Spanish', async () => {
    const page = await axePage(browser());
    await subscribedUser(page, 'a11y');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    await chatGptAndAgent(page, { name: 'Recepción', description: 'Atiende a los pacientes', objective: 'Dar citas y precios' });
    // One disabled agent too: its badge, overlay and the Enable button's explanation are on screen.
    await callApi(page, 'POST', '/api/agents', { name: 'Borrador' });
    await callApi(page, 'POST', '/api/contacts', { name: 'Lucía Muñoz', phoneNumber: '+34600111333' });
    const [agent] = await callApi<Agent[]>(page, 'GET', '/api/agents');

    const screens = [
      '/',
      '/agents',
      ...['details', 'files', 'urls', 'tools', 'knowledge', 'test'].map((tab) => `/agents/${agent!._id}?tab=${tab}`),
      '/contacts',
      '/conversations',
      '/voice-conversations',
      '/voice-settings',
      '/integrations',
      '/profile',
      '/subscription',
      '/api-keys',
    ];
    const found: Record<string, AxeFinding[]> = {};
    await page.goto(`${appUrl}/`);
    for (const path of screens) {
      // In-app navigation (as the sidebar does): no reload, axe stays injected.
      await page.evaluate((to) => {
        window.history.pushState({}, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await eventually(() => `${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(path);
      // The page's own heading is up and its first data has loaded (no spinner in the content).
      await eventually(async () => `${await page.locator('main h1').count()} ${path}: ${(await page.locator('main').innerText()).slice(0, 200)}`).toMatch(/^[1-9]/);
      await eventually(() => page.locator('main .MuiCircularProgress-root, main .MuiSkeleton-root').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.lang), path).toBe('es');
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[path] = violations;
    }

    expect(found).toEqual({});
    await page.context().close();
  });
});
