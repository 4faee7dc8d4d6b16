/**
 * The Twilio Voice setup form (SPEC §5 Twilio Voice: account SID, auth token, phone number in
 * E.164, all required), built on the contract's setup schema so the messages are the server's. A
 * stored auth token reads '***' and is kept unless the user types a new one.
 */
import * as z from 'zod/mini';
import {
  MASKED_SECRET,
  twilioSetupRequest,
  voiceMessages,
  type IntegrationView,
  type TwilioSetupInput,
} from '@agentdesk/functions/contract';

export type TwilioFormValues = Required<z.input<typeof twilioSetupRequest>>;

/** The form schema: the contract's, with the auth token required when none is stored. */
export function twilioForm(storedToken: boolean) {
  return z.extend(twilioSetupRequest, {
    authToken: storedToken
      ? z.string().check(z.trim(), z.maxLength(200))
      : z
          .string({ error: voiceMessages.authTokenRequired })
          .check(
            z.trim(),
            z.minLength(1, voiceMessages.authTokenRequired),
            z.refine((v) => v !== MASKED_SECRET, voiceMessages.authTokenRequired),
            z.maxLength(200),
          ),
  });
}

/** Whether the integration holds an auth token (it reads '***'). */
export function hasStoredToken(integration: IntegrationView | null | undefined): boolean {
  return Boolean(integration?.credentials?.authToken);
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The form's starting values: the stored SID and number, the stored token masked. */
export function formFromIntegration(integration: IntegrationView | null | undefined): TwilioFormValues {
  const c = integration?.credentials ?? {};
  return {
    accountSid: text(c.accountSid),
    authToken: hasStoredToken(integration) ? MASKED_SECRET : '',
    phoneNumber: text(c.phoneNumber) || text(integration?.settings?.phoneNumber),
  };
}

/** The setup/test body; an emptied stored token is sent as '***' so the server keeps it. */
export function setupBody(values: TwilioSetupInput): TwilioSetupInput {
  return { ...values, authToken: values.authToken === '' ? MASKED_SECRET : values.authToken };
}

/** The status callback URL Twilio posts call progress to: the voice webhook URL + '/status'. */
export function statusCallbackOf(webhookUrl: string): string {
  return webhookUrl ? `${webhookUrl.replace(/\/+$/, '')}/status` : '';
}
