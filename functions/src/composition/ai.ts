/**
 * The user's AI model (the ChatGPT integration): AiConnector for every feature that needs a
 * model (agent chat, ingestion workers, AI-improve), and the model factory behind it. Models are
 * cached per (API key, base URL) for the warm Lambda (ai-models.ts); every call goes through the
 * outbound guard. The voice relay uses ai-stream.ts instead (no SDK in its bundle).
 */
import { OpenAiModel } from '../adapters/openai/model.js';
import { OutboundBlockedError, checkOutboundUrl, guardedFetch } from '../adapters/outbound/guarded-fetch.js';
import { createAiConnector } from '../domain/integrations/connector.js';
import type { AiModelFactory, PublicUrlCheck } from '../domain/integrations/records.js';
import type { AiConnector } from '../domain/ai/ports.js';
import { once } from '../lib/once.js';
import { cachedAiModels, integrationRepository } from './ai-models.js';
import { secretBox } from './secrets.js';

export { integrationRepository } from './ai-models.js';

export const aiModels = once(
  (): AiModelFactory => cachedAiModels((apiKey, baseUrl) => new OpenAiModel({ apiKey, baseUrl, guard: guardedFetch, checkUrl: checkOutboundUrl })),
);

/** False only when the guard refuses the URL (scheme or address); a DNS hiccup is left to the call. */
export const isPublicUrl: PublicUrlCheck = async (url) => {
  try {
    await checkOutboundUrl(url);
    return true;
  } catch (error) {
    return !(error instanceof OutboundBlockedError);
  }
};

export const aiConnector = once(
  (): AiConnector => createAiConnector({ integrations: integrationRepository(), secrets: secretBox(), models: aiModels() }),
);
