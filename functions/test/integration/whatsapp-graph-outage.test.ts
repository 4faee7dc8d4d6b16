/**
 * WhatsApp (Meta's Graph API) fails while the agent replies (issue 34 item 2), end to end on the
 * local stack: signed Meta deliveries → the webhook → the whatsapp-inbound queue (its retry
 * schedule scaled by RETRY_TIME_SCALE: ~2.7 s) → the worker → the fake OpenAI → the fake Graph,
 * made to fail with its failure switches on this test's own number (POST /{phoneId}/messages),
 * each switch counting the sends it took (GET /_test/faults).
 *
 * - A 500 twice: the same reply goes on the third try, once; the model wrote it once.
 * - A 500 past the whole schedule: each reply is kept as failed (our words, Meta's code), each
 *   customer's message waits with "no answer sent — WhatsApp unavailable", the owner is told once;
 *   once WhatsApp is back, "Answer waiting messages" sends those same replies, once each.
 * - 131047 (the 24-hour window): failed at once with Meta's reason, never retried.
 * - A connection dropped after the send went out: never sent again (at most once), stored as not
 *   confirmed; Meta's status naming our reference (biz_opaque_callback_data) makes it delivered.
 * - A person's template while WhatsApp is down: 503 "not sent, try again", kept as failed.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AnswerWaitingResult } from '../../src/contract/no-answer.js';
import type { NotificationList } from '../../src/contract/notifications.js';
import { whatsappMessages, type Conversation, type ConversationDetail, type ConversationDetailMessage, type ConversationMessage } from '../../src/contract/whatsapp.js';
import { JOB_TRIES } from '../../src/domain/retry.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, getItem, provided, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { ago, DAY, inbound, openConversation, spanishWaId } from '../support/conversations.js';
import { armFault, clearFault, faultState } from '../support/faults.js';
import {
  connectWhatsApp,
  graphSends,
  metaDelivery,
  postWebhook,
  signMetaBody,
  statusUpdate,
  textMessage,
  waCustomer,
  type ConnectedWhatsApp,
  type InboundMessage,
  type WaCustomer,
} from '../support/whatsapp.js';

interface Owner {
  token: string;
  userId: string;
  /** The owner's OpenAI key: the model calls are counted by it. */
  key: string;
  wa: ConnectedWhatsApp;
}

/** A subscribed owner with ChatGPT (a fresh key), an enabled agent and WhatsApp connected. */
async function owner(): Promise<Owner> {
  const { token, userId } = await subscribedUser('starter');
  const key = `sk-test-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status} ${chatgpt.body.message}`);
  await createAnsweringAgent(token);
  return { token, userId, key, wa: await connectWhatsApp(token) };
}

/** Posts a delivery as Meta does (signed); the webhook must accept it. */
async function post(o: Owner, parts: Parameters<typeof metaDelivery>[1]): Promise<void> {
  const body = metaDelivery(o.wa, parts);
  const res = await postWebhook(o.wa.integrationId, body, signMetaBody(body, o.wa.appSecret));
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
}
const deliver = (o: Owner, message: InboundMessage) => post(o, { messages: [message] });

/** A fault on this owner's sends only. */
const sendFault = (o: Owner, fault: Omit<Parameters<typeof armFault>[1], 'match' | 'id'>) =>
  armFault('whatsapp', { id: `graph-outage-${randomUUID()}`, match: { method: 'POST', path: `/${o.wa.phoneId}/messages` }, ...fault } as Parameters<typeof armFault>[1]);
const hitsOf = async (id: string) => (await faultState('whatsapp', id))?.hits;

