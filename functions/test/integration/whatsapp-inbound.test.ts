/**
 * The whatsapp-inbound pipeline end to end on the local stack: signed Meta deliveries posted to
 * the webhook → the whatsapp-inbound queue → the worker → DynamoDB Local, the agent runtime on the
 * fake OpenAI, replies sent through the fake Graph API. Checks what is stored (read with the
 * DynamoDB repositories) and what was sent (the fake Graph's records).
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../src/contract/agents.js';
import { whatsappMessages } from '../../src/contract/whatsapp.js';
import { DynamoAgentRepository } from '../../src/adapters/dynamo/agents.js';
import { DynamoConversationRepository } from '../../src/adapters/dynamo/conversations.js';
import { DynamoMessageRepository } from '../../src/adapters/dynamo/messages.js';
import { DynamoSubscriptionRepository, DynamoUsageRepository } from '../../src/adapters/dynamo/subscriptions.js';
import type { ChatModel } from '../../src/domain/ai/ports.js';
import { createUsageService } from '../../src/domain/billing/usage.js';
import type { StoredConversation, StoredMessage } from '../../src/domain/conversations/ports.js';
import { createInboundPipeline } from '../../src/domain/whatsapp/inbound.js';
import { MAX_INBOUND_BODY } from '../../src/domain/whatsapp/parse-delivery.js';
import type { GraphClient, WhatsAppInboundJob } from '../../src/domain/whatsapp/ports.js';
import { newId } from '../../src/lib/ids.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, db, getItem, provided, tableName, until } from '../support/api.js';
import { deadLetters, drainQueues } from '../support/stack-clients.js';
import { subscribedUser, subscriptionItem } from '../support/billing.js';
import {
  connectWhatsApp,
  enqueuedInboundJobs,
  failGraphSends,
  graphSends,
  mediaMessage,
  metaChange,
  metaDelivery,
  metaWebhook,
  newWamid,
  postWebhook,
  randomDigits,
  registerMedia,
  signMetaBody,
  statusUpdate,
  textMessage,
  waCustomer,
  type ChangeParts,
  type ConnectedWhatsApp,
  type GraphSend,
  type WaBusiness,
  type WaCustomer,
} from '../support/whatsapp.js';

const messages = () => new DynamoMessageRepository(db(), tableName());
const conversations = () => new DynamoConversationRepository(db(), tableName(), messages());

interface Setup {
  token: string;
  userId: string;
  key: string;
  agent: Agent;
  wa: ConnectedWhatsApp;
}

/** A subscribed user with ChatGPT connected (a fresh key: the fake OpenAI scripts by key), an enabled agent and WhatsApp connected. */
async function ready(options: { agent?: boolean } = {}): Promise<Setup> {
  const { token, userId } = await subscribedUser('starter');
  const key = `sk-test-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status} ${chatgpt.body.message}`);
  let agent = null as unknown as Agent;
  if (options.agent !== false) {
    agent = await createAnsweringAgent(token);
  }
  const wa = await connectWhatsApp(token);
  return { token, userId, key, agent, wa };
}

async function deliver(s: Setup, parts: ChangeParts): Promise<void> {
  const body = metaDelivery(s.wa, parts);
  const res = await postWebhook(s.wa.integrationId, body, signMetaBody(body, s.wa.appSecret));
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
}

/** The customer's conversations (via their pointer's list). */
async function conversationsOf(s: Setup, customer: WaCustomer): Promise<StoredConversation[]> {
  const pointer = await getItem(`USER#${s.userId}`, `WACUST#${customer.waId}`);
  const ids = [...((pointer?.conversationIds as Set<string> | undefined) ?? [])];
  return conversations().getMany(s.userId, ids);
}

async function messagesOf(s: Setup, customer: WaCustomer): Promise<StoredMessage[]> {
  const convs = await conversationsOf(s, customer);
  const all = await Promise.all(convs.map((c) => messages().listByConversation(s.userId, c.id, 1000)));
  return all.flat();
}

/** Waits for the inbound message and its handled claim (the worker finished with it). */
async function handled(s: Setup, wamid: string): Promise<void> {
  await until(async () => (await getItem(`USER#${s.userId}`, `WAMID#${wamid}`))?.state === 'handled', `wamid ${wamid} handled`);
}

