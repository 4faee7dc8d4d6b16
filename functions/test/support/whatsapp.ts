/**
 * WhatsApp test support: webhook deliveries in Meta's real shapes (WhatsApp Cloud API, "messages"
 * field), serialised and signed exactly as Meta does, posted through the local gateway; the
 * integration setup; and the fake Graph API's control API (local/fake-whatsapp/).
 *
 * Meta's deliveries are compact, pure-ASCII JSON: every non-ASCII character is written as \uXXXX
 * (UTF-16 code units, lower-case hex) and '/' as '\/'. X-Hub-Signature-256 is 'sha256=' + the
 * hex HMAC-SHA256 of those exact bytes with the app secret, so a handler that re-serialises the
 * parsed body before checking fails the tests that send non-ASCII text or URLs.
 *
 *   const wa = await connectWhatsApp(token);            // setup through the API, fresh ids/secrets
 *   const ana = waCustomer('Ana Pérez');
 *   const body = metaWebhook([metaEntry(wa, { messages: [textMessage(ana, 'Hola 👋')] })]);
 *   const res = await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret));
 */
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import type { WhatsAppSetupResult } from '../../src/contract/whatsapp.js';
import { api, provided } from './api.js';

// ---------------------------------------------------------------------------------------------
// Payload builders (Meta's shapes)

/** A customer as Meta identifies them: wa_id (phone digits), profile name and business-scoped user id. */
export interface WaCustomer {
  waId: string;
  name: string;
  /** contacts[].user_id / messages[].from_user_id (BSUID, sent since 2026). */
  userId?: string;
}

/** The business number a delivery is for (entry[].changes[].value.metadata). */
export interface WaBusiness {
  phoneId: string;
  displayPhoneNumber: string;
  /** entry[].id: the WhatsApp Business Account id. */
  businessId: string;
}

/** One inbound message and the contact it came from. */
export interface InboundMessage {
  customer: WaCustomer;
  message: Record<string, unknown>;
}

export interface MessageOptions {
  /** wamid; a fresh one by default. */
  id?: string;
  /** When the customer sent it (default now). */
  at?: Date;
  /** Include from_user_id (default true when the customer has a userId). */
  withUserId?: boolean;
  /** messages[].context: a reply to one of our messages. */
  replyTo?: string;
}

/** Digits only, 11-12 long, starting 1-9 (never collides across tests in practice). */
export const randomDigits = (length = 11) => `${randomInt(1, 10)}${Array.from({ length: length - 1 }, () => randomInt(0, 10)).join('')}`;

/** A fresh wamid in Meta's format. */
export const newWamid = () => `wamid.${randomBytes(30).toString('base64').replace(/\//g, '_')}`;

export function waCustomer(name = 'Test Customer', waId = randomDigits(11)): WaCustomer {
  return { waId, name, userId: `US.${randomDigits(19)}` };
}

const unixSeconds = (at: Date = new Date()) => String(Math.floor(at.getTime() / 1000));

function baseMessage(from: WaCustomer, type: string, options: MessageOptions): Record<string, unknown> {
  return {
    ...(options.replyTo ? { context: { from: from.waId, id: options.replyTo } } : {}),
    from: from.waId,
    ...(from.userId && options.withUserId !== false ? { from_user_id: from.userId } : {}),
    id: options.id ?? newWamid(),
    timestamp: unixSeconds(options.at),
    type,
  };
}

export function textMessage(from: WaCustomer, body: string, options: MessageOptions = {}): InboundMessage {
  return { customer: from, message: { ...baseMessage(from, 'text', options), text: { body } } };
}

export type MediaType = 'image' | 'video' | 'audio' | 'document' | 'sticker';

export interface MediaFields {
  caption?: string;
  mimeType?: string;
  /** Media id for GET /{media-id}. */
  mediaId?: string;
  sha256?: string;
  filename?: string;
  /** audio: a voice note (what WhatsApp calls ptt). */
  voice?: boolean;
  /** sticker */
  animated?: boolean;
}

const DEFAULT_MIME: Record<MediaType, string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/ogg; codecs=opus',
  document: 'application/pdf',
  sticker: 'image/webp',
};

