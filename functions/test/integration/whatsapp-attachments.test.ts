/**
 * An owner's attachment to a reply (issue 31) through the local gateway, s3rver behind the POST
 * policy gate, DynamoDB Local and the fake Graph API: POST /api/conversations/{id}/attachments
 * gives a signed form to the staging prefix, the browser's upload goes to storage, and the reply
 * naming its uploadId uploads the file to Meta (POST /{phone-id}/media) and sends it by its media
 * id (a document with its file name, the text as its caption). Our copy is kept under the
 * conversation like customers' media; the staged upload is deleted once sent. Bad input changes
 * nothing and sends nothing.
 */
import { randomBytes } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import type { CreatedApiKey } from '../../src/contract/api-keys.js';
import { whatsappMessages, type ConversationDetail, type ConversationMessage } from '../../src/contract/whatsapp.js';
import { ATTACHMENT_STAGING_PREFIX, MEDIA_LIMITS, mediaMessages, type AttachmentUploadTicket } from '../../src/contract/whatsapp-media.js';
import { newId } from '../../src/lib/ids.js';
import { postToTicket } from '../support/agents-api.js';
import { api, provided } from '../support/api.js';
import { activeUser } from '../support/contacts.js';
import { ago, conversationsApi, HOUR, inbound, openConversation, repos, spanishWaId } from '../support/conversations.js';
import { armFault, clearFault } from '../support/faults.js';
import { testS3Client } from '../support/stack-clients.js';
import { connectWhatsApp, graphSends, graphUploadBytes, graphUploads } from '../support/whatsapp.js';

/** A small but real-looking PDF (the fake Graph checks only type and size). */
const pdfBytes = () => Buffer.concat([Buffer.from('%PDF-1.4\n% Presupuesto ortodoncia invisible\n'), randomBytes(2048), Buffer.from('\n%%EOF\n')]);
/** A PNG signature and some bytes. */
const pngBytes = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(1024)]);

/** A user with WhatsApp connected and a conversation whose customer wrote `lastInboundAgo` ago. */
async function withConversation(lastInboundAgo = HOUR) {
  const user = await activeUser();
  const wa = await connectWhatsApp(user.token);
  const at = ago(lastInboundAgo);
  const conv = await openConversation(user.userId, wa, { waId: spanishWaId(), name: 'Lucía Pérez' }, at);
  await inbound(user.userId, wa, conv, { body: '¿Me mandas el presupuesto?', at });
  return { ...user, wa, conv };
}

type Auth = { token: string } | { apiKey: string };
const authOf = (auth: Auth) => ('token' in auth ? { token: auth.token } : { headers: { authorization: `Bearer ${auth.apiKey}` } });

const requestUpload = (auth: Auth, conversationId: string, body: unknown) =>
  api<AttachmentUploadTicket>('POST', `/api/conversations/${conversationId}/attachments`, { ...authOf(auth), body });
const replyWith = (auth: Auth, conversationId: string, body: unknown) =>
  api<ConversationMessage>('POST', `/api/conversations/${conversationId}/messages`, { ...authOf(auth), body });

/** Asks for the upload and POSTs the bytes to storage as the browser does; the ticket. */
async function upload(auth: Auth, conversationId: string, file: { fileName: string; mimeType: string; bytes: Buffer }): Promise<AttachmentUploadTicket> {
  const res = await requestUpload(auth, conversationId, { fileName: file.fileName, mimeType: file.mimeType, size: file.bytes.length });
  expect(res.status, res.body.message).toBe(201);
  const ticket = res.body.data!;
  const stored = await postToTicket(ticket, file.bytes);
  expect(stored.status, await stored.text()).toBeLessThan(300);
  return ticket;
}

const bucket = () => provided('uploadsBucket');
async function objectBytes(key: string): Promise<Buffer | null> {
  try {
    const out = await testS3Client().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
    return Buffer.from(await out.Body!.transformToByteArray());
  } catch {
    return null;
  }
}
const objectExists = (key: string) =>
  testS3Client()
    .send(new HeadObjectCommand({ Bucket: bucket(), Key: key }))
    .then(() => true)
    .catch(() => false);

