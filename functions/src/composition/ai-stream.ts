/**
 * The user's AI model (integration, sealed key, per-key model cache) over the SDK-free fetch
 * model, whose stream() hands the answer over token by token (the voice relay, issue 16). Every
 * function uses it (ai.ts re-exports it): nothing here imports the `openai` package, so bundles
 * stay small and cold starts short (issue 28).
 */
import { FetchOpenAiModel } from '../adapters/openai/fetch-model.js';
import { checkOutboundUrl, guardedStream } from '../adapters/outbound/guarded-fetch.js';
import type { AiConnector } from '../domain/ai/ports.js';
import { createAiConnector } from '../domain/integrations/connector.js';
import type { AiModelFactory } from '../domain/integrations/records.js';
import { once } from '../lib/once.js';
import { cachedAiModels, integrationRepository } from './ai-models.js';
import { integrationHealth } from './integration-health.js';
import { secretBox } from './secrets.js';

export const streamingAiModels = once(
  (): AiModelFactory => cachedAiModels((apiKey, baseUrl) => new FetchOpenAiModel({ apiKey, baseUrl, guard: guardedStream, checkUrl: checkOutboundUrl })),
);

/** Like aiConnector(), but every connection's chat model has stream(). */
export const streamingAiConnector = once((): AiConnector => createAiConnector({ integrations: integrationRepository(), secrets: secretBox(), models: streamingAiModels(), health: integrationHealth() }));