const wamidState = async (o: Owner, m: InboundMessage) => (await getItem(`USER#${o.userId}`, `WAMID#${String(m.message.id)}`))?.state;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The model's calls made with the owner's key (the fake OpenAI's record). */
async function modelCalls(o: Owner): Promise<number> {
  const res = await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(o.key)}`);
  const { requests } = (await res.json()) as { requests: { path: string }[] };
  return requests.filter((r) => r.path.includes('chat/completions')).length;
}

/** The sends the fake Graph accepted (a faulted send is not recorded: its switch counts it). */
const accepted = async (o: Owner, customer?: WaCustomer) =>
  (await graphSends(o.wa.phoneId)).filter((s) => s.status === 200 && (!customer || s.to === customer.waId));

async function conversationOf(o: Owner, customer: WaCustomer): Promise<Conversation> {
  const list = await api<Conversation[]>('GET', '/api/conversations?limit=100', { token: o.token });
  const found = (list.body.data ?? []).find((c) => c.customerWaId === customer.waId);
  if (!found) throw new Error(`no conversation with ${customer.name}`);
  return found;
}

async function messagesOf(o: Owner, customer: WaCustomer): Promise<ConversationDetailMessage[]> {
  const res = await api<ConversationDetail>('GET', `/api/conversations/${(await conversationOf(o, customer))._id}`, { token: o.token });
  return res.body.data!.messages;
}

const notifications = async (o: Owner) => (await api<NotificationList>('GET', '/api/notifications', { token: o.token })).body.data!.notifications;

describe('whatsapp: Graph fails on the agent’s replies (issue 34 item 2)', () => {
  it('a 500 twice: the same reply is sent on the third try, once; the model wrote it once; the conversation shows it sent', async () => {
    const o = await owner();
    const fault = await sendFault(o, { kind: 'status', status: 500, times: 2 });
    const ana = waCustomer('Ana Graph');
    const asked = textMessage(ana, '¿Abren el sábado?');

    await deliver(o, asked);
    await until(async () => (await wamidState(o, asked)) === 'handled', 'the message handled');
    await sleep(500); // a late retry would show by now (the scaled schedule's waits are 30-900 ms)

    expect(await hitsOf(fault.id)).toBe(2);
    const sends = await accepted(o);
    expect(sends.map((s) => [s.to, s.text])).toEqual([[ana.waId, 'Echo: ¿Abren el sábado?']]);
    expect(await modelCalls(o)).toBe(1);
    const shown = await messagesOf(o, ana);
    expect(shown.map((m) => [m.fromMe, m.body, m.status])).toEqual([
      [false, '¿Abren el sábado?', 'delivered'],
      [true, 'Echo: ¿Abren el sábado?', 'sent'],
    ]);
    // Our reference went with it (Meta echoes it in its statuses).
    expect(sends[0]!.payload.biz_opaque_callback_data).toBe(shown[1]!._id);
    const conversation = await conversationOf(o, ana);
    expect(conversation).toMatchObject({ messageCount: 2, noAnswer: null, lastMessage: { fromMe: true, body: 'Echo: ¿Abren el sábado?' } });
    expect(await notifications(o)).toEqual([]);
    await clearFault('whatsapp', fault.id);
  });

  it('a 500 past every retry: each reply kept as failed with our reason and Meta’s code, each message waiting, the owner told once; "Answer waiting messages" sends those replies once', async () => {
    const o = await owner();
    const fault = await sendFault(o, { kind: 'status', status: 500 });
    const [ben, cy] = [waCustomer('Ben Graph'), waCustomer('Cy Graph')];
    const sent = [textMessage(ben, 'What are your prices?'), textMessage(cy, 'Is there parking?')];

    for (const m of sent) await deliver(o, m);
    await until(async () => (await Promise.all(sent.map((m) => wamidState(o, m)))).every((s) => s === 'waiting'), 'every message waiting', 60_000);
    await sleep(300);

    // Every try of each job, and no more: the last one gives the message its marker instead of failing.
    expect(await hitsOf(fault.id)).toBe(2 * JOB_TRIES);
    expect(await accepted(o)).toEqual([]);
    expect(await modelCalls(o)).toBe(2);
    for (const [customer, text] of [
      [ben, 'What are your prices?'],
      [cy, 'Is there parking?'],
    ] as const) {
      expect((await conversationOf(o, customer)).noAnswer).toMatchObject({ reason: 'whatsapp_unavailable', count: 1 });
      expect((await messagesOf(o, customer)).map((m) => [m.fromMe, m.body, m.status, m.noAnswer?.reason ?? null, m.error ?? null, m.errorCode ?? null])).toEqual([
        [false, text, 'delivered', 'whatsapp_unavailable', null, null],
        [true, `Echo: ${text}`, 'failed', null, whatsappMessages.replyNotSentUnavailable, '131000'],
      ]);
    }
    // One notification for the outage (two messages failed).
    expect((await notifications(o)).map((n) => [n.kind, n.subjectId, n.reason])).toEqual([['messages_waiting', 'whatsapp', 'whatsapp_unavailable']]);

    // WhatsApp is back: the waiting replies are sent as they were written, once each.
    await clearFault('whatsapp', fault.id);
    const answered = await api<AnswerWaitingResult>('POST', '/api/conversations/answer-waiting', { token: o.token });
    expect(answered).toMatchObject({ status: 202, body: { data: { queued: 2, messages: 2, skipped: 0 } } });
    await until(async () => (await Promise.all(sent.map((m) => wamidState(o, m)))).every((s) => s === 'handled'), 'every waiting message answered');
    await sleep(500);

    expect((await accepted(o)).map((s) => [s.to, s.text]).sort()).toEqual(
      [
        [ben.waId, 'Echo: What are your prices?'],
        [cy.waId, 'Echo: Is there parking?'],
      ].sort(),
    );
    expect(await modelCalls(o)).toBe(2);
    expect((await messagesOf(o, ben)).map((m) => [m.fromMe, m.status, m.noAnswer ?? null, m.error ?? null])).toEqual([
      [false, 'delivered', null, null],
      [true, 'sent', null, null],
    ]);
    expect((await conversationOf(o, cy)).noAnswer).toBeNull();
    const again = await api<AnswerWaitingResult>('POST', '/api/conversations/answer-waiting', { token: o.token });
    expect(again.body.data).toMatchObject({ queued: 0, messages: 0 });
    await sleep(300);
    expect(await accepted(o)).toHaveLength(2);
    expect(await notifications(o)).toHaveLength(1);
  }, 90_000);

  it('131047 (the 24-hour window): failed at once with Meta’s reason and code, no retry, no marker', async () => {
    const o = await owner();
    const fault = await sendFault(o, { kind: 'status', code: 131047 });
    const dee = waCustomer('Dee Window');
    const asked = textMessage(dee, 'Hello?');

    await deliver(o, asked);
    await until(async () => (await wamidState(o, asked)) === 'handled', 'the message handled');
    await sleep(800); // the scaled schedule's first retries would have come by now

    expect(await hitsOf(fault.id)).toBe(1);
    const [question, reply] = await messagesOf(o, dee);
    expect(question).toMatchObject({ fromMe: false, body: 'Hello?' });
    expect(question!.noAnswer).toBeUndefined();
    expect(reply).toMatchObject({ fromMe: true, status: 'failed', errorCode: '131047' });
    expect(reply!.error).toContain('131047');
    expect(await notifications(o)).toEqual([]);
    await clearFault('whatsapp', fault.id);
  });

  it('a connection dropped after the send went out: not sent again, shown as not confirmed; Meta’s status with our reference makes it delivered', async () => {
    const o = await owner();
    const fault = await sendFault(o, { kind: 'drop', times: 1 });
    const eva = waCustomer('Eva Dropped');
    const asked = textMessage(eva, '¿Hacéis envíos?');

    await deliver(o, asked);
    await until(async () => (await wamidState(o, asked)) === 'handled', 'the message handled');
    await sleep(800);

    expect(await hitsOf(fault.id)).toBe(1);
    expect(await accepted(o)).toEqual([]);
    const reply = (await messagesOf(o, eva))[1]!;
    expect(reply).toMatchObject({ fromMe: true, status: 'failed', error: whatsappMessages.deliveryUnknown });

    // Meta did take it: its status names the wamid we never got, and our reference.
    const wamid = `wamid.${randomUUID().replace(/-/g, '')}`;
    await post(o, { statuses: [statusUpdate(wamid, 'delivered', eva, { reference: reply._id })] });
    const settled = await until(async () => {
      const m = (await messagesOf(o, eva))[1]!;
      return m.status === 'delivered' ? m : undefined;
    }, 'the reply delivered');

    expect(settled.error).toBeUndefined();
    const hub = await api<{ waMessageId: string; status: string }>('GET', `/api/messages/${reply._id}`, { token: o.token });
    expect(hub.body.data).toMatchObject({ waMessageId: wamid, status: 'delivered' });
    await clearFault('whatsapp', fault.id);
  });

  it('a person’s template while WhatsApp is down: 503 "not sent, try again", kept as failed with Meta’s code', async () => {
    const o = await owner();
    const at = ago(2 * DAY);
    const conv = await openConversation(o.userId, o.wa, { waId: spanishWaId(), name: 'Fran Template' }, at);
    await inbound(o.userId, o.wa, conv, { body: '¿Tenéis cita?', at });
    const fault = await sendFault(o, { kind: 'status', status: 503, times: 1 });

    const res = await api<ConversationMessage>('POST', `/api/conversations/${conv.id}/template`, {
      token: o.token,
      body: { name: 'recordatorio_cita', language: 'es', parameters: ['Fran', 'martes'] },
    });

    expect(res).toMatchObject({ status: 503, body: { message: whatsappMessages.graphTemporarilyUnavailable, errorCode: '2' } });
    expect(await hitsOf(fault.id)).toBe(1);
    const detail = await api<ConversationDetail>('GET', `/api/conversations/${conv.id}`, { token: o.token });
    expect(detail.body.data!.messages.at(-1)).toMatchObject({ fromMe: true, type: 'template', status: 'failed', error: whatsappMessages.graphTemporarilyUnavailable, errorCode: '2' });
    await clearFault('whatsapp', fault.id);
  });
});
