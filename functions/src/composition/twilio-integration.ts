/**
 * Wires the twilio-integration group: the integrations table, the secret box (KMS in AWS) and
 * Twilio's REST API (plain fetch, TWILIO_API_URL for the local fake). The REST
 * API lives here rather than in twilio.ts so the call loop's bundle does not carry it.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../config.js';
import { logger } from '../adapters/logger.js';
import { FetchTwilioAccountApi } from '../adapters/twilio/account-api.js';
import { createTwilioIntegrationService } from '../domain/voice/twilio-setup.js';
import type { TwilioAccountApi } from '../domain/voice/ports.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { integrationHealth } from './integration-health.js';
import { secretBox } from './secrets.js';
import { twilioIntegrations } from './twilio.js';

export const twilioAccountApi = once((): TwilioAccountApi => new FetchTwilioAccountApi({ baseUrl: config().TWILIO_API_URL }));

// Pure: the privacy API bundle reaches twilioAccountApi through this module and leaves the setup service out.
export const twilioIntegrationService = /* @__PURE__ */ once(() =>
  createTwilioIntegrationService({
    integrations: twilioIntegrations(),
    secrets: secretBox(),
    twilio: twilioAccountApi(),
    newId: randomUUID,
    appUrl: config().APP_URL,
    accountCountry: accountCountry(),
    onTwilioError: (error) => logger.warn('Twilio REST call failed', { kind: error.kind, status: error.status, code: error.code, reason: error.message }),
    health: integrationHealth(),
  }),
);
