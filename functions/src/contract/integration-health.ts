/**
 * An integration whose credentials stopped working (issue 34 item 6): a token Meta revoked, an
 * OpenAI key deleted or out of credit, a Twilio auth token changed. The integration keeps its
 * `isActive` (the owner's choice) and gains `health` until the owner saves or tests it again
 * successfully, or a later call with the same credentials works. The reasons are keys: the UI
 * says them in the user's language with how to fix each; the English sentences below are what an
 * API client reads (and what a failed message's `error` holds). Zod-free: the voice relay's
 * model calls flag the ChatGPT integration too.
 */
import type { IntegrationType } from './integrations.js';

export const INTEGRATION_HEALTH_REASONS = [
  /** Meta 190 (or an HTTP 401): the access token expired or was revoked. */
  'whatsapp_token_invalid',
  /** Meta 10, 200-299, 131005: the token lacks a permission (whatsapp_business_messaging) or lost it. */
  'whatsapp_permission_missing',
  /** Meta 131031 (account locked), 368 (blocked for a policy violation). */
  'whatsapp_account_locked',
  /** OpenAI 401 (invalid_api_key): the key is wrong, deleted or revoked. */
  'openai_key_invalid',
  /** OpenAI 403: the key may not be used for this (its project's permissions, an unsupported country). */
  'openai_permission_missing',
  /** OpenAI 429 insufficient_quota: no credit left or the spending limit reached. */
  'openai_quota_exhausted',
  /** Twilio 20003 (HTTP 401/403): the Account SID or the auth token is refused. */
  'twilio_credentials_invalid',
] as const;
export type IntegrationHealthReason = (typeof INTEGRATION_HEALTH_REASONS)[number];

/** Present on an integration (GET /api/integrations) only while it needs attention. */
export interface IntegrationHealth {
  status: 'needs_attention';
  reason: IntegrationHealthReason;
  /** The provider's own code: Meta '190', OpenAI 'invalid_api_key', Twilio '20003' (else the HTTP status). */
  code: string;
  /** When it was flagged (ISO). */
  since: string;
}

/** The integration each reason belongs to. */
export const HEALTH_REASON_INTEGRATION: Readonly<Record<IntegrationHealthReason, IntegrationType>> = {
  whatsapp_token_invalid: 'whatsapp-business',
  whatsapp_permission_missing: 'whatsapp-business',
  whatsapp_account_locked: 'whatsapp-business',
  openai_key_invalid: 'chatgpt',
  openai_permission_missing: 'chatgpt',
  openai_quota_exhausted: 'chatgpt',
  twilio_credentials_invalid: 'twilio-voice',
};

/** Who answered the code, as the UI prefixes it ("Meta: 190 — …"). */
export const INTEGRATION_PROVIDERS: Readonly<Record<IntegrationType, string>> = {
  'whatsapp-business': 'Meta',
  chatgpt: 'OpenAI',
  'twilio-voice': 'Twilio',
};

/** Product names (the same in every language): a notification names the integration with it. */
export const INTEGRATION_NAMES: Readonly<Record<IntegrationType, string>> = {
  'whatsapp-business': 'WhatsApp Business',
  chatgpt: 'ChatGPT',
  'twilio-voice': 'Twilio Voice',
};

export const isIntegrationHealthReason = (value: unknown): value is IntegrationHealthReason =>
  typeof value === 'string' && (INTEGRATION_HEALTH_REASONS as readonly string[]).includes(value);

/** Each reason in words (English; the UI translates them, frontend/src/i18n/server.es.json). */
export const integrationHealthReasons: Readonly<Record<IntegrationHealthReason, string>> = {
  whatsapp_token_invalid: 'The WhatsApp access token has expired or was revoked.',
  whatsapp_permission_missing: 'The WhatsApp access token is missing a permission it needs, or the permission was removed.',
  whatsapp_account_locked: 'Meta locked or restricted the WhatsApp Business Account, so no message can be sent.',
  openai_key_invalid: 'OpenAI rejected the API key: it is wrong, or it was deleted or revoked.',
  openai_permission_missing: 'OpenAI does not allow this API key to use the model (its project, its permissions or the country).',
  openai_quota_exhausted: 'The OpenAI account has no credit left or reached its spending limit.',
  twilio_credentials_invalid: 'Twilio rejected the Account SID or the auth token: the token may have been changed.',
};
