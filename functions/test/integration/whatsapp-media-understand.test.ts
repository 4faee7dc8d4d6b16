/**
 * What the agent understands of a customer's media (issue 31), end to end on the local stack:
 * signed Meta deliveries → the webhook → the whatsapp-inbound worker, which fetches the media from
 * the fake Graph API (registered with its /_test/media), stores it, understands it and lets the
 * agent answer through the fake OpenAI (its /v1/audio/transcriptions answers the transcript
 * registered for the audio's bytes; its brain says what it sees in a photo) → the fake Graph API.
 *
 * - A Spanish voice note is transcribed once (even when Meta delivers it twice), with the
 *   language hint 'es' and the business's names as the prompt; the agent answers the transcript;
 *   the owner sees it on the message; the plan's minutes count it.
 * - A photo reaches the model as an image input; a PDF's text and a location reach it as text.
 * - An "audio" that is not audio is `unreadable`, the plan's minutes used up `minutes_limit`, a
 *   transcription provider that keeps answering 429 or dropping the connection is retried on the
 *   queue's schedule and then `transcription_failed`: each time the agent asks the customer to write.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DynamoSubscriptionRepository, DynamoUsageRepository } from '../../src/adapters/dynamo/subscriptions.js';
import { MEDIA_AGENT_NOTES } from '../../src/contract/whatsapp-media.js';
import type { Conversation, ConversationDetail, ConversationDetailMessage } from '../../src/contract/whatsapp.js';
import { createUsageService } from '../../src/domain/billing/usage.js';
import { cutOgg } from '../../src/domain/whatsapp/media/ogg.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, db, provided, tableName, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { WEEKDAYS_9_14 } from '../support/bookings.js';
import { armFault, clearFault, faultState } from '../support/faults.js';
import { registerFakeMedia, registerFakeTranscript, syntheticVoiceNote } from '../support/media-fakes.js';
import {
  connectWhatsApp,
  contactsMessage,
  graphSends,
  locationMessage,
  mediaMessage,
  metaDelivery,
  postWebhook,
  signMetaBody,
  waCustomer,
  type ConnectedWhatsApp,
  type InboundMessage,
  type WaCustomer,
} from '../support/whatsapp.js';

interface Owner {
  token: string;
  userId: string;
  /** The owner's own fake OpenAI key: records and faults are scoped to it. */
  key: string;
  wa: ConnectedWhatsApp;
  agentName: string;
}

/** A subscribed clinic (starter: 100 minutes) with ChatGPT, a Spanish answering agent and WhatsApp. */
async function clinic(): Promise<Owner> {
  const { token, userId } = await subscribedUser('starter');
  const key = `sk-media-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status} ${chatgpt.body.message}`);
  const agentName = 'Clínica Sonrisa';
  const agent = await createAnsweringAgent(token, agentName);
  const spanish = await api('PUT', `/api/agents/${agent._id}`, { token, body: { language: 'es' } });
  if (spanish.status !== 200) throw new Error(`agent language: ${spanish.status} ${spanish.body.message}`);
  return { token, userId, key, wa: await connectWhatsApp(token), agentName };
}

async function deliver(o: Owner, message: InboundMessage): Promise<void> {
  const body = metaDelivery(o.wa, { messages: [message] });
  const res = await postWebhook(o.wa.integrationId, body, signMetaBody(body, o.wa.appSecret));
  if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
}

interface OpenAiCall {
  path: string;
  status: number;
  body: Record<string, unknown>;
}

async function openaiCalls(o: Owner): Promise<OpenAiCall[]> {
  const res = await fetch(`${provided('openaiUrl')}/_test/requests?key=${encodeURIComponent(o.key)}`);
  return ((await res.json()) as { requests: OpenAiCall[] }).requests;
}
const transcriptions = async (o: Owner) => (await openaiCalls(o)).filter((c) => c.path === '/v1/audio/transcriptions');
const chats = async (o: Owner) => (await openaiCalls(o)).filter((c) => c.path === '/v1/chat/completions' && c.status === 200);

type WireContent = string | Array<{ type: string; text?: string; image_url?: { url: string } }>;
/** The last user turn of a chat request (the message answered). */
const lastUserTurn = (call: OpenAiCall): WireContent =>
  (call.body.messages as Array<{ role: string; content: WireContent }>).filter((m) => m.role === 'user').at(-1)!.content;
