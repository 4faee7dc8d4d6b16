/**
 * Integrations contract (SPEC §2 Integrations, §3 Integration, §5 ChatGPT, §7 Integrations, §9 models).
 * Browser-safe: no Node imports. Secrets are never returned: a stored secret reads '***'.
 */
import * as z from 'zod/mini';
import './zod-locale.js';
import { isHttpUrl } from './urls.js';

export const INTEGRATION_TYPES = ['chatgpt', 'twilio-voice', 'whatsapp-business'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export { CHATGPT_DEFAULTS, CHATGPT_LIMITS, CHATGPT_MODELS, MASKED_SECRET, type ChatGptModel } from './integration-settings.js';
import { CHATGPT_DEFAULTS, CHATGPT_LIMITS, CHATGPT_MODELS, type ChatGptModel } from './integration-settings.js';
import type { IntegrationHealth } from './integration-health.js';

export const integrationMessages = {
  apiKeyRequired: 'API key is required',
  apiKeyTooLong: `API key must be ${CHATGPT_LIMITS.apiKey} characters or less`,
  apiKeyInvalid: 'API key may only contain letters, digits and symbols, without spaces',
  modelInvalid: `Model must be one of ${CHATGPT_MODELS.join(', ')}`,
  maxTokensRange: 'Max tokens must be between 1 and 4000',
  maxTokensInteger: 'Max tokens must be a whole number',
  temperatureRange: 'Temperature must be between 0 and 2',
  temperatureStep: 'Temperature must be in steps of 0.1',
  systemPromptTooLong: `System prompt must be ${CHATGPT_LIMITS.systemPrompt} characters or less`,
  baseUrlInvalid: 'API base URL must be an http(s) URL',
  /** The base URL resolves to a loopback, private or otherwise non-public address (outbound guard). */
  baseUrlBlocked: 'API base URL must point to a public internet address',
  typeInvalid: `Integration type must be one of ${INTEGRATION_TYPES.join(', ')}`,
  notFound: 'Integration not found',
  chatgptRequired: 'ChatGPT integration is required for AI improvements',
  /** The /ask and agent calls when the integration is missing or inactive. */
  chatgptNotConnected: 'Connect the ChatGPT integration first',
  textRequired: 'Please enter some text before using AI improvement',
  textTooLong: 'Text must be 5000 characters or less',
  promptIdInvalid: 'Unknown AI prompt',
  setupSuccess: 'ChatGPT integration configured successfully',
  testSuccess: 'Connection successful',
  disconnected: 'Integration disconnected successfully',
  /** Model errors, shown as they are (never a provider's internals). */
  modelKeyRejected: 'OpenAI rejected the API key. Check the key in Integrations.',
  modelRateLimited: 'OpenAI is rate limiting this API key. Please try again in a moment.',
  modelTimeout: 'The AI model took too long to answer. Please try again.',
  modelUnavailable: 'The AI model could not be reached. Please try again later.',
  modelNotFound: 'This model is not available for the API key. Choose another model in Integrations.',
} as const;

/**
 * One entry of GET /api/integrations (and data of GET /api/integrations/{type}).
 * The list holds only the integrations the user has set up: a type that is missing is "not
 * connected" (GET /api/integrations/{type} answers 404 integrationMessages.notFound for it).
 * DELETE /api/integrations/{type} disconnects (removes it, secrets included).
 */
export interface IntegrationView {
  _id: string;
  type: IntegrationType;
  isActive: boolean;
  /** Secret values read '***'; non-secret credential values (ids, phone numbers) as stored. */
  credentials: Record<string, string>;
  settings: Record<string, unknown>;
  webhookUrl?: string;
  /**
   * Present only while the integration needs attention (issue 34): its stored credentials were
   * refused (reason and the provider's code). Cleared by a successful setup or test, or a later
   * call with the same credentials that works.
   */
  health?: IntegrationHealth;
  createdAt: string;
  updatedAt: string;
}

export interface ChatGptSettings {
  model: ChatGptModel;
  maxTokens: number;
  temperature: number;
  systemPrompt: string;
  /** Beyond the spec: an OpenAI-compatible endpoint (Azure OpenAI, a self-hosted server); '' = api.openai.com. */
  baseUrl: string;
}

const numberish = (message: string) =>
  z.pipe(
    z.union([z.number({ error: message }), z.pipe(z.string({ error: message }).check(z.trim()), z.transform(Number))], { error: message }),
    z.number({ error: message }),
  );

/** The ChatGPT settings' rules: one definition for setup (with defaults) and PUT (a partial patch). */
const chatgptSettingFields = {
  model: z.enum(CHATGPT_MODELS, { error: integrationMessages.modelInvalid }),
  maxTokens: numberish(integrationMessages.maxTokensRange).check(
    z.refine(Number.isInteger, integrationMessages.maxTokensInteger),
    z.gte(CHATGPT_LIMITS.maxTokensMin, integrationMessages.maxTokensRange),
    z.lte(CHATGPT_LIMITS.maxTokensMax, integrationMessages.maxTokensRange),
  ),
  temperature: numberish(integrationMessages.temperatureRange).check(
    z.gte(CHATGPT_LIMITS.temperatureMin, integrationMessages.temperatureRange),
    z.lte(CHATGPT_LIMITS.temperatureMax, integrationMessages.temperatureRange),
    z.refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-9, integrationMessages.temperatureStep),
  ),
  systemPrompt: z.string().check(z.trim(), z.maxLength(CHATGPT_LIMITS.systemPrompt, integrationMessages.systemPromptTooLong)),
  baseUrl: z.string().check(z.trim(), z.refine((v) => v === '' || isHttpUrl(v), integrationMessages.baseUrlInvalid)),
};

