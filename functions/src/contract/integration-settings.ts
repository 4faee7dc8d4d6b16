/**
 * The ChatGPT integration's models, defaults and limits, and the masked-secret text (SPEC §5, §9).
 * Plain constants, no zod: the agent runtime (the voice relay's cold start) reads them without the
 * request schemas of contract/integrations.ts, which re-exports them.
 */

/**
 * SPEC §9's models plus the current small ones, in the order the model picker shows them: current
 * models first, the older ones last (kept so stored settings stay valid).
 */
export const CHATGPT_MODELS = ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4o-mini', 'gpt-4o', 'gpt-5-mini', 'gpt-5', 'gpt-5-nano', 'gpt-4-turbo', 'gpt-4', 'gpt-3.5-turbo'] as const;
export type ChatGptModel = (typeof CHATGPT_MODELS)[number];

/**
 * Issue 29: the default model is a current one, not SPEC §9's retired gpt-3.5-turbo: gpt-4.1-mini is
 * fast and cheap and still takes max_tokens and temperature (the gpt-5 family does not).
 */
export const CHATGPT_DEFAULTS = {
  model: 'gpt-4.1-mini',
  maxTokens: 1000,
  temperature: 0.7,
  systemPrompt: '',
} as const satisfies { model: ChatGptModel; maxTokens: number; temperature: number; systemPrompt: string };

export const CHATGPT_LIMITS = { maxTokensMin: 1, maxTokensMax: 4000, temperatureMin: 0, temperatureMax: 2, systemPrompt: 4000, apiKey: 300 } as const;

/** What a stored secret reads as in every response. */
export const MASKED_SECRET = '***';
