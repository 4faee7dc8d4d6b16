/**
 * The conversation the owner left (issue 29 item 5), end to end on the local stack: signed Meta
 * deliveries → the webhook → the whatsapp-inbound queue → the worker → the fake OpenAI and the
 * fake Graph API; the conversations API through the local gateway.
 *
 * - The 24-hour window counts from the customer's message time as Meta stamps it (messages[].
 *   timestamp, unix seconds), not from when the delivery reached us: a message stamped 30 h ago
 *   closes the window (a free-form reply is a 400 with the window's words, the template is the
 *   way), and the agent does not send it a free-form reply Meta would refuse. A message stamped in
 *   the future (clock skew) never extends the window beyond now.
 * - "Return to AI": the customer's messages left during the person's pause are answered by the
 *   AI, once (a second press, or Meta redelivering the message, sends nothing more); when the
 *   window has closed meanwhile they are counted and not answered.
 * - The pause ending by itself (the idle hours pass, no button): the same hand-over, once, without
 *   the customer writing again (the resume check on the whatsapp-inbound queue; the person's last
 *   action is moved back in the table, as the takeover tests do, and the local queue runs its
 *   delays at RETRY_TIME_SCALE).
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { ConversationDetail, ConversationMessage, ResumeAiResult } from '../../src/contract/whatsapp.js';
import { whatsappMessages } from '../../src/contract/whatsapp.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, db, getItem, registerUser, tableName, until } from '../support/api.js';
import { grantSubscription } from '../support/billing.js';
import {
  connectWhatsApp,
  graphSends,
  metaDelivery,
  postWebhook,
  seedGraphTemplates,
  signMetaBody,
  textMessage,
  waCustomer,
  type ConnectedWhatsApp,
  type InboundMessage,
  type WaCustomer,
} from '../support/whatsapp.js';

interface Setup {
  token: string;
  userId: string;
  wa: ConnectedWhatsApp;
}

const HOUR = 3600_000;
const spanishMobile = () => `346${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function ready(): Promise<Setup> {
  const user = await registerUser();
  const token = user.session.token;
  const userId = user.session.user._id;
  await grantSubscription(userId, { plan: 'starter' });
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: `sk-test-${randomUUID()}`, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status}`);
  await createAnsweringAgent(token);
  return { token, userId, wa: await connectWhatsApp(token, { phoneNumber: `+3491${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` }) };
}

/** Delivers `msg` signed as Meta does; resolves once the worker is done with it. */
async function deliver(s: Setup, msg: InboundMessage): Promise<void> {
  const raw = metaDelivery(s.wa, { messages: [msg] });
  const res = await postWebhook(s.wa.integrationId, raw, signMetaBody(raw, s.wa.appSecret));
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  const wamid = String(msg.message.id);
  await until(async () => (await getItem(`USER#${s.userId}`, `WAMID#${wamid}`))?.state === 'handled', `wamid ${wamid} handled`);
}

const texts = async (s: Setup) => (await graphSends(s.wa.phoneId)).map((x) => x.text);
const textsReach = (s: Setup, count: number) =>
  until(async () => {
    const sent = await texts(s);
    return sent.length >= count ? sent : undefined;
  }, `${count} Graph sends`);
const settle = () => new Promise((r) => setTimeout(r, 2500));

const conversationIdOf = (s: Setup, customer: WaCustomer) =>
  until(async () => (await getItem(`USER#${s.userId}`, `WACUST#${customer.waId}`))?.conversationId as string | undefined, 'the conversation');
const detail = (s: Setup, id: string) => api<ConversationDetail>('GET', `/api/conversations/${id}`, { token: s.token });
const reply = (s: Setup, id: string, text: string) => api<ConversationMessage>('POST', `/api/conversations/${id}/messages`, { token: s.token, body: { text } });
const resumeAi = (s: Setup, id: string) => api<ResumeAiResult>('POST', `/api/conversations/${id}/resume-ai`, { token: s.token });

