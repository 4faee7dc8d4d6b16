/** Wires the integrations group: the table, the secret box (KMS in AWS), the user's AI models and the WhatsApp Graph API. */
import { randomBytes, randomUUID } from 'node:crypto';
import { config } from '../config.js';
import { logger } from '../adapters/logger.js';
import { createIntegrationService } from '../domain/integrations/service.js';
import { createWhatsAppIntegrationService } from '../domain/whatsapp/setup.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { aiModels, integrationRepository, isPublicUrl } from './ai.js';
import { integrationHealth } from './integration-health.js';
import { secretBox } from './secrets.js';
import { graphClient } from './whatsapp.js';

export const integrationService = once(() =>
  createIntegrationService({
    integrations: integrationRepository(),
    secrets: secretBox(),
    models: aiModels(),
    isPublicUrl,
    newId: randomUUID,
    onModelError: (error) => logger.warn('Model call failed', { kind: error.kind, code: error.code, reason: error.message }),
    health: integrationHealth(),
  }),
);

export const whatsappIntegrationService = once(() =>
  createWhatsAppIntegrationService({
    integrations: integrationRepository(),
    secrets: secretBox(),
    graph: graphClient(),
    newId: randomUUID,
    // 32 random bytes → 43 URL-safe characters.
    newVerifyToken: () => randomBytes(32).toString('base64url'),
    appUrl: config().APP_URL,
    accountCountry: accountCountry(),
    onGraphError: (error) => logger.warn('WhatsApp Graph call failed', { kind: error.kind, code: error.code, reason: error.message }),
    health: integrationHealth(),
  }),
);
