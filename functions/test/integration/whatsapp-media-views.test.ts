/**
 * What the owner sees of a customer's media (issue 31) through the local gateway, DynamoDB Local
 * and s3rver: GET /api/conversations/{id} and the Message Hub (list, latest, detail) carry the
 * media's state, transcript, document preview, location and contact cards; a stored copy gets a
 * presigned link that answers its bytes (a document as a download under its name), a pending or
 * never-fetched one none; our copy's key is never sent; the Message Hub's search finds a voice
 * note by its transcript and a document by its text (accent-insensitive).
 *
 * A voice note goes through the real pipeline (a signed delivery, the fake Graph API's media, the
 * fake OpenAI's transcript); the other cases are seeded through the repositories and the bucket
 * as the inbound worker leaves them, so every state (pending, failed, a document too large to
 * read) is shown without arranging its failure.
 */
import { randomUUID } from 'node:crypto';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import type { ConversationDetail, Message } from '../../src/contract/whatsapp.js';
import { MEDIA_LIMITS, WHATSAPP_MEDIA_PREFIX } from '../../src/contract/whatsapp-media.js';
import type { StoredConversation, StoredMessage, StoredMessageMedia } from '../../src/domain/conversations/ports.js';
import { idTimePrefix } from '../../src/adapters/dynamo/messages.js';
import { newId } from '../../src/lib/ids.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, provided, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { activeUser } from '../support/contacts.js';
import { conversationsApi, HOUR, ago, inbound, messagesApi, openConversation, repos, spanishWaId } from '../support/conversations.js';
import { registerFakeTranscript, syntheticVoiceNote } from '../support/media-fakes.js';
import { testS3Client } from '../support/stack-clients.js';
import { connectWhatsApp, newWamid, sendMediaDelivery, waCustomer } from '../support/whatsapp.js';

const TRANSCRIPT = 'Quería pedir cita con la Dra. Pérez para la ortodoncia invisible';

/** A customer's media message as the worker leaves it: bytes in our bucket (when given) and the message's media fields. */
async function customerMedia(
  userId: string,
  business: { phoneId: string; phoneNumber: string },
  conv: StoredConversation,
  input: { type: string; body?: string; media: StoredMessageMedia; bytes?: Buffer; at?: Date; extra?: Partial<StoredMessage> },
): Promise<StoredMessage> {
  const at = input.at ?? new Date();
  const id = `${conv.id}-${idTimePrefix(at.getTime())}${newId().slice(10)}`;
  const storedKey = `${WHATSAPP_MEDIA_PREFIX}${userId}/${conv.id}/${id}`;
  if (input.bytes) {
    await testS3Client().send(
      new PutObjectCommand({ Bucket: provided('uploadsBucket'), Key: storedKey, Body: input.bytes, ContentType: input.media.mimeType, ServerSideEncryption: 'AES256' }),
    );
  }
  const message: StoredMessage = {
    id,
    conversationId: conv.id,
    waMessageId: newWamid(),
    contactId: conv.contactId,
    type: input.type,
    hasMedia: true,
    media: { ...input.media, ...(input.bytes ? { storedKey, size: input.bytes.length } : {}) },
    fromMe: false,
    from: conv.customerPhone,
    to: business.phoneNumber,
    phoneNumberId: { id: business.phoneId, name: business.phoneNumber },
    status: 'delivered',
    timestamp: at.toISOString(),
    body: input.body ?? '',
    createdAt: at.toISOString(),
    ...input.extra,
  };
  await repos().messages.insertInbound(userId, message);
  return message;
}

async function setup() {
  const user = await activeUser();
  const wa = await connectWhatsApp(user.token);
  const at = ago(HOUR);
  const conv = await openConversation(user.userId, wa, { waId: spanishWaId(), name: 'Lucía Pérez' }, at);
  await inbound(user.userId, wa, conv, { body: 'Hola', at });
  return { ...user, wa, conv };
}

