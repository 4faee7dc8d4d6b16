/**
 * Issue 34 in a real browser, in Spanish: a web page that could not be read (it answered 404 the
 * first time) shows "Error" with the reason and a "Reprocesar" action; reprocessing it once the
 * page is back shows "Procesando..." and then "Completado", without leaving the tab.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { Agent } from '@agentdesk/functions/contract';
import { callApi, eventually, newPage, slowly, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const fixturesUrl = inject('webFixturesUrl');

/** A page on the allow-listed fixture server: 404 on its first read, then (slowly, so the progress shows) the page. */
async function pageBackAfterOne404(): Promise<string> {
  const path = `/e2e${randomBytes(6).toString('hex')}/horario`;
  const res = await fetch(`${fixturesUrl}/_fixtures/routes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      path,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: '<html><head><title>Horario</title></head><body><h1>Horario de atención</h1><p>Abrimos de lunes a viernes de nueve a siete y los sábados de diez a dos.</p></body></html>',
      sequence: [{ status: 404 }],
      delayMs: 1_500,
    }),
  });
  expect(res.ok).toBe(true);
  return `${fixturesUrl}${path}`;
}

const browser = useBrowser();

describe('reprocessing a page that failed, in Spanish', () => {
  it('shows the reason and Reprocesar, then Procesando... and Completado', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'reprocess-es');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    await callApi(page, 'POST', '/api/integrations/chatgpt/setup', { apiKey: `sk-e2e-${randomBytes(8).toString('hex')}` });
    const agent = await callApi<Agent>(page, 'POST', '/api/agents', { name: 'Recepción' });
    const link = await pageBackAfterOne404();

    await page.goto(`${appUrl}/agents/${agent._id}?tab=urls`);
    await page.getByLabel('URLs para añadir').fill(link);
    await page.getByRole('button', { name: 'Añadir URLs' }).click();
    const row = page.getByTestId('agent-url').filter({ hasText: link });
    await slowly(() => row.getByText('Error', { exact: true }).count()).toBe(1);
    expect(await row.getByText('La página respondió HTTP 404').count()).toBe(1);

    await row.getByRole('button', { name: `Reprocesar ${link}` }).click();
    await eventually(() => page.getByText('Reprocesamiento iniciado').count()).toBeGreaterThan(0);
    await eventually(() => row.getByText('Procesando...', { exact: true }).count()).toBe(1);
    await slowly(() => row.getByText('Completado', { exact: true }).count()).toBe(1);
    expect(await row.getByRole('button', { name: `Reprocesar ${link}` }).count()).toBe(0);
    expect(await row.getByText('Horario', { exact: true }).count()).toBe(1);
  });
});
