/**
 * A customer's WhatsApp message the agent could not answer (issue 34), in a real browser in
 * Spanish against the local runtime: the fake OpenAI answers 500 for the owner's key past every
 * retry (the scaled schedule, a few seconds), the card and the conversation show "Sin respuesta
 * enviada — modelo no disponible", and once the model is back "Responder mensajes pendientes"
 * answers the message and the marker goes.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import { callApi, chatGptAndAgent, connectWhatsAppBusiness, customerWrites, eventually, graphSends, newPage, randomDigits, slowly, subscribedUser, useBrowser } from './flows.js';

const appUrl = inject('appUrl');
const openaiUrl = inject('openaiUrl');

async function faults(method: 'POST' | 'DELETE', body?: unknown): Promise<void> {
  const res = await fetch(`${openaiUrl}/_test/faults${method === 'DELETE' ? `/${encodeURIComponent(String((body as { id: string }).id))}` : ''}`, {
    method,
    ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  if (!res.ok) throw new Error(`fake OpenAI /_test/faults answered ${res.status}`);
}

const browser = useBrowser();

describe('no answer sent (issue 34)', () => {
  it('in Spanish: the marker on the card and the message, and Responder mensajes pendientes answers it once the model is back', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'no-answer-es');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Sol', language: 'es' });
    const key = `sk-e2e-${randomBytes(8).toString('hex')}`;
    await chatGptAndAgent(page, { name: 'Recepción', description: 'Responde por WhatsApp a los pacientes', objective: 'Dar citas' }, key);
    const business = await connectWhatsAppBusiness(page);
    const fault = { id: `no-answer-${randomBytes(4).toString('hex')}`, kind: 'status', status: 500, match: { key, path: '/chat/completions' } };
    await faults('POST', fault);
    const customer = waCustomer(`Inés ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);

    await customerWrites(business, customer, '¿Tienen cita mañana?');
    await page.goto(`${appUrl}/conversations?waiting=1`);
    const card = page.getByTestId('conversation-card').filter({ hasText: customer.name });
    const marker = card.getByTestId('conversation-no-answer');
    await slowly(async () => {
      if ((await marker.count()) === 0) await page.getByRole('button', { name: 'Actualizar' }).click();
      return marker.count();
    }).toBe(1);
    expect(await marker.textContent()).toBe('Sin respuesta enviada — modelo no disponible');
    expect(await page.getByTestId('conversations-waiting-banner').textContent()).toContain('1 conversación tiene mensajes de clientes que el agente no pudo responder.');

    await card.getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByTestId('message-no-answer').textContent()).toBe('Sin respuesta enviada — modelo no disponible');
    expect(await graphSends(business.phoneId)).toEqual([]);

    // The model is back: one click answers the waiting message, and the marker goes.
    await faults('DELETE', fault);
    await dialog.getByRole('button', { name: 'Responder mensajes pendientes' }).click();
    await slowly(async () => (await graphSends(business.phoneId)).map((s) => s.text)).toEqual(['Echo: ¿Tienen cita mañana?']);
    await eventually(() => dialog.getByTestId('message-no-answer').count()).toBe(0);
    await eventually(() => dialog.getByTestId('conversation-no-answer-bar').count()).toBe(0);
  });
});
