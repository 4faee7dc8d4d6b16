/**
 * E-mail that waits for SES (issue 34 item 4), end to end on the local stack: the owner's
 * escalation alert (POST /api/conversations/{id}/escalate) and a finished call's summary are
 * queued on the outbound-email queue; while SES answers errors for this owner's address (the SES
 * fault proxy, scoped to it) nothing is sent and both show 'retrying'; SES back, exactly one e-mail
 * each. SES down longer than the whole (scaled) retry schedule leaves the summary 'failed' with its
 * reason; Resend after recovery sends exactly one. The Resend route is tenant-scoped.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { EmailDelivery } from '../../src/contract/email-delivery.js';
import type { NotificationList } from '../../src/contract/notifications.js';
import { VOICE_DEFAULTS, type VoiceConversation } from '../../src/contract/voice.js';
import { voiceMessages } from '../../src/contract/voice-messages.js';
import { DynamoConversationRepository } from '../../src/adapters/dynamo/conversations.js';
import { DynamoMessageRepository } from '../../src/adapters/dynamo/messages.js';
import { eventually } from '../support/agents-api.js';
import { api, db, getItem, mailsTo, tableName } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { clearProxy, switchProxy } from '../support/faults.js';
import { enqueueSummary, getCall, seedCall } from '../support/seed-calls.js';
import { connectWhatsApp, metaDelivery, postWebhook, signMetaBody, textMessage, waCustomer, type ConnectedWhatsApp } from '../support/whatsapp.js';

interface Owner {
  token: string;
  userId: string;
  email: string;
  wa: ConnectedWhatsApp;
}

/** A subscribed owner with ChatGPT (the fake's default answers), WhatsApp and summaries by e-mail. */
async function owner(): Promise<Owner> {
  const { token, userId, user } = await subscribedUser('starter');
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: `sk-test-${randomUUID()}`, model: 'gpt-4o' } });
  expect(chatgpt.status).toBe(200);
  const wa = await connectWhatsApp(token);
  expect((await api('PUT', '/api/voice-settings', { token, body: { ...VOICE_DEFAULTS, summaryNotificationMethod: 'email' } })).status).toBe(200);
  return { token, userId, email: user.email, wa };
}

/** A customer writes once (no agent: the message is stored and left for the owner); answers the conversation id. */
async function conversationWith(o: Owner, name: string): Promise<string> {
  const customer = waCustomer(name);
  const msg = textMessage(customer, 'Hola, ¿me ayudan?');
  const body = metaDelivery(o.wa, { messages: [msg] });
  expect((await postWebhook(o.wa.integrationId, body, signMetaBody(body, o.wa.appSecret))).status).toBe(200);
  await eventually(async () => (await getItem(`USER#${o.userId}`, `WAMID#${String(msg.message.id)}`))?.state === 'handled', 20_000);
  const pointer = await getItem(`USER#${o.userId}`, `WACUST#${customer.waId}`);
  const messages = new DynamoMessageRepository(db(), tableName());
  const [conversation] = await new DynamoConversationRepository(db(), tableName(), messages).getMany(o.userId, [...((pointer?.conversationIds as Set<string> | undefined) ?? [])]);
  return conversation!.id;
}

async function escalationAlert(o: Owner): Promise<string> {
  const res = await api<NotificationList>('GET', '/api/notifications', { token: o.token });
  const alert = res.body.data?.notifications.find((n) => n.kind === 'conversation_escalated');
  if (!alert) throw new Error('no escalation alert');
  return alert._id;
}

/** The alert's e-mail delivery, as the notifications list shows it (kept on the notification item by the worker). */
async function alertEmail(o: Owner, notificationId: string): Promise<EmailDelivery | undefined> {
  const res = await api<NotificationList>('GET', '/api/notifications', { token: o.token });
  return res.body.data?.notifications.find((n) => n._id === notificationId)?.email ?? undefined;
}
const summaryEmail = async (o: Owner, callId: string) => (await getCall(o.token, callId))?.summaryEmail ?? undefined;

const summaryMails = async (o: Owner) => (await mailsTo(o.email)).filter((m) => /^(Call summary|Resumen de llamada)/.test(m.subject));
const alertMails = async (o: Owner) => (await mailsTo(o.email)).filter((m) => /escalated|escalada/i.test(m.subject));

/** SES answers 503 to every SendEmail for this owner's address until cleared. */
async function sesDownFor(o: Owner): Promise<string> {
  const id = `ses-down-${randomUUID()}`;
  await switchProxy('ses', { state: 'error', status: 503, id, match: { bodyIncludes: o.email } });
  return id;
}