/** Waits until the fake Graph recorded `count` sends (of any outcome) for the number. */
const sendsReach = (s: Setup, count: number, timeoutMs?: number): Promise<GraphSend[]> =>
  until(async () => {
    const sent = await graphSends(s.wa.phoneId);
    return sent.length >= count ? sent : undefined;
  }, `${count} Graph sends`, timeoutMs);

async function scriptOpenAi(key: string, responses: unknown[]): Promise<void> {
  const res = await fetch(`${provided('openaiUrl')}/_test/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, responses }),
  });
  if (!res.ok) throw new Error(`script failed: ${res.status}`);
}

describe('whatsapp-inbound: a customer writes', () => {
  it('stores contact, conversation and message, and the agent answers through the Graph API; the reply is stored as sent', async () => {
    const s = await ready();
    const ana = waCustomer('Ana Pérez', `14152${randomDigits(6)}`); // a valid US number: the contact is keyed on it
    const msg = textMessage(ana, 'Hola, ¿abren el sábado?');
    const wamid = String(msg.message.id);

    await deliver(s, { messages: [msg] });
    const [send] = await sendsReach(s, 1);
    await handled(s, wamid);

    expect(send).toMatchObject({ to: ana.waId, text: 'Echo: Hola, ¿abren el sábado?', status: 200 });
    const [conversation, ...others] = await conversationsOf(s, ana);
    expect(others).toEqual([]);
    expect(conversation).toMatchObject({
      status: 'active',
      customerWaId: ana.waId,
      customerPhone: `+${ana.waId}`,
      customerName: 'Ana Pérez',
      messageCount: 2,
      lastAgent: { _id: s.agent._id, name: 'Sonia' },
      lastMessage: { fromMe: true, body: 'Echo: Hola, ¿abren el sábado?', type: 'chat' },
    });
    expect(conversation!.lastInboundAt).not.toBeNull();
    const stored = await messages().listByConversation(s.userId, conversation!.id, 10);
    expect(stored.map((m) => [m.fromMe, m.type, m.body, m.status])).toEqual([
      [false, 'chat', 'Hola, ¿abren el sábado?', 'delivered'],
      [true, 'chat', 'Echo: Hola, ¿abren el sábado?', 'sent'],
    ]);
    expect(stored[0]!.waMessageId).toBe(wamid);
    expect(stored[1]).toMatchObject({ waMessageId: send!.id, agent: { _id: s.agent._id, name: 'Sonia' }, sentBy: 'agent', to: `+${ana.waId}` });
    // The contact was made from the WhatsApp profile and linked to the conversation (off the reply's path).
    const contactId = await until(async () => (await conversationsOf(s, ana))[0]?.contactId || undefined, 'contact linked');
    const contact = await api<{ name: string; phoneNumber: string; source: string; isWAContact: boolean }>('GET', `/api/contacts/${contactId}`, { token: s.token });
    expect(contact.body.data).toMatchObject({ name: 'Ana Pérez', phoneNumber: `+${ana.waId}`, source: 'whatsapp_import', isWAContact: true });
    expect((await getItem(`USER#${s.userId}`, `WACUST#${ana.waId}`))?.contactId).toBe(contactId);
    // Counters: 1 in, 1 out (sent), 2 chat.
    const stats = await messages().stats(s.userId, 'today', new Date().toISOString());
    expect(stats).toMatchObject({ totalMessages: 2, receivedMessages: 1, sentMessages: 1, mediaMessages: 0 });
    expect(stats.statusBreakdown).toEqual({ pending: 0, sent: 1, delivered: 0, read: 0, failed: 0 });
    expect(await conversations().stats(s.userId)).toEqual({ total: 1, active: 1, requiresHuman: 0, closed: 0, archived: 0 });
  });

  it('media: an image with a caption is stored as an image with its media metadata, and the agent reads the caption', async () => {
    const s = await ready();
    const ben = waCustomer('Ben');
    // The photo as Meta keeps it (issue 31: the worker fetches and stores it before the answer).
    const photo = await registerMedia(Buffer.from(`\xff\xd8\xff\xe0 the part ${randomUUID()}`, 'latin1'), 'image/jpeg');
    const msg = mediaMessage(ben, 'image', { caption: 'Is this the right part?', mediaId: photo.mediaId, mimeType: 'image/jpeg' });

    await deliver(s, { messages: [msg] });
    const [send] = await sendsReach(s, 1);
    await handled(s, String(msg.message.id));

    // The model got the photo as an image input with its caption (the fake model then says it sees it).
    expect(send!.text).toBe('I can see the photo you sent.');
    const requests = (await (await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(s.key)}`)).json()) as { requests: { path: string; body: { messages: { role: string; content: unknown }[] } }[] };
    const chat = requests.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!;
    const turn = chat.body.messages.filter((m) => m.role === 'user').at(-1)!.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(turn.map((p) => p.text ?? '').join('')).toContain('Is this the right part?');
    expect(turn.some((p) => p.type === 'image_url' && p.image_url?.url.startsWith('data:image/jpeg;base64,'))).toBe(true);
    const [inbound] = await messagesOf(s, ben);
    expect(inbound).toMatchObject({ type: 'image', hasMedia: true, body: 'Is this the right part?', media: { mimeType: 'image/jpeg', caption: 'Is this the right part?' } });
    expect((await messages().stats(s.userId, 'today', new Date().toISOString())).typeBreakdown.image).toBe(1);
  });

  it('the same message delivered 3 times (concurrently) is stored once and answered once', async () => {
    const s = await ready();
    const cy = waCustomer('Cy');
    const msg = textMessage(cy, 'only once please');

    await Promise.all([1, 2, 3].map(() => deliver(s, { messages: [msg] })));
    await sendsReach(s, 1);
    await handled(s, String(msg.message.id));
    await new Promise((r) => setTimeout(r, 1500)); // let the other deliveries finish

    expect(await graphSends(s.wa.phoneId)).toHaveLength(1);
    const stored = await messagesOf(s, cy);
    expect(stored.filter((m) => !m.fromMe)).toHaveLength(1);
    expect(stored.filter((m) => m.fromMe)).toHaveLength(1);
    expect((await conversationsOf(s, cy))[0]!.messageCount).toBe(2);
  });

  it('100 messages from 20 customers posted at once: all stored, every message answered, 20 conversations', async () => {
    const s = await ready();
    const customers = Array.from({ length: 20 }, (_, i) => waCustomer(`Customer ${i}`));
    const msgs = customers.flatMap((c, i) => Array.from({ length: 5 }, (_, j) => textMessage(c, `question ${j} from ${i}`)));

    await Promise.all(msgs.map((m) => deliver(s, { messages: [m] })));
    const sent = await sendsReach(s, 100, 120_000);
    await Promise.all(msgs.map((m) => until(async () => (await getItem(`USER#${s.userId}`, `WAMID#${String(m.message.id)}`))?.state === 'handled', 'handled', 60_000)));

    expect(sent.filter((x) => x.status === 200)).toHaveLength(100);
    expect(new Set(sent.map((x) => x.text))).toEqual(new Set(msgs.map((m) => `Echo: ${(m.message.text as { body: string }).body}`)));
    for (const c of customers) {
      const convs = await conversationsOf(s, c);
      expect(convs).toHaveLength(1);
      expect(convs[0]!.messageCount).toBe(10);
    }
    expect(await conversations().stats(s.userId)).toMatchObject({ total: 20, active: 20 });
    const stats = await messages().stats(s.userId, 'all', new Date().toISOString());
    expect(stats).toMatchObject({ totalMessages: 200, receivedMessages: 100, sentMessages: 100 });
  }, 180_000);
});

