/**
 * The WhatsApp webhook verifier (provider 'whatsapp' in the route manifest), for
 * {APP_URL}/api/webhooks/whatsapp-business/{integrationId}:
 *
 * - GET (Meta's subscription handshake): hub.mode=subscribe and hub.verify_token equal, in
 *   constant time, to the integration's generated token → verified (the route echoes
 *   hub.challenge); anything else, unknown integration included → 403 text/plain.
 * - POST (a delivery): unknown integration → 404; X-Hub-Signature-256 checked over the RAW body
 *   bytes with the app secret (HMAC-SHA256, constant time) → 401 when missing or wrong. Only a
 *   verified delivery reaches the route (which queues it, or drops it when inactive).
 *
 * Opened app secrets and verify tokens are cached per sealed value (a KMS call per delivery would
 * dominate the acknowledgement time in AWS); a re-setup stores new sealed values.
 */
import type { IntegrationRecord } from '../../domain/integrations/records.js';
import { WHATSAPP_INTEGRATION } from '../../domain/whatsapp/integration.js';
import { jsonResponse, textResponse, type WebhookVerifier } from '../../http/webhook-verification.js';
import { isUuid } from '../../lib/ids.js';
import { isValidMetaSignature, sameSecret } from './signature.js';

export interface WhatsAppWebhookVerifierDeps {
  /** The integration with this id (gsi1 INTEGRATION#{id}), or null. */
  integrations: { getById(id: string): Promise<IntegrationRecord | null> };
  /** Opens a sealed credential (KMS in AWS, the local key locally). */
  secrets: { open(sealed: string): Promise<string> };
  onRefused?: (integrationId: string) => void;
}

export type DeliveryCheck = { outcome: 'verified'; integration: IntegrationRecord } | { outcome: 'refused' | 'not_found' };

const MAX_CACHED_SECRETS = 500;

export function createWhatsAppWebhookVerifier(deps: WhatsAppWebhookVerifierDeps) {
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

  /** Meta's GET handshake: the challenge to echo, or null (→ 403). */
  async function handshake(integrationId: string, query: { mode?: string; verifyToken?: string; challenge?: string }): Promise<string | null> {
    if (query.mode !== 'subscribe' || !query.verifyToken || !query.challenge) return null;
    const record = await integration(integrationId);
    if (!record) return null;
    const expected = await open(record.credentials.webhookVerifyToken);
    return sameSecret(query.verifyToken, expected) ? query.challenge : null;
  }

  /** A POSTed delivery: the integration it is for, when signed with its app secret. */
  async function delivery(integrationId: string, rawBody: Buffer, signature: string | undefined): Promise<DeliveryCheck> {
    const record = await integration(integrationId);
    if (!record) return { outcome: 'not_found' };
    const appSecret = await open(record.credentials.appSecret);
    if (!isValidMetaSignature(rawBody, signature, appSecret)) return { outcome: 'refused' };
    return { outcome: 'verified', integration: record };
  }

  const verifier: WebhookVerifier<'whatsapp'> = {
    async verify(req) {
      const integrationId = req.params.integrationId ?? '';
      if (req.method === 'GET') {
        const challenge = await handshake(integrationId, { mode: req.query['hub.mode'], verifyToken: req.query['hub.verify_token'], challenge: req.query['hub.challenge'] });
        return challenge === null ? { refused: textResponse(403, 'Forbidden') } : { verified: { kind: 'handshake', challenge } };
      }
      const checked = await delivery(integrationId, req.rawBody, req.headers['x-hub-signature-256']);
      if (checked.outcome === 'verified') return { verified: { kind: 'delivery', integration: checked.integration } };
      if (checked.outcome === 'not_found') return { refused: jsonResponse(404, { success: false, message: 'Not found' }) };
      deps.onRefused?.(integrationId);
      return { refused: jsonResponse(401, { success: false, message: 'Invalid signature' }) };
    },
  };
  return { ...verifier, handshake, delivery };
}
