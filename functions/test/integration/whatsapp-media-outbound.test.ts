/**
 * The agent answers with more than text (issue 31), end to end on the local stack: signed Meta
 * deliveries → the webhook → the whatsapp-inbound worker → the agent's WhatsApp tools (the fake
 * OpenAI scripted to call them) → the fake Graph API, which checks every send against Meta's
 * shapes and limits and keeps the uploaded files.
 *
 * - A file the owner marked shareable and the business location follow the reply, each its own
 *   message: the file uploaded to Meta's media endpoint and sent by its id with its name; sent
 *   again later by the same id, not uploaded twice.
 * - Choices go as a list; the customer's tap comes back as their answer, and the agent reads its own
 *   question with the options it offered.
 * - An interactive send Meta refuses (131009) is stored failed with Meta's reason.
 * - A location WhatsApp refused is sent again from the Message Hub as a location.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AgentFile } from '../../src/contract/agents.js';
import type { Conversation, ConversationDetail, ConversationDetailMessage, Message } from '../../src/contract/whatsapp.js';
import { call, connectChatGpt, createEnabledAgent, uploadMultipart, type AgentsUser } from '../support/agents-api.js';
import { api, provided, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import {
  connectWhatsApp,
  graphSends,
  graphUploadBytes,
  graphUploads,
  interactiveReplyMessage,
  failGraphSends,
  metaDelivery,
  postWebhook,
  randomDigits,
  signMetaBody,
  textMessage,
  waCustomer,
  type ConnectedWhatsApp,
  type GraphSend,
  type InboundMessage,
  type WaCustomer,
} from '../support/whatsapp.js';

const PRICES = 'Tarifas 2026 de la Clínica Dental Pérez. Limpieza dental: 60 €. Ortodoncia invisible: desde 2.500 €.';
const LOCATION = { name: 'Clínica Dental Pérez', address: 'Calle de Alcalá 42, 28014 Madrid' };

interface Owner {
  user: AgentsUser;
  key: string;
  agentId: string;
  file: AgentFile;
  wa: ConnectedWhatsApp;
}

/** A subscribed clinic: ChatGPT, an enabled agent with its WhatsApp tools on, a shareable price list, its location, WhatsApp connected. */
async function owner(): Promise<Owner> {
  const { token, userId } = await subscribedUser('starter');
  const user = { token, userId };
  const key = await connectChatGpt(user);
  const agent = await createEnabledAgent(user, 'Sonia', 'Eres la recepcionista de la Clínica Dental Pérez. Responde en español.');
  const upload = await uploadMultipart(user, agent._id, [{ name: 'Tarifas 2026.txt', type: 'text/plain', bytes: PRICES }]);
  expect(upload.status).toBe(201);
  const file = upload.body.data![0]!;
  await until(async () => {
    const files = (await call<AgentFile[]>(user, 'GET', `/api/agents/${agent._id}/files`)).body.data ?? [];
    return files.find((f) => f._id === file._id && f.status === 'completed');
  }, 'the price list read');
  expect((await call(user, 'PATCH', `/api/agents/${agent._id}/files/${file._id}`, { shareable: true })).status).toBe(200);
  expect((await call(user, 'PUT', `/api/agents/${agent._id}`, { whatsappTools: { sendFiles: true, sendLocation: true, offerChoices: true } })).status).toBe(200);
  expect((await call(user, 'PUT', '/api/user/business-location', { ...LOCATION, coordinates: '40.4187, -3.6966' })).status).toBe(200);
  return { user, key, agentId: agent._id, file, wa: await connectWhatsApp(token) };
}

async function script(o: Owner, responses: unknown[]): Promise<void> {
  const res = await fetch(`${provided('openaiUrl')}/_test/script`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: o.key, responses }) });
  if (!res.ok) throw new Error(`script failed: ${res.status}`);
}
const toolCall = (name: string, args: unknown) => ({ id: `call_${randomUUID().slice(0, 8)}`, type: 'function', function: { name, arguments: JSON.stringify(args) } });
const toolTurn = (...calls: unknown[]) => ({ content: null, tool_calls: calls });
const textTurn = (content: string) => ({ content });

async function deliver(o: Owner, message: InboundMessage): Promise<void> {
  const body = metaDelivery(o.wa, { messages: [message] });
  const res = await postWebhook(o.wa.integrationId, body, signMetaBody(body, o.wa.appSecret));
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
}

const sendsTo = async (o: Owner, customer: WaCustomer): Promise<GraphSend[]> => (await graphSends(o.wa.phoneId)).filter((s) => s.to === customer.waId);