/**
 * POST /api/integrations/chatgpt/setup. `apiKey` may be '***' (or empty) when an integration exists:
 * the stored key is kept (edit mode changes settings without re-typing the key).
 */
export const chatgptSetupRequest = z.object({
  // The key travels in an Authorization header: only visible ASCII can (a zero-width space made the call throw: 502).
  apiKey: z._default(
    z.string().check(
      z.trim(),
      z.maxLength(CHATGPT_LIMITS.apiKey, integrationMessages.apiKeyTooLong),
      z.regex(/^[\x21-\x7e]*$/, integrationMessages.apiKeyInvalid),
    ),
    '',
  ),
  model: z._default(chatgptSettingFields.model, CHATGPT_DEFAULTS.model),
  maxTokens: z._default(chatgptSettingFields.maxTokens, CHATGPT_DEFAULTS.maxTokens),
  temperature: z._default(chatgptSettingFields.temperature, CHATGPT_DEFAULTS.temperature),
  systemPrompt: z._default(chatgptSettingFields.systemPrompt, ''),
  baseUrl: z._default(chatgptSettingFields.baseUrl, ''),
});
export type ChatGptSetupInput = z.infer<typeof chatgptSetupRequest>;

/** POST /api/integrations/chatgpt/test: with no body the stored key and model are tested; with a body, those values (before saving). */
export const chatgptTestRequest = z.partial(chatgptSetupRequest);

/** AI-improve prompts (the /ask promptId): one per agent text field. */
export const AI_PROMPT_IDS = ['improve-description', 'improve-objective', 'improve-instructions', 'improve-knowledge-base', 'improve-text'] as const;
export type AiPromptId = (typeof AI_PROMPT_IDS)[number];

/** POST /api/integrations/chatgpt/ask → data.response (the improved text). */
export const chatgptAskRequest = z.object({
  text: z.string({ error: integrationMessages.textRequired }).check(
    z.trim(),
    z.minLength(1, integrationMessages.textRequired),
    z.maxLength(5000, integrationMessages.textTooLong),
  ),
  promptId: z._default(z.enum(AI_PROMPT_IDS, { error: integrationMessages.promptIdInvalid }), 'improve-text'),
  /** Optional bound the answer must respect (the field's max length). */
  maxLength: z.optional(z.number().check(z.int(), z.gte(1), z.lte(5000))),
});
export type ChatGptAskInput = z.infer<typeof chatgptAskRequest>;

export interface ChatGptAskResponse {
  response: string;
}

export const integrationTypeParam = z.enum(INTEGRATION_TYPES, { error: integrationMessages.typeInvalid });