async function fetchBytes(url: string) {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('a voice note through the real pipeline (issue 31)', () => {
  it('a signed delivery: fetched, stored and transcribed by the worker; the inbox and the Hub show the transcript and a link that plays it; search finds it', async () => {
    const { token } = await subscribedUser('starter');
    const key = `sk-views-${randomUUID()}`;
    const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key } });
    expect(chatgpt.status, chatgpt.body.message).toBe(200);
    const agent = await createAnsweringAgent(token, 'Clínica Sonrisa');
    // A Spanish agent: the transcription's language hint.
    expect((await api('PUT', `/api/agents/${agent._id}`, { token, body: { language: 'es' } })).status).toBe(200);
    const wa = await connectWhatsApp(token);
    const customer = waCustomer(`Lucía ${randomUUID().slice(0, 4)}`, spanishWaId());
    const audio = syntheticVoiceNote({ seconds: 12 });
    await registerFakeTranscript(provided('openaiUrl'), audio, { text: TRANSCRIPT, language: 'es' });

    const sent = await sendMediaDelivery(wa, customer, 'audio', audio, { voice: true });
    expect(sent.response.status).toBe(200);

    const conversationId = await until(async () => {
      const list = await conversationsApi.list(token, { search: customer.name });
      return (list.body.data as Array<{ _id: string }> | undefined)?.[0]?._id;
    }, 'the conversation');
    const voice = await until(async () => {
      const detail = (await conversationsApi.get(token, conversationId)).body.data as ConversationDetail;
      return detail.messages.find((m) => m.type === 'ptt' && m.media?.transcript);
    }, 'the transcribed voice note');
    expect(voice.media).toMatchObject({ state: 'stored', size: audio.length, transcript: { text: TRANSCRIPT, language: 'es', durationSeconds: 12 } });
    expect(JSON.stringify(voice)).not.toContain('storedKey');
    const played = await fetchBytes(voice.media!.url!);
    expect(played.status).toBe(200);
    expect(played.bytes.equals(audio)).toBe(true);

    // The customer's messages (the agent's answer quotes what it heard, and is found too without the filter).
    const found = (await messagesApi.list(token, { search: 'DRA. PEREZ', fromMe: 'false', timeFilter: 'all' })).body.data as Message[];
    expect(found.map((m) => m._id)).toEqual([voice._id]);
    expect(found[0]!.media?.url).toEqual(expect.any(String));
  });
});

