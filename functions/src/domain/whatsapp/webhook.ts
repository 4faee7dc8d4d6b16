/**
 * The WhatsApp webhook ({APP_URL}/api/webhooks/whatsapp-business/{integrationId}), ARCHITECTURE §8-9:
 *
 * - GET (Meta's subscription handshake): hub.mode=subscribe and hub.verify_token equal, in constant
 *   time, to the integration's generated token → the challenge is echoed; anything else (unknown
 *   integration included) is refused.
 * - POST (a delivery): the integration is looked up by id, then X-Hub-Signature-256 is checked over
 *   the RAW body bytes with the app secret (HMAC-SHA256, constant time) before anything is parsed
 *   or queued. A verified delivery is put on the whatsapp-inbound queue as received; the worker
 *   parses it. Nothing else happens here, so Meta gets its 200 fast.
 * - A verified delivery too big for one queue message (SQS: 256 KB) is split into one delivery
 *   per message and per status (same entry/change/metadata, the message's own contact), queued
 *   in batches; a piece still too big on its own is parked in the uploads bucket and queued as
 *   a pointer. Never a 5xx for size: Meta would redeliver the same bytes for days. The worker's
 *   idempotency (one stored message per wamid) is the same for pieces as for whole deliveries.
 * - A verified delivery for an inactive integration is acknowledged and dropped: a non-2xx would
 *   make Meta redeliver it for days, and the user switched the channel off on purpose.
 *
 * Opened app secrets and verify tokens are cached per sealed value (a KMS call per delivery
 * would dominate the acknowledgement time in AWS); a re-setup stores new sealed values.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { isUuid } from '../../lib/ids.js';
import type { IntegrationRecord } from '../integrations/records.js';
import type { SecretBox } from '../secrets/ports.js';
import { WHATSAPP_INTEGRATION } from './integration.js';
import { arr, obj, type Obj } from './json-walk.js';
import { INBOUND_BODY_PREFIX, type InboundBodyStore, type QueuedInboundJob } from './ports.js';

export interface WebhookIntegrations {
  /** The integration with this id (gsi1 INTEGRATION#{id}), or null. */
  getById(id: string): Promise<IntegrationRecord | null>;
}

export interface InboundJobQueue {
  enqueue(job: QueuedInboundJob): Promise<void>;
  /** Several jobs in as few requests as SQS allows (≤ 10 entries and ≤ 256 KB a request). */
  enqueueAll(jobs: QueuedInboundJob[]): Promise<void>;
}

export interface WhatsAppWebhookDeps {
  integrations: WebhookIntegrations;
  secrets: SecretBox;
  jobs: InboundJobQueue;
  /** Where a piece too big for a queue message is parked. */
  bodies: Pick<InboundBodyStore, 'put'>;
  newKey?: () => string;
  now?: () => Date;
  onInfo?: (message: string, data?: Record<string, unknown>) => void;
}

/** SQS's message size limit (bytes of the body), which the whatsapp-inbound queue is designed for. */
export const MAX_QUEUE_MESSAGE_BYTES = 256 * 1024;


/**
 * A Meta delivery as one delivery per message and per status (null when it is not JSON): each
 * keeps its entry id, change field and value (metadata, messaging_product) with only that
 * message (and its own contact) or that status, so the worker parses a piece like any delivery.
 */
export function splitDelivery(raw: string): string[] | null {
  let root: unknown;
  try {
    root = JSON.parse(raw);
  } catch {
    return null;
  }
  const pieces: string[] = [];
  const top = obj(root) ?? {};
  for (const entry of arr(top.entry).map(obj)) {
    for (const change of arr(entry?.changes).map(obj)) {
      const value = obj(change?.value);
      if (!entry || !change || !value) continue;
      const { messages, statuses, contacts, ...rest } = value;
      const wrap = (v: Obj) =>
        JSON.stringify({ ...top, entry: [{ ...entry, changes: [{ ...change, value: { ...rest, ...v } }] }] });
      const people = arr(contacts).map(obj).filter((c): c is Obj => c !== null);
      for (const m of arr(messages).map(obj)) {
        if (!m) continue;
        const own = people.filter((c) => (c.wa_id !== undefined && c.wa_id === m.from) || (c.user_id !== undefined && c.user_id === m.from_user_id));
        pieces.push(wrap({ contacts: own.length ? own : people, messages: [m] }));
      }
      for (const st of arr(statuses)) pieces.push(wrap({ statuses: [st] }));
    }
  }
  return pieces;
}