async function messagesOf(o: Owner, customer: WaCustomer): Promise<ConversationDetailMessage[]> {
  const list = await api<Conversation[]>('GET', '/api/conversations?limit=100', { token: o.user.token });
  const conversation = (list.body.data ?? []).find((c) => c.customerWaId === customer.waId);
  if (!conversation) return [];
  return (await api<ConversationDetail>('GET', `/api/conversations/${conversation._id}`, { token: o.user.token })).body.data!.messages;
}

/** The chat requests the model got with the owner's key (the fake OpenAI's record), oldest first. */
async function modelRequests(o: Owner): Promise<{ messages: { role: string; content: unknown }[] }[]> {
  const res = await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(o.key)}`);
  const { requests } = (await res.json()) as { requests: { path: string; body: { messages: { role: string; content: unknown }[] } }[] };
  return requests.filter((r) => r.path.includes('chat/completions')).map((r) => r.body);
}

describe('whatsapp: the agent sends files, the location and choices (issue 31)', () => {
  it('a shareable file and the business location follow the reply, each its own message: the file uploaded to Meta and sent by its id', async () => {
    const o = await owner();
    const lucia = waCustomer('Lucía Gómez', `346${randomDigits(8)}`);
    await script(o, [
      toolTurn(toolCall('send_file', { file_id: o.file._id, caption: 'Nuestras tarifas' }), toolCall('send_location', {})),
      textTurn('¡Claro! Te mando las tarifas y cómo llegar.'),
    ]);
    await deliver(o, textMessage(lucia, '¿Me pasas las tarifas y la dirección?'));

    const sends = await until(async () => {
      const s = await sendsTo(o, lucia);
      return s.length >= 3 ? s : undefined;
    }, 'the reply, the file and the location sent', 30_000);
    expect(sends.map((s) => [s.status, s.type])).toEqual([
      [200, 'text'],
      [200, 'document'],
      [200, 'location'],
    ]);
    expect(sends[0]!.text).toBe('¡Claro! Te mando las tarifas y cómo llegar.');
    const document = sends[1]!.payload.document as { id: string; caption?: string; filename?: string };
    expect(document).toEqual({ id: document.id, caption: 'Nuestras tarifas', filename: 'Tarifas 2026.txt' });
    // What Meta got under that id is the owner's file, byte for byte.
    expect((await graphUploads(o.wa.phoneId)).map((u) => [u.id, u.fileName, u.mimeType])).toEqual([[document.id, 'Tarifas 2026.txt', 'text/plain']]);
    expect((await graphUploadBytes(document.id)).toString('utf8')).toBe(PRICES);
    expect(sends[2]!.payload.location).toEqual({ latitude: 40.4187, longitude: -3.6966, ...LOCATION });

    // The inbox has all three, sent, in order; the file as a document with its name, the pin with its place.
    const ours = (await until(async () => {
      const m = (await messagesOf(o, lucia)).filter((x) => x.fromMe);
      return m.length === 3 && m.every((x) => x.status === 'sent') ? m : undefined;
    }, 'the three messages stored as sent')) as (ConversationDetailMessage & Partial<Message>)[];
    expect(ours.map((m) => m.type)).toEqual(['chat', 'document', 'location']);
    expect(ours[1]).toMatchObject({ hasMedia: true, body: 'Nuestras tarifas', media: { filename: 'Tarifas 2026.txt', mimeType: 'text/plain' } });
    expect(ours[1]!.media).not.toHaveProperty('storedKey'); // the agent file's key stays on the server
    expect(ours[2]).toMatchObject({ location: { latitude: 40.4187, longitude: -3.6966, ...LOCATION } });

    // Asked again: the same file goes by the media id Meta already has (kept on the agent's file), not uploaded twice.
    await script(o, [toolTurn(toolCall('send_file', { file_id: o.file._id })), textTurn('Aquí las tienes otra vez.')]);
    await deliver(o, textMessage(lucia, '¿Me las reenvías?'));
    const again = await until(async () => {
      const s = await sendsTo(o, lucia);
      return s.length >= 5 ? s : undefined;
    }, 'the file sent again', 30_000);
    expect(again.slice(3).map((s) => [s.status, s.type])).toEqual([
      [200, 'text'],
      [200, 'document'],
    ]);
    expect((again[4]!.payload.document as { id: string }).id).toBe(document.id);
    expect(await graphUploads(o.wa.phoneId)).toHaveLength(1);
  });

  it('choices go as a list; the tapped row comes back as the customer’s answer, read with the options the agent offered', async () => {
    const o = await owner();
    const pablo = waCustomer('Pablo Ruiz', `346${randomDigits(8)}`);
    const treatments = ['Limpieza dental', 'Ortodoncia invisible', 'Blanqueamiento', 'Implantes'];
    await script(o, [toolTurn(toolCall('offer_choices', { options: treatments.map((title) => ({ title })), button_label: 'Ver tratamientos' })), textTurn('¿Qué tratamiento te interesa?')]);
    await deliver(o, textMessage(pablo, 'Hola, quería información'));

    const [list] = await until(async () => {
      const s = await sendsTo(o, pablo);
      return s.length >= 1 ? s : undefined;
    }, 'the list sent', 30_000);
    expect(list).toMatchObject({ status: 200, type: 'interactive' });
    expect(list!.payload.interactive).toEqual({
      type: 'list',
      body: { text: '¿Qué tratamiento te interesa?' },
      action: { button: 'Ver tratamientos', sections: [{ rows: treatments.map((title, i) => ({ id: `opt_${i + 1}`, title })) }] },
    });
    const offered = (await until(async () => (await messagesOf(o, pablo)).find((m) => m.fromMe && m.status === 'sent'), 'the list stored')) as ConversationDetailMessage & Partial<Message>;
    expect(offered).toMatchObject({ type: 'interactive', body: '¿Qué tratamiento te interesa?', interactive: { kind: 'list', buttonLabel: 'Ver tratamientos' } });

    // Pablo taps "Ortodoncia invisible": the agent gets it as his message, after its own question with the options.
    await script(o, [textTurn('La ortodoncia invisible empieza en 2.500 €. ¿Quieres una cita?')]);
    await deliver(o, interactiveReplyMessage(pablo, 'list_reply', { id: 'opt_2', title: 'Ortodoncia invisible' }));
    await until(async () => (await sendsTo(o, pablo)).length >= 2, 'the answer to the tap', 30_000);
    const last = (await modelRequests(o)).at(-1)!.messages;
    const turns = last.filter((m) => m.role !== 'system' && m.role !== 'tool').map((m) => [m.role, typeof m.content === 'string' ? m.content : JSON.stringify(m.content)]);
    expect(turns.slice(-2)).toEqual([
      ['assistant', '¿Qué tratamiento te interesa? (options: Limpieza dental / Ortodoncia invisible / Blanqueamiento / Implantes)'],
      ['user', 'Ortodoncia invisible'],
    ]);
    const inbound = (await messagesOf(o, pablo)).filter((m) => !m.fromMe);
    expect(inbound.at(-1)).toMatchObject({ body: 'Ortodoncia invisible' });
  });

  it('an interactive send WhatsApp refuses (131009) is stored failed with its reason, and not sent again', async () => {
    const o = await owner();
    const ana = waCustomer('Ana Martín', `346${randomDigits(8)}`);
    await script(o, [toolTurn(toolCall('offer_choices', { options: ['Sí', 'No'] })), textTurn('¿Confirmamos tu cita del martes?')]);
    await failGraphSends(o.wa.phoneId, { count: 1, status: 400, code: 131009, message: '(#131009) Parameter value is not valid' });
    await deliver(o, textMessage(ana, 'Quería confirmar la cita'));

    const failed = (await until(async () => (await messagesOf(o, ana)).find((m) => m.fromMe && m.status === 'failed'), 'the refused reply stored', 30_000)) as ConversationDetailMessage & Partial<Message>;
    expect(failed).toMatchObject({ type: 'interactive', error: '(#131009) Parameter value is not valid', errorCode: '131009', interactive: { kind: 'buttons' } });
    await new Promise((r) => setTimeout(r, 800));
    expect((await sendsTo(o, ana)).map((s) => [s.status, s.type])).toEqual([[400, 'interactive']]);
  });

  it('a location WhatsApp refused is sent again from the Message Hub as a location, not as text', async () => {
    const o = await owner();
    const jose = waCustomer('José Núñez', `346${randomDigits(8)}`);
    await script(o, [toolTurn(toolCall('send_location', {})), textTurn('Estamos en la calle de Alcalá.')]);
    // Both the reply and the pin after it are refused for good (undeliverable at the time).
    await failGraphSends(o.wa.phoneId, { count: 2, status: 400, code: 131026, message: '(#131026) Message Undeliverable' });
    await deliver(o, textMessage(jose, '¿Dónde estáis?'));

    const pin = (await until(async () => (await messagesOf(o, jose)).find((m) => m.fromMe && m.type === 'location' && m.status === 'failed'), 'the location stored failed', 30_000)) as ConversationDetailMessage &
      Partial<Message>;
    expect(pin.error).toBeTruthy();

    const retried = await api<Message>('POST', `/api/messages/${pin._id}/retry`, { token: o.user.token });
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ status: 'sent', type: 'location' });
    const sends = await sendsTo(o, jose);
    expect(sends.map((s) => [s.status, s.type])).toEqual([
      [400, 'text'],
      [400, 'location'],
      [200, 'location'],
    ]);
    expect(sends[2]!.payload.location).toEqual({ latitude: 40.4187, longitude: -3.6966, ...LOCATION });
  });
});
