/**
 * What both AI compositions share (ai.ts with the SDK model, ai-stream.ts with the fetch model for
 * the small voice-relay bundle): the integrations table and the per-(API key, base URL) model
 * cache of a warm Lambda. Imports no model adapter, so neither bundle pulls in the other's.
 */
import { createHash } from 'node:crypto';
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoIntegrationRepository } from '../adapters/dynamo/integrations.js';
import type { AiModel, AiModelFactory } from '../domain/integrations/records.js';
import { once } from '../lib/once.js';

const MAX_CACHED_MODELS = 100;

export const integrationRepository = once(() => new DynamoIntegrationRepository(documentClient(), config().TABLE_NAME));

/** A model factory that builds each (API key, base URL) model once; `baseUrl` '' = OPENAI_BASE_URL, else the adapter's default. */
export function cachedAiModels(create: (apiKey: string, baseUrl: string) => AiModel): AiModelFactory {
  const cache = new Map<string, AiModel>();
  return {
    forKey(apiKey, baseUrl) {
      const url = baseUrl || config().OPENAI_BASE_URL || '';
      // The key is hashed so the cache's keys never hold it in the clear.
      const id = createHash('sha256').update(`${url}\n${apiKey}`).digest('base64url');
      let model = cache.get(id);
      if (!model) {
        if (cache.size >= MAX_CACHED_MODELS) cache.delete(cache.keys().next().value as string);
        model = create(apiKey, url);
        cache.set(id, model);
      }
      return model;
    },
  };
}
