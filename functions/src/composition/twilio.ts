/**
 * Twilio wiring shared by the voice features: the user's Twilio Voice integration with its auth
 * token opened (the call loop verifies X-Twilio-Signature with it; the recording proxy
 * authenticates with it). DynamoDB and the secret box only: neither the OpenAI SDK nor the twilio
 * REST pieces (those are composition/twilio-integration.ts's twilioAccountApi(), only the
 * integration setup/test group needs them).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoIntegrationRepository } from '../adapters/dynamo/integrations.js';
import { createVoiceIntegrationReader } from '../domain/voice/twilio-integration.js';
import type { VoiceIntegrationReader } from '../domain/voice/ports.js';
import { once } from '../lib/once.js';
import { secretBox } from './secrets.js';

/** The integrations table (built here, not taken from ai.ts, so voice bundles skip the OpenAI SDK). */
export const twilioIntegrations = once(() => new DynamoIntegrationRepository(documentClient(), config().TABLE_NAME));

/** The user's Twilio Voice integration ({accountSid, authToken opened, phoneNumber, isActive}), or null. */
export const voiceIntegrationReader = once(
  (): VoiceIntegrationReader => createVoiceIntegrationReader({ integrations: twilioIntegrations(), secrets: secretBox() }),
);
