/**
 * The conversation the owner left (issue 29 item 5), in Spanish (es-ES, Madrid time, 390×844)
 * against the local runtime (fake OpenAI, fake Graph API, signed Meta deliveries): the owner
 * answers from the phone, the customer writes again while the AI is paused, and "Devolver a la
 * IA" has the AI answer that message once, saying so ("La IA está respondiendo 1 mensaje sin
 * responder"). A message Meta stamped 30 hours ago (a late redelivery) opens on the template
 * composer, not the free-form reply box, and gets no AI reply.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { metaDelivery, signMetaBody, textMessage, waCustomer, webhookPath, type WaCustomer } from '../../functions/test/support/whatsapp.js';
import { openSpanishConversation, PHONE, spanishOwner } from './layout.js';
import { chatGptAndAgent, connectWhatsAppBusiness, customerWrites, eventually, graphSends, randomDigits, slowly, useBrowser, type WhatsAppBusiness } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

const texts = async (business: WhatsAppBusiness) => (await graphSends(business.phoneId)).map((s) => s.text);

/** A delivery of `text` that Meta stamped at `at` (signed as Meta signs it). */
async function customerWroteAt(business: WhatsAppBusiness, customer: WaCustomer, text: string, at: Date): Promise<void> {
  const body = metaDelivery(
    { phoneId: business.phoneId, businessId: business.businessId, displayPhoneNumber: business.phoneNumber },
    { messages: [textMessage(customer, text, { at })] },
  );
  const res = await fetch(`${appUrl}${webhookPath(business.integrationId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(body, business.appSecret) },
    body,
  });
  expect(res.status).toBe(200);
}

describe('the conversation the owner left', () => {
  it('Devolver a la IA: the message written during the pause is answered once; a message stamped 30 h ago leads to a template', async () => {
    const page = await spanishOwner(browser(), 'left-conversation', PHONE);
    await page.goto(`${appUrl}/dashboard`);
    await chatGptAndAgent(page, {
      name: 'Recepción',
      description: 'Responde por WhatsApp sobre horarios, precios y citas de la clínica',
      objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
    });
    const business = await connectWhatsAppBusiness(page);
    const customer = waCustomer(`Begoña ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await customerWrites(business, customer, '¿Tenéis cita el sábado?');
    await slowly(() => texts(business)).toEqual(['Echo: ¿Tenéis cita el sábado?']);

    const { dialog, log } = await openSpanishConversation(page, appUrl, customer.name);

    // The owner answers: a person is answering now.
    await dialog.getByRole('textbox', { name: /Respuesta/ }).fill('Sí, a las 10. Un saludo, Marta');
    await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('Responde una persona');

    // The customer writes during the pause: shown, and the AI stays quiet.
    await customerWrites(business, customer, '¿Y el domingo?');
    await slowly(() => log.getByText('¿Y el domingo?', { exact: true }).count()).toBe(1);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await texts(business)).toEqual(['Echo: ¿Tenéis cita el sábado?', 'Sí, a las 10. Un saludo, Marta']);

    // Devolver a la IA: the owner is told, and the AI answers that message, once.
    await dialog.getByRole('button', { name: 'Devolver a la IA' }).click();
    await eventually(() => page.getByText('La IA está respondiendo 1 mensaje sin responder').count()).toBeGreaterThan(0);
    await eventually(() => dialog.getByTestId('conversation-answered-by-text').textContent()).toBe('Responde la IA');
    await slowly(() => log.getByText('Echo: ¿Y el domingo?', { exact: true }).count()).toBe(1);
    await new Promise((r) => setTimeout(r, 2000));
    expect(await texts(business)).toEqual(['Echo: ¿Tenéis cita el sábado?', 'Sí, a las 10. Un saludo, Marta', 'Echo: ¿Y el domingo?']);
    // The 'no answer sent' marker goes once the conversation is read again after the AI's answer.
    await eventually(() => dialog.getByTestId('message-no-answer').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Volver a la bandeja' }).click();
    await eventually(() => dialog.count()).toBe(0);

    // A message Meta stamped 30 hours ago, delivered only now: the window is closed, the template composer is the way.
    const late = waCustomer(`Íñigo ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
    await customerWroteAt(business, late, '¿Me podéis dar cita?', new Date(Date.now() - 30 * 3600_000));
    await page.goto(`${appUrl}/conversations`);
    const lateCard = page.getByTestId('conversation-card').filter({ hasText: late.name });
    await slowly(() => lateCard.count()).toBe(1);
    await lateCard.getByRole('button').first().click();
    await eventually(() => dialog.getByTestId('template-composer').count()).toBe(1);
    expect(await dialog.getByTestId('conversation-window-note').textContent()).toBe('El último mensaje se envió hace más de 24 h');
    expect(await dialog.getByRole('textbox', { name: /Respuesta/ }).count()).toBe(0);
    expect(await texts(business)).toHaveLength(3);
  });
});
