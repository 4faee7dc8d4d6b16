/** Wires the twilio-integration group: the integrations table, the secret box (KMS in AWS) and Twilio's REST API. */
import { randomUUID } from 'node:crypto';
import { config } from '../config.js';
import { logger } from '../adapters/logger.js';
import { createTwilioIntegrationService } from '../domain/integrations/twilio.js';
import { once } from '../lib/once.js';
import { secretBox } from './secrets.js';
import { twilioAccountApi, twilioIntegrations } from './twilio.js';

export const twilioIntegrationService = once(() =>
  createTwilioIntegrationService({
    integrations: twilioIntegrations(),
    secrets: secretBox(),
    twilio: twilioAccountApi(),
    newId: randomUUID,
    appUrl: config().APP_URL,
    onTwilioError: (error) => logger.warn('Twilio REST call failed', { kind: error.kind, status: error.status, reason: error.message }),
  }),
);
