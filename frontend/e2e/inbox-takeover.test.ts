/**
 * A person takes over a WhatsApp conversation (issue 17) in a real browser against the local
 * runtime (fake OpenAI and fake Graph API): the owner replies from the conversation modal, the card
 * and the modal show a person answering, the customer's next message gets no AI reply, "Return to
 * AI" gives it back: the AI answers that message (issue 29), then the one after. In Spanish: the same texts, the unread
 * badge, "Asignar a mí" with the "Mías" filter, and the inbox settings dialog (a Spanish number
 * typed without +34 is saved as +34…).
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import {
  activeCard,
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
  type WhatsAppBusiness,
} from './flows.js';

const appUrl = inject('appUrl');

/** ChatGPT, an enabled agent and a Spanish WhatsApp business number, through the API. */
async function readyInbox(page: Page, agentName: string): Promise<WhatsAppBusiness> {
  await chatGptAndAgent(page, {
    name: agentName,
    description: 'Responde por WhatsApp sobre horarios, precios y citas de la clínica',
    objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
  });
  return connectWhatsAppBusiness(page);
}

const texts = async (business: WhatsAppBusiness) => (await graphSends(business.phoneId)).map((s) => s.text);

const browser = useBrowser();

describe('inbox takeover', () => {
  it('a reply from the modal pauses the AI; Return to AI gives the conversation back', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'takeover');
    const business = await readyInbox(page, 'Front Desk');
    const customer = waCustomer(`Lucía ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);

    await customerWrites(business, customer, 'Do you open on Saturday?');
    await slowly(() => texts(business)).toEqual(['Echo: Do you open on Saturday?']);

    const card = await activeCard(page, appUrl, customer.name);
    expect(await card.getByTestId('conversation-answered-by').getAttribute('data-answered-by')).toBe('ai');
    expect(await card.getByTestId('conversation-answered-by').textContent()).toBe('AI');
    expect(await card.getByTestId('conversation-unread').textContent()).toBe('1');

    // Open it (read: the badge goes) and answer as a person.
    await card.getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('AI answering');
    const reply = `We open 10 to 14 — Marta (${randomBytes(2).toString('hex')})`;
    await dialog.getByRole('textbox', { name: 'Reply' }).fill(reply);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await slowly(() => texts(business)).toContain(reply);
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('A person is answering');
    expect(await dialog.getByTestId('conversation-ai-resumes').textContent()).toMatch(/^The AI resumes on /);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await eventually(() => card.getByTestId('conversation-answered-by').textContent()).toBe('Person');
    expect(await card.getByTestId('conversation-unread').count()).toBe(0);

    // The customer's next message is stored and shown, and the AI stays quiet.
    await customerWrites(business, customer, 'And on Sunday?');
    await card.getByRole('button').first().click();
    const log = dialog.getByRole('log', { name: 'Messages' });
    await slowly(() => log.getByText('And on Sunday?', { exact: true }).count()).toBe(1);
    await new Promise((r) => setTimeout(r, 3000));
    expect(await texts(business)).toEqual(['Echo: Do you open on Saturday?', reply]);

    // Return to AI: the AI answers what the customer wrote meanwhile (issue 29), then the next message.
    await dialog.getByRole('button', { name: 'Return to AI' }).click();
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('AI answering');
    expect(await dialog.getByRole('button', { name: 'Return to AI' }).count()).toBe(0);
    await eventually(() => page.getByText('The AI is answering 1 unanswered message').count()).toBeGreaterThan(0);
    await slowly(() => texts(business)).toEqual(['Echo: Do you open on Saturday?', reply, 'Echo: And on Sunday?']);
    await customerWrites(business, customer, 'Is there parking?');
    await slowly(() => texts(business)).toEqual(['Echo: Do you open on Saturday?', reply, 'Echo: And on Sunday?', 'Echo: Is there parking?']);
  });

  it('in Spanish: who answers, Devolver a la IA, Asignar a mí with Mías, and the inbox settings', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'takeover-es');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    const business = await readyInbox(page, 'Recepción');
    const customer = waCustomer(`Begoña ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await customerWrites(business, customer, '¿Tienen cita mañana?');
    await slowly(() => texts(business)).toEqual(['Echo: ¿Tienen cita mañana?']);

    const card = await activeCard(page, appUrl, customer.name);
    expect(await card.getByTestId('conversation-answered-by').textContent()).toBe('IA');
    expect(await card.getByTestId('conversation-unread').getAttribute('aria-label')).toBe('1 mensaje sin leer');

    // Mías: nothing assigned yet; Sin asignar: the card.
    await page.getByRole('button', { name: 'Mías' }).click();
    await eventually(() => card.count()).toBe(0);
    await page.getByRole('button', { name: 'Sin asignar' }).click();
    await eventually(() => card.count()).toBe(1);

    await card.getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('Responde la IA');
    await dialog.getByRole('button', { name: 'Asignar a mí' }).click();
    await eventually(() => dialog.getByTestId('conversation-assignee').textContent()).toBe('Asignada a ti');
    await dialog.getByRole('textbox', { name: /Respuesta/ }).fill('Sí, a las 10. Un saludo, Marta');
    await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('Responde una persona');
    expect(await dialog.getByTestId('conversation-ai-resumes').textContent()).toMatch(/^La IA retoma el /);
    await dialog.getByRole('button', { name: 'Devolver a la IA' }).click();
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('Responde la IA');
    await eventually(() => page.getByText('La IA vuelve a responder esta conversación').count()).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Cerrar', exact: true }).click();

    // Mías now lists it.
    await page.getByRole('button', { name: 'Mías' }).click();
    await eventually(() => card.count()).toBe(1);

    // Inbox settings: a refused value stays on its field; a Spanish number without +34 is saved in E.164.
    await page.getByRole('button', { name: 'Ajustes de la bandeja' }).click();
    const settings = page.getByRole('dialog', { name: 'Ajustes de la bandeja' });
    const hours = settings.getByRole('spinbutton', { name: /La IA retoma tras/ });
    await eventually(() => hours.inputValue()).toBe('12');
    await hours.fill('0');
    await settings.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => settings.getByText('La IA retoma tras 1 a 168 horas').count()).toBe(1);
    await hours.fill('24');
    await settings.getByRole('textbox', { name: 'Número de WhatsApp para avisos' }).fill('abc');
    await settings.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => settings.getByText('Introduce un número de WhatsApp válido para los avisos').count()).toBe(1);
    await settings.getByRole('textbox', { name: 'Número de WhatsApp para avisos' }).fill('612 345 678');
    await settings.getByLabel(/Enviar avisos por correo/).click();
    await settings.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => page.getByText('Ajustes de la bandeja guardados').count()).toBeGreaterThan(0);
    expect(await callApi(page, 'GET', '/api/inbox-settings')).toEqual({ aiResumeAfterHours: 24, alertByEmail: false, alertWhatsappNumber: '+34612345678' });
    await page.getByRole('button', { name: 'Ajustes de la bandeja' }).click();
    await eventually(() => settings.getByRole('textbox', { name: 'Número de WhatsApp para avisos' }).inputValue()).toBe('+34612345678');
  });
});
