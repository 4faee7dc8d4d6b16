/**
 * The Twilio Voice integration's setup and test (SPEC §5, §7 Integrations, issue 7); the record
 * layout and the reader the call loop uses are in twilio-integration.ts.
 *
 * Setup stores first, then points the number's voice URL and status callback at ours through
 * Twilio's REST API, best effort: a rejected token, an unknown number or an outage still saves the
 * integration and answers numberConfigured false with the reason (the user can set both URLs in
 * the Twilio console). The auth token is required the first time; '' or '***' keeps the stored one.
 */
import { MASKED_SECRET } from '../../contract/integrations.js';
import { voiceMessages, type TwilioSetupInput, type TwilioSetupResult, type TwilioTestResult } from '../../contract/voice.js';
import { businessNumberE164, phoneInvalidFor } from '../contacts/text.js';
import { BadGatewayError, ValidationError, type DomainError } from '../errors.js';
import type { IntegrationHealthReports } from '../integrations/health.js';
import type { IntegrationRecord, IntegrationRepository } from '../integrations/records.js';
import type { SecretBox } from '../secrets/ports.js';
import { TwilioError, type TwilioAccountApi, type TwilioCredentials } from './ports.js';
import { TWILIO_INTEGRATION } from './twilio-integration.js';

export interface TwilioIntegrationDeps {
  integrations: IntegrationRepository;
  secrets: SecretBox;
  twilio: TwilioAccountApi;
  newId: () => string;
  /** Public origin of the API (config().APP_URL): Twilio calls these URLs and signs over them. */
  appUrl: string;
  /** The account's country (issue 19): a number typed without a prefix is read in it. */
  accountCountry(userId: string): Promise<string>;
  now?: () => Date;
  onTwilioError?: (error: TwilioError) => void;
  /**
   * The stored credentials' health (issue 34): Twilio refusing them flags the integration, a call
   * that works with them clears the flag. Absent: not reported.
   */
  health?: IntegrationHealthReports;
}

const isNewSecret = (value: string | undefined): value is string => !!value && value !== MASKED_SECRET;

export function twilioWebhookUrls(appUrl: string, userId: string): { webhookUrl: string; statusCallbackUrl: string } {
  const webhookUrl = `${appUrl.replace(/\/+$/, '')}/api/webhooks/twilio/${encodeURIComponent(userId)}/voice`;
  return { webhookUrl, statusCallbackUrl: `${webhookUrl}/status` };
}

/** A Twilio failure as the user reads it (never Twilio's own text). */
export function twilioErrorMessage(error: TwilioError): string {
  switch (error.kind) {
    case 'auth':
      return voiceMessages.twilioAuthFailed;
    case 'not_found':
      return voiceMessages.twilioNumberNotFound;
    default:
      return voiceMessages.twilioUnavailable;
  }
}

/** For /test: rejected credentials are the user's to fix (400); anything else is 502. */
function twilioErrorToDomain(error: TwilioError): DomainError {
  return error.kind === 'unavailable' ? new BadGatewayError(voiceMessages.twilioUnavailable) : new ValidationError(voiceMessages.twilioAuthFailed);
}

