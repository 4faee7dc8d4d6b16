/**
 * The owner sees and hears a customer's media in the inbox (issue 31), in Spanish against the local
 * runtime, on a laptop (1366×768) and a phone (390×844): a voice note plays from our copy (the
 * <audio> element's presigned src answers 200 with Ogg audio the browser can play) with its
 * transcript under it headed "Transcripción"; a photo's thumbnail loads and opens full size in a
 * dialog that Escape closes. On the phone nothing scrolls sideways and the player fits the screen,
 * and the Message Hub's search finds the voice note by its transcript and plays it.
 *
 * Through the real pipeline: the customer's voice note and photo are registered on the fake Graph
 * API and delivered signed as Meta does; the inbound worker fetches, stores and transcribes them
 * (the fake OpenAI hears the transcript registered for the audio's bytes) and the agent answers.
 */
import { randomBytes } from 'node:crypto';
import { deflateSync, crc32 } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { registerFakeTranscript, syntheticVoiceNote } from '../../functions/test/support/media-fakes.js';
import {
  mediaMessage,
  metaDelivery,
  registerMedia,
  signMetaBody,
  waCustomer,
  webhookPath,
  type MediaFields,
  type MediaType,
  type WaCustomer,
} from '../../functions/test/support/whatsapp.js';
import { seriousViolations } from './axe.js';
import { LAPTOP, openSpanishConversation, PHONE, screenshot, spanishOwner } from './layout.js';
import { chatGptAndAgent, connectWhatsAppBusiness, eventually, graphSends, randomDigits, slowly, useBrowser, type WhatsAppBusiness } from './flows.js';

const appUrl = inject('appUrl');
const browser = useBrowser();

const TRANSCRIPT = 'Hola, quería pedir cita con la Dra. Pérez para la ortodoncia invisible, a poder ser el martes por la tarde.';

/** A real PNG (solid colour, 64×48) the browser decodes: naturalWidth > 0 proves the thumbnail loaded. */
function png(width = 64, height = 48): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from([0x2e, 0x7d, 0x32]))]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * The customer sends a media message: the bytes registered on the fake Graph API (GET /{media-id}
 * serves them), then a delivery signed as Meta signs it carrying the media id, to the webhook.
 */
