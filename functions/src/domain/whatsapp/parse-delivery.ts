/**
 * Reading one Meta webhook delivery (the whatsapp-inbound pipeline's first step, ARCHITECTURE §9):
 * `entry[].changes[].value` → the business number, its messages (text, media, buttons, location,
 * reactions; customers with or without a phone number, contacts matched whatever their order)
 * and delivery statuses. Unknown fields are ignored; anything malformed is skipped, not thrown.
 */
import type { MessageMedia, MessageStatus } from '../../contract/whatsapp.js';
import type { InteractiveReply, MessageContactCard, MessageLocation } from '../../contract/whatsapp-media.js';
import { arr, obj, str, type Obj } from './json-walk.js';

export interface InboundCustomer {
  /** wa_id, or the username-era user_id when Meta sends no wa_id. */
  waId: string;
  /** E.164 ('+' + wa_id digits) or '' when the customer has no phone number. */
  phone: string;
  name: string;
}

export interface ParsedInboundMessage {
  wamid: string;
  customer: InboundCustomer;
  /** ISO. */
  timestamp: string;
  type: string;
  body: string;
  media?: MessageMedia;
  /** type 'location' (issue 31): the coordinates as numbers, with the place's name/address/url when Meta sends them. */
  location?: MessageLocation;
  /** type 'contacts': each card's formatted name and phone numbers. */
  contactCards?: MessageContactCard[];
  /** A tapped reply button / list row (interactive), or a template's quick-reply button (id = its payload). */
  interactiveReply?: InteractiveReply;
}

export interface ParsedStatus {
  wamid: string;
  status: MessageStatus;
  error?: string;
  /** Our reference sent with the message (biz_opaque_callback_data): the id of our message, for a send whose answer was lost (issue 34). */
  reference?: string;
}

export interface ParsedChange {
  phoneNumberId: string;
  displayPhoneNumber: string;
  messages: ParsedInboundMessage[];
  statuses: ParsedStatus[];
}

/**
 * Characters of an inbound body kept (Meta caps texts at 4096): a forged or future oversized text
 * must still fit the message item and the conversation's lastMessage (DynamoDB: 400 KB an item).
 */
export const MAX_INBOUND_BODY = 16_384;
/** The first `max` UTF-16 units, without splitting a surrogate pair. */
const cut = (text: string, max: number) => text.slice(0, /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max);

const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const;
const STATUS_MAP: Record<string, MessageStatus> = { sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' };

function isoFromSeconds(value: unknown, fallback: string): string {
  const n = Number(str(value));
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : fallback;
}

/** '+' + digits when the WhatsApp id is a phone number's digits; '' otherwise. */
export function phoneFromWaId(waId: string): string {
  return /^[1-9]\d{6,14}$/.test(waId) ? `+${waId}` : '';
}

/** A coordinate Meta sends as a number (or, in some samples, a string); NaN otherwise. */
function coordinate(value: unknown, max: number): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= max ? n : NaN;
}

/** Bounds on what a forged delivery could make us store (Meta's own cards are far smaller). */
const MAX_CONTACT_CARDS = 20;
const MAX_CARD_PHONES = 10;
const MAX_FIELD = 500;
/** A media id, MIME type or sha256 (Meta's are under 100 characters) and a message type (Meta's are single words). */
const MAX_REF = 256;
const MAX_TYPE = 64;

