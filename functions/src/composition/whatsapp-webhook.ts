/**
 * Wires the whatsapp-webhook group: its signature verifier (the integration by id, the secret
 * box), the whatsapp-inbound queue and the uploads bucket (oversized pieces).
 */
import { logger } from '../adapters/logger.js';
import { S3InboundBodyStore } from '../adapters/whatsapp/inbound-bodies.js';
import { createWhatsAppWebhookVerifier } from '../adapters/whatsapp/webhook-verifier.js';
import { createWhatsAppWebhook } from '../domain/whatsapp/webhook.js';
import { once } from '../lib/once.js';
import { whatsappInboundQueue } from './queues.js';
import { secretBox } from './secrets.js';
import { uploadsPresigner } from './user-view.js';
import { whatsappIntegrations } from './whatsapp.js';

/** X-Hub-Signature-256 and Meta's handshake, run by the HTTP wrapper before the routes. */
export const whatsappWebhookVerifier = once(() =>
  createWhatsAppWebhookVerifier({
    integrations: whatsappIntegrations(),
    secrets: secretBox(),
    onRefused: (integrationId) => logger.warn('WhatsApp webhook signature refused', { integrationId }),
  }),
);

export const whatsappWebhook = once(() =>
  createWhatsAppWebhook({
    jobs: whatsappInboundQueue(),
    bodies: new S3InboundBodyStore(uploadsPresigner()),
    onInfo: (message, data) => logger.info(message, { ...data }),
  }),
);