describe('the 24-hour window counts from Meta’s timestamp', { timeout: 60_000 }, () => {
  it('a message stamped 30 h ago (a late redelivery) closes the window: no free-form reply by the AI or the owner, the template goes', async () => {
    const s = await ready();
    const carmen = waCustomer('Carmen Núñez', spanishMobile());
    const stamped = new Date(Date.now() - 30 * HOUR);
    await deliver(s, textMessage(carmen, '¿Me podéis dar cita para el jueves?', { at: stamped }));
    const id = await conversationIdOf(s, carmen);

    const { conversation, messages } = (await detail(s, id)).body.data!;
    // Meta's time, to the second (the payload carries unix seconds).
    expect(Date.parse(conversation.lastInboundAt!)).toBe(Math.floor(stamped.getTime() / 1000) * 1000);
    expect(messages.map((m) => [m.fromMe, m.body])).toEqual([[false, '¿Me podéis dar cita para el jueves?']]);
    // The agent did not send a free-form reply Meta would refuse (131047).
    await settle();
    expect(await texts(s)).toEqual([]);

    const refused = await reply(s, id, 'Sí, el jueves a las 10.');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(whatsappMessages.windowClosed);
    expect(await texts(s)).toEqual([]);

    // The template composer's send is the way (409 "window open" before the fix).
    await seedGraphTemplates(
      s.wa.businessId,
      [{ name: 'cita_recordatorio', language: 'es', components: [{ type: 'BODY', text: 'Hola {{1}}, ¿seguimos con tu cita?' }] }],
      s.wa.phoneId,
    );
    const template = await api<ConversationMessage>('POST', `/api/conversations/${id}/template`, {
      token: s.token,
      body: { name: 'cita_recordatorio', language: 'es', parameters: ['Carmen'] },
    });
    expect(template.status, template.body.message).toBe(201);
  });

  it('a newer message keeps the window open when an older one is redelivered late', async () => {
    const s = await ready();
    const luis = waCustomer('Luis Peña', spanishMobile());
    const recent = new Date(Date.now() - HOUR);
    await deliver(s, textMessage(luis, 'Hola', { at: recent }));
    await textsReach(s, 1);
    const id = await conversationIdOf(s, luis);
    await deliver(s, textMessage(luis, 'Mensaje de ayer', { at: new Date(Date.now() - 30 * HOUR) }));
    const { conversation } = (await detail(s, id)).body.data!;
    expect(Date.parse(conversation.lastInboundAt!)).toBe(Math.floor(recent.getTime() / 1000) * 1000);
    const sent = await reply(s, id, 'Buenas, dime.');
    expect(sent.status, sent.body.message).toBe(201);
  });

  it('a message stamped in the future (clock skew) does not stretch the window beyond now', async () => {
    const s = await ready();
    const ana = waCustomer('Ana Martínez', spanishMobile());
    const before = Date.now();
    await deliver(s, textMessage(ana, 'Hola', { at: new Date(Date.now() + 5 * HOUR) }));
    const id = await conversationIdOf(s, ana);
    const { conversation } = (await detail(s, id)).body.data!;
    const at = Date.parse(conversation.lastInboundAt!);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
  });
});

describe('Return to AI answers what the customer wrote during the pause', { timeout: 60_000 }, () => {
  it('takeover → the customer writes → Return to AI: the AI answers it exactly once (a second press and a redelivery send nothing more)', async () => {
    const s = await ready();
    const lucia = waCustomer('Lucía Gómez', spanishMobile());
    await deliver(s, textMessage(lucia, 'Hola, ¿abrís el sábado?'));
    await textsReach(s, 1);
    const id = await conversationIdOf(s, lucia);
    expect((await reply(s, id, 'Sí, de 10 a 14. Soy Marta.')).status).toBe(201);

    const paused = textMessage(lucia, '¿Y el domingo?');
    await deliver(s, paused);
    await settle();
    expect(await texts(s)).toEqual(['Echo: Hola, ¿abrís el sábado?', 'Sí, de 10 a 14. Soy Marta.']);

    const [first, second] = await Promise.all([resumeAi(s, id), resumeAi(s, id)]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.body.data).toMatchObject({ answeredBy: 'ai', status: 'active' });
    // One of the presses hands the message to the AI and says so; the other hands nothing over.
    const handed = [first.body.data!, second.body.data!].filter((d) => d.answering);
    expect(handed.map((d) => d.leftUnanswered)).toEqual([1]);

    await textsReach(s, 3);
    // Meta redelivers the paused message, and the owner presses again: nothing more is sent.
    const raw = metaDelivery(s.wa, { messages: [paused] });
    expect((await postWebhook(s.wa.integrationId, raw, signMetaBody(raw, s.wa.appSecret))).status).toBe(200);
    const third = await resumeAi(s, id);
    expect(third.body.data).toMatchObject({ leftUnanswered: 0, answering: false });
    await settle();
    expect(await texts(s)).toEqual(['Echo: Hola, ¿abrís el sábado?', 'Sí, de 10 a 14. Soy Marta.', 'Echo: ¿Y el domingo?']);
    const after = (await detail(s, id)).body.data!;
    expect(after.conversation.noAnswer).toBeNull();
    expect(after.messages.map((m) => [m.fromMe, m.body])).toEqual([
      [false, 'Hola, ¿abrís el sábado?'],
      [true, 'Echo: Hola, ¿abrís el sábado?'],
      [true, 'Sí, de 10 a 14. Soy Marta.'],
      [false, '¿Y el domingo?'],
      [true, 'Echo: ¿Y el domingo?'],
    ]);
  });

  it('two messages during the pause get one answer that reads both; nothing is pending when the person answered last', async () => {
    const s = await ready();
    const pablo = waCustomer('Pablo Ruiz', spanishMobile());
    await deliver(s, textMessage(pablo, 'Hola'));
    await textsReach(s, 1);
    const id = await conversationIdOf(s, pablo);
    expect((await reply(s, id, 'Hola Pablo, soy Marta.')).status).toBe(201);
    await deliver(s, textMessage(pablo, 'Quería una cita'));
    await deliver(s, textMessage(pablo, '¿Mañana a las 5?'));

    const resumed = await resumeAi(s, id);
    expect(resumed.body.data).toMatchObject({ leftUnanswered: 2, answering: true });
    await textsReach(s, 3);
    await settle();
    expect(await texts(s)).toEqual(['Echo: Hola', 'Hola Pablo, soy Marta.', 'Echo: ¿Mañana a las 5?']);

    // The person answers last, takes over again, returns: nothing was left.
    expect((await reply(s, id, 'Te apunto a las 5.')).status).toBe(201);
    const again = await resumeAi(s, id);
    expect(again.body.data).toMatchObject({ leftUnanswered: 0, answering: false });
    await settle();
    expect(await texts(s)).toHaveLength(4);
  });

  it('when the window closed during the pause the messages are counted, not answered', async () => {
    const s = await ready();
    const elena = waCustomer('Elena Sáez', spanishMobile());
    await deliver(s, textMessage(elena, 'Hola', { at: new Date(Date.now() - 40 * HOUR) }));
    const id = await conversationIdOf(s, elena);
    // A person's template (the window was closed) pauses the AI; the customer's late message is 26 h old.
    await seedGraphTemplates(s.wa.businessId, [{ name: 'hola', language: 'es', components: [{ type: 'BODY', text: 'Hola, ¿en qué te ayudo?' }] }], s.wa.phoneId);
    const template = await api('POST', `/api/conversations/${id}/template`, { token: s.token, body: { name: 'hola', language: 'es', parameters: [] } });
    expect(template.status, template.body.message).toBe(201);
    await deliver(s, textMessage(elena, '¿Seguís abiertos?', { at: new Date(Date.now() - 26 * HOUR) }));

    const resumed = await resumeAi(s, id);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({ leftUnanswered: 1, answering: false, answeredBy: 'ai' });
    await settle();
    // Only the person's template went out.
    expect((await graphSends(s.wa.phoneId)).map((x) => x.type)).toEqual(['template']);
  });
});

