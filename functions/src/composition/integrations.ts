/** Wires the integrations group: the table, the secret box (KMS in AWS) and the user's AI models. */
import { randomUUID } from 'node:crypto';
import { logger } from '../adapters/logger.js';
import { createIntegrationService } from '../domain/integrations/service.js';
import { once } from '../lib/once.js';
import { aiModels, integrationRepository, isPublicUrl } from './ai.js';
import { secretBox } from './secrets.js';

export const integrationService = once(() =>
  createIntegrationService({
    integrations: integrationRepository(),
    secrets: secretBox(),
    models: aiModels(),
    isPublicUrl,
    newId: randomUUID,
    onModelError: (error) => logger.warn('Model call failed', { kind: error.kind, reason: error.message }),
  }),
);