describe('whatsapp-inbound: a delivery too big for one queue message', () => {
  it('a signed 600 KB delivery (30 customers, one 300 KB text, a status), posted twice: 200 both times, every message stored once (the huge text cut to 16,384 characters)', async () => {
    const s = await ready({ agent: false });
    const customers = Array.from({ length: 30 }, (_, i) => waCustomer(`Big ${i}`));
    const msgs = customers.map((c, i) => textMessage(c, `${i} ${'a'.repeat(10_000)}`));
    const huge = textMessage(customers[0]!, 'b'.repeat(300_000));
    const body = metaDelivery(s.wa, { messages: [...msgs, huge], statuses: [statusUpdate(newWamid(), 'read', customers[1]!)] });

    const posts = await Promise.all([1, 2].map(() => postWebhook(s.wa.integrationId, body, signMetaBody(body, s.wa.appSecret))));
    for (const m of [...msgs, huge]) await handled(s, String(m.message.id));

    expect(Buffer.byteLength(body)).toBeGreaterThan(600_000);
    expect(posts.map((p) => p.status)).toEqual([200, 200]);
    for (const [i, c] of customers.entries()) {
      const stored = (await messagesOf(s, c)).filter((m) => !m.fromMe).map((m) => m.body);
      expect(stored).toEqual(i === 0 ? [`0 ${'a'.repeat(10_000)}`, 'b'.repeat(MAX_INBOUND_BODY)] : [`${i} ${'a'.repeat(10_000)}`]);
    }
    expect((await deadLetters('whatsapp-inbound')).filter((d) => d.body.includes(s.wa.integrationId))).toEqual([]);
  }, 120_000);
});

