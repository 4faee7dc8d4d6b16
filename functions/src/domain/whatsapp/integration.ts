/**
 * The stored WhatsApp Business integration as the WhatsApp features read it: where each value
 * lives in the integration record, the user's connection with the token opened (sends), and the
 * one GraphError → HTTP error mapping (integration /test, human replies, retries).
 *
 * Record layout (IntegrationRecord, type 'whatsapp-business'):
 *   credentials.bearerToken, .appSecret, .webhookVerifyToken   sealed (SecretBox), shown '***'
 *   credentials.businessId, .phoneId                            plain
 *   settings.phoneNumber                                        E.164
 *   webhookUrl                                                  {APP_URL}/api/webhooks/whatsapp-business/{id}
 */
import type { IntegrationType } from '../../contract/integrations.js';
import { whatsappMessages } from '../../contract/whatsapp.js';
import { BadGatewayError, ValidationError, type DomainError } from '../errors.js';
import type { IntegrationRecord } from '../integrations/records.js';
import type { SecretBox } from '../secrets/ports.js';
import { GraphError, type WhatsAppCredentials } from './ports.js';

export const WHATSAPP_INTEGRATION: IntegrationType = 'whatsapp-business';

/** A user's WhatsApp number ready to send from. */
export interface WhatsAppConnection {
  credentials: WhatsAppCredentials;
  /** The business number, E.164. */
  phoneNumber: string;
  integrationId: string;
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
      };
    },
  };
}

export type WhatsAppConnector = ReturnType<typeof createWhatsAppConnector>;

/**
 * A Graph API failure as the user reads it: a rejected token or an unknown phone number id is
 * the user's to fix (400); anything else (rate limit, bad request, outage) is 502 graphUnavailable.
 */
export function graphErrorToDomain(error: GraphError): DomainError {
  switch (error.kind) {
    case 'auth':
      return new ValidationError(whatsappMessages.graphAuthFailed);
    case 'not_found':
      return new ValidationError(whatsappMessages.graphPhoneNotFound);
    default:
      return new BadGatewayError(whatsappMessages.graphUnavailable);
  }
}

/** Runs a Graph call; a GraphError becomes its DomainError (after onError), anything else propagates. */
export async function withGraphErrors<T>(run: () => Promise<T>, onError?: (error: GraphError) => void): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GraphError) {
      onError?.(error);
      throw graphErrorToDomain(error);
    }
    throw error;
  }
}
