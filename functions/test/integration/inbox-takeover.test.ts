/**
 * A trustworthy inbox (issue 17) end to end on the local stack: signed Meta deliveries through the
 * webhook → queue → inbound worker, the agent on the fake OpenAI, sends recorded by the fake Graph
 * API, and the conversations API through the local gateway. A person's reply (board or API key)
 * or an escalation pauses the AI; "Return to AI" or the idle time resumes it; assignment filters;
 * unread counts; the inbox settings.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../src/contract/api-keys.js';
import { INBOX_DEFAULTS, inboxMessages, type InboxSettings } from '../../src/contract/inbox.js';
import type { Conversation, ConversationDetail, ConversationMessage, ConversationOverview, ResumeAiResult } from '../../src/contract/whatsapp.js';
import { whatsappMessages } from '../../src/contract/whatsapp.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, db, getItem, provided, tableName, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import {
  connectWhatsApp,
  failGraphSends,
  graphSends,
  metaDelivery,
  postWebhook,
  signMetaBody,
  textMessage,
  waCustomer,
  type ConnectedWhatsApp,
  type GraphSend,
  type WaCustomer,
} from '../support/whatsapp.js';

interface Setup {
  token: string;
  userId: string;
  key: string;
  wa: ConnectedWhatsApp;
}

const spanishMobile = () => `346${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** A subscribed user with ChatGPT (its own fake OpenAI key), an enabled agent and a Spanish WhatsApp business number. */
async function ready(): Promise<Setup> {
  const { token, userId } = await subscribedUser('starter');
  const key = `sk-test-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status}`);
  await createAnsweringAgent(token);
  const wa = await connectWhatsApp(token, { phoneNumber: `+3491${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` });
  return { token, userId, key, wa };
}

/** The customer writes `body`; resolves once the worker finished with the message (answered or not). */
async function customerWrites(s: Setup, customer: WaCustomer, body: string): Promise<void> {
  const msg = textMessage(customer, body);
  const raw = metaDelivery(s.wa, { messages: [msg] });
  const res = await postWebhook(s.wa.integrationId, raw, signMetaBody(raw, s.wa.appSecret));
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
  const wamid = String(msg.message.id);
  await until(async () => (await getItem(`USER#${s.userId}`, `WAMID#${wamid}`))?.state === 'handled', `wamid ${wamid} handled`);
}

const sends = (s: Setup): Promise<GraphSend[]> => graphSends(s.wa.phoneId);
const sendsReach = (s: Setup, count: number) =>
  until(async () => {
    const sent = await sends(s);
    return sent.length >= count ? sent : undefined;
  }, `${count} Graph sends`);

/** The customer's open conversation id (their pointer item). */
async function conversationIdOf(s: Setup, customer: WaCustomer): Promise<string> {
  return until(async () => (await getItem(`USER#${s.userId}`, `WACUST#${customer.waId}`))?.conversationId as string | undefined, 'the conversation');
}

const detail = (token: string, id: string) => api<ConversationDetail>('GET', `/api/conversations/${id}`, { token });
const reply = (token: string, id: string, text: string) => api<ConversationMessage>('POST', `/api/conversations/${id}/messages`, { token, body: { text } });
const resumeAi = (token: string, id: string) => api<ResumeAiResult>('POST', `/api/conversations/${id}/resume-ai`, { token });
const listAll = (token: string, query = '') => api<Conversation[]>('GET', `/api/conversations${query}`, { token });
const overview = (token: string, query = '') => api<ConversationOverview>('GET', `/api/conversations/overview${query}`, { token });
const putSettings = (token: string, body: unknown) => api<InboxSettings>('PUT', '/api/inbox-settings', { token, body });
const getSettings = (token: string) => api<InboxSettings>('GET', '/api/inbox-settings', { token });

async function scriptOpenAi(key: string, responses: unknown[]): Promise<void> {
  const res = await fetch(`${provided('openaiUrl')}/_test/script`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, responses }),
  });
  if (!res.ok) throw new Error(`script failed: ${res.status}`);
}