export function mediaMessage(from: WaCustomer, type: MediaType, media: MediaFields = {}, options: MessageOptions = {}): InboundMessage {
  const object: Record<string, unknown> = {
    ...(media.caption !== undefined && type !== 'audio' && type !== 'sticker' ? { caption: media.caption } : {}),
    ...(type === 'document' ? { filename: media.filename ?? 'file.pdf' } : {}),
    mime_type: media.mimeType ?? DEFAULT_MIME[type],
    sha256: media.sha256 ?? randomBytes(32).toString('base64'),
    id: media.mediaId ?? randomDigits(16),
    ...(type === 'audio' ? { voice: media.voice ?? false } : {}),
    ...(type === 'sticker' ? { animated: media.animated ?? false } : {}),
  };
  return { customer: from, message: { ...baseMessage(from, type, options), [type]: object } };
}

export const imageMessage = (from: WaCustomer, caption?: string, options: MessageOptions = {}) =>
  mediaMessage(from, 'image', caption === undefined ? {} : { caption }, options);

/** A shared location (Meta sends the coordinates as numbers; name/address/url only for a place). */
export function locationMessage(
  from: WaCustomer,
  location: { latitude: number | string; longitude: number | string; name?: string; address?: string; url?: string },
  options: MessageOptions = {},
): InboundMessage {
  return { customer: from, message: { ...baseMessage(from, 'location', options), location } };
}

/** Shared contact cards in Meta's shape (name.formatted_name, phones[{phone, wa_id?, type}]). */
export function contactsMessage(from: WaCustomer, cards: { name: string; phones: string[] }[], options: MessageOptions = {}): InboundMessage {
  const contacts = cards.map((c) => ({
    name: { formatted_name: c.name, first_name: c.name.split(' ')[0] },
    phones: c.phones.map((phone) => ({ phone, ...(/^\+?\d+$/.test(phone.replace(/[\s-]/g, '')) ? { wa_id: phone.replace(/\D/g, '') } : {}), type: 'CELL' })),
  }));
  return { customer: from, message: { ...baseMessage(from, 'contacts', options), contacts } };
}

/** A tapped reply button or list row of one of our interactive messages (`replyTo`: its wamid). */
export function interactiveReplyMessage(from: WaCustomer, kind: 'button_reply' | 'list_reply', reply: { id: string; title: string; description?: string }, options: MessageOptions = {}): InboundMessage {
  return { customer: from, message: { ...baseMessage(from, 'interactive', options), interactive: { type: kind, [kind]: reply } } };
}

/** A template's quick-reply button tapped (type 'button': {payload, text}). */
export function templateButtonMessage(from: WaCustomer, button: { payload: string; text: string }, options: MessageOptions = {}): InboundMessage {
  return { customer: from, message: { ...baseMessage(from, 'button', options), button } };
}

export type WaStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusError {
  code: number;
  title: string;
  message?: string;
  details?: string;
}

export interface StatusOptions {
  at?: Date;
  /** failed: Meta's errors[] (default 131047, re-engagement window). */
  errors?: StatusError[];
  /** The send's biz_opaque_callback_data, echoed by Meta (our message id; issue 34). */
  reference?: string;
}

/** One statuses[] entry for one of our outbound messages (wamid) to a customer. */
export function statusUpdate(wamid: string, status: WaStatus, recipient: WaCustomer, options: StatusOptions = {}): Record<string, unknown> {
  const errors =
    status === 'failed'
      ? (options.errors ?? [
          {
            code: 131047,
            title: 'Re-engagement message',
            message: 'Re-engagement message',
            details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
          },
        ])
      : undefined;
  return {
    id: wamid,
    status,
    timestamp: unixSeconds(options.at),
    recipient_id: recipient.waId,
    ...(recipient.userId ? { recipient_user_id: recipient.userId } : {}),
    ...(options.reference ? { biz_opaque_callback_data: options.reference } : {}),
    ...(status !== 'failed'
      ? {
          conversation: {
            id: randomBytes(16).toString('hex'),
            ...(status === 'sent' ? { expiration_timestamp: unixSeconds(new Date(Date.now() + 24 * 3600_000)) } : {}),
            origin: { type: 'service' },
          },
          pricing: { billable: true, pricing_model: 'PMP', category: 'service', type: 'regular' },
        }
      : {}),
    ...(errors
      ? {
          errors: errors.map((e) => ({
            code: e.code,
            title: e.title,
            message: e.message ?? e.title,
            error_data: { details: e.details ?? e.title },
            href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
          })),
        }
      : {}),
  };
}

