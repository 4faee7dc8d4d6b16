/**
 * The user's AI model for the voice relay's WebSocket function (issue 16): the same connector as
 * ai.ts (integration, sealed key, per-key model cache) with the SDK-free fetch model, whose
 * stream() hands the answer over token by token. Nothing here imports the `openai` package, so
 * the function's bundle stays small and cold starts short.
 */
import { FetchOpenAiModel } from '../adapters/openai/fetch-model.js';
import { checkOutboundUrl, guardedStream } from '../adapters/outbound/guarded-fetch.js';
import type { AiConnector } from '../domain/ai/ports.js';
import { createAiConnector } from '../domain/integrations/connector.js';
import type { AiModelFactory } from '../domain/integrations/records.js';
import { once } from '../lib/once.js';
import { cachedAiModels, integrationRepository } from './ai-models.js';
import { secretBox } from './secrets.js';

export const streamingAiModels = once(
  (): AiModelFactory => cachedAiModels((apiKey, baseUrl) => new FetchOpenAiModel({ apiKey, baseUrl, guard: guardedStream, checkUrl: checkOutboundUrl })),
);

/** Like aiConnector(), but every connection's chat model has stream(). */
export const streamingAiConnector = once(
  (): AiConnector => createAiConnector({ integrations: integrationRepository(), secrets: secretBox(), models: streamingAiModels() }),
);