describe('POST /api/conversations/{id}/attachments, then the reply with the file', () => {
  it('a PDF with a caption: uploaded to Meta, sent as a document with its file name and caption, stored as sent with our copy', async () => {
    const { token, userId, wa, conv } = await withConversation(23 * HOUR);
    const bytes = pdfBytes();
    const fileName = 'Presupuesto Dra. Pérez.pdf';

    const ticket = await upload({ token }, conv.id, { fileName, mimeType: 'application/pdf', bytes });
    expect(ticket).toMatchObject({ kind: 'document', fileName, mimeType: 'application/pdf', maxBytes: MEDIA_LIMITS.attachmentMaxBytes.document });
    expect(ticket.uploadId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(ticket.fields.key).toBe(`${ATTACHMENT_STAGING_PREFIX}${userId}/${ticket.uploadId}`);

    const res = await replyWith({ token }, conv.id, { text: '  Aquí tienes el presupuesto 😊  ', attachment: { uploadId: ticket.uploadId } });

    expect(res.status, res.body.message).toBe(201);
    expect(res.body.message).toBe(mediaMessages.attachmentSent);
    const message = res.body.data!;
    expect(message).toMatchObject({
      fromMe: true,
      type: 'document',
      hasMedia: true,
      body: 'Aquí tienes el presupuesto 😊',
      status: 'sent',
      sentBy: 'human',
      media: { mimeType: 'application/pdf', filename: fileName, caption: 'Aquí tienes el presupuesto 😊', size: bytes.length, state: 'stored' },
    });
    expect(JSON.stringify(message)).not.toContain('storedKey');

    // Meta got the file once, then a document send by its media id.
    const uploads = await graphUploads(wa.phoneId);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ fileName, mimeType: 'application/pdf', size: bytes.length });
    expect(Buffer.compare(await graphUploadBytes(uploads[0]!.id), bytes)).toBe(0);
    const sends = await graphSends(wa.phoneId);
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ to: conv.customerWaId, type: 'document', status: 200 });
    expect(sends[0]!.payload.document).toEqual({ id: uploads[0]!.id, caption: 'Aquí tienes el presupuesto 😊', filename: fileName });

    // Stored as sent with Meta's id; our copy under the conversation, the staged upload gone.
    const stored = await repos().messages.get(userId, message._id);
    expect(stored).toMatchObject({ waMessageId: sends[0]!.id, status: 'sent', media: { storedKey: `whatsapp-media/${userId}/${conv.id}/${message._id}` } });
    expect(Buffer.compare((await objectBytes(stored!.media!.storedKey!))!, bytes)).toBe(0);
    expect(await objectExists(ticket.fields.key!)).toBe(false);

    // The conversation shows it last, and a person answered it (the AI stays quiet).
    const detail = (await conversationsApi.get(token, conv.id)).body.data as ConversationDetail;
    expect(detail.messages.at(-1)).toMatchObject({ _id: message._id, type: 'document', media: { filename: fileName } });
    expect(detail.conversation).toMatchObject({ lastMessage: { fromMe: true, body: 'Aquí tienes el presupuesto 😊' }, answeredBy: 'human' });

    // The upload has served: the same uploadId cannot send the file twice.
    const again = await replyWith({ token }, conv.id, { attachment: { uploadId: ticket.uploadId } });
    expect(again).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentNotUploaded } });
    expect(await graphSends(wa.phoneId)).toHaveLength(1);
  });

  it('an image without a caption, with an API key: sent as an image by its media id, previewed by its name', async () => {
    const { token, userId, wa, conv } = await withConversation();
    const created = await api<CreatedApiKey>('POST', '/api/api-keys', { token, body: { name: 'CRM' } });
    expect(created.status).toBe(201);
    const auth = { apiKey: created.body.data!.key };
    const bytes = pngBytes();

    const ticket = await upload(auth, conv.id, { fileName: 'sonrisa.png', mimeType: 'image/png', bytes });
    const res = await replyWith(auth, conv.id, { attachment: { uploadId: ticket.uploadId } });

    expect(res.status, res.body.message).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'image', body: '', status: 'sent', sentBy: 'human', media: { mimeType: 'image/png', filename: 'sonrisa.png', state: 'stored' } });
    expect(res.body.data!.media).not.toHaveProperty('caption');
    const [uploaded] = await graphUploads(wa.phoneId);
    const sends = await graphSends(wa.phoneId);
    expect(sends.map((s) => [s.type, s.status])).toEqual([['image', 200]]);
    expect(sends[0]!.payload.image).toEqual({ id: uploaded!.id });
    const detail = (await conversationsApi.get(token, conv.id)).body.data as ConversationDetail;
    expect(detail.conversation.lastMessage).toMatchObject({ fromMe: true, body: 'sonrisa.png' });
    expect(await repos().messages.get(userId, res.body.data!._id)).toMatchObject({ hasMedia: true, media: { size: bytes.length } });
  });
});