const textOf = (content: WireContent) => (typeof content === 'string' ? content : content.map((p) => p.text ?? '').join(''));

/** The customer's replies sent (successful sends to their number). */
async function repliesTo(o: Owner, customer: WaCustomer) {
  return (await graphSends(o.wa.phoneId)).filter((s) => s.to === customer.waId && s.status === 200);
}
const answered = (o: Owner, customer: WaCustomer) =>
  until(async () => {
    const r = await repliesTo(o, customer);
    return r.length > 0 ? r : undefined;
  }, `a reply to ${customer.name}`, 30_000);

/** The customer's (only) message as the owner sees it. */
async function customerMessage(o: Owner, customer: WaCustomer): Promise<ConversationDetailMessage | undefined> {
  const list = await api<Conversation[]>('GET', '/api/conversations?limit=100', { token: o.token });
  const conversation = (list.body.data ?? []).find((c) => c.customerWaId === customer.waId);
  if (!conversation) return undefined;
  const detail = await api<ConversationDetail>('GET', `/api/conversations/${conversation._id}`, { token: o.token });
  return detail.body.data?.messages.find((m) => !m.fromMe);
}

async function voiceNote(o: Owner, customer: WaCustomer, bytes: Uint8Array, transcript?: string) {
  if (transcript) await registerFakeTranscript(provided('openaiUrl'), bytes, { text: transcript, language: 'es' });
  const media = await registerFakeMedia(provided('whatsappGraphUrl'), bytes, { mimeType: 'audio/ogg; codecs=opus' });
  return mediaMessage(customer, 'audio', { mediaId: media.id, sha256: media.sha256, mimeType: 'audio/ogg; codecs=opus', voice: true });
}

const usage = () => createUsageService({ subscriptions: new DynamoSubscriptionRepository(db(), tableName()), usage: new DynamoUsageRepository(db(), tableName()) });
/** The plan's minutes used this period. */
async function minutesUsed(userId: string): Promise<number> {
  const subscription = await new DynamoSubscriptionRepository(db(), tableName()).get(userId);
  return (await new DynamoUsageRepository(db(), tableName()).read(userId, subscription?.currentPeriodStart ?? null)).minutes;
}

