/**
 * "Apply to contact" in a real browser, in Spanish (issue 17; the reported bug: one click renamed a
 * saved patient to the name the AI heard). A saved contact with a name and no e-mail, and a call
 * from their number whose AI analysis heard another name and an e-mail (stored through the real
 * call repository, as the call loop and the summary worker leave it). The dialog shows the name
 * row unchecked (the contact has one) and the e-mail row checked; applying keeps the name and adds
 * the e-mail; "Deshacer" in the snackbar takes the e-mail away again.
 */
import { testDocumentClientAt } from '../../functions/test/support/document-clients.js';
import { describe, expect, inject, it } from 'vitest';
import { DynamoCallRepository } from '../../functions/src/adapters/dynamo/voice-calls.js';
import type { Contact } from '../../functions/src/contract/contacts.js';
import { VOICE_DEFAULTS } from '../../functions/src/contract/voice.js';
import type { StoredCall } from '../../functions/src/domain/voice/ports.js';
import { newId } from '../../functions/src/lib/ids.js';
import { callApi, eventually, newPage, randomDigits, subscribedUser, useBrowser, userIdOf } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

/** A finished call with its AI analysis, as the call loop and the call-summary worker store it. */
async function seedAnalysedCall(userId: string, phoneNumber: string): Promise<string> {
  // The tests' client: the app's repositories send their own (fetch-based) commands through it.
  const db = testDocumentClientAt(inject('dynamoEndpoint'));
  const at = new Date().toISOString();
  const call: StoredCall = {
    id: newId(),
    userId,
    callSid: `CA${randomDigits(32)}`,
    status: 'completed',
    phoneNumber,
    internalNumber: '+14155550100',
    contact: null,
    duration: 64_000,
    createdAt: at,
    endedAt: at,
    voiceSettings: { name: 'Recepción', description: '', language: 'es-ES' },
    messages: [
      { role: 'agent', content: 'Clínica Dental Sol, ¿en qué puedo ayudarle?', at, confidence: null },
      { role: 'user', content: 'Hola, soy Ana García, quiero una cita; mi correo es ana.garcia@example.com', at, confidence: 0.9 },
    ],
    summary: {
      quickSummary: 'Ana García pide una cita para una limpieza.',
      actionPoints: ['Confirmar la cita'],
      sentiment: 'neutral',
      urgency: 'low',
      tone: 'tranquila',
      contactExtracted: { name: 'Ana García', phone: '', email: 'ana.garcia@example.com', web: '' },
      bookingExtracted: { from: '', to: '', numberOfPeople: null, note: '' },
    },
    summaryStatus: 'completed',
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

describe('apply to contact', () => {
  it('shows current → proposed, applies only the chosen e-mail and undoes it (Spanish UI)', async () => {
    const page = await newPage(browser());
    await subscribedUser(page, 'apply-contact');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Clínica Dental Sol', language: 'es' });
    const phone = `+346${randomDigits(8)}`;
    const saved = await callApi<Contact>(page, 'POST', '/api/contacts', { name: 'María José Núñez', phoneNumber: phone });
    const callId = await seedAnalysedCall(await userIdOf(page), phone);

    await page.goto(`${appUrl}/voice-conversations/${callId}`);
    await page.getByRole('button', { name: 'Aplicar al contacto' }).click();

    // The dialog: the saved name is kept unless chosen; the missing e-mail is suggested.
    const dialog = page.getByRole('dialog', { name: 'Aplicar al contacto' });
    const nameRow = dialog.getByTestId('apply-row-name');
    const emailRow = dialog.getByTestId('apply-row-email');
    await eventually(() => nameRow.count()).toBe(1);
    expect(await dialog.getByRole('columnheader', { name: 'Actual' }).count()).toBe(1);
    expect(await dialog.getByRole('columnheader', { name: 'Propuesto' }).count()).toBe(1);
    expect(await nameRow.getByTestId('apply-current').textContent()).toBe('María José Núñez');
    expect(await nameRow.getByTestId('apply-proposed').textContent()).toBe('Ana García');
    expect(await emailRow.getByTestId('apply-current').textContent()).toBe('(vacío)');
    expect(await emailRow.getByTestId('apply-proposed').textContent()).toBe('ana.garcia@example.com');
    const nameBox = dialog.getByRole('checkbox', { name: 'Nombre' });
    const emailBox = dialog.getByRole('checkbox', { name: 'Correo electrónico' });
    expect(await nameBox.isChecked()).toBe(false);
    expect(await emailBox.isChecked()).toBe(true);
    expect(await dialog.getByTestId('apply-row-phoneNumber').count()).toBe(0);

    // Nothing chosen: Apply is disabled.
    const applyButton = dialog.getByRole('button', { name: 'Aplicar', exact: true });
    await emailBox.uncheck();
    expect(await applyButton.isDisabled()).toBe(true);
    await emailBox.check();
    await applyButton.click();

    // "Contacto actualizado" with "Deshacer"; the contact kept its name and got the e-mail.
    await eventually(() => page.getByText('Contacto actualizado', { exact: true }).count()).toBe(1);
    await eventually(() => dialog.count()).toBe(0);
    expect(await callApi<Contact>(page, 'GET', `/api/contacts/${saved._id}`)).toMatchObject({ name: 'María José Núñez', email: 'ana.garcia@example.com' });
    await eventually(() => page.getByTestId('call-contact-name').textContent()).toBe('María José Núñez');

    // Undo, once: the e-mail goes away again, the button with the snackbar.
    await page.getByRole('button', { name: 'Deshacer' }).click();
    await eventually(() => page.getByText('Se deshizo el cambio del contacto').count()).toBeGreaterThan(0);
    // The snackbar leaves with an exit transition: its button goes once that ends.
    await eventually(() => page.getByRole('button', { name: 'Deshacer' }).count()).toBe(0);
    expect(await callApi<Contact>(page, 'GET', `/api/contacts/${saved._id}`)).toMatchObject({ name: 'María José Núñez', email: '' });
  });
});