describe('bad input: a clear 4xx, nothing sent, nothing stored', () => {
  it('an unattachable type, a file over its kind’s limit, no file name: the upload is refused', async () => {
    const { token, wa, conv } = await withConversation();

    const zip = await requestUpload({ token }, conv.id, { fileName: 'fotos.zip', mimeType: 'application/zip', size: 1000 });
    const webp = await requestUpload({ token }, conv.id, { fileName: 'sticker.webp', mimeType: 'image/webp', size: 1000 });
    const bigImage = await requestUpload({ token }, conv.id, { fileName: 'foto.jpg', mimeType: 'image/jpeg', size: MEDIA_LIMITS.attachmentMaxBytes.image + 1 });
    const bigPdf = await requestUpload({ token }, conv.id, { fileName: 'scan.pdf', mimeType: 'application/pdf', size: MEDIA_LIMITS.attachmentMaxBytes.document + 1 });
    const empty = await requestUpload({ token }, conv.id, { fileName: 'vacío.pdf', mimeType: 'application/pdf', size: 0 });
    const noName = await requestUpload({ token }, conv.id, { fileName: '   ', mimeType: 'application/pdf', size: 10 });
    const pathOnly = await requestUpload({ token }, conv.id, { fileName: 'C:\\docs\\', mimeType: 'application/pdf', size: 10 });
    const notJson = await api('POST', `/api/conversations/${conv.id}/attachments`, { token, rawBody: 'nope', headers: { 'content-type': 'application/json' } });

    expect(zip).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentTypeInvalid } });
    expect(webp).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentTypeInvalid } });
    expect(bigImage).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentTooLarge } });
    expect(bigPdf).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentTooLarge } });
    expect(empty).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentTooLarge } });
    expect(noName).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentFileNameRequired } });
    expect(pathOnly).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentFileNameRequired } });
    expect(notJson.status).toBe(400);
    expect(await graphUploads(wa.phoneId)).toEqual([]);
  });

  it('storage refuses a file bigger than the size asked for; a reply naming an upload that never happened, or a bad id, is a 400', async () => {
    const { token, wa, conv } = await withConversation();
    const res = await requestUpload({ token }, conv.id, { fileName: 'foto.jpg', mimeType: 'image/jpeg', size: 100 });
    const ticket = res.body.data!;
    // The form allows up to the kind's limit: one byte more is refused by storage itself.
    const tooBig = await postToTicket(ticket, Buffer.alloc(MEDIA_LIMITS.attachmentMaxBytes.image + 1, 1));
    expect(tooBig.status).toBe(400);

    const neverUploaded = await replyWith({ token }, conv.id, { text: 'Mira', attachment: { uploadId: ticket.uploadId } });
    const unknown = await replyWith({ token }, conv.id, { attachment: { uploadId: newId() } });
    const badId = await replyWith({ token }, conv.id, { attachment: { uploadId: '../../agents/x' } });
    const longCaption = await replyWith({ token }, conv.id, { text: 'a'.repeat(MEDIA_LIMITS.captionChars + 1), attachment: { uploadId: ticket.uploadId } });
    const nothing = await replyWith({ token }, conv.id, { text: '  ' });

    expect(neverUploaded).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentNotUploaded } });
    expect(unknown).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentNotUploaded } });
    expect(badId).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentIdInvalid } });
    expect(longCaption).toMatchObject({ status: 400, body: { message: mediaMessages.captionTooLong } });
    expect(nothing).toMatchObject({ status: 400, body: { message: whatsappMessages.replyRequired } });
    expect(await graphUploads(wa.phoneId)).toEqual([]);
    expect(await graphSends(wa.phoneId)).toEqual([]);
    expect(((await conversationsApi.get(token, conv.id)).body.data as ConversationDetail).messages).toHaveLength(1);
  });

  it('a foreign conversation is a 404 on both calls; another account cannot send my upload', async () => {
    const owner = await withConversation();
    const other = await withConversation();
    const ticket = await upload({ token: owner.token }, owner.conv.id, { fileName: 'privado.pdf', mimeType: 'application/pdf', bytes: pdfBytes() });

    const foreignUpload = await requestUpload({ token: other.token }, owner.conv.id, { fileName: 'a.pdf', mimeType: 'application/pdf', size: 10 });
    const foreignReply = await replyWith({ token: other.token }, owner.conv.id, { attachment: { uploadId: ticket.uploadId } });
    const stolen = await replyWith({ token: other.token }, other.conv.id, { attachment: { uploadId: ticket.uploadId } });

    expect(foreignUpload).toMatchObject({ status: 404, body: { message: whatsappMessages.conversationNotFound } });
    expect(foreignReply).toMatchObject({ status: 404, body: { message: whatsappMessages.conversationNotFound } });
    expect(stolen).toMatchObject({ status: 400, body: { message: mediaMessages.attachmentNotUploaded } });
    expect(await graphSends(owner.wa.phoneId)).toEqual([]);
    expect(await graphSends(other.wa.phoneId)).toEqual([]);
    expect(await graphUploads(other.wa.phoneId)).toEqual([]);
    expect(await objectExists(ticket.fields.key!)).toBe(true);
  });

  it('outside the 24-hour window: refused as a text reply is (the upload and the reply), nothing sent', async () => {
    const open = await withConversation();
    const closed = await openConversation(open.userId, open.wa, { waId: spanishWaId(), name: 'Óscar Ruiz' }, ago(25 * HOUR));
    await inbound(open.userId, open.wa, closed, { body: 'Hola', at: ago(25 * HOUR) });
    const ticket = await upload({ token: open.token }, open.conv.id, { fileName: 'menu.pdf', mimeType: 'application/pdf', bytes: pdfBytes() });

    const uploadRes = await requestUpload({ token: open.token }, closed.id, { fileName: 'menu.pdf', mimeType: 'application/pdf', size: 10 });
    const replyRes = await replyWith({ token: open.token }, closed.id, { text: 'El menú', attachment: { uploadId: ticket.uploadId } });

    expect(uploadRes).toMatchObject({ status: 400, body: { message: whatsappMessages.windowClosed } });
    expect(replyRes).toMatchObject({ status: 400, body: { message: whatsappMessages.windowClosed } });
    expect(await graphUploads(open.wa.phoneId)).toEqual([]);
    expect(await graphSends(open.wa.phoneId)).toEqual([]);
    expect(((await conversationsApi.get(open.token, closed.id)).body.data as ConversationDetail).messages).toHaveLength(1);
  });
});

