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
 * - A verified delivery for an inactive integration is acknowledged and dropped: a non-2xx would
 *   make Meta redeliver it for days, and the user switched the channel off on purpose.
 *
 * Opened app secrets and verify tokens are cached per sealed value (a KMS call per delivery
 * would dominate the acknowledgement time in AWS); a re-setup stores new sealed values.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { isUuid } from '../../lib/ids.js';
import type { IntegrationRecord } from '../integrations/records.js';
import type { SecretBox } from '../secrets/ports.js';
import { WHATSAPP_INTEGRATION } from './integration.js';
import type { WhatsAppInboundJob } from './ports.js';

export interface WebhookIntegrations {
  /** The integration with this id (gsi1 INTEGRATION#{id}), or null. */
  getById(id: string): Promise<IntegrationRecord | null>;
}

export interface InboundJobQueue {
  enqueue(job: WhatsAppInboundJob): Promise<void>;
}

export interface WhatsAppWebhookDeps {
  integrations: WebhookIntegrations;
  secrets: SecretBox;
  jobs: InboundJobQueue;
  now?: () => Date;
}

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
      await deps.jobs.enqueue({
        userId: record.userId,
        integrationId: record.id,
        receivedAt: now().toISOString(),
        body: rawBody.toString('utf8'),
      });
      return 'accepted';
    },
  };
}

export type WhatsAppWebhook = ReturnType<typeof createWhatsAppWebhook>;