describe('a person takes over: the AI never talks over them', () => {
  it('a reply from the board pauses the AI: the next customer message is stored and not answered; Return to AI → the AI answers again', async () => {
    const s = await ready();
    const lucia = waCustomer('Lucía Gómez', spanishMobile());
    await customerWrites(s, lucia, 'Hola, ¿abrís el sábado?');
    await sendsReach(s, 1);
    const id = await conversationIdOf(s, lucia);
    expect((await detail(s.token, id)).body.data?.conversation).toMatchObject({ answeredBy: 'ai', humanSince: null, aiResumesAt: null });

    const sent = await reply(s.token, id, 'Sí, de 10 a 14. Soy Marta.');
    expect(sent.status, sent.body.message).toBe(201);
    const taken = (await detail(s.token, id)).body.data!.conversation;
    expect(taken.answeredBy).toBe('human');
    expect(taken.humanSince).not.toBeNull();
    expect(Date.parse(taken.aiResumesAt!) - Date.parse(taken.humanSince!)).toBe(INBOX_DEFAULTS.aiResumeAfterHours * 3600_000);

    await customerWrites(s, lucia, '¿Y el domingo?');
    const afterPause = await sends(s);
    expect(afterPause.map((x) => x.text)).toEqual(['Echo: Hola, ¿abrís el sábado?', 'Sí, de 10 a 14. Soy Marta.']);
    const paused = (await detail(s.token, id)).body.data!;
    expect(paused.messages.map((m) => [m.fromMe, m.body])).toEqual([
      [false, 'Hola, ¿abrís el sábado?'],
      [true, 'Echo: Hola, ¿abrís el sábado?'],
      [true, 'Sí, de 10 a 14. Soy Marta.'],
      [false, '¿Y el domingo?'],
    ]);
    expect(paused.conversation.answeredBy).toBe('human');

    const resumed = await resumeAi(s.token, id);
    expect(resumed.status).toBe(200);
    expect(resumed.body.message).toBe(whatsappMessages.aiResumed);
    // Issue 29: the message the person left unanswered is the AI's now.
    expect(resumed.body.data).toMatchObject({ answeredBy: 'ai', humanSince: null, aiResumesAt: null, status: 'active', leftUnanswered: 1, answering: true });
    expect((await sendsReach(s, 3)).at(-1)?.text).toBe('Echo: ¿Y el domingo?');
    await customerWrites(s, lucia, '¿Hay aparcamiento?');
    expect((await sendsReach(s, 4)).at(-1)?.text).toBe('Echo: ¿Hay aparcamiento?');
  }, 60_000);

  it('drops the agent’s answer when a person replies while the model is still writing', async () => {
    const s = await ready();
    const pablo = waCustomer('Pablo Ruiz', spanishMobile());
    await customerWrites(s, pablo, 'Hola');
    await sendsReach(s, 1);
    const id = await conversationIdOf(s, pablo);
    await scriptOpenAi(s.key, [{ content: 'Claro, le reservo mesa para dos.', delayMs: 1500 }]);

    // The customer writes; the model takes 1.5 s; the owner answers from the board meanwhile.
    const msg = textMessage(pablo, 'Quiero reservar para dos');
    const raw = metaDelivery(s.wa, { messages: [msg] });
    expect((await postWebhook(s.wa.integrationId, raw, signMetaBody(raw, s.wa.appSecret))).status).toBe(200);
    const wamid = String(msg.message.id);
    await until(async () => (await getItem(`USER#${s.userId}`, `WAMID#${wamid}`))?.state === 'replying', 'the agent answering');
    const sent = await reply(s.token, id, 'Hola Pablo, soy Marta: ¿a qué hora venís?');
    expect(sent.status, sent.body.message).toBe(201);
    await until(async () => (await getItem(`USER#${s.userId}`, `WAMID#${wamid}`))?.state === 'handled', 'the message handled');

    expect((await sends(s)).map((x) => x.text)).toEqual(['Echo: Hola', 'Hola Pablo, soy Marta: ¿a qué hora venís?']);
    const shown = (await detail(s.token, id)).body.data!;
    expect(shown.messages.map((m) => m.body)).toEqual(['Hola', 'Echo: Hola', 'Quiero reservar para dos', 'Hola Pablo, soy Marta: ¿a qué hora venís?']);
    expect(shown.conversation.answeredBy).toBe('human');
  });

  it('a person’s failed message sent again from the Message Hub takes the conversation over again', async () => {
    const s = await ready();
    const elena = waCustomer('Elena Martín', spanishMobile());
    await customerWrites(s, elena, '¿Tenéis cita el lunes?');
    await sendsReach(s, 1);
    const id = await conversationIdOf(s, elena);
    await failGraphSends(s.wa.phoneId, { status: 503, count: 1 });
    expect((await reply(s.token, id, 'Sí, a las 9:30.')).status).toBe(503);
    expect((await resumeAi(s.token, id)).body.data?.answeredBy).toBe('ai');

    const failed = (await detail(s.token, id)).body.data!.messages.find((m) => m.status === 'failed')!;
    const retried = await api('POST', `/api/messages/${failed._id}/retry`, { token: s.token });

    expect(retried.status, retried.body.message).toBe(200);
    expect((await detail(s.token, id)).body.data!.conversation.answeredBy).toBe('human');
    await customerWrites(s, elena, 'Perfecto, gracias');
    expect((await sends(s)).filter((x) => x.status === 200).map((x) => x.text)).toEqual(['Echo: ¿Tenéis cita el lunes?', 'Sí, a las 9:30.']);
  });

  it('an external system’s reply with an API key pauses the AI too', async () => {
    const s = await ready();
    const ana = waCustomer('Ana', spanishMobile());
    await customerWrites(s, ana, 'Hola');
    await sendsReach(s, 1);
    const id = await conversationIdOf(s, ana);
    const created = await api<CreatedApiKey>('POST', '/api/api-keys', { token: s.token, body: { name: 'CRM' } });
    expect(created.status).toBe(201);

    const res = await api<ConversationMessage>('POST', `/api/conversations/${id}/messages`, {
      headers: { authorization: `Bearer ${created.body.data!.key}` },
      body: { text: 'Le escribo desde el CRM' },
    });
    expect(res.status, res.body.message).toBe(201);
    expect(res.body.data).toMatchObject({ fromMe: true, sentBy: 'human', body: 'Le escribo desde el CRM' });

    await customerWrites(s, ana, 'Gracias');
    expect((await sends(s)).map((x) => x.text)).toEqual(['Echo: Hola', 'Le escribo desde el CRM']);
    expect((await detail(s.token, id)).body.data!.conversation.answeredBy).toBe('human');
    // The key reaches only the reply: the rest of the conversations API stays for signed-in users.
    expect((await api('GET', `/api/conversations/${id}`, { headers: { 'x-api-key': created.body.data!.key } })).status).toBe(403);
  });

  it('idle resume: once aiResumeAfterHours passed since the person’s reply, the AI answers again (decided when the message comes)', async () => {
    const s = await ready();
    const eva = waCustomer('Eva', spanishMobile());
    await customerWrites(s, eva, 'Buenas');
    await sendsReach(s, 1);
    const id = await conversationIdOf(s, eva);
    expect((await putSettings(s.token, { aiResumeAfterHours: 1, alertByEmail: true, alertWhatsappNumber: '' })).status).toBe(200);
    expect((await reply(s.token, id, 'Le atiendo yo')).status).toBe(201);
    const taken = (await detail(s.token, id)).body.data!.conversation;
    expect(Date.parse(taken.aiResumesAt!) - Date.parse(taken.humanSince!)).toBe(3600_000);

    // The person acted 61 minutes ago.
    const earlier = new Date(Date.now() - 61 * 60_000).toISOString();
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${s.userId}`, sk: `CONV#${id}` },
        UpdateExpression: 'SET humanAt = :at',
        ExpressionAttributeValues: { ':at': earlier },
      }),
    );
    expect((await detail(s.token, id)).body.data!.conversation).toMatchObject({ answeredBy: 'ai', aiResumesAt: null });

    await customerWrites(s, eva, '¿Siguen ahí?');
    expect((await sendsReach(s, 3)).at(-1)?.text).toBe('Echo: ¿Siguen ahí?');
  });

  it('the agent’s escalation pauses the AI the same way; Return to AI makes it active and answering', async () => {
    const s = await ready();
    await scriptOpenAi(s.key, [
      { content: null, tool_calls: [{ id: 'call_esc1', type: 'function', function: { name: 'escalate_to_human', arguments: JSON.stringify({ reason: 'Quiere hablar con el dueño' }) } }] },
      { content: 'Le paso con una persona.' },
    ]);
    const pablo = waCustomer('Pablo Núñez', spanishMobile());
    await customerWrites(s, pablo, 'Quiero hablar con el dueño');
    await sendsReach(s, 1);
    const id = await conversationIdOf(s, pablo);
    const escalated = (await detail(s.token, id)).body.data!.conversation;
    expect(escalated).toMatchObject({ status: 'requires_human', answeredBy: 'human' });
    expect(escalated.humanSince).toBe(escalated.escalatedAt);

    await customerWrites(s, pablo, '¿Hola?');
    expect((await sends(s)).map((x) => x.text)).toEqual(['Le paso con una persona.']);

    const resumed = await resumeAi(s.token, id);
    expect(resumed.body.data).toMatchObject({ status: 'active', answeredBy: 'ai', leftUnanswered: 1, answering: true });
    expect((await sendsReach(s, 2)).at(-1)?.text).toBe('Echo: ¿Hola?');
    await customerWrites(s, pablo, 'Vale, gracias');
    expect((await sendsReach(s, 3)).at(-1)?.text).toBe('Echo: Vale, gracias');
  });

  it('an owner’s escalation from the board pauses the AI', async () => {
    const s = await ready();
    const rosa = waCustomer('Rosa', spanishMobile());
    await customerWrites(s, rosa, 'Hola');
    await sendsReach(s, 1);
    const id = await conversationIdOf(s, rosa);
    const res = await api<Conversation>('POST', `/api/conversations/${id}/escalate`, { token: s.token, body: { reason: 'La llamo yo' } });
    expect(res.body.data).toMatchObject({ status: 'requires_human', answeredBy: 'human' });

    await customerWrites(s, rosa, '¿Me llaman?');
    expect(await sends(s)).toHaveLength(1);
  });

  it('resume-ai of an unknown or someone else’s conversation is a 404', async () => {
    const s = await ready();
    const other = await ready();
    const ines = waCustomer('Inés', spanishMobile());
    await customerWrites(s, ines, 'Hola');
    const id = await conversationIdOf(s, ines);
    expect((await resumeAi(other.token, id)).status).toBe(404);
    expect((await resumeAi(s.token, '01HZZZZZZZZZZZZZZZZZZZZZZZ')).status).toBe(404);
    expect((await resumeAi(s.token, 'nope')).status).toBe(404);
  });
});

