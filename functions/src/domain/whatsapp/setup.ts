/**
 * The WhatsApp Business integration (SPEC §7 Integrations, issue 6): setup and test.
 *
 * Setup stores the bearer token, the app secret (verifies webhook signatures) and a generated
 * webhook verify token sealed; businessId and phoneId plain; the phone number in E.164 in
 * settings. The first setup needs the token and the app secret; on an edit '' or '***' keeps the
 * stored ones, and the verify token and integration id (in the webhook URL Meta calls) stay the
 * same. It does not call Meta: /test does (GET /{phoneId} with the token).
 */
import { MASKED_SECRET } from '../../contract/integrations.js';
import { whatsappMessages, type WhatsAppSetupInput, type WhatsAppSetupResult } from '../../contract/whatsapp.js';
import { businessNumberE164, phoneInvalidFor } from '../contacts/text.js';
import { ValidationError } from '../errors.js';
import type { SecretBox } from '../secrets/ports.js';
import type { IntegrationHealthReports } from '../integrations/health.js';
import type { IntegrationRecord, IntegrationRepository } from '../integrations/records.js';
import { withGraphErrors } from './graph-errors.js';
import { WHATSAPP_INTEGRATION } from './integration.js';
import type { GraphClient, GraphError, GraphPhoneNumber } from './ports.js';

export interface WhatsAppIntegrationDeps {
  integrations: IntegrationRepository;
  secrets: SecretBox;
  graph: GraphClient;
  newId: () => string;
  /** A fresh webhook verify token (random, 32+ characters). */
  newVerifyToken: () => string;
  /** Public origin of the API (config().APP_URL). */
  appUrl: string;
  /** The account's country (issue 19): a business number typed without a prefix is read in it. */
  accountCountry(userId: string): Promise<string>;
  now?: () => Date;
  onGraphError?: (error: GraphError) => void;
  /**
   * The stored token's health (issue 34): testing it tells whether it works (a refusal flags the
   * integration, a success clears the flag). Absent: not reported.
   */
  health?: IntegrationHealthReports;
}

const isNewSecret = (value: string | undefined): value is string => !!value && value !== MASKED_SECRET;

/**
 * E.164 of the business number, read in the account's country when typed without a prefix
 * (issue 19: "911 22 23 33" in Spain had become +911222333, an Indian number).
 */
export function whatsappE164(input: string, country: string): string {
  const e164 = businessNumberE164(input, country);
  if (!e164) throw new ValidationError(phoneInvalidFor(country), 'phoneNumber');
  return e164;
}

export const whatsappWebhookUrl = (appUrl: string, integrationId: string) =>
  `${appUrl.replace(/\/+$/, '')}/api/webhooks/whatsapp-business/${encodeURIComponent(integrationId)}`;

export function createWhatsAppIntegrationService(deps: WhatsAppIntegrationDeps) {
  const now = () => (deps.now?.() ?? new Date()).toISOString();

  return {
    async setup(userId: string, input: WhatsAppSetupInput): Promise<WhatsAppSetupResult> {
      const phoneNumber = whatsappE164(input.phoneNumber, await deps.accountCountry(userId));
      const existing = await deps.integrations.get(userId, WHATSAPP_INTEGRATION);
      const stored = existing?.credentials ?? {};
      if (!isNewSecret(input.bearerToken) && !stored.bearerToken) throw new ValidationError(whatsappMessages.bearerTokenRequired, 'bearerToken');
      if (!isNewSecret(input.appSecret) && !stored.appSecret) throw new ValidationError(whatsappMessages.appSecretRequired, 'appSecret');
      const [bearerToken, appSecret] = await Promise.all([
        isNewSecret(input.bearerToken) ? deps.secrets.seal(input.bearerToken) : stored.bearerToken!,
        isNewSecret(input.appSecret) ? deps.secrets.seal(input.appSecret) : stored.appSecret!,
      ]);
      let webhookVerifyToken: string;
      let sealedVerifyToken: string;
      if (stored.webhookVerifyToken) {
        sealedVerifyToken = stored.webhookVerifyToken;
        webhookVerifyToken = await deps.secrets.open(sealedVerifyToken);
      } else {
        webhookVerifyToken = deps.newVerifyToken();
        sealedVerifyToken = await deps.secrets.seal(webhookVerifyToken);
      }
      const id = existing?.id ?? deps.newId();
      const webhookUrl = whatsappWebhookUrl(deps.appUrl, id);
      const at = now();
      // A new token (or number) starts healthy; saved unchanged, a needs-attention flag stays until Meta takes the token again.
      const sameCredentials = !isNewSecret(input.bearerToken) && stored.phoneId === input.phoneId && stored.businessId === input.businessId;
      const record: IntegrationRecord = {
        id,
        userId,
        type: WHATSAPP_INTEGRATION,
        isActive: true,
        credentials: {
          bearerToken,
          businessId: input.businessId,
          phoneId: input.phoneId,
          appSecret,
          webhookVerifyToken: sealedVerifyToken,
        },
        settings: { ...existing?.settings, phoneNumber },
        webhookUrl,
        ...(sameCredentials && existing?.health ? { health: existing.health } : {}),
        createdAt: existing?.createdAt ?? at,
        updatedAt: at,
      };
      await deps.integrations.put(record);
      return { webhookUrl, webhookVerifyToken };
    },

    /**
     * GET /{phoneId} with the given token and phone id, or the stored ones for what is not given
     * ('' or '***' = stored). Fails with the Graph error's message (graphErrorToDomain).
     */
    async test(userId: string, input: Partial<WhatsAppSetupInput>): Promise<GraphPhoneNumber> {
      const existing = await deps.integrations.get(userId, WHATSAPP_INTEGRATION);
      const stored = existing?.credentials ?? {};
      let bearerToken: string;
      if (isNewSecret(input.bearerToken)) bearerToken = input.bearerToken;
      else if (stored.bearerToken) bearerToken = await deps.secrets.open(stored.bearerToken);
      else throw new ValidationError(whatsappMessages.bearerTokenRequired, 'bearerToken');
      const phoneId = input.phoneId || stored.phoneId;
      if (!phoneId) throw new ValidationError(whatsappMessages.phoneIdRequired, 'phoneId');
      const businessId = input.businessId || stored.businessId || '';
      // Testing the stored token tells its health (issue 34); a token typed but not saved does not.
      const testsStored = existing && !isNewSecret(input.bearerToken) && phoneId === stored.phoneId ? existing : undefined;
      return withGraphErrors(async () => {
        try {
          const phone = await deps.graph.getPhoneNumber({ bearerToken, businessId, phoneId });
          if (testsStored) await deps.health?.recovered(userId, WHATSAPP_INTEGRATION, testsStored.health);
          return phone;
        } catch (error) {
          if (testsStored) await deps.health?.failed(userId, error, testsStored.health);
          throw error;
        }
      }, deps.onGraphError);
    },
  };
}

export type WhatsAppIntegrationService = ReturnType<typeof createWhatsAppIntegrationService>;
