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

/** accepted: queued; dropped: the integration is inactive. */
export type DeliveryOutcome = 'accepted' | 'dropped';

export function createWhatsAppWebhook(deps: WhatsAppWebhookDeps) {
  const now = () => deps.now?.() ?? new Date();
  const newKey = deps.newKey ?? randomUUID;
  const onInfo = deps.onInfo ?? (() => undefined);

  return {
    /** A verified delivery for this integration: queued, or dropped when the integration is inactive. */
    async receive(record: IntegrationRecord, rawBody: Buffer): Promise<DeliveryOutcome> {
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
