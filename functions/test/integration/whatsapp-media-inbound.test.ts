/**
 * A customer's media fetched, checked and stored (issue 31) end to end on the local stack: signed
 * Meta deliveries → the webhook → the whatsapp-inbound worker, which looks the media id up on the
 * fake Graph API, downloads it with the business token from its expiring URL, stores it in the
 * uploads bucket (s3rver) and lets the agent answer. Bad inputs (an id Meta no longer has, a
 * download larger than declared, a wrong sha256, Meta down) leave the message stored with its
 * reason, the conversation answering, and never a 5xx. Location, contact cards and a tapped button
 * are stored structured.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Conversation, ConversationDetail, ConversationDetailMessage } from '../../src/contract/whatsapp.js';
import { createAnsweringAgent } from '../support/agents-api.js';
import { api, provided, until } from '../support/api.js';
import { subscribedUser } from '../support/billing.js';
import { armFault, clearFault, faultState } from '../support/faults.js';
import { registerFakeTranscript, syntheticVoiceNote } from '../support/media-fakes.js';
import {
  connectWhatsApp,
  contactsMessage,
  graphSends,
  interactiveReplyMessage,
  locationMessage,
  mediaMessage,
  mediaState,
  metaDelivery,
  postWebhook,
  registerMedia,
  sendMediaDelivery,
  signMetaBody,
  templateButtonMessage,
  textMessage,
  waCustomer,
  type ConnectedWhatsApp,
  type InboundMessage,
  type WaCustomer,
} from '../support/whatsapp.js';

interface Owner {
  token: string;
  wa: ConnectedWhatsApp;
}

/** A subscribed clinic with ChatGPT, a Spanish answering agent and WhatsApp. */
async function clinic(): Promise<Owner> {
  const { token } = await subscribedUser('starter');
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: `sk-inbound-${randomUUID()}`, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup failed: ${chatgpt.status} ${chatgpt.body.message}`);
  const agent = await createAnsweringAgent(token, 'Clínica Sonrisa');
  await api('PUT', `/api/agents/${agent._id}`, { token, body: { language: 'es' } });
  return { token, wa: await connectWhatsApp(token) };
}

const spanish = (name: string) => waCustomer(name, `34${600000000 + Math.floor(Math.random() * 99_999_999)}`);

async function deliver(o: Owner, message: InboundMessage): Promise<void> {
  const body = metaDelivery(o.wa, { messages: [message] });
  const res = await postWebhook(o.wa.integrationId, body, signMetaBody(body, o.wa.appSecret));
  expect(res.status).toBe(200);
}

const repliesTo = async (o: Owner, customer: WaCustomer) => (await graphSends(o.wa.phoneId)).filter((s) => s.to === customer.waId && s.status === 200);
const replies = (o: Owner, customer: WaCustomer, count = 1) =>
  until(async () => {
    const r = await repliesTo(o, customer);
    return r.length >= count ? r : undefined;
  }, `${count} replies to ${customer.name}`, 40_000);

/** The customer's messages as the owner sees them, oldest first. */
async function customerMessages(o: Owner, customer: WaCustomer): Promise<ConversationDetailMessage[]> {
  const list = await api<Conversation[]>('GET', '/api/conversations?limit=100', { token: o.token });
  const conversation = (list.body.data ?? []).find((c) => c.customerWaId === customer.waId);
  if (!conversation) return [];
  const detail = await api<ConversationDetail>('GET', `/api/conversations/${conversation._id}`, { token: o.token });
  return (detail.body.data?.messages ?? []).filter((m) => !m.fromMe);
}
const settled = (o: Owner, customer: WaCustomer) =>
  until(async () => {
    const [m] = await customerMessages(o, customer);
    return m?.media?.state && m.media.state !== 'pending' ? m : undefined;
  }, `${customer.name}'s media settled`, 40_000);

describe("whatsapp media inbound: a customer's media fetched, checked and stored (issue 31)", () => {
  it('a voice note is downloaded and stored once though Meta delivers it twice; the owner gets a link to our copy', async () => {
    const o = await clinic();
    const ana = spanish('Ana García');
    const note = syntheticVoiceNote({ seconds: 6 });
    await registerFakeTranscript(provided('openaiUrl'), note, { text: 'Quería pedir cita con la Dra. Pérez', language: 'es' });

    const sent = await sendMediaDelivery(o.wa, ana, 'audio', note, { voice: true, mimeType: 'audio/ogg; codecs=opus' });
    expect(sent.response.status).toBe(200);
    const again = await postWebhook(o.wa.integrationId, sent.body, signMetaBody(sent.body, o.wa.appSecret));
    expect(again.status).toBe(200);
    await replies(o, ana);
    await new Promise((r) => setTimeout(r, 1500));

    expect(await mediaState(sent.media.mediaId)).toMatchObject({ describes: 1, downloads: 1 });
    const [stored] = await customerMessages(o, ana);
    expect(stored).toMatchObject({ type: 'ptt', media: { id: sent.media.mediaId, state: 'stored', size: note.length } });
    expect(stored!.media).not.toHaveProperty('storedKey');
    expect(await repliesTo(o, ana)).toHaveLength(1);
    // Our copy is in the bucket, byte for byte (the owner's presigned link, when the view gives one).
    if (stored!.media?.url) {
      const copy = Buffer.from(await (await fetch(stored!.media.url)).arrayBuffer());
      expect(copy.equals(note)).toBe(true);
    }
  });

  it('an expired media URL is looked up again and the media stored', async () => {
    const o = await clinic();
    const luis = spanish('Luis');
    const photo = Buffer.from(`\xff\xd8\xff\xe0 foto de la receta ${randomUUID()}`, 'latin1');
    const sent = await sendMediaDelivery(o.wa, luis, 'image', photo, { caption: 'La receta', media: { expiredUrls: 1 } });
    const m = await settled(o, luis);
    expect(m.media).toMatchObject({ state: 'stored', size: photo.length, caption: 'La receta' });
    expect(await mediaState(sent.media.mediaId)).toMatchObject({ describes: 2, expiredDownloads: 1, downloads: 1 });
  });

  it('a media id Meta no longer has: the message is stored with "not_found", answered, and a text after it is answered too', async () => {
    const o = await clinic();
    const marta = spanish('Marta');
    const sent = await sendMediaDelivery(o.wa, marta, 'document', Buffer.from('%PDF-1.4 gone'), { filename: 'presupuesto.pdf', media: { notFound: true } });
    expect(sent.response.status).toBe(200);
    const m = await settled(o, marta);
    expect(m).toMatchObject({ type: 'document', media: { state: 'failed', failure: 'not_found', filename: 'presupuesto.pdf' } });
    await replies(o, marta);

    await deliver(o, textMessage(marta, '¿Me lo podéis mirar igualmente?'));
    await replies(o, marta, 2);
    expect((await customerMessages(o, marta)).map((x) => x.body)).toEqual(['', '¿Me lo podéis mirar igualmente?']);
  });

  it('a download larger than declared is "too_large"; bytes that do not match the sha256 are "checksum"; neither is kept', async () => {
    const o = await clinic();
    const big = spanish('Bea');
    await sendMediaDelivery(o.wa, big, 'image', Buffer.alloc(4096, 7), { media: { declaredSize: 1000, chunked: true } });
    expect((await settled(o, big)).media).toMatchObject({ state: 'failed', failure: 'too_large' });
    expect((await settled(o, big)).media?.url).toBeUndefined();

    const wrong = spanish('Pau');
    await sendMediaDelivery(o.wa, wrong, 'image', Buffer.alloc(2048, 9), { media: { wrongSha256: true } });
    const m = await settled(o, wrong);
    expect(m.media).toMatchObject({ state: 'failed', failure: 'checksum' });
    expect(m.media?.url).toBeUndefined();
    await replies(o, big);
    await replies(o, wrong);
  });

  it('Meta unavailable: the queue retries the lookup; back in time it is stored, down for good it is "download_failed", the message kept and answered', async () => {
    const o = await clinic();
    const once = spanish('Rosa');
    const photo = Buffer.from(`\xff\xd8\xff foto ${randomUUID()}`, 'latin1');
    const first = await registerMedia(photo, 'image/jpeg');
    const blip = await armFault('whatsapp', { id: `media-503-${randomUUID()}`, kind: 'status', status: 503, times: 1, match: { path: `/${first.mediaId}` } });
    await deliver(o, mediaMessage(once, 'image', { mediaId: first.mediaId, mimeType: 'image/jpeg' }));
    expect((await settled(o, once)).media).toMatchObject({ state: 'stored', size: photo.length });
    expect((await faultState('whatsapp', blip.id))?.hits).toBe(1);
    expect(await mediaState(first.mediaId)).toMatchObject({ downloads: 1 });

    const down = spanish('Jordi');
    const second = await registerMedia(photo, 'image/jpeg');
    const outage = await armFault('whatsapp', { id: `media-down-${randomUUID()}`, kind: 'status', status: 503, match: { path: `/${second.mediaId}` } });
    try {
      await deliver(o, mediaMessage(down, 'image', { mediaId: second.mediaId, mimeType: 'image/jpeg' }));
      const m = await settled(o, down);
      expect(m.media).toMatchObject({ state: 'failed', failure: 'download_failed' });
      expect((await faultState('whatsapp', outage.id))?.hits).toBeGreaterThan(1);
      await replies(o, down);
    } finally {
      await clearFault('whatsapp', outage.id);
    }
  });

  it('a location and a contact card are stored structured; a tapped button or template quick-reply with what was tapped', async () => {
    const o = await clinic();
    const eva = spanish('Eva');
    await deliver(o, locationMessage(eva, { latitude: '40.4168', longitude: -3.7038, name: 'Puerta del Sol', address: 'Plaza de la Puerta del Sol, Madrid' }));
    await deliver(o, contactsMessage(eva, [{ name: 'Lucía Gómez', phones: ['600 11 22 33'] }]));
    await deliver(o, interactiveReplyMessage(eva, 'button_reply', { id: 'slot-mar-10', title: 'Martes 10:00' }));
    await deliver(o, templateButtonMessage(eva, { payload: 'CONFIRMAR', text: 'Sí, confirmo' }));
    await replies(o, eva, 4);

    // Four deliveries, handled concurrently: found by what they are, not by their order.
    const all = await customerMessages(o, eva);
    const place = all.find((m) => m.type === 'location');
    const card = all.find((m) => m.type === 'contacts');
    const tapped = all.find((m) => m.body === 'Martes 10:00');
    const quick = all.find((m) => m.body === 'Sí, confirmo');
    expect(place).toMatchObject({ type: 'location', location: { latitude: 40.4168, longitude: -3.7038, name: 'Puerta del Sol', address: 'Plaza de la Puerta del Sol, Madrid' } });
    expect(card).toMatchObject({ type: 'contacts', contactCards: [{ name: 'Lucía Gómez', phones: ['600 11 22 33'] }] });
    expect(tapped).toMatchObject({ type: 'chat', body: 'Martes 10:00', interactiveReply: { id: 'slot-mar-10', title: 'Martes 10:00' } });
    expect(quick).toMatchObject({ type: 'chat', body: 'Sí, confirmo', interactiveReply: { id: 'CONFIRMAR', title: 'Sí, confirmo' } });
  });
});
