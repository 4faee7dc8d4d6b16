/**
 * Escalation alerts end to end on the local stack (issue 17): an escalation — by the agent on an
 * inbound WhatsApp message (signed webhook → queue → worker, the fake OpenAI scripted with
 * escalate_to_human), by the owner (POST /api/conversations/{id}/escalate), or by the voice agent
 * during a call (the call simulator, Twilio-signed) — leaves one unread in-app notification, one
 * e-mail in the SES mailbox (unless alertByEmail is off) and, with alertWhatsappNumber set, a
 * WhatsApp text to that number recorded by the fake Graph API. Plus the notifications API: list,
 * read, read all, the unread count, and a foreign id answering 404.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DynamoConversationRepository } from '../../src/adapters/dynamo/conversations.js';
import { DynamoInboxSettingsRepository } from '../../src/adapters/dynamo/inbox-settings.js';
import { DynamoMessageRepository } from '../../src/adapters/dynamo/messages.js';
import { INBOX_DEFAULTS, type InboxSettings } from '../../src/contract/inbox.js';
import type { NotificationList } from '../../src/contract/notifications.js';
import { VOICE_DEFAULTS, type TwilioSetupResult } from '../../src/contract/voice.js';
import type { StoredConversation } from '../../src/domain/conversations/ports.js';
import { simulateCall } from '../../local/fake-twilio/call-simulator.js';
import { createAnsweringAgent, eventually } from '../support/agents-api.js';
import { api, db, getItem, mailsTo, provided, registerUser, tableName } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { callRepo, callerNumber } from '../support/seed-calls.js';
import {
  connectWhatsApp,
  graphSends,
  metaDelivery,
  postWebhook,
  randomDigits,
  signMetaBody,
  textMessage,
  waCustomer,
  type ChangeParts,
  type ConnectedWhatsApp,
  type WaCustomer,
} from '../support/whatsapp.js';

const messages = () => new DynamoMessageRepository(db(), tableName());
const conversations = () => new DynamoConversationRepository(db(), tableName(), messages());
const inboxSettings = () => new DynamoInboxSettingsRepository(db(), tableName());

interface Setup {
  token: string;
  userId: string;
  email: string;
  key: string;
  wa: ConnectedWhatsApp;
}

async function control(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** A subscribed user with ChatGPT (a fresh key: the fake OpenAI scripts by key), optionally an agent, WhatsApp connected, these inbox settings. */
async function ready(options: { agent?: boolean; settings?: Partial<InboxSettings> } = {}): Promise<Setup> {
  const { token, userId, user } = await subscribedUser('starter');
  const key = `sk-test-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status} ${chatgpt.body.message}`);
  if (options.agent !== false) {
    await createAnsweringAgent(token);
  }
  const wa = await connectWhatsApp(token);
  if (options.settings) await inboxSettings().put(userId, { ...INBOX_DEFAULTS, ...options.settings });
  return { token, userId, email: user.email, key, wa };
}

async function deliver(s: Setup, parts: ChangeParts): Promise<void> {
  const body = metaDelivery(s.wa, parts);
  const res = await postWebhook(s.wa.integrationId, body, signMetaBody(body, s.wa.appSecret));
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
}

async function handled(s: Setup, wamid: string): Promise<void> {
  await eventually(async () => (await getItem(`USER#${s.userId}`, `WAMID#${wamid}`))?.state === 'handled', 20_000);
}

async function conversationOf(s: Setup, customer: WaCustomer): Promise<StoredConversation> {
  const pointer = await getItem(`USER#${s.userId}`, `WACUST#${customer.waId}`);
  const ids = [...((pointer?.conversationIds as Set<string> | undefined) ?? [])];
  const [conversation] = await conversations().getMany(s.userId, ids);
  if (!conversation) throw new Error('no conversation');
  return conversation;
}

const escalateScript = (key: string, reason: string) =>
  control(provided('openaiUrl'), '/_test/script', {
    key,
    responses: [
      { content: null, tool_calls: [{ id: 'call_esc', type: 'function', function: { name: 'escalate_to_human', arguments: JSON.stringify({ reason }) } }] },
      { content: 'Una persona del equipo le atenderá enseguida.' },
    ],
  });

async function notifications(token: string, query = ''): Promise<NotificationList> {
  const res = await api<NotificationList>('GET', `/api/notifications${query}`, { token });
  if (res.status !== 200 || !res.body.data) throw new Error(`list answered ${res.status}: ${res.body.message}`);
  return res.body.data;
}

const alertMails = async (email: string) => (await mailsTo(email)).filter((m) => /escalated|escalada/i.test(m.subject));

