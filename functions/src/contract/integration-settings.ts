/**
 * The ChatGPT integration's models, defaults and limits, and the masked-secret text (SPEC §5, §9).
 * Plain constants, no zod: the agent runtime (the voice relay's cold start) reads them without the
 * request schemas of contract/integrations.ts, which re-exports them.
 */

/** SPEC §9, in the order the model picker shows them. */
export const CHATGPT_MODELS = ['gpt-3.5-turbo', 'gpt-4', 'gpt-4-turbo', 'gpt-4o', 'gpt-5', 'gpt-5-mini', 'gpt-5-nano'] as const;
export type ChatGptModel = (typeof CHATGPT_MODELS)[number];

export const CHATGPT_DEFAULTS = {
  model: 'gpt-3.5-turbo',
  maxTokens: 1000,
  temperature: 0.7,
  systemPrompt: '',
} as const satisfies { model: ChatGptModel; maxTokens: number; temperature: number; systemPrompt: string };

export const CHATGPT_LIMITS = { maxTokensMin: 1, maxTokensMax: 4000, temperatureMin: 0, temperatureMax: 2, systemPrompt: 4000, apiKey: 300 } as const;

/** What a stored secret reads as in every response. */
export const MASKED_SECRET = '***';
