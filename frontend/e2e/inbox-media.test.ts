/**
 * The owner sees and hears a customer's media in the inbox (issue 31), in Spanish against the local
 * runtime, on a laptop (1366×768) and a phone (390×844): a voice note plays from our copy (the
 * <audio> element's presigned src answers 200 with Ogg audio the browser can play) with its
 * transcript under it headed "Transcripción"; a photo's thumbnail loads and opens full size in a
 * dialog that Escape closes. On the phone nothing scrolls sideways and the player fits the screen,
 * and the Message Hub's search finds the voice note by its transcript and plays it.
 *
 * The conversation is opened by a signed delivery through the real webhook and worker; the voice
 * note and the photo are then stored as the inbound worker leaves them (our copy in the uploads
 * bucket, the transcript on the message), so the inbox is tested apart from the fetch pipeline.
 */
import { randomBytes } from 'node:crypto';
import { deflateSync, crc32 } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { WHATSAPP_MEDIA_PREFIX } from '../../functions/src/contract/whatsapp-media.js';
import type { StoredMessage, StoredMessageMedia } from '../../functions/src/domain/conversations/ports.js';
import { newId } from '../../functions/src/lib/ids.js';
import { repos } from '../../functions/test/support/conversations.js';
import { syntheticVoiceNote } from '../../functions/test/support/media-fakes.js';
import { newWamid, waCustomer, type WaCustomer } from '../../functions/test/support/whatsapp.js';
import { seriousViolations } from './axe.js';
import { LAPTOP, openSpanishConversation, PHONE, screenshot, spanishOwner } from './layout.js';
import { callApi, chatGptAndAgent, connectWhatsAppBusiness, customerWrites, eventually, graphSends, randomDigits, slowly, userIdOf, useBrowser, type WhatsAppBusiness } from './flows.js';

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

const s3 = () =>
  new S3Client({ endpoint: inject('s3Endpoint'), region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });

/** A customer's media message as the inbound worker leaves it: our copy in the bucket, the message's media fields set. */
async function storedMedia(
  userId: string,
  business: WhatsAppBusiness,
  conversationId: string,
  customer: WaCustomer,
  input: { type: string; bytes: Buffer; media: StoredMessageMedia },
): Promise<StoredMessage> {
  const at = new Date();
  const id = `${conversationId}-${newId()}`;
  const storedKey = `${WHATSAPP_MEDIA_PREFIX}${userId}/${conversationId}/${id}`;
  await s3().send(new PutObjectCommand({ Bucket: inject('uploadsBucket'), Key: storedKey, Body: input.bytes, ContentType: input.media.mimeType, ServerSideEncryption: 'AES256' }));
  const message: StoredMessage = {
    id,
    conversationId,
    waMessageId: newWamid(),
    contactId: '',
    type: input.type,
    hasMedia: true,
    media: { ...input.media, storedKey, size: input.bytes.length, state: 'stored' },
    fromMe: false,
    from: `+${customer.waId}`,
    to: business.phoneNumber,
    phoneNumberId: { id: business.phoneId, name: business.phoneNumber },
    status: 'delivered',
    timestamp: at.toISOString(),
    body: '',
    createdAt: at.toISOString(),
  };
  await repos().messages.insertInbound(userId, message);
  return message;
}

/** A Spanish owner whose customer wrote, then sent a voice note and a photo. */
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
  await customerWrites(business, customer, 'Hola, os mando una nota de voz');
  await slowly(async () => (await graphSends(business.phoneId)).length).toBe(1);
  const userId = await userIdOf(page);
  const found = await callApi<Array<{ _id: string }>>(page, 'GET', `/api/conversations?search=${encodeURIComponent(customer.name)}`);
  expect(found).toHaveLength(1);
  const conversationId = found[0]!._id;
  await storedMedia(userId, business, conversationId, customer, {
    type: 'ptt',
    bytes: syntheticVoiceNote({ seconds: 14 }),
    media: { id: `media-${randomDigits(8)}`, mimeType: 'audio/ogg; codecs=opus', transcript: { text: TRANSCRIPT, language: 'es', durationSeconds: 14 } },
  });
  await storedMedia(userId, business, conversationId, customer, { type: 'image', bytes: png(), media: { id: `media-${randomDigits(8)}`, mimeType: 'image/png' } });
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
    // The list is the voice note alone once the (debounced) search applies.
    await slowly(() => page.getByTestId('message-card').count()).toBe(1);
    const card = page.getByTestId('message-card').filter({ has: page.locator('audio') });
    expect(await card.count()).toBe(1);
    expect(await card.getByRole('region', { name: 'Transcripción' }).textContent()).toContain(TRANSCRIPT);
    expect((await fetch((await card.locator('audio').getAttribute('src')) ?? '')).status).toBe(200);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.viewport.width);
    await screenshot(page, 'inbox-media-phone-hub');
  });
});
