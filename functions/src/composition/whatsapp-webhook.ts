/** Wires the whatsapp-webhook group: the integration by id, the secret box and the whatsapp-inbound queue. */
import { queueUrl } from '../config.js';
import { sqsClient } from '../adapters/aws/sqs.js';
import { SqsWhatsAppInboundQueue } from '../adapters/whatsapp/inbound-queue.js';
import { createWhatsAppWebhook } from '../domain/whatsapp/webhook.js';
import { once } from '../lib/once.js';
import { secretBox } from './secrets.js';
import { whatsappIntegrations } from './whatsapp.js';

export const whatsappWebhook = once(() =>
  createWhatsAppWebhook({
    integrations: whatsappIntegrations(),
    secrets: secretBox(),
    jobs: new SqsWhatsAppInboundQueue(sqsClient(), queueUrl('whatsapp-inbound')),
  }),
);