/** Texts of PUT /api/integrations/{type} refusals (API only: the app does not call it). */
export const integrationUpdateMessages = {
  isActiveInvalid: 'isActive must be true or false',
  settingsInvalid: 'settings must be an object',
  unknownField: (name: string) => `Unknown field: ${shortName(name)}`,
  unknownSetting: (name: string) => `Unknown setting: ${shortName(name)}`,
  setupOnly: (name: string, type: IntegrationType) =>
    `${shortName(name)} can only be changed through setup (POST /api/integrations/${type}/setup)`,
} as const;

/** A client's key in a message, bounded (a refused key can be a megabyte long). */
function shortName(name: string): string {
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}

/** An object's own refusals: the first unknown key named (50,000 of them still give one line), or not an object. */
const objectErrors =
  (unknown: (name: string) => string, notObject?: string) =>
  (issue: { code?: string; keys?: string[] }): string | undefined => {
    if (issue.code === 'unrecognized_keys') return unknown(issue.keys?.[0] ?? '');
    if (issue.code === 'invalid_type') return notObject;
    return undefined;
  };

/** A field setup validated (a credential, the phone number): present in a PUT → 400 naming setup. */
const setupOnly = (name: string, type: IntegrationType) => z.optional(z.never({ error: integrationUpdateMessages.setupOnly(name, type) }));

/** What PUT may change in `settings`, per type: strict (unknown keys refused), bounded by the field rules. */
const settingsPatch = {
  /** The model settings, with the setup's rules (merged into the stored ones, then re-validated whole). */
  chatgpt: z.strictObject(
    {
      model: z.optional(chatgptSettingFields.model),
      maxTokens: z.optional(chatgptSettingFields.maxTokens),
      temperature: z.optional(chatgptSettingFields.temperature),
      systemPrompt: z.optional(chatgptSettingFields.systemPrompt),
      baseUrl: z.optional(chatgptSettingFields.baseUrl),
      apiKey: setupOnly('apiKey', 'chatgpt'),
    },
    { error: objectErrors(integrationUpdateMessages.unknownSetting, integrationUpdateMessages.settingsInvalid) },
  ),
  /** Every Twilio setting comes from setup (the number, and the URLs it points the number at). */
  'twilio-voice': z.strictObject(
    Object.fromEntries(
      ['phoneNumber', 'accountSid', 'authToken', 'statusCallbackUrl', 'numberConfigured'].map((k) => [k, setupOnly(k, 'twilio-voice')]),
    ),
    { error: objectErrors(integrationUpdateMessages.unknownSetting, integrationUpdateMessages.settingsInvalid) },
  ),
  /** Every WhatsApp setting comes from setup (the number checked against the Graph API). */
  'whatsapp-business': z.strictObject(
    Object.fromEntries(
      ['phoneNumber', 'phoneId', 'businessId', 'bearerToken', 'appSecret', 'webhookVerifyToken'].map((k) => [k, setupOnly(k, 'whatsapp-business')]),
    ),
    { error: objectErrors(integrationUpdateMessages.unknownSetting, integrationUpdateMessages.settingsInvalid) },
  ),
};

const updateRequestFor = <S extends z.ZodMiniType>(settings: S) =>
  z.strictObject(
    {
      isActive: z.optional(z.boolean({ error: integrationUpdateMessages.isActiveInvalid })),
      settings: z.optional(settings),
    },
    { error: objectErrors(integrationUpdateMessages.unknownField) },
  );

/**
 * PUT /api/integrations/{type}: a partial update, by type. `isActive` and the settings a user may
 * tune (ChatGPT's model settings, merged into the stored ones and re-validated); what setup
 * validated (credentials, phone numbers, ids) changes only through setup, and anything else is
 * refused, so the stored item stays small and flat.
 */
export const updateIntegrationRequests = {
  chatgpt: updateRequestFor(settingsPatch.chatgpt),
  'twilio-voice': updateRequestFor(settingsPatch['twilio-voice']),
  'whatsapp-business': updateRequestFor(settingsPatch['whatsapp-business']),
} as const satisfies Record<IntegrationType, z.ZodMiniType>;

/** The widest of them (ChatGPT's), for callers that do not know the type. */
export const updateIntegrationRequest = updateIntegrationRequests.chatgpt;
export type UpdateIntegrationInput = z.infer<typeof updateIntegrationRequest>;