describe('whatsapp media: what the agent understands (issue 31)', () => {
  it('a Spanish voice note: transcribed once with the hint and the business’s names, answered once though delivered twice', async () => {
    const o = await clinic();
    // The agent books (issue 30): its staff and services are names the transcription must spell.
    const agents = await api<{ _id: string }[]>('GET', '/api/agents', { token: o.token });
    expect((await api('PUT', `/api/agents/${agents.body.data![0]!._id}`, { token: o.token, body: { bookingsEnabled: true } })).status).toBe(200);
    const staff = await api<{ _id: string }>('POST', '/api/bookings/staff', { token: o.token, body: { name: 'Dra. Pérez', weeklyHours: WEEKDAYS_9_14 } });
    expect(staff.status).toBe(201);
    const service = await api('POST', '/api/bookings/services', { token: o.token, body: { name: 'Ortodoncia invisible', durationMinutes: 30, priceCents: null, staffIds: [staff.body.data!._id] } });
    expect(service.status).toBe(201);
    const ana = waCustomer('Ana García', `34${600000000 + Math.floor(Math.random() * 99_999_999)}`);
    const said = 'Quería pedir cita con la Dra. Pérez';
    const message = await voiceNote(o, ana, syntheticVoiceNote({ seconds: 75 }), said);

    await deliver(o, message);
    await deliver(o, message);
    const replies = await answered(o, ana);

    const heard = await transcriptions(o);
    expect(heard).toHaveLength(1);
    expect(heard[0]!.body).toMatchObject({ language: 'es', model: 'gpt-4o-mini-transcribe', file: { type: 'audio/ogg' } });
    expect(heard[0]!.body.prompt).toBe(`${o.agentName}, Dra. Pérez, Ortodoncia invisible`);
    // The agent read the transcript as the customer's words.
    const chat = (await chats(o)).at(-1)!;
    expect(textOf(lastUserTurn(chat))).toBe(said);
    expect(replies.map((r) => r.text).join('\n')).toContain(said);
    // Still one reply after the redelivery had its chance.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await repliesTo(o, ana)).toHaveLength(1);
    expect(await transcriptions(o)).toHaveLength(1);
    // The owner sees the transcript on the message; two minutes of the plan counted.
    const stored = await customerMessage(o, ana);
    expect(stored?.media).toMatchObject({ state: 'stored', transcript: { text: said, language: 'es', durationSeconds: 75 } });
    expect(await minutesUsed(o.userId)).toBe(2);
  });

  it('a photo reaches the model as an image input (the brain describes what it sees)', async () => {
    const o = await clinic();
    const luis = waCustomer('Luis');
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`foto ${randomUUID()}`)]);
    await fetch(`${provided('openaiUrl')}/_test/images`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sha256: createHash('sha256').update(jpeg).digest('hex'), description: 'una muela con una caries' }),
    });
    const media = await registerFakeMedia(provided('whatsappGraphUrl'), jpeg, { mimeType: 'image/jpeg' });
    await deliver(o, mediaMessage(luis, 'image', { mediaId: media.id, sha256: media.sha256, mimeType: 'image/jpeg', caption: '¿Esto es normal?' }));
    const replies = await answered(o, luis);

    const turn = lastUserTurn((await chats(o)).at(-1)!);
    expect(Array.isArray(turn)).toBe(true);
    expect(turn).toContainEqual({ type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}` } });
    expect(textOf(turn)).toContain('¿Esto es normal?');
    expect(replies[0]!.text).toBe('Veo la foto que me has enviado: una muela con una caries');
  });

  it('a PDF’s text and a shared location reach the model as text', async () => {
    const o = await clinic();
    const marta = waCustomer('Marta');
    const pdf = readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'knowledge', 'dental-price-list.pdf'));
    const media = await registerFakeMedia(provided('whatsappGraphUrl'), pdf, { mimeType: 'application/pdf' });
    const doc = mediaMessage(marta, 'document', { mediaId: media.id, sha256: media.sha256, mimeType: 'application/pdf', filename: 'tarifas.pdf', caption: 'mi presupuesto' });
    await deliver(o, doc);
    await answered(o, marta);
    const read = textOf(lastUserTurn((await chats(o)).at(-1)!));
    expect(read).toContain('[The customer sent the document tarifas.pdf:]');
    expect(read).toContain('A routine check-up with professional cleaning costs $85');
    expect(read).toContain('In-office teeth whitening');
    expect((await customerMessage(o, marta))?.media).toMatchObject({ state: 'stored', pages: 3, textPreview: expect.stringContaining('Sonrisa Dental Clinic') });

    const pablo = waCustomer('Pablo');
    await deliver(o, locationMessage(pablo, { latitude: 40.4168, longitude: -3.7038, name: 'Puerta del Sol', address: 'Plaza de la Puerta del Sol, Madrid' }));
    await answered(o, pablo);
    expect(textOf(lastUserTurn((await chats(o)).at(-1)!))).toBe('[The customer shared a location: Puerta del Sol, Plaza de la Puerta del Sol, Madrid (40.4168, -3.7038)]');

    const rosa = waCustomer('Rosa');
    await deliver(o, contactsMessage(rosa, [{ name: 'María López', phones: ['+34 612 345 678'] }]));
    await answered(o, rosa);
    expect(textOf(lastUserTurn((await chats(o)).at(-1)!))).toBe('[The customer shared a contact card: María López: +34 612 345 678]');
  });

  it('a voice note over 10 minutes: only the first 10 heard and charged, the agent tells the customer', async () => {
    const o = await clinic();
    const juan = waCustomer('Juan');
    const long = syntheticVoiceNote({ seconds: 12 * 60 });
    // OpenAI is sent the first 10 minutes (whole Ogg pages): that is what it hears.
    await registerFakeTranscript(provided('openaiUrl'), cutOgg(long, 600)!.bytes, { text: 'Te cuento todo lo que pasó con mi tratamiento', language: 'es' });
    const message = await voiceNote(o, juan, long);
    await deliver(o, message);
    await answered(o, juan);
    const heard = await transcriptions(o);
    expect(heard).toHaveLength(1);
    expect((heard[0]!.body.file as { size: number }).size).toBeLessThan(long.length);
    expect(textOf(lastUserTurn((await chats(o)).at(-1)!))).toBe(`Te cuento todo lo que pasó con mi tratamiento\n\n[${MEDIA_AGENT_NOTES.voiceTruncated}]`);
    expect((await customerMessage(o, juan))?.media).toMatchObject({ state: 'stored', transcript: { durationSeconds: 720, truncated: true } });
    expect(await minutesUsed(o.userId)).toBe(10);
  });

  it('an "audio" that is not audio: unreadable, never sent to OpenAI, the agent asks the customer to write', async () => {
    const o = await clinic();
    const eva = waCustomer('Eva');
    const fake = Buffer.from(`%PDF-1.7 this is no voice note ${randomUUID()}`);
    const message = await voiceNote(o, eva, fake);
    await deliver(o, message);
    await answered(o, eva);
    expect(await transcriptions(o)).toHaveLength(0);
    expect(textOf(lastUserTurn((await chats(o)).at(-1)!))).toBe(`[${MEDIA_AGENT_NOTES.voiceUnheard}]`);
    expect((await customerMessage(o, eva))?.media).toMatchObject({ state: 'failed', failure: 'unreadable' });
  });

  it('the plan’s minutes used up: minutes_limit, no transcription, the agent asks the customer to write', async () => {
    const o = await clinic();
    await usage().reserve(o.userId, 'minutes', 100);
    const leo = waCustomer('Leo');
    const message = await voiceNote(o, leo, syntheticVoiceNote({ seconds: 20 }), 'No debería oírse');
    await deliver(o, message);
    await answered(o, leo);
    expect(await transcriptions(o)).toHaveLength(0);
    expect(textOf(lastUserTurn((await chats(o)).at(-1)!))).toBe(`[${MEDIA_AGENT_NOTES.voiceUnheard}]`);
    expect((await customerMessage(o, leo))?.media).toMatchObject({ state: 'failed', failure: 'minutes_limit' });
  });

  it('the transcription provider answers 429 once: retried on the queue’s schedule, then transcribed and answered once', async () => {
    const o = await clinic();
    const fault = await armFault('openai', { id: `t429-${randomUUID()}`, kind: 'status', status: 429, retryAfter: 1, times: 1, match: { key: o.key, path: '/audio/transcriptions' } });
    const sara = waCustomer('Sara');
    const said = 'Necesito cambiar mi cita del martes';
    await deliver(o, await voiceNote(o, sara, syntheticVoiceNote({ seconds: 9 }), said));
    await answered(o, sara);
    // The fault answered the first try (before the fake records a request), the retry was heard.
    expect((await faultState('openai', fault.id))?.hits).toBe(1);
    expect((await transcriptions(o)).map((c) => c.status)).toEqual([200]);
    expect(textOf(lastUserTurn((await chats(o)).at(-1)!))).toBe(said);
    await clearFault('openai', fault.id);
  });

  it('a provider that keeps failing (429, dropped connections): transcription_failed on the last try, the agent asks the customer to write', async () => {
    const o = await clinic();
    const busy = await armFault('openai', { id: `tbusy-${randomUUID()}`, kind: 'status', status: 429, match: { key: o.key, path: '/audio/transcriptions' } });
    const teo = waCustomer('Teo');
    const message = await voiceNote(o, teo, syntheticVoiceNote({ seconds: 9 }), 'No se oye');
    await deliver(o, message);
    await answered(o, teo);
    // Every try of the job was refused (the queue's whole schedule), none heard.
    expect((await faultState('openai', busy.id))?.hits).toBeGreaterThan(1);
    expect(await transcriptions(o)).toHaveLength(0);
    expect(textOf(lastUserTurn((await chats(o)).at(-1)!))).toBe(`[${MEDIA_AGENT_NOTES.voiceUnheard}]`);
    expect((await customerMessage(o, teo))?.media).toMatchObject({ state: 'failed', failure: 'transcription_failed' });
    // Minutes given back on every failed try.
    expect(await minutesUsed(o.userId)).toBe(0);
    await clearFault('openai', busy.id);

    const dropped = await armFault('openai', { id: `tdrop-${randomUUID()}`, kind: 'drop', match: { key: o.key, path: '/audio/transcriptions' } });
    const ines = waCustomer('Inés');
    const second = await voiceNote(o, ines, syntheticVoiceNote({ seconds: 4 }), 'Tampoco');
    await deliver(o, second);
    await answered(o, ines);
    expect((await faultState('openai', dropped.id))?.hits).toBeGreaterThan(1);
    expect((await customerMessage(o, ines))?.media).toMatchObject({ state: 'failed', failure: 'transcription_failed' });
    await clearFault('openai', dropped.id);
  }, 60_000);
});
