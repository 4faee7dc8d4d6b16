/**
 * Issue 17: message templates outside the 24-hour window, and customers known only by a WhatsApp
 * username (business-scoped user id, BSUID). Through the local gateway against DynamoDB Local, the
 * fake Graph API (templates per business account, template sends recorded, Meta's error shapes)
 * and, for the AI reply, the whole inbound pipeline (signed webhook → queue → worker → fake OpenAI).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ConversationDetail, ConversationMessage } from '../../src/contract/whatsapp.js';
import { templateMessages, type WhatsAppTemplate } from '../../src/contract/whatsapp-templates.js';
import { DynamoMessageRepository } from '../../src/adapters/dynamo/messages.js';
import { META_ERROR_WORDS } from '../../src/domain/whatsapp/graph-errors.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, db, getItem, tableName, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { listContacts } from '../support/contacts.js';
import { ago, DAY, HOUR, inbound, openConversation, spanishWaId } from '../support/conversations.js';
import {
  connectWhatsApp,
  graphSends,
  metaJson,
  newWamid,
  postWebhook,
  randomDigits,
  seedGraphTemplates,
  signMetaBody,
  type ConnectedWhatsApp,
  type GraphSend,
} from '../support/whatsapp.js';

const messages = () => new DynamoMessageRepository(db(), tableName());

const sendTemplate = (token: string, id: string, body: unknown) => api<ConversationMessage>('POST', `/api/conversations/${id}/template`, { token, body });
const listTemplates = (token: string) => api<WhatsAppTemplate[]>('GET', '/api/whatsapp/templates', { token });

/** A subscribed user with ChatGPT, an agent and WhatsApp connected; `conversation`: a customer who wrote `ago` ago. */
async function ready(options: { agent?: boolean } = {}) {
  const { token, userId } = await subscribedUser('starter');
  const key = `sk-test-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status}`);
  if (options.agent !== false) {
    await createAnsweringAgent(token);
  }
  const wa = await connectWhatsApp(token);
  return { token, userId, wa };
}

async function withConversation(lastInboundAgo: number, customer: { waId: string; name: string; phone?: string } = { waId: spanishWaId(), name: 'Lucía Gómez' }) {
  const s = await ready({ agent: false });
  const at = ago(lastInboundAgo);
  const conv = await openConversation(s.userId, s.wa, customer, at);
  await inbound(s.userId, s.wa, conv, { body: '¿Tenéis cita el martes?', at });
  return { ...s, conv };
}

const sendsReach = (phoneId: string, count: number): Promise<GraphSend[]> =>
  until(async () => {
    const sent = await graphSends(phoneId);
    return sent.length >= count ? sent : undefined;
  }, `${count} Graph sends`);

/**
 * A delivery from a customer who adopted a WhatsApp username: Meta's contacts[] and messages[]
 * carry the BSUID (user_id / from_user_id) and no wa_id / from (phone number).
 */
function usernameDelivery(wa: ConnectedWhatsApp, bsuid: string, name: string, text: string) {
  const wamid = newWamid();
  const body = metaJson({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: wa.businessId,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: wa.displayPhoneNumber.replace(/\D/g, ''), phone_number_id: wa.phoneId },
              contacts: [{ profile: { name }, user_id: bsuid }],
              messages: [{ from_user_id: bsuid, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }],
            },
          },
        ],
      },
    ],
  });
  return { wamid, body };
}

describe('templates: the business account\'s approved templates', () => {
  it('GET /api/whatsapp/templates lists only the approved ones of the user\'s business account, with body text and parameters', async () => {
    const s = await ready({ agent: false });
    await seedGraphTemplates(s.wa.businessId, [
      {
        name: 'cita_confirmada',
        language: 'es',
        category: 'UTILITY',
        components: [{ type: 'HEADER', format: 'TEXT', text: 'Cita' }, { type: 'BODY', text: 'Hola {{1}}, tu cita del {{2}} está confirmada.' }, { type: 'FOOTER', text: 'Gracias' }],
      },
      { name: 'sin_parametros', language: 'en_US', category: 'MARKETING', components: [{ type: 'BODY', text: 'We are open again!' }] },
      { name: 'en_revision', language: 'es', status: 'PENDING', components: [{ type: 'BODY', text: 'Hola {{1}}' }] },
      { name: 'rechazada', language: 'es', status: 'REJECTED', components: [{ type: 'BODY', text: 'Hola {{1}}' }] },
      { name: 'pausada', language: 'es', status: 'PAUSED', components: [{ type: 'BODY', text: 'Hola {{1}}' }] },
      { name: 'con_imagen', language: 'es', components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Mira {{1}}' }] },
    ]);

    const res = await listTemplates(s.token);
    const other = await ready({ agent: false });
    const defaults = await listTemplates(other.token);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { name: 'cita_confirmada', language: 'es', category: 'UTILITY', body: 'Hola {{1}}, tu cita del {{2}} está confirmada.', parameters: ['1', '2'], parameterCount: 2 },
      { name: 'sin_parametros', language: 'en_US', category: 'MARKETING', body: 'We are open again!', parameters: [], parameterCount: 0 },
    ]);
    // Another user's account (never seeded) has the fake's defaults: only the approved ones.
    expect(defaults.body.data!.map((t) => `${t.name}/${t.language}/${t.parameterCount}`)).toEqual([
      'appointment_reminder/en_US/2',
      'recordatorio_cita/es/2',
      'retomar_conversacion/es/1',
    ]);
  });

  it('follows Meta\'s paging cursors past the first page (more than 100 templates)', async () => {
    const s = await ready({ agent: false });
    const many = Array.from({ length: 130 }, (_, i) => ({
      name: `plantilla_${String(i).padStart(3, '0')}`,
      language: 'es',
      components: [{ type: 'BODY', text: `Texto ${i} para {{1}}` }],
    }));
    await seedGraphTemplates(s.wa.businessId, many);

    const res = await listTemplates(s.token);

    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(130);
    expect(res.body.data![129]!.name).toBe('plantilla_129');
  });

  it('without a WhatsApp connection: 400 with the connect message', async () => {
    const { token } = await subscribedUser('starter');
    const res = await listTemplates(token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Connect the WhatsApp Business integration first');
  });
});

