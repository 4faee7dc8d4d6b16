/** Wires the whatsapp-webhook group: the integration by id, the secret box, the whatsapp-inbound queue and the uploads bucket (oversized pieces). */
import { queueUrl } from '../config.js';
import { sqsClient } from '../adapters/aws/sqs.js';
import { logger } from '../adapters/logger.js';
import { S3InboundBodyStore } from '../adapters/whatsapp/inbound-bodies.js';
import { SqsWhatsAppInboundQueue } from '../adapters/whatsapp/inbound-queue.js';
import { createWhatsAppWebhook } from '../domain/whatsapp/webhook.js';
import { once } from '../lib/once.js';
import { secretBox } from './secrets.js';
import { uploadsPresigner } from './user-view.js';
import { whatsappIntegrations } from './whatsapp.js';

export const whatsappWebhook = once(() =>
  createWhatsAppWebhook({
    integrations: whatsappIntegrations(),
    secrets: secretBox(),
    jobs: new SqsWhatsAppInboundQueue(sqsClient(), queueUrl('whatsapp-inbound')),
    bodies: new S3InboundBodyStore(uploadsPresigner()),
    onInfo: (message, data) => logger.info(message, { ...data }),
  }),
);
