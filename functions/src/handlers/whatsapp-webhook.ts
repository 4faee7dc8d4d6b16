/**
 * GET/POST /api/webhooks/whatsapp-business/{integrationId} ('webhook' auth: Meta signs, we verify).
 *
 * The route's declared verification runs first (adapters/whatsapp/webhook-verifier.ts): GET is
 * Meta's subscription handshake (403 text/plain when refused); POST checks X-Hub-Signature-256
 * over the raw body (401 when missing or wrong, 404 for an unknown integration; nothing queued).
 * Verified GET → 200 text/plain hub.challenge. Verified POST → queued for the whatsapp-inbound
 * worker and 200 {success: true} at once; inactive integration → 200 and dropped (a non-2xx makes
 * Meta retry for days); changes for another phone number id than the integration's → left out and
 * logged, 200 (domain/whatsapp/webhook.ts). A queue failure is a 500, so Meta redelivers.
 */
import { whatsappWebhook, whatsappWebhookVerifier } from '../composition/whatsapp-webhook.js';
import { logger } from '../adapters/logger.js';
import { httpGroup, type RouteResult, type RouteTable } from '../http/handler.js';
import { textResponse, webhookVerification } from '../http/webhook-verification.js';

export const routes: RouteTable = {
  'GET /api/webhooks/whatsapp-business/{integrationId}': async (req) => {
    const verified = req.webhook('whatsapp');
    if (verified.kind !== 'handshake') throw new Error('A GET is verified as a handshake');
    return { raw: textResponse(200, verified.challenge) };
  },
  'POST /api/webhooks/whatsapp-business/{integrationId}': async (req): Promise<RouteResult> => {
    const verified = req.webhook('whatsapp');
    if (verified.kind !== 'delivery') throw new Error('A POST is verified as a delivery');
    const outcome = await whatsappWebhook().receive(verified.integration, req.rawBody);
    if (outcome === 'dropped') logger.info('WhatsApp delivery dropped: integration inactive', { integrationId: verified.integration.id });
    return {};
  },
};

export const handler = httpGroup(routes, { webhooks: webhookVerification({ whatsapp: whatsappWebhookVerifier }) });
