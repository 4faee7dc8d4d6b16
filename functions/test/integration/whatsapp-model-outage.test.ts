/**
 * The model fails while customers write on WhatsApp (issue 34 item 3: nothing dropped silently),
 * end to end on the local stack: signed Meta deliveries → the webhook → the whatsapp-inbound queue
 * (its retry schedule scaled by RETRY_TIME_SCALE 0.001: ~2.7 s) → the worker → the fake OpenAI,
 * made to fail with its failure switches (scoped to each test's own API key) → the fake Graph API.
 *
 * - A 429 with Retry-After is retried after that wait and the message answered exactly once.
 * - A 500 past the whole schedule: each message stays stored and its conversation shows the "no
 *   answer sent" marker, the owner gets one notification (bell + e-mail), nothing is sent; once
 *   the model is back "Answer waiting messages" answers each waiting message once, the markers
 *   go, and calling it again sends nothing.
 * - A refused key (401): no retry at all, the marker says why; the action is refused while a
 *   person answers, and answers 404 for another account's conversation.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { NotificationList } from '../../src/contract/notifications.js';
import type { AnswerWaitingResult } from '../../src/contract/no-answer.js';
import { noAnswerMessages } from '../../src/contract/no-answer.js';
import type { Conversation, ConversationDetail, ConversationOverview } from '../../src/contract/whatsapp.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, getItem, mailsTo, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { armFault, clearFault, faultState } from '../support/faults.js';
import {
  connectWhatsApp,
  graphSends,
  metaDelivery,
  postWebhook,
  signMetaBody,
  textMessage,
  waCustomer,
  type ConnectedWhatsApp,
  type GraphSend,
  type InboundMessage,
  type WaCustomer,
} from '../support/whatsapp.js';

interface Owner {
  token: string;
  userId: string;
  email: string;
  /** The owner's OpenAI key: the faults match it, so parallel files are not affected. */
  key: string;
  wa: ConnectedWhatsApp;
}

/** A subscribed owner with ChatGPT (a fresh key), an enabled agent and WhatsApp connected. */
async function owner(): Promise<Owner> {
  const { token, userId, user } = await subscribedUser('starter');
  const key = `sk-test-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status} ${chatgpt.body.message}`);
  await createAnsweringAgent(token);
  return { token, userId, email: user.email, key, wa: await connectWhatsApp(token) };
}

/** Delivers one message as Meta does (signed); the webhook must accept it. */
async function deliver(o: Owner, message: InboundMessage): Promise<void> {
  const body = metaDelivery(o.wa, { messages: [message] });
  const res = await postWebhook(o.wa.integrationId, body, signMetaBody(body, o.wa.appSecret));
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
}

const chatFault = (o: Owner, fault: Omit<Parameters<typeof armFault>[1], 'match'>) =>
  armFault('openai', { id: `outage-${randomUUID()}`, match: { key: o.key, path: '/chat/completions' }, ...fault });

const wamidOf = (m: InboundMessage) => String(m.message.id);
const wamidState = async (o: Owner, m: InboundMessage) => (await getItem(`USER#${o.userId}`, `WAMID#${wamidOf(m)}`))?.state;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The successful sends to each customer. */
async function repliesTo(o: Owner): Promise<Map<string, GraphSend[]>> {
  const byCustomer = new Map<string, GraphSend[]>();
  for (const s of (await graphSends(o.wa.phoneId)).filter((x) => x.status === 200)) byCustomer.set(s.to, [...(byCustomer.get(s.to) ?? []), s]);
  return byCustomer;
}

async function conversationOf(o: Owner, customer: WaCustomer): Promise<Conversation | undefined> {
  const list = await api<Conversation[]>('GET', '/api/conversations?limit=100', { token: o.token });
  return (list.body.data ?? []).find((c) => c.customerWaId === customer.waId);
}

async function detailOf(o: Owner, id: string): Promise<ConversationDetail> {
  const res = await api<ConversationDetail>('GET', `/api/conversations/${id}`, { token: o.token });
  if (res.status !== 200 || !res.body.data) throw new Error(`detail answered ${res.status}`);
  return res.body.data;
}

const notifications = async (o: Owner) => (await api<NotificationList>('GET', '/api/notifications', { token: o.token })).body.data!.notifications;