async function poll<T>(check: () => Promise<T | undefined | null | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('e-mail that waits for SES (issue 34)', () => {
  it('SES down while an escalation happens and a call ends: nothing sent, both retrying; SES back: exactly one e-mail each', async () => {
    const o = await owner();
    const conversationId = await conversationWith(o, 'Rocío Vidal');
    const call = await seedCall(o.userId);
    const fault = await sesDownFor(o);
    let retrying: [EmailDelivery, EmailDelivery];
    try {
      // The call ends (its summary job queues the e-mail), then the owner escalates from the board.
      await enqueueSummary(o.userId, call.id);
      await poll(async () => (await summaryEmail(o, call.id))?.state === 'retrying', 20_000);
      const escalated = await api('POST', `/api/conversations/${conversationId}/escalate`, { token: o.token, body: { reason: 'Pide factura' } });
      expect(escalated.status).toBe(200);
      const notificationId = await escalationAlert(o);
      // The scaled schedule is short (RETRY_TIME_SCALE): seen retrying, SES comes back at once.
      const alert = await poll(async () => {
        const a = await alertEmail(o, notificationId);
        return a?.state === 'retrying' ? a : undefined;
      }, 5_000);
      retrying = [(await summaryEmail(o, call.id))!, alert];
      expect([...(await summaryMails(o)), ...(await alertMails(o))]).toEqual([]);
    } finally {
      await clearProxy('ses', fault);
    }
    for (const delivery of retrying) expect(delivery).toMatchObject({ reason: 'unavailable', tries: expect.any(Number) });

    // Sent, and (just after) recorded among the call's deliveries.
    const sent = await eventually(async () => {
      const c = await getCall(o.token, call.id);
      return c?.summaryEmail?.state === 'sent' && c.deliveries.length > 0 ? c : undefined;
    }, 20_000);
    await eventually(async () => (await alertMails(o)).length > 0, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    expect((await summaryMails(o)).map((m) => m.subject)).toEqual([`Call summary: ${call.phoneNumber} (1:23)`]);
    expect((await alertMails(o)).map((m) => m.subject)).toEqual(['Conversation escalated: Rocío Vidal']);
    expect(sent.summaryEmail).toMatchObject({ state: 'sent', sentAt: expect.any(String), resends: 0 });
    expect(sent.summaryEmail!.tries).toBeGreaterThan(1);
    expect(sent.deliveries).toMatchObject([{ method: 'email', attempt: 1, ok: true }]);
    expect(await alertEmail(o, await escalationAlert(o))).toMatchObject({ state: 'sent' });
  }, 90_000);

  it('SES down for longer than every try: the summary fails with the reason; Resend after recovery sends exactly one; the route is the owner’s alone', async () => {
    const o = await owner();
    const call = await seedCall(o.userId);
    const fault = await sesDownFor(o);
    let failed: VoiceConversation;
    try {
      await enqueueSummary(o.userId, call.id);
      failed = await eventually(async () => {
        const c = await getCall(o.token, call.id);
        return c?.summaryEmail?.state === 'failed' && c.deliveries.length > 0 ? c : undefined;
      }, 30_000);
    } finally {
      await clearProxy('ses', fault);
    }
    expect(failed.summaryEmail).toMatchObject({ state: 'failed', reason: 'unavailable', tries: 8, resends: 0 });
    expect(failed.deliveries).toMatchObject([{ method: 'email', attempt: 1, ok: false }]);
    expect([...(await summaryMails(o)), ...(await alertMails(o))]).toEqual([]);

    // Another account cannot resend it, nor probe it; an unknown id is 404 too.
    const stranger = await subscribedUser('starter');
    expect((await api('POST', `/api/voice-conversations/${call.id}/resend-summary`, { token: stranger.token })).status).toBe(404);
    expect((await api('POST', `/api/voice-conversations/NOT-A-CALL/resend-summary`, { token: o.token })).status).toBe(404);

    const resent = await api<{ summaryEmail: EmailDelivery }>('POST', `/api/voice-conversations/${call.id}/resend-summary`, { token: o.token });
    expect(resent.status).toBe(200);
    expect(resent.body.message).toBe(voiceMessages.summaryResendQueued);
    expect(resent.body.data?.summaryEmail).toMatchObject({ state: expect.stringMatching(/^(queued|sending|sent)$/), resends: 1 });

    const sent = await eventually(async () => {
      const c = await getCall(o.token, call.id);
      return c?.summaryEmail?.state === 'sent' && c.deliveries.length > 1 ? c : undefined;
    }, 20_000);
    await new Promise((r) => setTimeout(r, 500));
    expect((await summaryMails(o)).map((m) => m.subject)).toEqual([`Call summary: ${call.phoneNumber} (1:23)`]);
    expect(sent.summaryEmail).toMatchObject({ state: 'sent', resends: 1, tries: 1 });
    expect(sent.deliveries.map((d) => [d.method, d.attempt, d.ok])).toEqual([
      ['email', 1, false],
      ['email', 2, true],
    ]);
  }, 90_000);

  it('Resend: a call whose summary was not e-mailed answers 409; without a summary, 409', async () => {
    const o = await owner();
    expect((await api('PUT', '/api/voice-settings', { token: o.token, body: { ...VOICE_DEFAULTS, summaryNotificationMethod: null } })).status).toBe(200);
    const call = await seedCall(o.userId);
    await enqueueSummary(o.userId, call.id);
    await eventually(async () => (await getCall(o.token, call.id))?.summaryStatus === 'completed', 20_000);
    const notEmailed = await api('POST', `/api/voice-conversations/${call.id}/resend-summary`, { token: o.token });
    expect(notEmailed.status).toBe(409);
    expect(notEmailed.body.message).toBe(voiceMessages.summaryNotEmailed);
    const pending = await seedCall(o.userId);
    const noSummary = await api('POST', `/api/voice-conversations/${pending.id}/resend-summary`, { token: o.token });
    expect(noSummary.status).toBe(409);
    expect(noSummary.body.message).toBe(voiceMessages.noSummary);
    expect([...(await summaryMails(o)), ...(await alertMails(o))]).toEqual([]);
  }, 60_000);
});
