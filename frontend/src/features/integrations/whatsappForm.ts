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

export type WhatsAppFormValues = z.input<ReturnType<typeof whatsAppForm>>;

/** The stored credential keys of the two secrets. */
export type WhatsAppSecret = 'bearerToken' | 'appSecret';

/** A secret field: kept when stored ('***' or empty), else required (not empty, not the mask). */
const secret = (stored: boolean, message: string, max: number) =>
  stored
    ? z.string().check(z.trim(), z.maxLength(max))
    : z.string({ error: message }).check(z.trim(), z.minLength(1, message), z.refine((v) => v !== MASKED_SECRET, message), z.maxLength(max));

/** The form schema: the contract's, with the secrets required when none is stored. */
export function whatsAppForm(stored: Record<WhatsAppSecret, boolean>) {
  return z.extend(whatsappSetupRequest, {
    bearerToken: secret(stored.bearerToken, whatsappMessages.bearerTokenRequired, 1000),
    appSecret: secret(stored.appSecret, whatsappMessages.appSecretRequired, 200),
  });
}

/** Whether the integration holds this secret (it reads '***'). */
export function hasStoredSecret(integration: IntegrationView | null | undefined, key: WhatsAppSecret): boolean {
  return Boolean(integration?.credentials?.[key]);
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The form's starting values: the stored ids and number, the stored secrets masked. */
export function formFromIntegration(integration: IntegrationView | null | undefined): WhatsAppFormValues {
  const c = integration?.credentials ?? {};
  return {
    bearerToken: hasStoredSecret(integration, 'bearerToken') ? MASKED_SECRET : '',
    businessId: text(c.businessId),
    phoneId: text(c.phoneId),
    phoneNumber: text(integration?.settings?.phoneNumber),
    appSecret: hasStoredSecret(integration, 'appSecret') ? MASKED_SECRET : '',
  };
}

/** The setup/test body; an emptied stored secret is sent as '***' so the server keeps it. */
export function setupBody(values: WhatsAppSetupInput): WhatsAppSetupInput {
  return {
    ...values,
    bearerToken: values.bearerToken === '' ? MASKED_SECRET : values.bearerToken,
    appSecret: values.appSecret === '' ? MASKED_SECRET : values.appSecret,
  };
}

/** The webhook verify token when the server shows it (not masked). */
export function visibleVerifyToken(integration: IntegrationView | null | undefined): string {
  const token = text(integration?.credentials?.webhookVerifyToken);
  return token === MASKED_SECRET ? '' : token;
}
