/**
 * The ChatGPT setup form (SPEC §5 ChatGPT, §9 models and defaults), built on the contract's
 * setup schema so the messages are the server's. A stored key reads '***' and is kept unless
 * the user types a new one; without a stored key the key is required.
 */
import * as z from 'zod/mini';
import {
  CHATGPT_DEFAULTS,
  CHATGPT_MODELS,
  chatgptSetupRequest,
  integrationMessages,
  MASKED_SECRET,
  type ChatGptModel,
  type ChatGptSetupInput,
  type IntegrationView,
} from '@agentdesk/functions/contract';
import { hasStoredSecret, keepStoredSecrets } from './secretForm';

/** The form's values (the contract's input: numbers may be typed text). */
export type ChatGptFormInput = z.input<typeof chatgptSetupRequest>;
export type ChatGptFormValues = Required<ChatGptFormInput>;

/** The form schema: the contract's, plus 'API key is required' when no key is stored yet. */
export function chatGptForm(hasStoredKey: boolean) {
  return chatgptSetupRequest.check(
    z.refine((v) => hasStoredKey || (v.apiKey !== '' && v.apiKey !== MASKED_SECRET), {
      message: integrationMessages.apiKeyRequired,
      path: ['apiKey'],
    }),
  );
}

function pick<T>(value: unknown, ok: (v: unknown) => v is T, fallback: T): T {
  return ok(value) ? value : fallback;
}
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isModel = (v: unknown): v is ChatGptModel => typeof v === 'string' && (CHATGPT_MODELS as readonly string[]).includes(v);

/** The form's starting values: the stored settings, else the defaults (gpt-4.1-mini, 1000, 0.7). */
export function formFromIntegration(integration: IntegrationView | null | undefined): ChatGptFormValues {
  const s = integration?.settings ?? {};
  return {
    apiKey: hasStoredSecret(integration, 'apiKey') ? MASKED_SECRET : '',
    model: pick(s.model, isModel, CHATGPT_DEFAULTS.model),
    maxTokens: pick(s.maxTokens, isNumber, CHATGPT_DEFAULTS.maxTokens),
    temperature: pick(s.temperature, isNumber, CHATGPT_DEFAULTS.temperature),
    systemPrompt: pick(s.systemPrompt, isString, CHATGPT_DEFAULTS.systemPrompt),
    baseUrl: pick(s.baseUrl, isString, ''),
  };
}

/** A temperature typed or slid, rounded to the 0.1 step and kept within 0–2. */
export function clampTemperature(value: number): number {
  if (!Number.isFinite(value)) return CHATGPT_DEFAULTS.temperature;
  return Math.min(2, Math.max(0, Math.round(value * 10) / 10));
}

/** The setup/test body; an untouched stored key is sent as '***' so the server keeps it. */
export function setupBody(values: ChatGptSetupInput): ChatGptSetupInput {
  return keepStoredSecrets(values, ['apiKey']);
}

/** How a temperature reads to an owner (issue 29: no model knobs in words they do not know). */
export type Creativity = 'precise' | 'balanced' | 'creative';

export function creativityOf(temperature: number): Creativity {
  if (!Number.isFinite(temperature) || temperature <= 0.3) return 'precise';
  return temperature <= 1 ? 'balanced' : 'creative';
}

/** About how many words a response length (max tokens) allows: OpenAI counts ~0.75 English words a token; tens from 100 on. */
export function wordsForTokens(maxTokens: number): number {
  const words = Math.max(0, Number.isFinite(maxTokens) ? maxTokens : 0) * 0.75;
  return words < 100 ? Math.max(1, Math.round(words)) : Math.round(words / 10) * 10;
}
