/**
 * The summary e-mail's delivery state and Resend on the call page, in Spanish (issue 34: an e-mail
 * that waits for SES). A finished call whose summary e-mail failed after SES stayed down for the
 * whole retry schedule (stored through the real call repository, as the outbound-email worker
 * leaves it) shows "No se pudo enviar: …" with "Reenviar resumen"; the click queues it again, the
 * real worker sends it through the local SES mailbox, and the page (polling) shows "Resumen enviado
 * por correo el …" — one e-mail.
 */
import { describe, expect, inject, it } from 'vitest';
import { testDocumentClientAt } from '../../functions/test/support/document-clients.js';
import { DynamoCallRepository } from '../../functions/src/adapters/dynamo/voice-calls.js';
import { VOICE_DEFAULTS } from '../../functions/src/contract/voice.js';
import type { StoredCall } from '../../functions/src/domain/voice/ports.js';
import { newId } from '../../functions/src/lib/ids.js';
import { callApi, eventually, newPage, randomDigits, subscribedUser, useBrowser, userIdOf } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

/** A call whose summary e-mail failed for good (SES down past every try). */
async function seedFailedSummaryEmail(userId: string): Promise<StoredCall> {
  const db = testDocumentClientAt(inject('dynamoEndpoint'));
  const at = new Date().toISOString();
  const call: StoredCall = {
    id: newId(),
    userId,
    callSid: `CA${randomDigits(32)}`,
    status: 'completed',
    phoneNumber: `+346${randomDigits(8)}`,
    internalNumber: '+14155550100',
    contact: null,
    duration: 95_000,
    createdAt: at,
    endedAt: at,
    voiceSettings: { name: 'Recepción', description: '', language: 'es-ES' },
    messages: [
      { role: 'agent', content: 'Restaurante Sol, ¿en qué puedo ayudarle?', at, confidence: null },
      { role: 'user', content: 'Quiero reservar una mesa para cuatro el viernes.', at, confidence: 0.9 },
    ],
    summary: {
      quickSummary: 'Reserva para cuatro el viernes.',
      actionPoints: ['Confirmar la reserva'],
      sentiment: 'positive',
      urgency: 'medium',
      tone: 'amable',
      contactExtracted: { name: '', phone: '', email: '', web: '' },
      bookingExtracted: { from: 'viernes', to: '', numberOfPeople: 4, note: '' },
    },
    summaryStatus: 'completed',
    deliveries: [{ method: 'email', attempt: 1, at, ok: false, error: 'The e-mail could not be sent. Please try again later.' }],
    summaryEmail: { sendId: newId(), state: 'failed', at, tries: 8, resends: 0, reason: 'unavailable' },
    agent: null,
    escalated: false,
    settings: { ...VOICE_DEFAULTS, summaryNotificationMethod: 'email' },
    silences: 0,
    endedByUs: true,
    recording: null,
    billedMinutes: 2,
    conversationMode: 'gather',
    latency: null,
    endReason: 'goodbye',
  };
  await new DynamoCallRepository(db, inject('tableName')).create(call);
  return call;
}

async function summaryMails(to: string): Promise<Array<{ subject: string }>> {
  const res = await fetch(`${inject('mailboxUrl')}/store`);
  const { emails } = (await res.json()) as { emails: Array<{ subject: string; destination: { to: string[] } }> };
  return emails.filter((m) => m.destination.to.some((t) => t.toLowerCase() === to.toLowerCase()) && m.subject.startsWith('Resumen de llamada'));
}

describe('summary e-mail: delivery state and Resend (issue 34)', () => {
  it('shows why the summary e-mail failed and resends it; the page then shows when it was sent (Spanish UI)', async () => {
    const page = await newPage(browser());
    const email = await subscribedUser(page, 'summary-resend');
    await callApi(page, 'PUT', '/api/user/profile', { name: 'Restaurante Sol', language: 'es' });
    const call = await seedFailedSummaryEmail(await userIdOf(page));

    await page.goto(`${appUrl}/voice-conversations/${call.id}`);
    const status = page.getByTestId('summary-email-status');
    await eventually(() => status.getAttribute('data-state')).toBe('failed');
    expect(await status.textContent()).toContain('No se pudo enviar: el servicio de correo no respondió durante 45 minutos');

    await page.getByRole('button', { name: 'Reenviar resumen' }).click();
    await eventually(() => page.getByText('El resumen se enviará de nuevo por correo').count()).toBeGreaterThan(0);
    // Queued, sent by the outbound-email worker; the page polls while it is on its way.
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 30_000, interval: 200 }).toBe('sent');
    expect(await status.textContent()).toMatch(/^Resumen enviado por correo el /);
    // Sent: Resend is offered again (to get it once more), and exactly one e-mail went out.
    expect(await page.getByRole('button', { name: 'Reenviar resumen' }).count()).toBe(1);
    expect((await summaryMails(email)).map((m) => m.subject)).toEqual([`Resumen de llamada: ${call.phoneNumber} (1:35)`]);
  });
});
