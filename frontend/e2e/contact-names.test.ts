/**
 * Names stay true (issue 17) in a real browser against the local runtime, in Spanish: a saved
 * contact writes on WhatsApp under another profile name and has a call from their number; the
 * owner renames the contact on its page; the call log, the dashboard's recent activity and the
 * conversations board show the new name (the board with "WhatsApp: <profile name>" as a secondary
 * line); the contact's "Conversaciones y llamadas" card lists the conversation and the call,
 * newest first, and its links open the call's detail and the conversation.
 */
import { randomBytes } from 'node:crypto';
import { testDocumentClientAt } from '../../functions/test/support/document-clients.js';
import { describe, expect, inject, it } from 'vitest';
import { DynamoCallRepository } from '../../functions/src/adapters/dynamo/voice-calls.js';
import type { Contact } from '../../functions/src/contract/contacts.js';
import { VOICE_DEFAULTS } from '../../functions/src/contract/voice.js';
import type { StoredCall } from '../../functions/src/domain/voice/ports.js';
import { newId } from '../../functions/src/lib/ids.js';
import { waCustomer } from '../../functions/test/support/whatsapp.js';
import {
  callApi,
  chatGptAndAgent,
  connectWhatsAppBusiness,
  customerWrites,
  eventually,
  newPage,
  pathOf,
  randomDigits,
  slowly,
  subscribedUser,
  useBrowser,
  userIdOf,
} from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

/** A finished call from `contact`'s number an hour ago, linked to the contact as the call loop links it. */
async function seedCall(userId: string, contact: Contact): Promise<string> {
  // The tests' client: the app's repositories send their own (fetch-based) commands through it.
  const db = testDocumentClientAt(inject('dynamoEndpoint'));
  const at = new Date(Date.now() - 3600_000).toISOString();
  const call: StoredCall = {
    id: newId(),
    userId,
    callSid: `CA${randomDigits(32)}`,
    status: 'completed',
    phoneNumber: contact.phoneNumber,
    internalNumber: '+14155550100',
    contact: { _id: contact._id, name: contact.name, phoneNumber: contact.phoneNumber },
    duration: 64_000,
    createdAt: at,
    endedAt: at,
    voiceSettings: { name: 'Recepción', description: '', language: 'es-ES' },
    messages: [
      { role: 'agent', content: 'Pizzería Peña, ¿dígame?', at, confidence: null },
      { role: 'user', content: 'Quería reservar para cuatro el sábado', at, confidence: 0.9 },
    ],
    summary: null,
    summaryStatus: 'pending',
    deliveries: [],
    agent: null,
    escalated: false,
    settings: { ...VOICE_DEFAULTS },
    silences: 0,
    endedByUs: true,
    recording: null,
    billedMinutes: 2,
    conversationMode: 'gather',
    latency: null,
    endReason: 'goodbye',
  };
  await new DynamoCallRepository(db, inject('tableName')).create(call);
  return call.id;
}

describe('names stay true', () => {
  it('shows a renamed contact in the call log and on the board, and lists its call and conversation on its page (Spanish UI)', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'contact-names');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Pizzería Peña', language: 'es' });
    await chatGptAndAgent(page, {
      name: 'Recepción',
      description: 'Responde por WhatsApp sobre reservas y horarios de la pizzería',
      objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
    });
    const business = await connectWhatsAppBusiness(page);

    // A saved contact (the number typed with spaces) with a call from their number.
    const waId = `346${randomDigits(8)}`;
    const typed = `+34 ${waId.slice(2, 5)} ${waId.slice(5, 8)} ${waId.slice(8)}`;
    const contact = await callApi<Contact>(page, 'POST', '/api/contacts', { name: 'José Martínez', phoneNumber: typed });
    expect(contact.phoneNumber).toBe(`+${waId}`);
    const callId = await seedCall(await userIdOf(page), contact);

    // The same person writes on WhatsApp under their profile name.
    const profile = `Pepe 🍕 ${randomBytes(2).toString('hex')}`;
    await customerWrites(business, waCustomer(profile, waId), '¿Tenéis mesa para el sábado?');
    await slowly(async () => (await callApi<{ items: unknown[] }>(page, 'GET', `/api/contacts/${contact._id}/timeline`)).items.length).toBe(2);

    // Rename on the contact's page.
    await page.goto(`${appUrl}/contacts/${contact._id}`);
    await page.getByRole('button', { name: 'Editar' }).click();
    const nameField = page.getByRole('textbox', { name: 'Nombre' });
    await nameField.fill('Josefina Núñez');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await eventually(() => page.getByRole('button', { name: 'Editar' }).count()).toBe(1);

    // The contact's timeline: the conversation (newer), then the call.
    const timeline = page.getByTestId('contact-timeline');
    await eventually(() => timeline.getByTestId('contact-timeline-item').count()).toBe(2);
    expect(await timeline.getByTestId('contact-timeline-item').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-kind')))).toEqual(['conversation', 'call']);
    expect(await timeline.getByText('¿Tenéis mesa para el sábado?').count()).toBe(1);

    // The call link opens the call's detail, which names the contact as renamed.
    await timeline.getByRole('link', { name: 'Llamada' }).click();
    await eventually(() => pathOf(page)).toBe(`/voice-conversations/${callId}`);
    await eventually(() => page.getByText('Josefina Núñez').count()).toBeGreaterThan(0);
    expect(await page.getByText('José Martínez').count()).toBe(0);

    // The call log.
    await page.goto(`${appUrl}/voice-conversations`);
    const row = page.getByTestId('call-row').first();
    await eventually(() => row.getByRole('cell').first().textContent()).toBe('Josefina Núñez');

    // The dashboard's recent activity.
    await page.goto(`${appUrl}/`);
    await eventually(() => page.getByTestId('activity-contact').first().textContent()).toBe('Josefina Núñez');

    // The board: the directory name, the WhatsApp profile name as a secondary line.
    await page.goto(`${appUrl}/conversations`);
    const card = page.getByTestId('conversation-card').filter({ hasText: 'Josefina Núñez' });
    await eventually(() => card.count()).toBe(1);
    expect(await card.getByTestId('conversation-profile-name').textContent()).toBe(`WhatsApp: ${profile}`);

    // The conversation link of the timeline opens the conversation on the board.
    await page.goto(`${appUrl}/contacts/${contact._id}`);
    await page.getByTestId('contact-timeline').getByRole('link', { name: 'Conversación de WhatsApp' }).click();
    await eventually(() => pathOf(page)).toMatch(/^\/conversations\?open=[0-9A-Z]{26}$/);
    const dialog = page.getByRole('dialog');
    await eventually(() => dialog.getByRole('heading', { name: 'Josefina Núñez' }).count()).toBe(1);
    expect(await dialog.getByTestId('conversation-profile-name').textContent()).toBe(`WhatsApp: ${profile}`);
    await eventually(() => dialog.getByText('¿Tenéis mesa para el sábado?').count()).toBeGreaterThan(0);
  });
});