/** The agent escalates on one inbound message (signed webhook); resolves once the worker is done with it. */
async function agentEscalation(s: Setup, customer: WaCustomer, reason: string) {
  await escalateScript(s.key, reason);
  const msg = textMessage(customer, 'Quiero hablar con una persona');
  await deliver(s, { messages: [msg] });
  await handled(s, String(msg.message.id));
  return msg;
}

describe('escalation alerts', () => {
  it('the agent escalates an inbound WhatsApp message: one unread notification and one e-mail to the account', async () => {
    const s = await ready();
    const ana = waCustomer('Ana Muñoz');

    await agentEscalation(s, ana, 'Reembolso de 900 €');

    const conversation = await conversationOf(s, ana);
    const list = await eventually(async () => {
      const l = await notifications(s.token);
      return l.notifications.length > 0 ? l : null;
    });
    expect(list.unreadCount).toBe(1);
    expect(list.notifications).toEqual([
      expect.objectContaining({ kind: 'conversation_escalated', subjectId: conversation.id, contactName: 'Ana Muñoz', reason: 'Reembolso de 900 €', readAt: null }),
    ]);
    const mails = await eventually(async () => {
      const m = await alertMails(s.email);
      return m.length > 0 ? m : null;
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Conversation escalated: Ana Muñoz');
    expect(mails[0]!.body.text).toContain('Reason: Reembolso de 900 €');
    expect(mails[0]!.body.text).toContain(`/conversations?open=${conversation.id}`);
  }, 60_000);

  it('a retried delivery of the same message does not alert twice', async () => {
    const s = await ready();
    const ben = waCustomer('Benito');
    const msg = await agentEscalation(s, ben, 'Wants a manager');
    await eventually(async () => (await alertMails(s.email)).length === 1);

    // Meta redelivers the same signed delivery (same wamid).
    await deliver(s, { messages: [msg] });
    await handled(s, String(msg.message.id));
    await new Promise((r) => setTimeout(r, 1500));

    const list = await notifications(s.token);
    expect(list.notifications).toHaveLength(1);
    expect(list.unreadCount).toBe(1);
    expect(await alertMails(s.email)).toHaveLength(1);
  }, 60_000);

  it('the owner escalates from the board: a notification and an e-mail, in Spanish for a Spanish-speaking owner', async () => {
    const s = await ready({ agent: false });
    const profile = await api('PUT', '/api/user/profile', { token: s.token, body: { name: 'Dueña', language: 'es' } });
    expect(profile.status).toBe(200);
    const carmen = waCustomer('Carmen Ibáñez');
    const msg = textMessage(carmen, 'Hola');
    await deliver(s, { messages: [msg] });
    await handled(s, String(msg.message.id));
    const conversation = await conversationOf(s, carmen);

    const res = await api('POST', `/api/conversations/${conversation.id}/escalate`, { token: s.token, body: { reason: 'Pide factura' } });

    expect(res.status).toBe(200);
    const list = await notifications(s.token);
    expect(list.unreadCount).toBe(1);
    expect(list.notifications[0]).toMatchObject({ kind: 'conversation_escalated', subjectId: conversation.id, contactName: 'Carmen Ibáñez', reason: 'Pide factura' });
    // Queued by the request, sent by the outbound-email worker (issue 34): it arrives a moment later.
    const mails = await eventually(async () => {
      const m = await alertMails(s.email);
      return m.length > 0 ? m : null;
    });
    expect(mails.map((m) => m.subject)).toEqual(['Conversación escalada: Carmen Ibáñez']);
    expect(mails[0]!.body.text).toContain('Motivo: Pide factura');
  }, 60_000);

  it('alertByEmail off: the notification still, no e-mail', async () => {
    const s = await ready({ settings: { alertByEmail: false } });

    await agentEscalation(s, waCustomer('Dolores'), 'Queja');

    const list = await eventually(async () => {
      const l = await notifications(s.token);
      return l.notifications.length > 0 ? l : null;
    });
    expect(list.unreadCount).toBe(1);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await alertMails(s.email)).toEqual([]);
  }, 60_000);

  it('alertWhatsappNumber set: the alert goes to that number through the user’s WhatsApp connection', async () => {
    const owner = `34${randomDigits(9)}`;
    const s = await ready({ settings: { alertWhatsappNumber: `+${owner}` } });
    const eva = waCustomer('Eva');

    await agentEscalation(s, eva, 'Urgente');

    const alert = await eventually(async () => (await graphSends(s.wa.phoneId)).find((x) => x.to === owner));
    expect(alert.text).toContain('Conversation escalated: Eva');
    expect(alert.text).toContain('Urgente');
    const toCustomer = (await graphSends(s.wa.phoneId)).filter((x) => x.to === eva.waId).map((x) => x.text);
    expect(toCustomer).toEqual(['Una persona del equipo le atenderá enseguida.']);
  }, 60_000);

  it('a call escalated by the voice agent: a notification at once, the e-mail when the call ends', async () => {
    const { token, userId, user } = await subscribedUser('starter');
    const key = `sk-test-${randomUUID()}`;
    expect((await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } })).status).toBe(200);
    await createAnsweringAgent(token);
    const number = `+3491${randomDigits(7)}`;
    const account = (await control(provided('twilioApiUrl'), '/_test/accounts', { numbers: [number] })) as { accountSid: string; authToken: string };
    const setup = await api<TwilioSetupResult>('POST', '/api/integrations/twilio-voice/setup', {
      token,
      body: { accountSid: account.accountSid, authToken: account.authToken, phoneNumber: number },
    });
    expect(setup.status).toBe(200);
    expect((await api('PUT', '/api/voice-settings', { token, body: { ...VOICE_DEFAULTS, conversationMode: 'gather' } })).status).toBe(200);
    await escalateScript(key, 'Quiere hablar con el dueño');

    const call = await simulateCall({
      voiceUrl: setup.body.data!.webhookUrl,
      statusCallbackUrl: setup.body.data!.statusCallbackUrl,
      accountSid: account.accountSid,
      authToken: account.authToken,
      from: callerNumber(),
      to: number,
      turns: [{ speech: 'Quiero hablar con una persona', confidence: 0.95 }],
      twilioApiUrl: provided('twilioApiUrl'),
    });

    const saved = await callRepo().getBySid(userId, call.callSid);
    expect(saved).toMatchObject({ escalated: true });
    const list = await notifications(token);
    expect(list.unreadCount).toBe(1);
    expect(list.notifications).toEqual([expect.objectContaining({ kind: 'call_escalated', subjectId: saved!.id, reason: 'Quiere hablar con el dueño', readAt: null })]);
    const mails = await eventually(async () => {
      const m = await alertMails(user.email);
      return m.length > 0 ? m : null;
    }, 20_000);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Call escalated: /);
    expect(mails[0]!.body.text).toContain(`/voice-conversations/${saved!.id}`);
  }, 60_000);

  it('list newest first with a cursor, mark one read, mark all read; the unread count follows exactly; a foreign id is 404', async () => {
    const s = await ready({ agent: false, settings: { alertByEmail: false } });
    const ids: string[] = [];
    for (const name of ['Uno', 'Dos', 'Tres']) {
      const customer = waCustomer(name);
      const msg = textMessage(customer, 'hola');
      await deliver(s, { messages: [msg] });
      await handled(s, String(msg.message.id));
      const conversation = await conversationOf(s, customer);
      expect((await api('POST', `/api/conversations/${conversation.id}/escalate`, { token: s.token, body: { reason: `Motivo ${name}` } })).status).toBe(200);
      ids.push(conversation.id);
    }

    const first = await notifications(s.token, '?limit=2');
    expect(first.unreadCount).toBe(3);
    expect(first.notifications.map((n) => n.contactName)).toEqual(['Tres', 'Dos']);
    expect(first.nextCursor).not.toBeNull();
    const second = await notifications(s.token, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.notifications.map((n) => n.contactName)).toEqual(['Uno']);
    expect(second.nextCursor).toBeNull();

    const target = first.notifications[1]!;
    const read = await api<{ notification: { readAt: string | null }; unreadCount: number }>('POST', `/api/notifications/${target._id}/read`, { token: s.token });
    expect(read.status).toBe(200);
    expect(read.body.data!.notification.readAt).not.toBeNull();
    expect(read.body.data!.unreadCount).toBe(2);
    // Reading it again changes nothing (the counter stays exact).
    const again = await api<{ unreadCount: number }>('POST', `/api/notifications/${target._id}/read`, { token: s.token });
    expect(again.body.data!.unreadCount).toBe(2);

    const stranger = await registerUser();
    const foreign = await api('POST', `/api/notifications/${first.notifications[0]!._id}/read`, { token: stranger.session.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Notification not found');
    expect((await notifications(stranger.session.token)).notifications).toEqual([]);
    expect((await api('POST', '/api/notifications/not-an-id/read', { token: s.token })).status).toBe(404);
    expect((await api('GET', '/api/notifications?cursor=nope', { token: s.token })).status).toBe(400);

    const all = await api<{ marked: number; unreadCount: number }>('POST', '/api/notifications/read-all', { token: s.token });
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual({ marked: 2, unreadCount: 0 });
    const after = await notifications(s.token);
    expect(after.unreadCount).toBe(0);
    expect(after.notifications.every((n) => n.readAt !== null)).toBe(true);
  }, 90_000);
});