describe('the pause ends by itself (the idle hours pass)', { timeout: 60_000 }, () => {
  /** The person last acted `ms` ago (the pause's start, moved back). */
  const actedAgo = (s: Setup, id: string, ms: number) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${s.userId}`, sk: `CONV#${id}` },
        UpdateExpression: 'SET humanAt = :at',
        ExpressionAttributeValues: { ':at': new Date(Date.now() - ms).toISOString() },
      }),
    );

  it('what the customer wrote during the pause is answered once when the idle hours pass, without a new message', async () => {
    const s = await ready();
    const lucia = waCustomer('Lucía Peña', spanishMobile());
    await deliver(s, textMessage(lucia, 'Hola, ¿tenéis cita el lunes?'));
    await textsReach(s, 1);
    const id = await conversationIdOf(s, lucia);
    expect((await reply(s, id, 'Hola Lucía, soy Marta. Miro la agenda.')).status).toBe(201);
    await deliver(s, textMessage(lucia, '¿Y el martes por la tarde?'));
    await settle();
    // Still paused: nobody answers it.
    expect(await texts(s)).toEqual(['Echo: Hola, ¿tenéis cita el lunes?', 'Hola Lucía, soy Marta. Miro la agenda.']);

    // The idle hours (12 by default) pass since the person's reply; nobody presses anything.
    await actedAgo(s, id, 13 * HOUR);
    await textsReach(s, 3);
    await settle();
    expect(await texts(s)).toEqual(['Echo: Hola, ¿tenéis cita el lunes?', 'Hola Lucía, soy Marta. Miro la agenda.', 'Echo: ¿Y el martes por la tarde?']);
    const after = (await detail(s, id)).body.data!;
    expect(after.conversation).toMatchObject({ answeredBy: 'ai', noAnswer: null });

    // The owner presses "Return to AI" afterwards: nothing is left, nothing more is sent.
    expect((await resumeAi(s, id)).body.data).toMatchObject({ leftUnanswered: 0, answering: false });
    await settle();
    expect(await texts(s)).toHaveLength(3);
  });

  it('when the window closed during the pause nothing is sent', async () => {
    const s = await ready();
    const elena = waCustomer('Elena Sáez', spanishMobile());
    await deliver(s, textMessage(elena, 'Hola', { at: new Date(Date.now() - 40 * HOUR) }));
    const id = await conversationIdOf(s, elena);
    await seedGraphTemplates(s.wa.businessId, [{ name: 'hola', language: 'es', components: [{ type: 'BODY', text: 'Hola, ¿en qué te ayudo?' }] }], s.wa.phoneId);
    const template = await api('POST', `/api/conversations/${id}/template`, { token: s.token, body: { name: 'hola', language: 'es', parameters: [] } });
    expect(template.status, template.body.message).toBe(201);
    await deliver(s, textMessage(elena, '¿Seguís abiertos?', { at: new Date(Date.now() - 26 * HOUR) }));

    await actedAgo(s, id, 13 * HOUR);
    await settle();
    await settle();
    expect((await detail(s, id)).body.data!.conversation).toMatchObject({ answeredBy: 'ai' });
    expect((await graphSends(s.wa.phoneId)).map((x) => x.type)).toEqual(['template']);
  });
});