describe('assignment and unread', () => {
  it('assignee: only yourself or nobody; the board and the list filter Mine / Unassigned / All', async () => {
    const s = await ready();
    const mine = waCustomer('Mía', spanishMobile());
    const free = waCustomer('Libre', spanishMobile());
    await customerWrites(s, mine, 'uno');
    await customerWrites(s, free, 'dos');
    const mineId = await conversationIdOf(s, mine);
    const freeId = await conversationIdOf(s, free);

    const assigned = await api<Conversation>('PUT', `/api/conversations/${mineId}`, { token: s.token, body: { assignee: s.userId } });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data?.assignee).toBe(s.userId);
    const refused = await api('PUT', `/api/conversations/${freeId}`, { token: s.token, body: { assignee: 'someone-else' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(whatsappMessages.assigneeInvalid);
    expect((await api('PUT', `/api/conversations/${freeId}`, { token: s.token, body: { assignee: 42 } })).status).toBe(400);

    const ids = (list: Conversation[] | undefined) => (list ?? []).map((c) => c._id).sort();
    const column = async (query: string) => ids((await overview(s.token, query)).body.data?.conversationsByStatus.active);
    expect(await column('?assignee=me')).toEqual([mineId]);
    expect(await column('?assignee=none')).toEqual([freeId]);
    expect(await column('')).toEqual([mineId, freeId].sort());
    expect(await column('?assignee=all')).toEqual([mineId, freeId].sort());
    const listMine = await listAll(s.token, '?assignee=me');
    expect(ids(listMine.body.data)).toEqual([mineId]);
    expect((listMine.body as unknown as { pagination: { totalConversations: number } }).pagination.totalConversations).toBe(1);
    expect(ids((await listAll(s.token, '?assignee=none')).body.data)).toEqual([freeId]);
    expect((await overview(s.token, '?assignee=someone')).status).toBe(400);

    const unassigned = await api<Conversation>('PUT', `/api/conversations/${mineId}`, { token: s.token, body: { assignee: null } });
    expect(unassigned.body.data?.assignee).toBeNull();
    expect(await column('?assignee=me')).toEqual([]);
  });

  it('unreadCount: +1 per customer message (not for the AI’s replies), back to 0 when the owner opens the conversation', async () => {
    const s = await ready();
    const tere = waCustomer('Tere', spanishMobile());
    await customerWrites(s, tere, 'uno');
    await customerWrites(s, tere, 'dos');
    await sendsReach(s, 2);
    const id = await conversationIdOf(s, tere);
    const card = async () => (await listAll(s.token)).body.data?.find((c) => c._id === id);
    expect((await card())?.unreadCount).toBe(2);

    const opened = await detail(s.token, id);
    expect(opened.body.data?.conversation.unreadCount).toBe(0);
    expect((await card())?.unreadCount).toBe(0);

    await customerWrites(s, tere, 'tres');
    expect((await card())?.unreadCount).toBe(1);
  });
});

describe('inbox settings', () => {
  it('defaults, a round trip with a Spanish number typed without +34, and 400s that change nothing', async () => {
    const s = await ready();
    expect((await getSettings(s.token)).body.data).toEqual(INBOX_DEFAULTS);

    const saved = await putSettings(s.token, { aiResumeAfterHours: 24, alertByEmail: false, alertWhatsappNumber: '612 345 678' });
    expect(saved.status, saved.body.message).toBe(200);
    expect(saved.body.message).toBe(inboxMessages.settingsSaved);
    const expected = { aiResumeAfterHours: 24, alertByEmail: false, alertWhatsappNumber: '+34612345678' };
    expect(saved.body.data).toEqual(expected);
    expect((await getSettings(s.token)).body.data).toEqual(expected);
    const withCountryCode = await putSettings(s.token, { ...expected, alertWhatsappNumber: '34612345678' });
    expect(withCountryCode.body.data?.alertWhatsappNumber).toBe('+34612345678');

    const bad: Array<[unknown, string]> = [
      [{ ...expected, aiResumeAfterHours: 0 }, inboxMessages.resumeHoursInvalid],
      [{ ...expected, aiResumeAfterHours: 169 }, inboxMessages.resumeHoursInvalid],
      [{ ...expected, aiResumeAfterHours: 'twelve' }, inboxMessages.resumeHoursInvalid],
      [{ ...expected, aiResumeAfterHours: 1.5 }, inboxMessages.resumeHoursInvalid],
      [{ ...expected, alertWhatsappNumber: 'call me' }, inboxMessages.alertNumberInvalid],
      [{ ...expected, alertWhatsappNumber: '612 345' }, inboxMessages.alertNumberInvalid],
      [{ ...expected, alertByEmail: 'yes' }, inboxMessages.alertByEmailInvalid],
      [{ ...expected, snooze: true }, inboxMessages.unknownSetting('snooze')],
      [{ aiResumeAfterHours: 5, alertByEmail: true }, inboxMessages.alertNumberInvalid],
    ];
    for (const [body, message] of bad) {
      const res = await putSettings(s.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect((await putSettings(s.token, '[]')).status).toBe(400);
    expect((await getSettings(s.token)).body.data).toEqual(expected);

    // Cleared: no WhatsApp alert.
    expect((await putSettings(s.token, { ...expected, alertWhatsappNumber: '' })).body.data?.alertWhatsappNumber).toBe('');
  });
});