function parseLocation(l: Obj): MessageLocation | undefined {
  const latitude = coordinate(l.latitude, 90);
  const longitude = coordinate(l.longitude, 180);
  if (Number.isNaN(latitude) || Number.isNaN(longitude)) return undefined;
  const text = (key: string) => str(l[key]).trim().slice(0, MAX_FIELD);
  return {
    latitude,
    longitude,
    ...(text('name') ? { name: text('name') } : {}),
    ...(text('address') ? { address: text('address') } : {}),
    ...(/^https?:\/\//i.test(text('url')) ? { url: text('url') } : {}),
  };
}

function parseContactCards(list: unknown): MessageContactCard[] {
  return arr(list)
    .map(obj)
    .filter((c): c is Obj => c !== null)
    .slice(0, MAX_CONTACT_CARDS)
    .map((c) => {
      const n = obj(c.name) ?? {};
      const name = (str(n.formatted_name) || [str(n.first_name), str(n.last_name)].filter(Boolean).join(' ')).trim().slice(0, MAX_FIELD);
      const phones = arr(c.phones)
        .map(obj)
        .map((p) => str(p?.phone).trim() || (str(p?.wa_id) ? `+${str(p?.wa_id)}` : ''))
        .filter(Boolean)
        .slice(0, MAX_CARD_PHONES)
        .map((p) => p.slice(0, 40));
      return { name, phones };
    })
    .filter((c) => c.name || c.phones.length);
}

function parseMessage(m: Obj, contacts: Obj[], receivedAt: string): ParsedInboundMessage | null {
  const wamid = str(m.id);
  const from = str(m.from) || str(m.from_user_id);
  const contact =
    contacts.find((c) => (str(c.wa_id) && str(c.wa_id) === str(m.from)) || (str(c.user_id) && str(c.user_id) === str(m.from_user_id))) ??
    (contacts.length === 1 ? contacts[0] : undefined);
  const waId = from || str(contact?.wa_id) || str(contact?.user_id);
  if (!wamid || !waId) return null;
  const phoneDigits = str(m.from) || str(contact?.wa_id);
  const customer: InboundCustomer = { waId, phone: phoneFromWaId(phoneDigits), name: str(obj(contact?.profile)?.name).trim() };
  const type = cut(str(m.type), MAX_TYPE) || 'unknown';
  const base = { wamid, customer, timestamp: isoFromSeconds(m.timestamp, receivedAt) };
  if (type === 'text') return { ...base, type: 'chat', body: str(obj(m.text)?.body) };
  if ((MEDIA_KINDS as readonly string[]).includes(type)) {
    const media = obj(m[type]) ?? {};
    // Each field bounded like the body: a forged caption or file name of 100,000 characters must still fit the message item.
    const field = (value: unknown, max: number) => cut(str(value), max);
    const info: MessageMedia = {
      ...(str(media.id) ? { id: field(media.id, MAX_REF) } : {}),
      ...(str(media.mime_type) ? { mimeType: field(media.mime_type, MAX_REF) } : {}),
      ...(str(media.sha256) ? { sha256: field(media.sha256, MAX_REF) } : {}),
      ...(str(media.caption) ? { caption: field(media.caption, MAX_INBOUND_BODY) } : {}),
      ...(str(media.filename) ? { filename: field(media.filename, MAX_FIELD) } : {}),
    };
    const stored = type === 'audio' && media.voice === true ? 'ptt' : type;
    return { ...base, type: stored, body: info.caption ?? '', media: info };
  }
  if (type === 'button') {
    // A template's quick-reply button: its text is what the customer "said", its payload our id.
    const b = obj(m.button) ?? {};
    const title = str(b.text);
    const id = str(b.payload) || title;
    return { ...base, type: 'chat', body: title, ...(title ? { interactiveReply: { id: id.slice(0, 256), title } } : {}) };
  }
  if (type === 'interactive') {
    const i = obj(m.interactive) ?? {};
    const reply = obj(i.button_reply) ?? obj(i.list_reply) ?? {};
    const title = str(reply.title);
    const id = str(reply.id);
    return { ...base, type: 'chat', body: title, ...(title && id ? { interactiveReply: { id: id.slice(0, 256), title } } : {}) };
  }
  if (type === 'location') {
    const l = obj(m.location) ?? {};
    const location = parseLocation(l);
    return {
      ...base,
      type: 'location',
      body: [str(l.name), str(l.address), `${str(l.latitude)},${str(l.longitude)}`].filter(Boolean).join(' · '),
      ...(location ? { location } : {}),
    };
  }
  if (type === 'contacts') {
    const contactCards = parseContactCards(m.contacts);
    // The cards as text too: what search and a plain reader of the body see.
    const body = contactCards.map((c) => [c.name, ...c.phones].filter(Boolean).join(' ')).join('; ');
    return { ...base, type: 'contacts', body, ...(contactCards.length ? { contactCards } : {}) };
  }
  if (type === 'reaction') return { ...base, type: 'reaction', body: str(obj(m.reaction)?.emoji) };
  return { ...base, type, body: '' };
}

function parseStatus(s: Obj): ParsedStatus | null {
  const wamid = str(s.id);
  const status = STATUS_MAP[str(s.status)];
  if (!wamid || !status) return null;
  const reference = str(s.biz_opaque_callback_data).slice(0, 512);
  const base = { wamid, status, ...(reference ? { reference } : {}) };
  if (status !== 'failed') return base;
  const e = obj(arr(s.errors)[0]) ?? {};
  const title = str(e.title) || str(e.message);
  const details = str(obj(e.error_data)?.details) || (str(e.message) !== title ? str(e.message) : '');
  const text = [title, details].filter(Boolean).join(': ') || 'WhatsApp could not deliver the message.';
  return { ...base, error: text.slice(0, 500) };
}

/** The message changes of a webhook body (`entry[].changes[].value`); null when it is not JSON. */
export function parseDelivery(body: string, receivedAt: string): ParsedChange[] | null {
  let root: unknown;
  try {
    root = JSON.parse(body);
  } catch {
    return null;
  }
  const changes: ParsedChange[] = [];
  for (const entry of arr(obj(root)?.entry)) {
    for (const change of arr(obj(entry)?.changes)) {
      const value = obj(obj(change)?.value);
      if (!value) continue;
      const metadata = obj(value.metadata) ?? {};
      const contacts = arr(value.contacts).map(obj).filter((c): c is Obj => c !== null);
      changes.push({
        phoneNumberId: str(metadata.phone_number_id),
        displayPhoneNumber: str(metadata.display_phone_number),
        messages: arr(value.messages)
          .map(obj)
          .filter((m): m is Obj => m !== null)
          .map((m) => parseMessage(m, contacts, receivedAt))
          .filter((m): m is ParsedInboundMessage => m !== null)
          .map((m) => (m.body.length > MAX_INBOUND_BODY ? { ...m, body: cut(m.body, MAX_INBOUND_BODY) } : m)),
        statuses: arr(value.statuses)
          .map(obj)
          .filter((s): s is Obj => s !== null)
          .map(parseStatus)
          .filter((s): s is ParsedStatus => s !== null),
      });
    }
  }
  return changes;
}
