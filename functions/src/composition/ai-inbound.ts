/**
 * The whatsapp-inbound worker's AI connection: the streaming fetch model that also transcribes
 * customers' voice notes (issue 31, adapters/openai/transcriber.ts, OPENAI_TRANSCRIPTION_MODEL),
 * the key's health reported to `health` (the worker's also e-mails the owner). Its own module so
 * the other functions' bundles carry no transcription code.
 */
import { config } from '../config.js';
import { TranscribingOpenAiModel } from '../adapters/openai/transcriber.js';
import { checkOutboundUrl, guardedStream } from '../adapters/outbound/guarded-fetch.js';
import type { AiConnector } from '../domain/ai/ports.js';
import { createAiConnector } from '../domain/integrations/connector.js';
import type { IntegrationHealthReports } from '../domain/integrations/health.js';
import type { AiModelFactory } from '../domain/integrations/records.js';
import { once } from '../lib/once.js';
import { cachedAiModels, integrationRepository } from './ai-models.js';
import { secretBox } from './secrets.js';

const transcribingAiModels = once(
  (): AiModelFactory => cachedAiModels((apiKey, baseUrl) => new TranscribingOpenAiModel({ apiKey, baseUrl, guard: guardedStream, checkUrl: checkOutboundUrl })),
);

export function transcribingAiConnector(health: IntegrationHealthReports): AiConnector {
  return createAiConnector({ integrations: integrationRepository(), secrets: secretBox(), models: transcribingAiModels(), health, transcriptionModel: config().OPENAI_TRANSCRIPTION_MODEL });
}