export function createTwilioIntegrationService(deps: TwilioIntegrationDeps) {
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  const reportError = (error: unknown) => {
    if (error instanceof TwilioError) deps.onTwilioError?.(error);
  };

  /**
   * Finds the number in the account and points it at our URLs; the reason when it could not. The
   * credentials are the stored ones: Twilio's answer is their health (issue 34).
   */
  async function configureNumber(
    userId: string,
    record: IntegrationRecord,
    creds: TwilioCredentials,
    phoneNumber: string,
    urls: { webhookUrl: string; statusCallbackUrl: string },
  ) {
    try {
      const numberSid = await deps.twilio.findNumber(creds, phoneNumber);
      await deps.health?.recovered(userId, TWILIO_INTEGRATION, record.health);
      if (!numberSid) return { numberConfigured: false, numberConfigError: voiceMessages.twilioNumberNotFound };
      await deps.twilio.configureNumber(creds, numberSid, { voiceUrl: urls.webhookUrl, statusCallback: urls.statusCallbackUrl });
      return { numberConfigured: true };
    } catch (error) {
      if (!(error instanceof TwilioError)) throw error;
      reportError(error);
      await deps.health?.failed(userId, error, record.health);
      return { numberConfigured: false, numberConfigError: twilioErrorMessage(error) };
    }
  }

  /** The business number in E.164 ("911 22 23 33" in an ES account → +34911222333), or the 400 naming the form. */
  async function e164Of(userId: string, typed: string): Promise<string> {
    const country = await deps.accountCountry(userId);
    const e164 = businessNumberE164(typed, country);
    if (!e164) throw new ValidationError(phoneInvalidFor(country), 'phoneNumber');
    return e164;
  }

  return {
    async setup(userId: string, typed: TwilioSetupInput): Promise<TwilioSetupResult> {
      const input = { ...typed, phoneNumber: await e164Of(userId, typed.phoneNumber) };
      const existing = await deps.integrations.get(userId, TWILIO_INTEGRATION);
      const storedToken = existing?.credentials.authToken;
      if (!isNewSecret(input.authToken) && !storedToken) throw new ValidationError(voiceMessages.authTokenRequired, 'authToken');
      const authToken = isNewSecret(input.authToken) ? input.authToken : await deps.secrets.open(storedToken!);
      const sealedToken = isNewSecret(input.authToken) ? await deps.secrets.seal(input.authToken) : storedToken!;
      const urls = twilioWebhookUrls(deps.appUrl, userId);
      const at = now();
      // New credentials start healthy; saved unchanged, a needs-attention flag stays until Twilio takes them.
      const sameCredentials = !isNewSecret(input.authToken) && existing?.credentials.accountSid === input.accountSid;
      const record: IntegrationRecord = {
        id: existing?.id ?? deps.newId(),
        userId,
        type: TWILIO_INTEGRATION,
        isActive: true,
        credentials: { accountSid: input.accountSid, authToken: sealedToken },
        settings: { ...existing?.settings, phoneNumber: input.phoneNumber, statusCallbackUrl: urls.statusCallbackUrl, numberConfigured: false },
        webhookUrl: urls.webhookUrl,
        ...(sameCredentials && existing?.health ? { health: existing.health } : {}),
        createdAt: existing?.createdAt ?? at,
        updatedAt: at,
      };
      await deps.integrations.put(record);
      const configured = await configureNumber(userId, record, { accountSid: input.accountSid, authToken }, input.phoneNumber, urls);
      if (configured.numberConfigured) {
        await deps.integrations.update(userId, TWILIO_INTEGRATION, {
          settings: { ...record.settings, numberConfigured: true },
          updatedAt: now(),
        });
      }
      return { ...urls, ...configured };
    },

    /**
     * Fetches the account and looks the number up with the given values, or the stored ones for
     * what is not given ('' or '***' = stored).
     */
    async test(userId: string, input: Partial<TwilioSetupInput>): Promise<TwilioTestResult> {
      const existing = await deps.integrations.get(userId, TWILIO_INTEGRATION);
      const accountSid = input.accountSid || existing?.credentials.accountSid;
      if (!accountSid) throw new ValidationError(existing ? voiceMessages.accountSidRequired : voiceMessages.notConnected, 'accountSid');
      let authToken: string;
      if (isNewSecret(input.authToken)) authToken = input.authToken;
      else if (existing?.credentials.authToken) authToken = await deps.secrets.open(existing.credentials.authToken);
      else throw new ValidationError(voiceMessages.authTokenRequired, 'authToken');
      const stored = existing?.settings.phoneNumber;
      const phoneNumber = input.phoneNumber ? await e164Of(userId, input.phoneNumber) : typeof stored === 'string' ? stored : '';
      const creds = { accountSid, authToken };
      // Testing the stored credentials tells their health (issue 34); values typed but not saved do not.
      const testsStored = existing && !isNewSecret(input.authToken) && accountSid === existing.credentials.accountSid ? existing : undefined;
      try {
        const account = await deps.twilio.fetchAccount(creds);
        if (testsStored) await deps.health?.recovered(userId, TWILIO_INTEGRATION, testsStored.health);
        const numberFound = phoneNumber ? (await deps.twilio.findNumber(creds, phoneNumber)) !== null : false;
        return { accountName: account.friendlyName, accountStatus: account.status, numberFound };
      } catch (error) {
        if (!(error instanceof TwilioError)) throw error;
        reportError(error);
        if (testsStored) await deps.health?.failed(userId, error, testsStored.health);
        throw twilioErrorToDomain(error);
      }
    },
  };
}

export type TwilioIntegrationService = ReturnType<typeof createTwilioIntegrationService>;