export interface ChangeParts {
  messages?: InboundMessage[];
  statuses?: Record<string, unknown>[];
  /** Meta lists contacts in its own order; default: the reverse of the messages' order. */
  contactsOrder?: 'reverse' | 'same';
}

/** One change (field "messages") of the business number: contacts[], messages[] and/or statuses[]. */
export function metaChange(business: WaBusiness, parts: ChangeParts): Record<string, unknown> {
  const seen = new Map<string, WaCustomer>();
  for (const m of parts.messages ?? []) if (!seen.has(m.customer.waId)) seen.set(m.customer.waId, m.customer);
  const customers = [...seen.values()];
  if (parts.contactsOrder !== 'same') customers.reverse();
  return {
    value: {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: business.displayPhoneNumber.replace(/\D/g, ''), phone_number_id: business.phoneId },
      ...(customers.length
        ? { contacts: customers.map((c) => ({ profile: { name: c.name }, wa_id: c.waId, ...(c.userId ? { user_id: c.userId } : {}) })) }
        : {}),
      ...(parts.messages?.length ? { messages: parts.messages.map((m) => m.message) } : {}),
      ...(parts.statuses?.length ? { statuses: parts.statuses } : {}),
    },
    field: 'messages',
  };
}

/** One entry (a WhatsApp Business Account) with one or more changes. */
export function metaEntry(business: WaBusiness, ...changes: ChangeParts[]): Record<string, unknown> {
  return { id: business.businessId, changes: changes.map((c) => metaChange(business, c)) };
}

/** The whole delivery, serialised as Meta sends it (see metaJson). */
export function metaWebhook(entries: Record<string, unknown>[]): string {
  return metaJson({ object: 'whatsapp_business_account', entry: entries });
}

/** Shorthand: one entry, one change. */
export const metaDelivery = (business: WaBusiness, parts: ChangeParts) => metaWebhook([metaEntry(business, parts)]);

/** Meta's serialisation: compact JSON, non-ASCII as \uXXXX (lower-case hex), '/' as '\/'. */
export function metaJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/\//g, '\\/');
}

/** X-Hub-Signature-256 of a raw body: 'sha256=' + hex HMAC-SHA256 with the app secret. */
export function signMetaBody(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

// ---------------------------------------------------------------------------------------------
// The webhook through the local gateway

export const webhookPath = (integrationId: string) => `/api/webhooks/whatsapp-business/${encodeURIComponent(integrationId)}`;

export interface WebhookResponse {
  status: number;
  contentType: string;
  text: string;
}

/** POST a raw delivery as Meta does (signature omitted when undefined). */
export async function postWebhook(integrationId: string, rawBody: string | Buffer, signature?: string): Promise<WebhookResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'facebookexternalua' };
  if (signature !== undefined) headers['x-hub-signature-256'] = signature;
  const res = await fetch(`${provided('apiUrl')}${webhookPath(integrationId)}`, {
    method: 'POST',
    headers,
    // The bytes as they are (a Uint8Array copy types as a fetch body under both Node's and the DOM's lib).
    body: typeof rawBody === 'string' ? rawBody : new Uint8Array(rawBody),
  });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** Meta's verification request: GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…. */
