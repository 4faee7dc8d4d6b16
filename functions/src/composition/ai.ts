/**
 * The user's AI model (the ChatGPT integration): AiConnector for every feature that needs a
 * model (agent chat, ingestion workers, AI-improve), and the model factory behind it. Models are
 * cached per (API key, base URL) for the warm Lambda; every call goes through the outbound guard.
 */
import { createHash } from 'node:crypto';
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoIntegrationRepository } from '../adapters/dynamo/integrations.js';
import { OpenAiModel } from '../adapters/openai/model.js';
import { OutboundBlockedError, checkOutboundUrl, guardedFetch } from '../adapters/outbound/guarded-fetch.js';
import { createAiConnector } from '../domain/integrations/connector.js';
import type { AiModel, AiModelFactory, PublicUrlCheck } from '../domain/integrations/records.js';
import type { AiConnector } from '../domain/ai/ports.js';
import { once } from '../lib/once.js';
import { secretBox } from './secrets.js';

const MAX_CACHED_MODELS = 100;

export const integrationRepository = once(() => new DynamoIntegrationRepository(documentClient(), config().TABLE_NAME));

export const aiModels = once((): AiModelFactory => {
  const cache = new Map<string, AiModel>();
  return {
    forKey(apiKey, baseUrl) {
      const url = baseUrl || config().OPENAI_BASE_URL || '';
      // The key is hashed so the cache's keys never hold it in the clear.
      const id = createHash('sha256').update(`${url}\n${apiKey}`).digest('base64url');
      let model = cache.get(id);
      if (!model) {
        if (cache.size >= MAX_CACHED_MODELS) cache.delete(cache.keys().next().value as string);
        model = new OpenAiModel({ apiKey, baseUrl: url, guard: guardedFetch, checkUrl: checkOutboundUrl });
        cache.set(id, model);
      }
      return model;
    },
  };
});

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
