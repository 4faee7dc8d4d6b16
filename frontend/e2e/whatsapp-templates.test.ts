/**
 * Templates outside the 24-hour window and username customers (issue 17) in a real browser against
 * the local runtime. Conversations are stored through the real DynamoDB repositories as the inbound
 * worker leaves them: the customer last wrote 26 hours ago (the window is closed) and the agent
 * answered since (so the conversation is on today's board). The reply box is replaced by "Send a
 * template": pick one of the fake Graph API's approved templates, fill its parameters, watch the
 * preview, send; the message shows in the conversation and the fake Graph records the template
 * send. In Spanish, a customer known only by a WhatsApp username shows "Usuario de WhatsApp" and no
 * "Open WhatsApp" button, and the template goes to Meta's `recipient` field.
 */
import { randomBytes } from 'node:crypto';
import { testDocumentClientAt } from '../../functions/test/support/document-clients.js';
import { describe, expect, inject, it } from 'vitest';
import { DynamoConversationRepository } from '../../functions/src/adapters/dynamo/conversations.js';
import { DynamoMessageRepository } from '../../functions/src/adapters/dynamo/messages.js';
import type { StoredMessage } from '../../functions/src/domain/conversations/ports.js';
import { newId } from '../../functions/src/lib/ids.js';
import type { GraphSend } from '../../functions/test/support/whatsapp.js';
import {
  callApi,
  connectWhatsAppBusiness,
  eventually,
  graphSends as sentFromGraph,
  newPage,
  randomDigits,
  slowly,
  subscribedUser,
  useBrowser,
  userIdOf,
  type WhatsAppBusiness,
} from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

type TemplateSend = GraphSend & { template?: { name: string; parameters: string[] } };
const graphSends = (phoneId: string) => sentFromGraph<TemplateSend>(phoneId);

function repositories() {
  // The tests' client: the app's repositories send their own (fetch-based) commands through it.
  const db = testDocumentClientAt(inject('dynamoEndpoint'));
  const messages = new DynamoMessageRepository(db, inject('tableName'));
  return { messages, conversations: new DynamoConversationRepository(db, inject('tableName'), messages) };
}

/** The customer wrote 26 hours ago (window closed) and the agent answered a minute ago. */
async function seedClosedWindow(userId: string, business: WhatsAppBusiness, customer: { waId: string; phone: string; name: string }, question: string) {
  const { conversations, messages } = repositories();
  const wrote = new Date(Date.now() - 26 * 3600_000).toISOString();
  const answered = new Date(Date.now() - 60_000).toISOString();
  const { conversation } = await conversations.findOrOpen(userId, { ...customer, contactId: '', phoneNumberId: business.phoneId }, wrote);
  const base = { conversationId: conversation.id, contactId: '', hasMedia: false, type: 'chat', phoneNumberId: { id: business.phoneId, name: business.phoneNumber } };
  const inbound: StoredMessage = {
    ...base,
    id: `${conversation.id}-${newId()}`,
    waMessageId: `wamid.${randomBytes(24).toString('base64url')}`,
    fromMe: false,
    from: customer.phone || customer.waId,
    to: business.phoneNumber,
    status: 'delivered',
    timestamp: wrote,
    body: question,
    createdAt: wrote,
  };
  await messages.insertInbound(userId, inbound);
  await conversations.touch(userId, conversation.id, {
    lastMessage: { type: 'text', fromMe: false, content: question, body: question, timestamp: wrote, createdAt: wrote },
    lastMessageAt: wrote,
    lastInboundAt: wrote,
    messageCountDelta: 1,
    customerName: customer.name,
  });
  const answer = 'Le paso con una persona del equipo.';
  const reply: StoredMessage = {
    ...base,
    id: `${conversation.id}-${newId()}`,
    waMessageId: '',
    fromMe: true,
    from: business.phoneNumber,
    to: customer.phone || customer.waId,
    status: 'pending',
    timestamp: answered,
    body: answer,
    sentBy: 'agent',
    createdAt: answered,
  };
  await messages.insertOutbound(userId, reply);
  await messages.markSent(userId, reply.id, `wamid.${randomBytes(24).toString('base64url')}`);
  await conversations.touch(userId, conversation.id, {
    lastMessage: { type: 'text', fromMe: true, content: answer, body: answer, timestamp: answered, createdAt: answered },
    lastMessageAt: answered,
    messageCountDelta: 1,
  });
  return conversation.id;
}