describe('templates: sending one when the 24-hour window is closed', () => {
  it('sends the template with its body parameters and stores the filled text as a person\'s message', async () => {
    const s = await withConversation(3 * DAY);

    const res = await sendTemplate(s.token, s.conv.id, { name: 'recordatorio_cita', language: 'es', parameters: ['Lucía', 'martes 4 a las 9:30'] });

    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Template sent');
    const body = 'Hola Lucía, te recordamos tu cita del martes 4 a las 9:30. Si no puedes venir, respóndenos a este mensaje.';
    expect(res.body.data).toMatchObject({ fromMe: true, type: 'template', body, status: 'sent', sentBy: 'human' });
    const [send, ...more] = await graphSends(s.wa.phoneId);
    expect(more).toEqual([]);
    expect(send).toMatchObject({ status: 200, type: 'template', to: s.conv.customerWaId, template: { name: 'recordatorio_cita', language: 'es', parameters: ['Lucía', 'martes 4 a las 9:30'] } });
    expect(send!.payload).toMatchObject({
      messaging_product: 'whatsapp',
      type: 'template',
      template: {
        name: 'recordatorio_cita',
        language: { code: 'es' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Lucía' }, { type: 'text', text: 'martes 4 a las 9:30' }] }],
      },
    });
    const detail = await api<ConversationDetail>('GET', `/api/conversations/${s.conv.id}`, { token: s.token });
    expect(detail.body.data!.messages.at(-1)).toMatchObject({ type: 'template', body, status: 'sent', sentBy: 'human' });
    expect(detail.body.data!.conversation.lastMessage).toMatchObject({ fromMe: true, body });
  });

  it('is refused while the window is open (409, nothing sent): a normal reply is possible then', async () => {
    const s = await withConversation(2 * HOUR);

    const res = await sendTemplate(s.token, s.conv.id, { name: 'recordatorio_cita', language: 'es', parameters: ['Lucía', 'martes'] });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe(templateMessages.windowOpen);
    expect(await graphSends(s.wa.phoneId)).toEqual([]);
    expect((await messages().listByConversation(s.userId, s.conv.id, 10)).filter((m) => m.fromMe)).toEqual([]);
  });

  it('a parameter count that does not match the template: 400 with the counts, nothing sent or stored', async () => {
    const s = await withConversation(2 * DAY);

    const fewer = await sendTemplate(s.token, s.conv.id, { name: 'recordatorio_cita', language: 'es', parameters: ['Lucía'] });
    const blank = await sendTemplate(s.token, s.conv.id, { name: 'recordatorio_cita', language: 'es', parameters: ['Lucía', '  '] });
    const unknown = await sendTemplate(s.token, s.conv.id, { name: 'no_existe', language: 'es', parameters: [] });
    const pending = await sendTemplate(s.token, s.conv.id, { name: 'oferta_verano', language: 'es', parameters: ['Lucía'] });

    expect(fewer.status).toBe(400);
    expect(fewer.body.message).toBe('This template takes 2 parameters, 1 was given');
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe(templateMessages.parameterRequired);
    expect([unknown.status, unknown.body.message]).toEqual([400, templateMessages.templateNotFound]);
    expect([pending.status, pending.body.message]).toEqual([400, templateMessages.templateNotFound]);
    expect(await graphSends(s.wa.phoneId)).toEqual([]);
    expect((await messages().listByConversation(s.userId, s.conv.id, 10)).filter((m) => m.fromMe)).toEqual([]);
  });

  it('Meta\'s refusal (132001 template does not exist, 132000 parameter mismatch) is shown in words and the message is stored failed', async () => {
    const s = await withConversation(2 * DAY);
    // Listed as approved, but Meta no longer has it in Spanish when the send arrives (deleted
    // meanwhile): our list comes from this account, the fake checks sends against another one.
    await seedGraphTemplates(s.wa.businessId, [{ name: 'borrada', language: 'es', components: [{ type: 'BODY', text: 'Hola {{1}}' }] }]);
    await seedGraphTemplates(`${s.wa.businessId}9`, [{ name: 'borrada', language: 'es', components: [{ type: 'BODY', text: 'Hola {{1}} y {{2}}' }] }], s.wa.phoneId);

    const gone = await sendTemplate(s.token, s.conv.id, { name: 'borrada', language: 'es', parameters: ['Lucía'] });
    await seedGraphTemplates(`${s.wa.businessId}9`, [{ name: 'otra', language: 'es', components: [] }], s.wa.phoneId);
    const deleted = await sendTemplate(s.token, s.conv.id, { name: 'borrada', language: 'es', parameters: ['Lucía'] });

    expect(gone.status).toBe(400);
    expect(gone.body.message).toBe(META_ERROR_WORDS[132000]);
    expect(deleted.status).toBe(400);
    expect(deleted.body.message).toBe(META_ERROR_WORDS[132001]);
    expect(deleted.body.message).toMatch(/does not know this template/);
    const sends = await graphSends(s.wa.phoneId);
    expect(sends.map((x) => x.status)).toEqual([400, 404]);
    const mine = (await messages().listByConversation(s.userId, s.conv.id, 10)).filter((m) => m.fromMe);
    expect(mine.map((m) => [m.type, m.body, m.status, m.error])).toEqual([
      ['template', 'Hola Lucía', 'failed', META_ERROR_WORDS[132000]],
      ['template', 'Hola Lucía', 'failed', META_ERROR_WORDS[132001]],
    ]);
  });

  it('a foreign or unknown conversation id answers 404', async () => {
    const s = await withConversation(2 * DAY);
    const other = await ready({ agent: false });

    const foreign = await sendTemplate(other.token, s.conv.id, { name: 'recordatorio_cita', language: 'es', parameters: ['a', 'b'] });

    expect(foreign.status).toBe(404);
    expect(await graphSends(s.wa.phoneId)).toEqual([]);
  });
});

describe('usernames: a customer known only by a business-scoped user id', () => {
  it('the AI reply goes to `recipient` (no `to`); the conversation has no phone number and no contact is made', async () => {
    const s = await ready();
    const bsuid = `ES.${randomDigits(19)}`;
    const { wamid, body } = usernameDelivery(s.wa, bsuid, 'Nacho', 'Hola, ¿tenéis hueco mañana?');

    const res = await postWebhook(s.wa.integrationId, body, signMetaBody(body, s.wa.appSecret));
    expect(res.status).toBe(200);
    const [send] = await sendsReach(s.wa.phoneId, 1);
    await until(async () => (await getItem(`USER#${s.userId}`, `WAMID#${wamid}`))?.state === 'handled', 'handled');

    expect(send).toMatchObject({ status: 200, type: 'text', text: 'Echo: Hola, ¿tenéis hueco mañana?' });
    expect(send!.payload.recipient).toBe(bsuid);
    expect(send!.payload).not.toHaveProperty('to');
    const list = await api<{ _id: string; contact: { name: string; phoneNumber: string }; customerWaId: string }[]>('GET', '/api/conversations', { token: s.token });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data![0]).toMatchObject({ customerWaId: bsuid, contact: { name: 'Nacho', phoneNumber: '' } });
    expect((await listContacts(s.token)).body.data).toEqual([]);
  });

  it('a person\'s reply and a template to that customer use `recipient` too', async () => {
    const s = await withConversation(2 * DAY, { waId: `US.${randomDigits(20)}`, name: 'Nacho', phone: '' });
    const bsuid = s.conv.customerWaId;

    const template = await sendTemplate(s.token, s.conv.id, { name: 'retomar_conversacion', language: 'es', parameters: ['Nacho'] });
    await inbound(s.userId, s.wa, s.conv, { body: 'Sí, dime' });
    const reply = await api<ConversationMessage>('POST', `/api/conversations/${s.conv.id}/messages`, { token: s.token, body: { text: 'Mañana a las 10' } });

    expect(reply.status).toBe(201);
    expect(template.status).toBe(201);
    const sends = await graphSends(s.wa.phoneId);
    expect(sends.map((x) => [x.status, x.type, x.payload.recipient, 'to' in x.payload])).toEqual([
      [200, 'template', bsuid, false],
      [200, 'text', bsuid, false],
    ]);
    const detail = await api<ConversationDetail>('GET', `/api/conversations/${s.conv.id}`, { token: s.token });
    expect(detail.body.data!.conversation.contact.phoneNumber).toBe('');
  });
});
