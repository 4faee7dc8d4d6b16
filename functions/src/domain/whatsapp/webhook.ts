/**
 * The WhatsApp webhook's work ({APP_URL}/api/webhooks/whatsapp-business/{integrationId}),
 * ARCHITECTURE §8-9. Meta's handshake and X-Hub-Signature-256 are checked before this runs, by
 * the route's declared verification (adapters/whatsapp/webhook-verifier.ts): a delivery arrives
 * here verified, with the integration it was signed for.
 *
 * - A verified delivery is put on the whatsapp-inbound queue as received; the worker parses it.
 *   Nothing else happens here, so Meta gets its 200 fast.
 * - A verified delivery too big for one queue message (SQS: 256 KB) is split into one delivery
 *   per message and per status (same entry/change/metadata, the message's own contact), queued
 *   in batches; a piece still too big on its own is parked in the uploads bucket and queued as
 *   a pointer. Never a 5xx for size: Meta would redeliver the same bytes for days. The worker's
 *   idempotency (one stored message per wamid) is the same for pieces as for whole deliveries.
 * - A verified delivery for an inactive integration is acknowledged and dropped: a non-2xx would
 *   make Meta redeliver it for days, and the user switched the channel off on purpose.
 * - Only the changes for the integration's own number are kept (issue 28): one Meta app can send
 *   the deliveries of several numbers to one webhook, correctly signed with the same app secret,
 *   and a message for another number must not be stored or answered from this one (nor a status
 *   for it applied). Foreign changes are logged and left out; a delivery with nothing else is
 *   acknowledged (200) and queues nothing. A delivery with none is queued byte for byte.
 */
import { randomUUID } from 'node:crypto';
import type { IntegrationRecord } from '../integrations/records.js';
import { arr, obj, type Obj } from './json-walk.js';
import { INBOUND_BODY_PREFIX, type InboundBodyStore, type QueuedInboundJob } from './ports.js';

export interface InboundJobQueue {
  enqueue(job: QueuedInboundJob): Promise<void>;
  /** Several jobs in as few requests as SQS allows (≤ 10 entries and ≤ 256 KB a request). */
  enqueueAll(jobs: QueuedInboundJob[]): Promise<void>;
}

export interface WhatsAppWebhookDeps {
  jobs: InboundJobQueue;
  /** Where a piece too big for a queue message is parked. */
  bodies: Pick<InboundBodyStore, 'put'>;
  newKey?: () => string;
  now?: () => Date;
  onInfo?: (message: string, data?: Record<string, unknown>) => void;
}

/** SQS's message size limit (bytes of the body), which the whatsapp-inbound queue is designed for. */
export const MAX_QUEUE_MESSAGE_BYTES = 256 * 1024;

function parseJson(raw: string): { root: unknown } | null {
  try {
    return { root: JSON.parse(raw) as unknown };
  } catch {
    return null;
  }
}

/** The business number a change is for (`value.metadata.phone_number_id`), '' when it names none. */
const phoneNumberIdOf = (change: unknown): string => {
  const id = obj(obj(obj(change)?.value)?.metadata)?.phone_number_id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
};

/**
 * The delivery with only the changes for `phoneId` (entries left with none are removed), and
 * the other phone number ids it named; `root` is null when no change is for `phoneId`.
 */
export function ownNumberOnly(root: unknown, phoneId: string): { root: Obj | null; foreign: string[] } {
  const top = obj(root) ?? {};
  const foreign: string[] = [];
  const entries: Obj[] = [];
  for (const entry of arr(top.entry).map(obj)) {
    if (!entry) continue;
    const changes = arr(entry.changes).filter((change) => {
      const id = phoneNumberIdOf(change);
      if (phoneId !== '' && id === phoneId) return true;
      foreign.push(id);
      return false;
    });
    if (changes.length) entries.push({ ...entry, changes });
  }
  return { root: entries.length ? { ...top, entry: entries } : null, foreign };
}

/**
 * A parsed Meta delivery as one delivery per message and per status: each keeps its entry id,
 * change field and value (metadata, messaging_product) with only that message (and its own
 * contact) or that status, so the worker parses a piece like any delivery.
 */
export function splitDelivery(root: unknown): string[] {
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

/** accepted: queued; dropped: the integration is inactive; ignored: every change was for another number. */
export type DeliveryOutcome = 'accepted' | 'dropped' | 'ignored';

export function createWhatsAppWebhook(deps: WhatsAppWebhookDeps) {
  const now = () => deps.now?.() ?? new Date();
  const newKey = deps.newKey ?? randomUUID;
  const onInfo = deps.onInfo ?? (() => undefined);

  return {
    /** A verified delivery for this integration: its own number's part queued; dropped when the integration is inactive. */
    async receive(record: IntegrationRecord, rawBody: Buffer): Promise<DeliveryOutcome> {
      if (!record.isActive) return 'dropped';
      const base = { userId: record.userId, integrationId: record.id, receivedAt: now().toISOString() };
      const raw = rawBody.toString('utf8');
      // Signed but not JSON: queued as it is, and the worker logs and drops it (it names no number).
      const parsed = parseJson(raw);
      let body = raw;
      let root = parsed?.root;
      if (parsed) {
        const own = ownNumberOnly(parsed.root, record.credentials.phoneId ?? '');
        if (own.foreign.length) {
          const ignored = { integrationId: record.id, phoneNumberIds: [...new Set(own.foreign)].slice(0, 10), changes: own.foreign.length };
          onInfo('WhatsApp delivery for another phone number: ignored', ignored);
          if (!own.root) return 'ignored';
          root = own.root;
          body = JSON.stringify(own.root);
        }
      }
      const whole: QueuedInboundJob = { ...base, body };
      if (jobBytes(whole) <= MAX_QUEUE_MESSAGE_BYTES) {
        await deps.jobs.enqueue(whole);
        return 'accepted';
      }
      if (!parsed) {
        // Signed but not JSON: nothing the worker could read.
        onInfo('WhatsApp delivery too large and not JSON: dropped', { integrationId: record.id, bytes: rawBody.length });
        return 'accepted';
      }
      const pieces = splitDelivery(root);
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