export async function verifyWebhook(
  integrationId: string,
  params: { mode?: string; verifyToken?: string; challenge?: string },
): Promise<WebhookResponse> {
  const query = new URLSearchParams();
  if (params.mode !== undefined) query.set('hub.mode', params.mode);
  if (params.verifyToken !== undefined) query.set('hub.verify_token', params.verifyToken);
  if (params.challenge !== undefined) query.set('hub.challenge', params.challenge);
  const res = await fetch(`${provided('apiUrl')}${webhookPath(integrationId)}?${query.toString()}`);
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** whatsapp-inbound jobs the local dispatcher received lately (GET /_local/queues/sent), optionally for one integration. */
export async function enqueuedInboundJobs(integrationId?: string): Promise<{ userId: string; integrationId: string; receivedAt: string; body: string }[]> {
  const res = await fetch(`${provided('apiUrl')}/_local/queues/sent?queue=whatsapp-inbound`);
  const sent = (await res.json()) as { body: string }[];
  return sent
    .map((m) => JSON.parse(m.body) as { userId: string; integrationId: string; receivedAt: string; body: string })
    .filter((job) => integrationId === undefined || job.integrationId === integrationId);
}

// ---------------------------------------------------------------------------------------------
// The integration

export interface ConnectedWhatsApp extends WaBusiness {
  integrationId: string;
  bearerToken: string;
  appSecret: string;
  webhookVerifyToken: string;
  webhookUrl: string;
  /** E.164 as stored. */
  phoneNumber: string;
}

/**
 * Sets up the WhatsApp integration for a user through the API with fresh ids and secrets (a
 * fresh phone id per call, so the fake Graph API's records are per test).
 */
export async function connectWhatsApp(
  token: string,
  overrides: Partial<{ bearerToken: string; appSecret: string; phoneId: string; businessId: string; phoneNumber: string }> = {},
): Promise<ConnectedWhatsApp> {
  const input = {
    bearerToken: overrides.bearerToken ?? `EAAG${randomBytes(24).toString('hex')}`,
    appSecret: overrides.appSecret ?? randomBytes(16).toString('hex'),
    phoneId: overrides.phoneId ?? randomDigits(15),
    businessId: overrides.businessId ?? randomDigits(15),
    phoneNumber: overrides.phoneNumber ?? `+1415${randomDigits(7).replace(/^./, '5')}`,
  };
  const res = await api<WhatsAppSetupResult>('POST', '/api/integrations/whatsapp-business/setup', { token, body: input });
  if (res.status !== 200 || !res.body.data) throw new Error(`WhatsApp setup failed: ${res.status} ${res.body.message}`);
  const { webhookUrl, webhookVerifyToken } = res.body.data;
  const integrationId = decodeURIComponent(webhookUrl.split('/').pop() ?? '');
  return {
    integrationId,
    webhookUrl,
    webhookVerifyToken,
    bearerToken: input.bearerToken,
    appSecret: input.appSecret,
    phoneId: input.phoneId,
    businessId: input.businessId,
    phoneNumber: input.phoneNumber,
    displayPhoneNumber: input.phoneNumber,
  };
}

// ---------------------------------------------------------------------------------------------
// The fake Graph API's control API

export interface GraphSend {
  phoneId: string;
  to: string;
  text: string;
  type: string;
  /** wamid answered ('' when the send failed). */
  id: string;
  status: number;
  at: string;
  payload: Record<string, unknown>;
}

/** Every send the fake Graph API received for a phone id (failed ones included, status ≠ 200). */
export async function graphSends(phoneId: string): Promise<GraphSend[]> {
  const res = await fetch(`${provided('whatsappGraphUrl')}/_test/sent?phoneId=${encodeURIComponent(phoneId)}`);
  return ((await res.json()) as { sent: GraphSend[] }).sent;
}

/** Make the next `count` sends of a phone id fail (status 0 = connection dropped; scope 'all': GET /{phoneId} too). */
export async function failGraphSends(
  phoneId: string,
  rule: { count?: number; status?: number; code?: number; message?: string; delayMs?: number; scope?: 'sends' | 'all' } = {},
): Promise<void> {
  const res = await fetch(`${provided('whatsappGraphUrl')}/_test/fail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phoneId, ...rule }),
  });
  if (!res.ok) throw new Error(`fake Graph /_test/fail: ${res.status}`);
}

export async function resetGraph(phoneId?: string): Promise<void> {
  await fetch(`${provided('whatsappGraphUrl')}/_test/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(phoneId ? { phoneId } : {}),
  });
}

/** A message template in Meta's list shape (fake Graph /_test/templates). */
export interface SeedTemplate {
  name: string;
  language: string;
  status?: string;
  category?: string;
  components: Record<string, unknown>[];
}