describe('Meta refuses or fails the upload', () => {
  it('unavailable: 503 "not sent, try again", the message kept as failed (not sent) with our copy; Retry sends the file', async () => {
    const { token, userId, wa, conv } = await withConversation();
    const bytes = pdfBytes();
    const ticket = await upload({ token }, conv.id, { fileName: 'factura.pdf', mimeType: 'application/pdf', bytes });
    const fault = await armFault('whatsapp', { kind: 'status', status: 500, code: 131000, times: 1, match: { method: 'POST', path: `/${wa.phoneId}/media` } });

    const res = await replyWith({ token }, conv.id, { text: 'Tu factura', attachment: { uploadId: ticket.uploadId } });
    await clearFault('whatsapp', fault.id);

    expect(res).toMatchObject({ status: 503, body: { message: whatsappMessages.graphTemporarilyUnavailable } });
    expect(await graphSends(wa.phoneId)).toEqual([]);
    const detail = (await conversationsApi.get(token, conv.id)).body.data as ConversationDetail;
    const failed = detail.messages.at(-1)!;
    expect(failed).toMatchObject({ fromMe: true, type: 'document', status: 'failed', body: 'Tu factura', media: { filename: 'factura.pdf' } });
    expect((await repos().messages.get(userId, failed._id))?.waMessageId).toBe('');
    // The staged upload stays for Send to be pressed again, as a text reply's draft does.
    expect(await objectExists(ticket.fields.key!)).toBe(true);

    // Retry (Message Hub) uploads the kept copy again and sends it as the document it was.
    const retried = await api('POST', `/api/messages/${failed._id}/retry`, { token });
    expect(retried.status, retried.body.message).toBe(200);
    const uploads = await graphUploads(wa.phoneId);
    expect(uploads).toHaveLength(1);
    expect(Buffer.compare(await graphUploadBytes(uploads[0]!.id), bytes)).toBe(0);
    const sends = await graphSends(wa.phoneId);
    expect(sends.map((s) => s.type)).toEqual(['document']);
    expect(sends[0]!.payload.document).toEqual({ id: uploads[0]!.id, caption: 'Tu factura', filename: 'factura.pdf' });
  });

  it('refused (Meta’s 400): a 400 with Meta’s reason, nothing sent, the message failed', async () => {
    const { token, wa, conv } = await withConversation();
    const ticket = await upload({ token }, conv.id, { fileName: 'foto.jpg', mimeType: 'image/jpeg', bytes: pngBytes() });
    const fault = await armFault('whatsapp', {
      kind: 'status',
      status: 400,
      code: 131053,
      message: 'Media upload error',
      times: 1,
      match: { method: 'POST', path: `/${wa.phoneId}/media` },
    });

    const res = await replyWith({ token }, conv.id, { attachment: { uploadId: ticket.uploadId } });
    await clearFault('whatsapp', fault.id);

    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Media upload error/);
    expect(await graphSends(wa.phoneId)).toEqual([]);
    const detail = (await conversationsApi.get(token, conv.id)).body.data as ConversationDetail;
    expect(detail.messages.at(-1)).toMatchObject({ fromMe: true, type: 'image', status: 'failed' });
  });
});
