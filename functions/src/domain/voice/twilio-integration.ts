/**
 * The stored Twilio Voice integration as the voice features read it (the call loop verifies
 * X-Twilio-Signature with its auth token; the recording proxy authenticates with it). Setup and
 * test are in twilio-setup.ts, kept apart so the call loop's bundle does not carry them.
 *
 * Record layout (IntegrationRecord, type 'twilio-voice'):
 *   credentials.accountSid                 plain ('AC' + 32 hex)
 *   credentials.authToken                  sealed (SecretBox), shown '***'
 *   settings.phoneNumber                   the business number, E.164
 *   settings.statusCallbackUrl             {APP_URL}/api/webhooks/twilio/{userId}/voice/status
 *   settings.numberConfigured              whether setup pointed the number at our URLs
 *   webhookUrl                             {APP_URL}/api/webhooks/twilio/{userId}/voice
 */
import type { IntegrationRepository } from '../integrations/records.js';
import type { SecretBox } from '../secrets/ports.js';
import type { VoiceIntegration, VoiceIntegrationReader } from './ports.js';

export const TWILIO_INTEGRATION = 'twilio-voice' as const;

/** The user's Twilio Voice integration with the auth token opened (the call loop, the recording proxy). */
export function createVoiceIntegrationReader(deps: {
  integrations: Pick<IntegrationRepository, 'get'>;
  secrets: SecretBox;
}): VoiceIntegrationReader {
  return {
    async get(userId: string): Promise<VoiceIntegration | null> {
      const record = await deps.integrations.get(userId, TWILIO_INTEGRATION);
      const { accountSid, authToken } = record?.credentials ?? {};
      if (!record || !accountSid || !authToken) return null;
      const phoneNumber = record.settings.phoneNumber;
      return {
        accountSid,
        authToken: await deps.secrets.open(authToken),
        phoneNumber: typeof phoneNumber === 'string' ? phoneNumber : '',
        isActive: record.isActive,
        ...(record.health ? { health: record.health } : {}),
      };
    },
  };
}
