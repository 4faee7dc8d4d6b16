/**
 * GET/POST /api/webhooks/whatsapp-business/{integrationId} ('webhook' auth: Meta signs, we verify).
 *
 * GET: Meta's subscription handshake → 200 text/plain hub.challenge, or 403.
 * POST: X-Hub-Signature-256 over the raw body before anything → 401 when missing or wrong (nothing
 * queued); verified → queued for the whatsapp-inbound worker and 200 {success: true} at once.
 * Unknown integration → 404. Inactive integration → 200 and dropped (a non-2xx makes Meta retry
 * for days). A queue failure is a 500, so Meta redelivers.
 */
import { whatsappWebhook } from '../composition/whatsapp-webhook.js';
import { logger } from '../adapters/logger.js';
import { httpGroup, json, type RouteResult, type RouteTable } from '../http/handler.js';

const text = (status: number, body: string) => ({
  statusCode: status,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body,
});

export const routes: RouteTable = {
  'GET /api/webhooks/whatsapp-business/{integrationId}': async (req) => {
    const challenge = await whatsappWebhook().verifySubscription(req.params.integrationId ?? '', {
      mode: req.query['hub.mode'],
      verifyToken: req.query['hub.verify_token'],
      challenge: req.query['hub.challenge'],
    });
    return { raw: challenge === null ? text(403, 'Forbidden') : text(200, challenge) };
  },
  'POST /api/webhooks/whatsapp-business/{integrationId}': async (req): Promise<RouteResult> => {
    const integrationId = req.params.integrationId ?? '';
    const outcome = await whatsappWebhook().receive(integrationId, req.rawBody, req.headers['x-hub-signature-256']);
    if (outcome === 'not_found') return { raw: json(404, { success: false, message: 'Not found' }) };
    if (outcome === 'refused') {
      logger.warn('WhatsApp webhook signature refused', { integrationId });
      return { raw: json(401, { success: false, message: 'Invalid signature' }) };
    }
    if (outcome === 'dropped') logger.info('WhatsApp delivery dropped: integration inactive', { integrationId });
    return {};
  },
};

export const handler = httpGroup(routes);
