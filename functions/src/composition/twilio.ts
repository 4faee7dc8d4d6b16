/**
 * Twilio wiring shared by the voice features: Twilio's REST API (the official SDK pieces, base URL
 * TWILIO_API_URL for the local fake) and the user's Twilio Voice integration with its auth token
 * opened (the call loop verifies signatures with it; the recording proxy authenticates with it).
 * DynamoDB and the secret box only: no OpenAI SDK here.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoIntegrationRepository } from '../adapters/dynamo/integrations.js';
import { SdkTwilioAccountApi } from '../adapters/twilio/account-api.js';
import { createVoiceIntegrationReader } from '../domain/integrations/twilio.js';
import type { TwilioAccountApi, VoiceIntegrationReader } from '../domain/voice/ports.js';
import { once } from '../lib/once.js';
import { secretBox } from './secrets.js';

export const twilioAccountApi = /* @__PURE__ */ once((): TwilioAccountApi => new SdkTwilioAccountApi({ baseUrl: config().TWILIO_API_URL }));

/** The integrations table (built here, not taken from ai.ts, so voice bundles skip the OpenAI SDK). */
export const twilioIntegrations = /* @__PURE__ */ once(() => new DynamoIntegrationRepository(documentClient(), config().TABLE_NAME));

/** The user's Twilio Voice integration ({accountSid, authToken opened, phoneNumber, isActive}), or null. */
export const voiceIntegrationReader = /* @__PURE__ */ once(
  (): VoiceIntegrationReader => createVoiceIntegrationReader({ integrations: twilioIntegrations(), secrets: secretBox() }),
);
