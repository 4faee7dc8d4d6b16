/**
 * The stored WhatsApp Business integration as the WhatsApp features read it: where each value
 * lives in the integration record and the user's connection with the token opened (sends). Kept
 * free of the API texts so the call-summary worker, which only sends, does not bundle them
 * (graph-errors.ts maps Graph failures for the API).
 *
 * Record layout (IntegrationRecord, type 'whatsapp-business'):
 *   credentials.bearerToken, .appSecret, .webhookVerifyToken   sealed (SecretBox), shown '***'
 *   credentials.businessId, .phoneId                            plain
 *   settings.phoneNumber                                        E.164
 *   webhookUrl                                                  {APP_URL}/api/webhooks/whatsapp-business/{id}
 */
import type { IntegrationHealth } from '../../contract/integration-health.js';
import type { IntegrationType } from '../../contract/integrations.js';
import type { IntegrationRecord } from '../integrations/records.js';
import type { SecretBox } from '../secrets/ports.js';
import type { WhatsAppCredentials } from './ports.js';

export const WHATSAPP_INTEGRATION: IntegrationType = 'whatsapp-business';

/** A user's WhatsApp number ready to send from. */
export interface WhatsAppConnection {
  credentials: WhatsAppCredentials;
  /** The business number, E.164. */
  phoneNumber: string;
  integrationId: string;
  /** Set while the integration needs attention (issue 34): a send that works clears it (domain/integrations/health.ts). */
  health?: IntegrationHealth;
}

export interface WhatsAppIntegrationReader {
  get(userId: string, type: IntegrationType): Promise<IntegrationRecord | null>;
}

export function createWhatsAppConnector(deps: { integrations: WhatsAppIntegrationReader; secrets: SecretBox }) {
  return {
    /** The user's active WhatsApp integration with its token opened, or null when missing or inactive. */
    async forUser(userId: string): Promise<WhatsAppConnection | null> {
      const record = await deps.integrations.get(userId, WHATSAPP_INTEGRATION);
      const { bearerToken, businessId = '', phoneId } = record?.credentials ?? {};
      if (!record?.isActive || !bearerToken || !phoneId) return null;
      return {
        credentials: { bearerToken: await deps.secrets.open(bearerToken), businessId, phoneId },
        phoneNumber: typeof record.settings.phoneNumber === 'string' ? record.settings.phoneNumber : '',
        integrationId: record.id,
        ...(record.health ? { health: record.health } : {}),
      };
    },
  };
}

export type WhatsAppConnector = ReturnType<typeof createWhatsAppConnector>;