async function customerSends(business: WhatsAppBusiness, customer: WaCustomer, type: MediaType, bytes: Buffer, fields: MediaFields): Promise<void> {
  const media = await registerMedia(bytes, fields.mimeType ?? '');
  const message = mediaMessage(customer, type, { ...fields, mediaId: media.mediaId, sha256: Buffer.from(media.sha256, 'hex').toString('base64') });
  const body = metaDelivery({ phoneId: business.phoneId, businessId: business.businessId, displayPhoneNumber: business.phoneNumber }, { messages: [message] });
  const res = await fetch(`${appUrl}${webhookPath(business.integrationId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(body, business.appSecret) },
    body,
  });
  expect(res.status).toBe(200);
}

/** A Spanish owner whose customer sent a voice note (its transcript registered with the fake OpenAI) and a photo, both answered by the agent. */
async function inboxWithMedia(label: string, options: typeof PHONE | typeof LAPTOP): Promise<{ page: Page; customer: WaCustomer }> {
  const page = await spanishOwner(browser(), label, options);
  await page.goto(`${appUrl}/dashboard`);
  await chatGptAndAgent(page, {
    name: 'Recepción',
    description: 'Responde por WhatsApp sobre horarios, precios y citas de la clínica',
    objective: 'Ayudar rápido y pasar los casos difíciles a una persona',
  });
  const business = await connectWhatsAppBusiness(page);
  const customer = waCustomer(`Marta ${randomBytes(2).toString('hex')}`, `346${randomDigits(8)}`);
  // The fake OpenAI answers the transcript registered for these bytes.
  const voice = syntheticVoiceNote({ seconds: 14 });
  await registerFakeTranscript(inject('openaiUrl'), voice, { text: TRANSCRIPT, language: 'es' });
  await customerSends(business, customer, 'audio', voice, { mimeType: 'audio/ogg; codecs=opus', voice: true });
  await slowly(async () => (await graphSends(business.phoneId)).length).toBe(1);
  await customerSends(business, customer, 'image', png(), { mimeType: 'image/png' });
  await slowly(async () => (await graphSends(business.phoneId)).length).toBe(2);
  return { page, customer };
}

async function seesAndHears(page: Page, customer: WaCustomer, shot: string, width: number): Promise<void> {
  const { log } = await openSpanishConversation(page, appUrl, customer.name);

  // The voice note: a player whose presigned src answers 200 with Ogg audio the browser can play.
  const voice = log.getByTestId('conversation-message').filter({ has: page.locator('audio') });
  await slowly(() => voice.count()).toBe(1);
  const audio = voice.locator('audio');
  expect(await audio.getAttribute('aria-label')).toBe('Nota de voz del cliente');
  expect(await voice.textContent()).toContain('Nota de voz · 0:14');
  const src = (await audio.getAttribute('src')) ?? '';
  expect(src).toMatch(/^http/);
  const answer = await fetch(src);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^audio\/ogg/);
  const bytes = Buffer.from(await answer.arrayBuffer());
  expect(bytes.subarray(0, 4).toString('latin1')).toBe('OggS');
  expect(await audio.evaluate((el: HTMLAudioElement) => el.canPlayType('audio/ogg; codecs=opus'))).not.toBe('');
  // The browser fetched it too (metadata): no network or decode error on the element's source.
  await eventually(() => audio.evaluate((el: HTMLAudioElement) => el.networkState !== HTMLMediaElement.NETWORK_NO_SOURCE)).toBe(true);

  // The transcript, under the player, headed "Transcripción".
  const transcript = voice.getByRole('region', { name: 'Transcripción' });
  expect(await transcript.isVisible()).toBe(true);
  expect(await transcript.getByRole('heading', { name: 'Transcripción' }).count()).toBe(1);
  expect(await transcript.textContent()).toContain(TRANSCRIPT);
  const playerBox = (await audio.boundingBox())!;
  const transcriptBox = (await transcript.boundingBox())!;
  expect(transcriptBox.y).toBeGreaterThanOrEqual(playerBox.y + playerBox.height - 1);

  // The photo: the thumbnail loads, opens full size, and Escape closes it.
  const thumbnail = log.getByRole('img', { name: 'Foto del cliente' });
  await thumbnail.scrollIntoViewIfNeeded();
  await eventually(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(64);

  // On the phone: nothing scrolls sideways and the player fits the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await audio.scrollIntoViewIfNeeded();
  const fitted = (await audio.boundingBox())!;
  expect(fitted.x).toBeGreaterThanOrEqual(0);
  expect(fitted.x + fitted.width).toBeLessThanOrEqual(width);
  expect(fitted.width).toBeGreaterThanOrEqual(180);
  await screenshot(page, `${shot}-conversation`);
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);

  await log.getByRole('button', { name: 'Abrir la foto a tamaño completo' }).click();
  const full = page.getByTestId('media-image-full');
  await eventually(() => full.isVisible()).toBe(true);
  expect(await full.getAttribute('alt')).toBe('Foto del cliente');
  await eventually(() => full.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
  expect(await page.getByRole('button', { name: 'Cerrar' }).count()).toBeGreaterThanOrEqual(1);
  await screenshot(page, `${shot}-photo`);
  await page.keyboard.press('Escape');
  await eventually(() => full.count()).toBe(0);
  // Only the photo closed: the conversation is still open on its messages.
  expect(await log.isVisible()).toBe(true);
}

describe('a customer’s voice note and photo in the inbox (issue 31)', () => {
  it('1366×768, in Spanish: the voice note plays with its transcript under "Transcripción"; the photo loads and opens', async () => {
    const { page, customer } = await inboxWithMedia('inbox-media-laptop', LAPTOP);
    await seesAndHears(page, customer, 'inbox-media-laptop', LAPTOP.viewport.width);
  });

  it('390×844, in Spanish: the same, with no sideways scroll and the player fitting the screen; the Message Hub plays it too', async () => {
    const { page, customer } = await inboxWithMedia('inbox-media-phone', PHONE);
    await seesAndHears(page, customer, 'inbox-media-phone', PHONE.viewport.width);

    // The Message Hub: the voice note's card has its player and transcript; its search finds it by what was said.
    await page.goto(`${appUrl}/messages`);
    await page.getByRole('searchbox', { name: 'Buscar mensajes' }).fill('dra. perez');
    // Once the (debounced) search applies, every card says what was searched (the photo's is gone):
    // the voice note, by its transcript (and the agent's answer, which quotes it).
    const cards = page.getByTestId('message-card');
    await slowly(() => cards.evaluateAll((all) => all.length > 0 && all.every((c) => /Pérez/.test(c.textContent ?? '')))).toBe(true);
    const card = cards.filter({ has: page.locator('audio') });
    expect(await card.count()).toBe(1);
    expect(await card.getByRole('region', { name: 'Transcripción' }).textContent()).toContain(TRANSCRIPT);
    expect((await fetch((await card.locator('audio').getAttribute('src')) ?? '')).status).toBe(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport.width);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'inbox-media-phone-hub');
  });
});
