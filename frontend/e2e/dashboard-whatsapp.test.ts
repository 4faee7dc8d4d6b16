/**
 * The dashboard's WhatsApp figures (issue 19: the API returned them, the page showed none), in the
 * Spanish UI: an empty state before any message; after a customer writes and the agent answers
 * (fake Graph API and fake OpenAI), the received / sent / new-conversation figures and the board.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import type { DashboardData } from '@agentdesk/functions/contract';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import {
  callApi,
  chatGptAndAgent,
  connectWhatsAppBusiness,
  customerWrites,
  eventually,
  graphSends,
  newPage,
  randomDigits,
  slowly,
  subscribedUser,
  useBrowser,
} from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

describe('dashboard WhatsApp figures', () => {
  it('shows an empty state, then the messages and conversations of the period', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'dash-wa');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    await chatGptAndAgent(page, { name: 'Recepción', description: 'Responde por WhatsApp', objective: 'Ayudar a los pacientes' });
    const business = await connectWhatsAppBusiness(page);

    await page.goto(`${appUrl}/`);
    const section = page.getByRole('region', { name: 'WhatsApp' });
    await eventually(() => section.getByTestId('whatsapp-empty').count()).toBe(1);
    expect(await section.getByTestId('whatsapp-empty').textContent()).toContain('No hay mensajes ni conversaciones de WhatsApp en este periodo');

    const customer = waCustomer(`Lucía Muñoz ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await customerWrites(business, customer, '¿Abrís el sábado?');
    await slowly(async () => (await graphSends(business.phoneId)).length).toBe(1);
    // The counters are written by the workers: the API agrees before the page is read.
    await slowly(async () => (await callApi<DashboardData>(page, 'GET', '/api/dashboard')).messageAnalytics.sent).toBe(1);

    await page.reload();
    const figure = (id: string) => section.getByTestId(`whatsapp-${id}`);
    await slowly(() => figure('received').getByTestId('whatsapp-value').textContent()).toBe('1');
    expect(await figure('received').locator('dt').textContent()).toBe('Mensajes recibidos');
    expect(await figure('sent').getByTestId('whatsapp-value').textContent()).toBe('1');
    expect(await figure('newConversations').getByTestId('whatsapp-value').textContent()).toBe('1');
    expect(await section.getByTestId('whatsapp-board').textContent()).toContain('1 activa');
    await page.context().close();
  });
});