describe('whatsapp-inbound: when the agent does not answer', () => {
  it('agent disabled: the message is stored, nothing is sent', async () => {
    const s = await ready();
    const off = await api('PUT', `/api/agents/${s.agent._id}`, { token: s.token, body: { enabled: false } });
    expect(off.status).toBe(200);
    const dee = waCustomer('Dee');
    const msg = textMessage(dee, 'anyone there?');

    await deliver(s, { messages: [msg] });
    await handled(s, String(msg.message.id));

    expect(await graphSends(s.wa.phoneId)).toEqual([]);
    const stored = await messagesOf(s, dee);
    expect(stored.map((m) => [m.fromMe, m.body])).toEqual([[false, 'anyone there?']]);
  });

  it('requires_human: the customer’s messages are stored and the agent stays silent', async () => {
    const s = await ready();
    const eve = waCustomer('Eve');
    const first = textMessage(eve, 'first');
    await deliver(s, { messages: [first] });
    await handled(s, String(first.message.id));
    await sendsReach(s, 1);
    const [conv] = await conversationsOf(s, eve);
    await conversations().escalate(s.userId, conv!.id, 'Wants a manager', new Date().toISOString());

    const second = textMessage(eve, 'second');
    await deliver(s, { messages: [second] });
    await handled(s, String(second.message.id));

    expect(await graphSends(s.wa.phoneId)).toHaveLength(1);
    const after = await conversationsOf(s, eve);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'requires_human', escalationReason: 'Wants a manager', messageCount: 3, lastMessage: { body: 'second', fromMe: false } });
  });

  it('the agent escalates through its tool: requires_human with the reason, the customer gets the hand-off reply, then silence', async () => {
    const s = await ready();
    await scriptOpenAi(s.key, [
      { content: null, tool_calls: [{ id: 'call_esc1', type: 'function', function: { name: 'escalate_to_human', arguments: JSON.stringify({ reason: 'Refund over the agent’s limit' }) } }] },
      { content: 'A colleague will contact you shortly.' },
    ]);
    const fay = waCustomer('Fay');
    const msg = textMessage(fay, 'I want a refund of 900 euros');

    await deliver(s, { messages: [msg] });
    await handled(s, String(msg.message.id));
    const later = textMessage(fay, 'hello?');
    await deliver(s, { messages: [later] });
    await handled(s, String(later.message.id));

    const sent = await graphSends(s.wa.phoneId);
    expect(sent.map((x) => x.text)).toEqual(['A colleague will contact you shortly.']);
    const [conv] = await conversationsOf(s, fay);
    expect(conv).toMatchObject({ status: 'requires_human', escalationReason: 'Refund over the agent’s limit' });
    expect(conv!.escalatedAt).not.toBeNull();
    expect(await conversations().stats(s.userId)).toMatchObject({ active: 0, requiresHuman: 1 });
  });

  it('the plan’s message limit reached: nothing is sent, the reply is stored as failed with the reason', async () => {
    const s = await ready();
    const sub = await subscriptionItem(s.userId);
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk: `USER#${s.userId}`, sk: `USAGE#${String(sub!.currentPeriodStart)}`, entity: 'usage', messagesSent: 1000, periodStart: sub!.currentPeriodStart },
      }),
    );
    const gus = waCustomer('Gus');
    const msg = textMessage(gus, 'hi');

    await deliver(s, { messages: [msg] });
    await handled(s, String(msg.message.id));

    expect(await graphSends(s.wa.phoneId)).toEqual([]);
    const stored = await messagesOf(s, gus);
    expect(stored.map((m) => [m.fromMe, m.status, m.error])).toEqual([
      [false, 'delivered', undefined],
      [true, 'failed', whatsappMessages.usageLimitReached],
    ]);
  });
});