/** Replaces a business account's templates on the fake Graph; sends from `phoneId` are checked against them. */
export async function seedGraphTemplates(wabaId: string, templates: SeedTemplate[], phoneId?: string): Promise<void> {
  const res = await fetch(`${provided('whatsappGraphUrl')}/_test/templates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wabaId, templates, ...(phoneId ? { phoneId } : {}) }),
  });
  if (!res.ok) throw new Error(`fake Graph /_test/templates: ${res.status}`);
}

// ---------------------------------------------------------------------------------------------
// Media (issue 31): the fake Graph API's media endpoints (local/fake-whatsapp/media.ts)

export interface RegisterMediaOptions {
  /** Declares another sha256 than the bytes'. */
  wrongSha256?: boolean;
  /** Declares this size instead of the bytes' (the download's Content-Length stays true). */
  declaredSize?: number;
  /** GET /{media-id} answers Meta's 400 code 100 "does not exist". */
  notFound?: boolean;
  /** The first n download URLs issued are already expired. */
  expiredUrls?: number;
  /** The download has no Content-Length. */
  chunked?: boolean;
  fileSizeAs?: 'string' | 'number';
  mediaId?: string;
}

export interface FakeMediaState {
  mediaId: string;
  mimeType: string;
  size: number;
  /** The sha256 GET /{media-id} declares (hex). */
  sha256: string;
  fileSize: number;
  describes: number;
  downloads: number;
  expiredDownloads: number;
}

/** Registers a customer's media on the fake Graph API: its media id goes in the webhook's message. */
export async function registerMedia(bytes: Uint8Array, mimeType: string, options: RegisterMediaOptions = {}): Promise<FakeMediaState> {
  const res = await fetch(`${provided('whatsappGraphUrl')}/_test/media`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bytes: Buffer.from(bytes).toString('base64'), mimeType, ...options }),
  });
  if (!res.ok) throw new Error(`fake Graph /_test/media: ${res.status} ${await res.text()}`);
  return (await res.json()) as FakeMediaState;
}

/** What the fake Graph API saw of a media id (lookups, downloads, expired downloads). */
export async function mediaState(mediaId: string): Promise<FakeMediaState> {
  const res = await fetch(`${provided('whatsappGraphUrl')}/_test/media/${encodeURIComponent(mediaId)}`);
  if (!res.ok) throw new Error(`fake Graph /_test/media/${mediaId}: ${res.status}`);
  return (await res.json()) as FakeMediaState;
}

/** How long the download URLs issued from now on stay valid (0: expired at once; default 300). */
export async function setMediaUrlSeconds(seconds: number): Promise<void> {
  const res = await fetch(`${provided('whatsappGraphUrl')}/_test/media/expiry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seconds }) });
  if (!res.ok) throw new Error(`fake Graph /_test/media/expiry: ${res.status}`);
}

export interface GraphUpload {
  id: string;
  phoneId: string;
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
  at: string;
}

/** The media uploaded to the fake Graph API (POST /{phone-id}/media) for a phone id. */
export async function graphUploads(phoneId: string): Promise<GraphUpload[]> {
  const res = await fetch(`${provided('whatsappGraphUrl')}/_test/media/uploads?phoneId=${encodeURIComponent(phoneId)}`);
  return ((await res.json()) as { uploads: GraphUpload[] }).uploads;
}

/** One upload's bytes as the fake received them. */
export async function graphUploadBytes(mediaId: string): Promise<Buffer> {
  const res = await fetch(`${provided('whatsappGraphUrl')}/_test/media/uploads/${encodeURIComponent(mediaId)}`);
  if (!res.ok) throw new Error(`fake Graph upload ${mediaId}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

/**
 * Registers `bytes` on the fake Graph API and posts a signed delivery of a media message carrying
 * its id (Meta's shape: mime_type, sha256 as Meta declares it, id, caption, filename, voice).
 */
export async function sendMediaDelivery(
  wa: ConnectedWhatsApp,
  customer: WaCustomer,
  type: MediaType,
  bytes: Uint8Array,
  fields: Omit<MediaFields, 'mediaId' | 'sha256'> & { media?: RegisterMediaOptions } = {},
  options: MessageOptions = {},
): Promise<{ media: FakeMediaState; message: InboundMessage; body: string; response: WebhookResponse }> {
  const mimeType = fields.mimeType ?? DEFAULT_MIME[type];
  const media = await registerMedia(bytes, mimeType, fields.media);
  const { media: _registered, ...messageFields } = fields;
  const message = mediaMessage(customer, type, { ...messageFields, mimeType, mediaId: media.mediaId, sha256: Buffer.from(media.sha256, 'hex').toString('base64') }, options);
  const body = metaDelivery(wa, { messages: [message] });
  const response = await postWebhook(wa.integrationId, body, signMetaBody(body, wa.appSecret));
  return { media, message, body, response };
}
