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
import { hasStoredSecret, keepStoredSecrets, secretField, textOf } from './secretForm';

export type TwilioFormValues = Required<z.input<typeof twilioSetupRequest>>;

/** The form schema: the contract's, with the auth token required when none is stored. */
export function twilioForm(storedToken: boolean) {
  return z.extend(twilioSetupRequest, {
    authToken: secretField(storedToken, voiceMessages.authTokenRequired, 200),
  });
}


/** The form's starting values: the stored SID and number, the stored token masked. */
export function formFromIntegration(integration: IntegrationView | null | undefined): TwilioFormValues {
  const c = integration?.credentials ?? {};
  return {
    accountSid: textOf(c.accountSid),
    authToken: hasStoredSecret(integration, 'authToken') ? MASKED_SECRET : '',
    phoneNumber: textOf(c.phoneNumber) || textOf(integration?.settings?.phoneNumber),
  };
}

/** The setup/test body; an emptied stored token is sent as '***' so the server keeps it. */
export function setupBody(values: TwilioSetupInput): TwilioSetupInput {
  return keepStoredSecrets(values, ['authToken']);
}

/** The status callback URL Twilio posts call progress to: the voice webhook URL + '/status'. */
export function statusCallbackOf(webhookUrl: string): string {
  return webhookUrl ? `${webhookUrl.replace(/\/+$/, '')}/status` : '';
}
