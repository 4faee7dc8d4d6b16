/** What an integration looks like in responses: secrets masked, ChatGPT settings complete. */
// The zod-free constants: the voice relay imports this module and must not bundle the request schemas.
import { CHATGPT_DEFAULTS, CHATGPT_LIMITS, CHATGPT_MODELS, MASKED_SECRET, type ChatGptModel } from '../../contract/integration-settings.js';
import type { ChatGptSettings, IntegrationView } from '../../contract/integrations.js';
import type { IntegrationRecord } from './records.js';

/** Sealed values are self-describing (domain/secrets/ports.ts). */
export const isSealed = (value: string) => /^v\d+:[a-z]+:/.test(value);

export function toView(record: IntegrationRecord): IntegrationView {
  const credentials: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.credentials)) credentials[name] = isSealed(value) ? MASKED_SECRET : value;
  return {
    _id: record.id,
    type: record.type,
    isActive: record.isActive,
    credentials,
    settings: record.type === 'chatgpt' ? { ...chatgptSettings(record.settings) } : record.settings,
    ...(record.webhookUrl ? { webhookUrl: record.webhookUrl } : {}),
    ...(record.health ? { health: record.health } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** Stored ChatGPT settings with defaults for anything missing or out of range. */
export function chatgptSettings(raw: Record<string, unknown>): ChatGptSettings {
  const num = (v: unknown, min: number, max: number, fallback: number) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : fallback;
  return {
    model: CHATGPT_MODELS.includes(raw.model as ChatGptModel) ? (raw.model as ChatGptModel) : CHATGPT_DEFAULTS.model,
    maxTokens: num(raw.maxTokens, CHATGPT_LIMITS.maxTokensMin, CHATGPT_LIMITS.maxTokensMax, CHATGPT_DEFAULTS.maxTokens),
    temperature: num(raw.temperature, CHATGPT_LIMITS.temperatureMin, CHATGPT_LIMITS.temperatureMax, CHATGPT_DEFAULTS.temperature),
    systemPrompt: typeof raw.systemPrompt === 'string' ? raw.systemPrompt : CHATGPT_DEFAULTS.systemPrompt,
    baseUrl: typeof raw.baseUrl === 'string' ? raw.baseUrl : '',
  };
}