describe('whatsapp-inbound: sends and statuses', () => {
  it('Graph refuses the send: the reply is stored as failed with Meta’s reason and the usage is given back', async () => {
    const s = await ready();
    await failGraphSends(s.wa.phoneId, { status: 400, code: 131026, message: 'Message undeliverable' });
    const hal = waCustomer('Hal');
    const msg = textMessage(hal, 'are you there');
    const sub = await subscriptionItem(s.userId);
    const usageKey = `USAGE#${String(sub!.currentPeriodStart)}`;

    await deliver(s, { messages: [msg] });
    await handled(s, String(msg.message.id));

    const stored = await messagesOf(s, hal);
    const reply = stored.find((m) => m.fromMe)!;
    expect(reply.status).toBe('failed');
    expect(reply.error).toContain('Message undeliverable');
    expect(Number((await getItem(`USER#${s.userId}`, usageKey))?.messagesSent ?? 0)).toBe(0);
  });

  it('statuses only move forward: read then delivered stays read; failed carries Meta’s error', async () => {
    const s = await ready();
    const ivy = waCustomer('Ivy');
    await deliver(s, { messages: [textMessage(ivy, 'one')] });
    const [first] = await sendsReach(s, 1);
    await deliver(s, { messages: [textMessage(ivy, 'two')] });
    const sends = await sendsReach(s, 2);
    const second = sends[1]!;
    await until(async () => (await getItem(`USER#${s.userId}`, `WAMID#${second.id}`)) ?? undefined, 'second wamid indexed');

    await deliver(s, { statuses: [statusUpdate(first!.id, 'read', ivy)] });
    await deliver(s, { statuses: [statusUpdate(first!.id, 'delivered', ivy), statusUpdate(second.id, 'failed', ivy)] });
    const byWamid = async () => new Map((await messagesOf(s, ivy)).map((m) => [m.waMessageId, m]));
    await until(async () => (await byWamid()).get(second.id)?.status === 'failed', 'failed status');

    const stored = await byWamid();
    expect(stored.get(first!.id)!.status).toBe('read');
    expect(stored.get(second.id)!.error).toBe(
      'Re-engagement message: Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
    );
    const stats = await messages().stats(s.userId, 'today', new Date().toISOString());
    expect(stats.statusBreakdown).toMatchObject({ sent: 0, read: 1, failed: 1, pending: 0 });
  });

  it('a status for a wamid that is not ours changes nothing', async () => {
    const s = await ready();
    const jo = waCustomer('Jo');
    const wamid = newWamid();

    await deliver(s, { statuses: [statusUpdate(wamid, 'read', jo)] });
    await new Promise((r) => setTimeout(r, 1500));

    expect(await getItem(`USER#${s.userId}`, `WAMID#${wamid}`)).toBeUndefined();
  });
});

describe('whatsapp-inbound: deliveries for another number of the same Meta app (issue 28)', () => {
  it('a signed delivery for another phone number id is answered 200 and stores, applies and sends nothing; of a mixed one only the own number\'s part is handled', async () => {
    const s = await ready();
    const other: WaBusiness = { ...s.wa, phoneId: randomDigits(15), displayPhoneNumber: '+1 415 555 0999' };
    const ivy = waCustomer('Ivy');
    await deliver(s, { messages: [textMessage(ivy, 'one')] });
    const [reply] = await sendsReach(s, 1);
    await until(async () => (await getItem(`USER#${s.userId}`, `WAMID#${reply!.id}`)) ?? undefined, 'reply wamid indexed');
    const stranger = waCustomer('Stranger');
    const foreignMessage = textMessage(stranger, 'Hello, other number');
    // The other number's customer writes, and Meta reports our reply's wamid as failed for the other number.
    const foreign = metaWebhook([{ id: s.wa.businessId, changes: [metaChange(other, { messages: [foreignMessage], statuses: [statusUpdate(reply!.id, 'failed', ivy)] })] }]);
    const ownMessage = textMessage(ivy, 'two');
    const mixed = metaWebhook([{ id: s.wa.businessId, changes: [metaChange(other, { messages: [textMessage(stranger, 'again')] }), metaChange(s.wa, { messages: [ownMessage] })] }]);

    const foreignRes = await postWebhook(s.wa.integrationId, foreign, signMetaBody(foreign, s.wa.appSecret));
    const mixedRes = await postWebhook(s.wa.integrationId, mixed, signMetaBody(mixed, s.wa.appSecret));
    await sendsReach(s, 2);
    await handled(s, String(ownMessage.message.id));
    await drainQueues();

    expect([foreignRes.status, mixedRes.status]).toEqual([200, 200]);
    // Nothing of the other number's reached the queue, the table or the Graph API.
    expect((await enqueuedInboundJobs(s.wa.integrationId)).filter((j) => j.body.includes(stranger.waId))).toEqual([]);
    expect(await getItem(`USER#${s.userId}`, `WACUST#${stranger.waId}`)).toBeUndefined();
    expect(await getItem(`USER#${s.userId}`, `WAMID#${String(foreignMessage.message.id)}`)).toBeUndefined();
    expect((await graphSends(s.wa.phoneId)).map((x) => [x.to, x.text])).toEqual([
      [ivy.waId, 'Echo: one'],
      [ivy.waId, 'Echo: two'],
    ]);
    expect(await graphSends(other.phoneId)).toEqual([]);
    const byWamid = new Map((await messagesOf(s, ivy)).map((m) => [m.waMessageId, m]));
    expect(byWamid.get(reply!.id)?.status).toBe('sent');
    expect(byWamid.get(String(ownMessage.message.id))?.body).toBe('two');
  });
});