describe('whatsapp templates', () => {
  it('the window is closed: the reply box becomes "Send a template", with a preview; the sent template shows in the conversation', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'templates');
    const business = await connectWhatsAppBusiness(page);
    const name = `Lucía Pérez ${randomBytes(2).toString('hex')}`;
    const waId = `346${randomDigits(8)}`;
    await seedClosedWindow(await userIdOf(page), business, { waId, phone: `+${waId}`, name }, '¿Tenéis cita el martes?');

    await page.goto(`${appUrl}/conversations`);
    await eventually(() => page.getByRole('button', { name: `Open conversation with ${name}` }).count()).toBe(1);
    await page.getByRole('button', { name: `Open conversation with ${name}` }).click();
    const dialog = page.getByRole('dialog');
    const composer = dialog.getByTestId('template-composer');
    await eventually(() => composer.getByRole('heading', { name: 'Send a template' }).count()).toBe(1);
    expect(await dialog.getByLabel('Reply', { exact: true }).count()).toBe(0);

    await composer.getByRole('combobox', { name: 'Template' }).click();
    const options = page.getByRole('option');
    // Only the approved templates are offered (the fake's pending and rejected ones are not).
    await eventually(() => options.allTextContents()).toEqual(['appointment_reminder (en_US)', 'recordatorio_cita (es)', 'retomar_conversacion (es)']);
    await page.getByRole('option', { name: 'recordatorio_cita (es)' }).click();
    const preview = composer.getByTestId('template-preview');
    await eventually(() => preview.textContent()).toBe('Hola {{1}}, te recordamos tu cita del {{2}}. Si no puedes venir, respóndenos a este mensaje.');
    const send = composer.getByRole('button', { name: 'Send template' });
    expect(await send.isDisabled()).toBe(true);
    await composer.getByTestId('template-parameter-1').fill('Lucía');
    await composer.getByTestId('template-parameter-2').fill('martes 4 a las 9:30');
    const text = 'Hola Lucía, te recordamos tu cita del martes 4 a las 9:30. Si no puedes venir, respóndenos a este mensaje.';
    await eventually(() => preview.textContent()).toBe(text);
    await send.click();

    await eventually(() => page.getByText('Template sent').count()).toBeGreaterThan(0);
    const log = dialog.getByRole('log');
    await slowly(() => log.getByText(text).count()).toBe(1);
    const [sent, ...more] = await graphSends(business.phoneId);
    expect(more).toEqual([]);
    expect(sent).toMatchObject({ status: 200, type: 'template', template: { name: 'recordatorio_cita', parameters: ['Lucía', 'martes 4 a las 9:30'] } });
    // The composer is ready for another template, its fields cleared.
    expect(await composer.getByTestId('template-parameter-1').inputValue()).toBe('');
  });

  it('in Spanish: a WhatsApp username customer shows "Usuario de WhatsApp", no "Open WhatsApp", and gets the template by recipient', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'plantillas');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es' });
    const business = await connectWhatsAppBusiness(page);
    const bsuid = `ES.${randomDigits(20)}`;
    const name = `Nacho ${randomBytes(2).toString('hex')}`;
    await seedClosedWindow(await userIdOf(page), business, { waId: bsuid, phone: '', name }, '¿Seguís abiertos en agosto?');

    await page.goto(`${appUrl}/conversations`);
    const card = page.getByTestId('conversation-card').filter({ hasText: name });
    await eventually(() => card.count()).toBe(1);
    expect(await card.getByTestId('conversation-whatsapp-user').textContent()).toBe('Usuario de WhatsApp');
    expect(await card.getByText(bsuid).count()).toBe(0);
    await card.getByRole('button').first().click();
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByRole('heading', { name: 'Enviar una plantilla' }).count()).toBe(1);
    expect(await dialog.getByTestId('conversation-whatsapp-user').first().textContent()).toBe('Usuario de WhatsApp');
    expect(await dialog.getByRole('link', { name: /WhatsApp/ }).count()).toBe(0);

    const composer = dialog.getByTestId('template-composer');
    await composer.getByRole('combobox', { name: 'Plantilla' }).click();
    await page.getByRole('option', { name: 'retomar_conversacion (es)' }).click();
    await eventually(() => composer.getByText('Vista previa').count()).toBe(1);
    await composer.getByLabel('Parámetro {{1}}').fill('Nacho');
    const text = 'Hola Nacho, ¿seguimos con tu consulta? Responde a este mensaje y te atendemos.';
    await eventually(() => composer.getByTestId('template-preview').textContent()).toBe(text);
    await composer.getByRole('button', { name: 'Enviar plantilla' }).click();

    await eventually(() => page.getByText('Plantilla enviada').count()).toBeGreaterThan(0);
    await slowly(() => dialog.getByRole('log').getByText(text).count()).toBe(1);
    const [sent] = await graphSends(business.phoneId);
    expect(sent).toMatchObject({ status: 200, type: 'template', payload: { recipient: bsuid } });
    expect(sent!.payload).not.toHaveProperty('to');
  });
});
