/**
 * The WhatsApp Business setup form (SPEC §5 WhatsApp Business setup), built on the contract's
 * setup schema so the messages are the server's: Business ID, Phone ID and the phone number
 * (profile pattern) always; the bearer token and the app secret (beyond the spec: it verifies the
 * webhook signatures) only when none is stored. A stored secret reads '***' and is kept unless
 * the user types a new one.
 */
import * as z from 'zod/mini';
import {
  MASKED_SECRET,
  whatsappMessages,
  whatsappSetupRequest,
  type IntegrationView,
  type WhatsAppSetupInput,
} from '@agentdesk/functions/contract';
import { hasStoredSecret, keepStoredSecrets, secretField, textOf } from './secretForm';

export type WhatsAppFormValues = z.input<ReturnType<typeof whatsAppForm>>;

/** The stored credential keys of the two secrets. */
export type WhatsAppSecret = 'bearerToken' | 'appSecret';

/** The form schema: the contract's, with the secrets required when none is stored. */
export function whatsAppForm(stored: Record<WhatsAppSecret, boolean>) {
  return z.extend(whatsappSetupRequest, {
    bearerToken: secretField(stored.bearerToken, whatsappMessages.bearerTokenRequired, 1000),
    appSecret: secretField(stored.appSecret, whatsappMessages.appSecretRequired, 200),
  });
}


/** The form's starting values: the stored ids and number, the stored secrets masked. */
export function formFromIntegration(integration: IntegrationView | null | undefined): WhatsAppFormValues {
  const c = integration?.credentials ?? {};
  return {
    bearerToken: hasStoredSecret(integration, 'bearerToken') ? MASKED_SECRET : '',
    businessId: textOf(c.businessId),
    phoneId: textOf(c.phoneId),
    phoneNumber: textOf(integration?.settings?.phoneNumber),
    appSecret: hasStoredSecret(integration, 'appSecret') ? MASKED_SECRET : '',
  };
}

/** The setup/test body; an emptied stored secret is sent as '***' so the server keeps it. */
export function setupBody(values: WhatsAppSetupInput): WhatsAppSetupInput {
  return keepStoredSecrets(values, ['bearerToken', 'appSecret']);
}

/** The webhook verify token when the server shows it (not masked). */
export function visibleVerifyToken(integration: IntegrationView | null | undefined): string {
  const token = textOf(integration?.credentials?.webhookVerifyToken);
  return token === MASKED_SECRET ? '' : token;
}