const jobBytes = (job: QueuedInboundJob) => Buffer.byteLength(JSON.stringify(job), 'utf8');

/** accepted: queued; dropped: verified but the integration is inactive; refused: bad or missing signature. */
export type DeliveryOutcome = 'accepted' | 'dropped' | 'refused' | 'not_found';

const MAX_CACHED_SECRETS = 500;
const SIGNATURE_RE = /^sha256=([0-9a-f]{64})$/i;

/** 'sha256=' + hex HMAC-SHA256 of the raw body with the app secret (what Meta sends). */
export function metaSignature(rawBody: Buffer | string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** Whether X-Hub-Signature-256 matches the raw body, compared in constant time. */
export function isValidMetaSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  const match = SIGNATURE_RE.exec(header?.trim() ?? '');
  if (!match || !appSecret) return false;
  const expected = createHmac('sha256', appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(match[1]!, 'hex'));
}

/** Constant-time equality of two strings of any length (compares their SHA-256 digests). */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected)) && expected.length > 0;
}

export function createWhatsAppWebhook(deps: WhatsAppWebhookDeps) {
  const now = () => deps.now?.() ?? new Date();
  const newKey = deps.newKey ?? randomUUID;
  const onInfo = deps.onInfo ?? (() => undefined);
  const opened = new Map<string, string>();

  async function open(sealed: string | undefined): Promise<string> {
    if (!sealed) return '';
    const cached = opened.get(sealed);
    if (cached !== undefined) return cached;
    const plain = await deps.secrets.open(sealed);
    if (opened.size >= MAX_CACHED_SECRETS) opened.delete(opened.keys().next().value as string);
    opened.set(sealed, plain);
    return plain;
  }

  async function integration(id: string): Promise<IntegrationRecord | null> {
    // Integration ids are UUIDs: anything else is unknown without a read (no junk keys reach DynamoDB).
    if (!isUuid(id)) return null;
    const record = await deps.integrations.getById(id);
    return record?.type === WHATSAPP_INTEGRATION ? record : null;
  }

  return {
    /** Meta's GET handshake: the challenge to echo, or null (→ 403). */
    async verifySubscription(
      integrationId: string,
      query: { mode?: string; verifyToken?: string; challenge?: string },
    ): Promise<string | null> {
      if (query.mode !== 'subscribe' || !query.verifyToken || !query.challenge) return null;
      const record = await integration(integrationId);
      if (!record) return null;
      const expected = await open(record.credentials.webhookVerifyToken);
      return sameSecret(query.verifyToken, expected) ? query.challenge : null;
    },

    /** A POSTed delivery: verified over the raw bytes, then queued (or dropped when inactive). */
    async receive(integrationId: string, rawBody: Buffer, signature: string | undefined): Promise<DeliveryOutcome> {
      const record = await integration(integrationId);
      if (!record) return 'not_found';
      const appSecret = await open(record.credentials.appSecret);
      if (!isValidMetaSignature(rawBody, signature, appSecret)) return 'refused';
      if (!record.isActive) return 'dropped';
      const base = { userId: record.userId, integrationId: record.id, receivedAt: now().toISOString() };
      const whole: QueuedInboundJob = { ...base, body: rawBody.toString('utf8') };
      if (jobBytes(whole) <= MAX_QUEUE_MESSAGE_BYTES) {
        await deps.jobs.enqueue(whole);
        return 'accepted';
      }
      const pieces = splitDelivery(whole.body);
      if (!pieces) {
        // Signed but not JSON: nothing the worker could read.
        onInfo('WhatsApp delivery too large and not JSON: dropped', { integrationId: record.id, bytes: rawBody.length });
        return 'accepted';
      }
      const jobs: QueuedInboundJob[] = [];
      for (const body of pieces) {
        const job: QueuedInboundJob = { ...base, body };
        if (jobBytes(job) <= MAX_QUEUE_MESSAGE_BYTES) {
          jobs.push(job);
          continue;
        }
        const key = `${INBOUND_BODY_PREFIX}${record.userId}/${newKey()}.json`;
        await deps.bodies.put(key, body);
        jobs.push({ ...base, bodyKey: key });
      }
      onInfo('WhatsApp delivery too large for one queue message: split', { integrationId: record.id, bytes: rawBody.length, jobs: jobs.length, parked: jobs.filter((j) => j.bodyKey).length });
      await deps.jobs.enqueueAll(jobs);
      return 'accepted';
    },
  };
}

export type WhatsAppWebhook = ReturnType<typeof createWhatsAppWebhook>;