describe('whatsapp-inbound: a worker dies while answering', () => {
  /** The pipeline as the worker wires it, over this stack's DynamoDB, with the given model; sends recorded. */
  function pipelineWith(model: ChatModel, sends: string[]) {
    const repoMessages = new DynamoMessageRepository(db(), tableName(), Date.now, true);
    const usage = createUsageService({ subscriptions: new DynamoSubscriptionRepository(db(), tableName()), usage: new DynamoUsageRepository(db(), tableName()) });
    const graph: GraphClient = {
      sendText: async (_c, to, text) => {
        sends.push(`${to}: ${text}`);
        return { messageId: newWamid() };
      },
      getPhoneNumber: async () => ({ id: '1', displayPhoneNumber: '+1', verifiedName: 'x' }),
    };
    return createInboundPipeline({
      conversations: new DynamoConversationRepository(db(), tableName(), repoMessages),
      messages: repoMessages,
      contacts: { upsertFromWhatsApp: async () => null },
      agents: new DynamoAgentRepository(db(), tableName()),
      ai: { forUser: async () => ({ settings: { model: 'gpt-4o', maxTokens: 500, temperature: 0.7, systemPrompt: '', baseUrl: '' }, chat: model, embedder: { embed: async (t) => t.map(() => new Float32Array(1536)) } }) },
      retriever: { search: async () => [] },
      tools: { execute: async () => ({ ok: true, result: '' }) },
      usage,
      graph,
      connection: async () => ({ credentials: { bearerToken: 't', businessId: 'b', phoneId: 'p' }, phoneNumber: '+14155550100' }),
      newId: (t) => newId(t),
      replyLeaseMs: 60_000,
    });
  }

  it('the retry of the same queue message answers; a redelivery by Meta meanwhile does not answer twice', async () => {
    const s = await ready();
    const kim = waCustomer('Kim');
    const msg = textMessage(kim, 'still there?');
    const job: WhatsAppInboundJob = { userId: s.userId, integrationId: s.wa.integrationId, receivedAt: new Date().toISOString(), body: metaDelivery(s.wa, { messages: [msg] }) };
    const wamid = String(msg.message.id);
    const sends: string[] = [];
    const hanging: ChatModel = { complete: () => new Promise<never>(() => undefined) };
    const instant: ChatModel = { complete: async () => ({ content: 'Yes!', toolCalls: [], finishReason: 'stop' }) };

    // The first worker stores and claims the message, then "dies" inside the model call.
    void pipelineWith(hanging, sends).process(job, 'sqs-message-1');
    await until(async () => (await getItem(`USER#${s.userId}`, `WAMID#${wamid}`))?.state === 'replying', 'claimed');
    const redelivered = await pipelineWith(instant, sends).process(job, 'sqs-message-2');
    const retried = await pipelineWith(instant, sends).process(job, 'sqs-message-1');
    const again = await pipelineWith(instant, sends).process(job, 'sqs-message-1');

    expect(redelivered.messages.map((m) => m.outcome)).toEqual(['busy']);
    expect(retried.messages.map((m) => m.outcome)).toEqual(['replied']);
    expect(again.messages.map((m) => m.outcome)).toEqual(['duplicate']);
    expect(sends).toEqual([`${kim.waId}: Yes!`]);
    const stored = await messagesOf(s, kim);
    expect(stored.map((m) => [m.fromMe, m.body, m.status])).toEqual([
      [false, 'still there?', 'delivered'],
      [true, 'Yes!', 'sent'],
    ]);
  });
});