describe('whatsapp: the model fails while customers write (issue 34)', () => {
  it('a 429 with Retry-After: the message is answered after that wait, exactly once, while other customers are answered beside it', async () => {
    const o = await owner();
    // Retry-After 1500 s is 1.5 s on the scaled clock: far longer than the schedule's first wait (30 ms).
    const fault = await chatFault(o, { kind: 'status', status: 429, retryAfter: 1500, times: 1 });
    const first = waCustomer('Ana 429');
    const others = Array.from({ length: 5 }, (_, i) => waCustomer(`Beside ${i}`));
    const asked = textMessage(first, '¿Abren el sábado?');
    const posted = Date.now();

    await deliver(o, asked);
    // The 429 took this message's model call; the others come while it waits for its retry.
    await until(async () => (await faultState('openai', fault.id))?.hits === 1, 'the 429 answered');
    await Promise.all(others.map((c, i) => deliver(o, textMessage(c, `question ${i}`))));
    const replies = await until(async () => {
      const r = await repliesTo(o);
      return [first, ...others].every((c) => r.has(c.waId)) ? r : undefined;
    }, 'every customer answered');
    await until(async () => (await wamidState(o, asked)) === 'handled', 'the 429 message handled');
    await sleep(500); // a late duplicate would show by now (the scaled schedule's waits are 30-900 ms)

    expect((await faultState('openai', fault.id))?.hits).toBe(1);
    const answer = replies.get(first.waId)!;
    expect(answer.map((s) => s.text)).toEqual(['Echo: ¿Abren el sábado?']);
    // The retry waited for the provider's Retry-After, not the schedule's 30 s.
    expect(Date.parse(answer[0]!.at) - posted).toBeGreaterThanOrEqual(1500);
    for (const c of others) expect((await repliesTo(o)).get(c.waId)).toHaveLength(1);
    expect((await conversationOf(o, first))?.noAnswer).toBeNull();
    expect(await notifications(o)).toEqual([]);
    await clearFault('openai', fault.id);
  });

  it('a 500 past every retry: each conversation shows the marker, one notification, nothing sent; "Answer waiting messages" answers each once when the model is back', async () => {
    const o = await owner();
    const fault = await chatFault(o, { kind: 'status', status: 500 });
    const [ana, ben, cy] = [waCustomer('Ana Outage'), waCustomer('Ben Outage'), waCustomer('Cy Outage')];
    const sent = [
      textMessage(ana, 'Hola, ¿tienen cita el lunes?'),
      textMessage(ben, 'What are your prices?'),
      textMessage(cy, 'Is there parking?'),
      textMessage(ana, '¿Y el martes?'),
      textMessage(ben, 'And on Sunday?'),
    ];

    for (const m of sent) await deliver(o, m);
    // Each message waits once the schedule (~2.7 s scaled) is over.
    await until(async () => (await Promise.all(sent.map((m) => wamidState(o, m)))).every((s) => s === 'waiting'), 'every message waiting', 60_000);

    expect(await graphSends(o.wa.phoneId)).toEqual([]);
    const convs = await Promise.all([ana, ben, cy].map((c) => conversationOf(o, c)));
    expect(convs.map((c) => c?.noAnswer && { reason: c.noAnswer.reason, count: c.noAnswer.count })).toEqual([
      { reason: 'unavailable', count: 2 },
      { reason: 'unavailable', count: 2 },
      { reason: 'unavailable', count: 1 },
    ]);
    const anaDetail = await detailOf(o, convs[0]!._id);
    // The customer's messages are kept, each with the marker; no reply is stored.
    expect(anaDetail.messages.map((m) => [m.fromMe, m.body, m.noAnswer?.reason])).toEqual([
      [false, 'Hola, ¿tienen cita el lunes?', 'unavailable'],
      [false, '¿Y el martes?', 'unavailable'],
    ]);
    const overview = await api<ConversationOverview>('GET', '/api/conversations/overview', { token: o.token });
    expect(overview.body.data?.waitingConversations).toBe(3);
    // One notification for the incident (five messages failed), and its e-mail.
    const told = await notifications(o);
    expect(told.map((n) => [n.kind, n.subjectId, n.reason])).toEqual([['messages_waiting', 'openai', 'unavailable']]);
    const noticeMails = async () => (await mailsTo(o.email)).filter((m) => !/verification code/i.test(m.subject));
    const mails = await until(async () => {
      const m = await noticeMails();
      return m.length > 0 ? m : undefined;
    }, 'the notification e-mail');
    expect(mails.map((m) => m.subject)).toEqual(['Customer messages were not answered']);
    expect(mails[0]!.body.text).toContain('/conversations?waiting=1');

    // The model is back: answer them (twice for one conversation and for all at once: each message once).
    await clearFault('openai', fault.id);
    const calls = await Promise.all([
      api<AnswerWaitingResult>('POST', `/api/conversations/${convs[0]!._id}/answer-waiting`, { token: o.token }),
      api<AnswerWaitingResult>('POST', `/api/conversations/${convs[0]!._id}/answer-waiting`, { token: o.token }),
      api<AnswerWaitingResult>('POST', '/api/conversations/answer-waiting', { token: o.token }),
    ]);
    expect(calls.map((c) => c.status)).toEqual([202, 202, 202]);
    expect(calls[2]!.body).toMatchObject({ message: noAnswerMessages.answering, data: { queued: 3, messages: 5, skipped: 0 } });
    await until(async () => (await Promise.all(sent.map((m) => wamidState(o, m)))).every((s) => s === 'handled'), 'every waiting message answered');
    await sleep(500);

    const replies = await repliesTo(o);
    expect(replies.get(ana.waId)?.map((s) => s.text)).toEqual(['Echo: Hola, ¿tienen cita el lunes?', 'Echo: ¿Y el martes?']);
    expect(replies.get(ben.waId)?.map((s) => s.text)).toEqual(['Echo: What are your prices?', 'Echo: And on Sunday?']);
    expect(replies.get(cy.waId)?.map((s) => s.text)).toEqual(['Echo: Is there parking?']);
    const after = await Promise.all([ana, ben, cy].map((c) => conversationOf(o, c)));
    expect(after.map((c) => c?.noAnswer)).toEqual([null, null, null]);
    expect((await detailOf(o, convs[0]!._id)).messages.map((m) => [m.fromMe, m.body, m.noAnswer ?? null])).toEqual([
      [false, 'Hola, ¿tienen cita el lunes?', null],
      [false, '¿Y el martes?', null],
      [true, 'Echo: Hola, ¿tienen cita el lunes?', null],
      [true, 'Echo: ¿Y el martes?', null],
    ]);
    expect((await api<ConversationOverview>('GET', '/api/conversations/overview', { token: o.token })).body.data?.waitingConversations).toBe(0);

    // Again: nothing waits, nothing more is sent.
    const again = await api<AnswerWaitingResult>('POST', '/api/conversations/answer-waiting', { token: o.token });
    expect(again).toMatchObject({ status: 200, body: { message: noAnswerMessages.nothingWaiting, data: { queued: 0, messages: 0, skipped: 0 } } });
    await sleep(300);
    expect((await graphSends(o.wa.phoneId)).filter((s) => s.status === 200)).toHaveLength(5);
    expect(await notifications(o)).toHaveLength(1);
    expect(await noticeMails()).toHaveLength(1);
  }, 90_000);

  it('a refused key (401) is not retried: the marker names the key; the action is refused while a person answers, and 404 for another account', async () => {
    const o = await owner();
    const fault = await chatFault(o, { kind: 'status', status: 401 });
    const dee = waCustomer('Dee Key');
    const asked = textMessage(dee, 'Hello?');

    await deliver(o, asked);
    await until(async () => (await wamidState(o, asked)) === 'waiting', 'the message waiting');
    await sleep(500); // the scaled schedule's first retries would have come by now

    expect((await faultState('openai', fault.id))?.hits).toBe(1);
    const conversation = (await conversationOf(o, dee))!;
    expect(conversation.noAnswer).toMatchObject({ reason: 'credentials', count: 1 });
    expect((await detailOf(o, conversation._id)).messages.map((m) => [m.body, m.noAnswer?.reason])).toEqual([['Hello?', 'credentials']]);
    expect((await notifications(o)).map((n) => [n.kind, n.reason])).toContainEqual(['messages_waiting', 'credentials']);
    expect(await graphSends(o.wa.phoneId)).toEqual([]);

    // Another account cannot see or act on it.
    const stranger = await subscribedUser('starter');
    const foreign = await api('POST', `/api/conversations/${conversation._id}/answer-waiting`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect((await api('POST', '/api/conversations/answer-waiting', { token: stranger.token })).body).toMatchObject({ data: { queued: 0 } });

    // A person takes over: the AI stays quiet, the action says so and changes nothing.
    await clearFault('openai', fault.id);
    expect((await api('POST', `/api/conversations/${conversation._id}/escalate`, { token: o.token, body: { reason: 'I will call her' } })).status).toBe(200);
    const refused = await api('POST', `/api/conversations/${conversation._id}/answer-waiting`, { token: o.token });
    expect(refused).toMatchObject({ status: 409, body: { message: noAnswerMessages.takenOver } });
    const all = await api<AnswerWaitingResult>('POST', '/api/conversations/answer-waiting', { token: o.token });
    expect(all).toMatchObject({ status: 200, body: { data: { queued: 0, messages: 0, skipped: 1 } } });
    await sleep(300);
    expect(await graphSends(o.wa.phoneId)).toEqual([]);
    expect((await conversationOf(o, dee))?.noAnswer).toMatchObject({ reason: 'credentials', count: 1 });

    // Given back to the AI: answered.
    expect((await api('POST', `/api/conversations/${conversation._id}/resume-ai`, { token: o.token })).status).toBe(200);
    expect((await api('POST', `/api/conversations/${conversation._id}/answer-waiting`, { token: o.token })).status).toBe(202);
    await until(async () => (await wamidState(o, asked)) === 'handled', 'answered');
    expect((await graphSends(o.wa.phoneId)).map((s) => s.text)).toEqual(['Echo: Hello?']);
    expect((await conversationOf(o, dee))?.noAnswer).toBeNull();
  });
});