describe('media in the conversation detail and the Message Hub (issue 31)', () => {
  it('a stored voice note: transcript and a presigned link that plays our copy; pending and failed ones have no link; no storedKey anywhere', async () => {
    const { token, userId, wa, conv } = await setup();
    const audio = syntheticVoiceNote({ seconds: 31 });
    const voice = await customerMedia(userId, wa, conv, {
      type: 'ptt',
      bytes: audio,
      media: { id: 'media-voice', mimeType: 'audio/ogg; codecs=opus', sha256: 'x', state: 'stored', transcript: { text: TRANSCRIPT, language: 'es', durationSeconds: 31 } },
    });
    const pending = await customerMedia(userId, wa, conv, { type: 'image', media: { id: 'media-pending', mimeType: 'image/jpeg', state: 'pending' } });
    const lost = await customerMedia(userId, wa, conv, { type: 'image', media: { id: 'media-lost', mimeType: 'image/jpeg', state: 'failed', failure: 'not_found' } });
    // Stored, but its transcription failed: the owner can still hear it.
    const unheard = await customerMedia(userId, wa, conv, {
      type: 'ptt',
      bytes: syntheticVoiceNote({ seconds: 5 }),
      media: { id: 'media-unheard', mimeType: 'audio/ogg; codecs=opus', state: 'failed', failure: 'transcription_failed' },
    });

    const res = await conversationsApi.get(token, conv.id);
    expect(res.status).toBe(200);
    const detail = res.body.data as ConversationDetail;
    expect(JSON.stringify(res.body)).not.toContain('storedKey');
    // The key shows only inside a presigned link's path, nowhere else.
    expect(JSON.stringify(res.body, (key, value: unknown) => (key === 'url' ? undefined : value))).not.toContain(WHATSAPP_MEDIA_PREFIX);
    const byId = new Map(detail.messages.map((m) => [m._id, m]));

    const shown = byId.get(voice.id)!;
    expect(shown).toMatchObject({
      type: 'ptt',
      hasMedia: true,
      media: { state: 'stored', size: audio.length, mimeType: 'audio/ogg; codecs=opus', transcript: { text: TRANSCRIPT, language: 'es', durationSeconds: 31 } },
    });
    const url = new URL(shown.media!.url!);
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBe(MEDIA_LIMITS.viewUrlSeconds);
    const played = await fetchBytes(shown.media!.url!);
    expect(played.status).toBe(200);
    expect(played.type).toMatch(/^audio\/ogg/);
    expect(played.bytes.equals(audio)).toBe(true);

    expect(byId.get(pending.id)!.media).toEqual({ id: 'media-pending', mimeType: 'image/jpeg', state: 'pending' });
    expect(byId.get(lost.id)!.media).toEqual({ id: 'media-lost', mimeType: 'image/jpeg', state: 'failed', failure: 'not_found' });
    expect(byId.get(unheard.id)!.media).toMatchObject({ state: 'failed', failure: 'transcription_failed', url: expect.any(String) });
    expect((await fetchBytes(byId.get(unheard.id)!.media!.url!)).status).toBe(200);

    // The Message Hub: list, latest and detail link the same copy, and never send the key.
    const list = await messagesApi.list(token, { timeFilter: 'all' });
    expect(list.status).toBe(200);
    const hub = list.body.data as Message[];
    expect(JSON.stringify(list.body)).not.toContain('storedKey');
    expect(hub.find((m) => m._id === voice.id)?.media).toMatchObject({ transcript: { text: TRANSCRIPT }, url: expect.stringContaining('X-Amz-Signature') });
    expect(hub.find((m) => m._id === pending.id)?.media?.url).toBeUndefined();
    expect(hub.find((m) => m._id === lost.id)?.media?.url).toBeUndefined();
    const latest = await messagesApi.latest(token, 10);
    expect((latest.body.data as Message[]).find((m) => m._id === voice.id)?.media?.url).toEqual(expect.any(String));
    expect(JSON.stringify(latest.body)).not.toContain('storedKey');
    const one = await messagesApi.get(token, voice.id);
    expect(one.status).toBe(200);
    const oneMessage = one.body.data as Message;
    expect(oneMessage.media?.url).toEqual(expect.any(String));
    expect(JSON.stringify(one.body)).not.toContain('storedKey');
    expect((await fetchBytes(oneMessage.media!.url!)).bytes.equals(audio)).toBe(true);
  });

  it('a document downloads under its own name; its preview and pages, a location and a contact card are shown', async () => {
    const { token, userId, wa, conv } = await setup();
    const pdf = Buffer.from('%PDF-1.4\n% Presupuesto\n%%EOF\n');
    const doc = await customerMedia(userId, wa, conv, {
      type: 'document',
      bytes: pdf,
      media: { id: 'media-doc', mimeType: 'application/pdf', filename: 'Presupuesto Pérez.pdf', state: 'stored', pages: 2, textPreview: 'Presupuesto de ortodoncia invisible: 2.400 €' },
    });
    const location = { latitude: 40.4168, longitude: -3.7038, name: 'Clínica Sonrisa', address: 'Calle Mayor 1, Madrid' };
    const contactCards = [{ name: 'José Núñez', phones: ['+34 612 34 56 78'] }];
    const placed = await customerMedia(userId, wa, conv, { type: 'location', body: 'Clínica Sonrisa · Calle Mayor 1', media: {}, extra: { hasMedia: false, media: undefined, location } });
    const card = await customerMedia(userId, wa, conv, { type: 'contacts', media: {}, extra: { hasMedia: false, media: undefined, contactCards } });

    const detail = (await conversationsApi.get(token, conv.id)).body.data as ConversationDetail;
    const byId = new Map(detail.messages.map((m) => [m._id, m]));
    const shownDoc = byId.get(doc.id)!;
    expect(shownDoc.media).toMatchObject({ filename: 'Presupuesto Pérez.pdf', pages: 2, textPreview: 'Presupuesto de ortodoncia invisible: 2.400 €', size: pdf.length });
    const download = await fetchBytes(shownDoc.media!.url!);
    expect(download.status).toBe(200);
    expect(download.disposition).toMatch(/^attachment;/);
    expect(download.disposition).toContain(`filename*=UTF-8''${encodeURIComponent('Presupuesto Pérez.pdf')}`);
    expect(download.bytes.equals(pdf)).toBe(true);
    expect(byId.get(placed.id)).toMatchObject({ type: 'location', location });
    expect(byId.get(placed.id)).not.toHaveProperty('media');
    expect(byId.get(card.id)).toMatchObject({ type: 'contacts', contactCards });
  });

  it("the Message Hub's search finds a voice note by its transcript and a document by its text, without accents", async () => {
    const { token, userId, wa, conv } = await setup();
    const voice = await customerMedia(userId, wa, conv, {
      type: 'ptt',
      bytes: syntheticVoiceNote({ seconds: 4 }),
      media: { id: 'media-v', mimeType: 'audio/ogg; codecs=opus', state: 'stored', transcript: { text: TRANSCRIPT, language: 'es', durationSeconds: 4 } },
    });
    const doc = await customerMedia(userId, wa, conv, {
      type: 'document',
      media: { id: 'media-d', mimeType: 'application/pdf', filename: 'receta.pdf', state: 'failed', failure: 'document_too_large', textPreview: 'Ibuprofeno 600 mg cada ocho horas' },
    });

    const search = async (term: string) => ((await messagesApi.list(token, { search: term, timeFilter: 'all' })).body.data as Message[]).map((m) => m._id);
    expect(await search('dra. perez')).toEqual([voice.id]);
    expect(await search('ORTODONCIA INVISIBLE')).toEqual([voice.id]);
    expect(await search('ibuprofeno')).toEqual([doc.id]);
    expect(await search('nada de esto')).toEqual([]);
  });
});
