/**
 * AiConnector over the stored ChatGPT integration: the user's active integration with its key
 * opened and a model for it, or null when there is none or it is inactive.
 *
 * Every model call of every feature (agent chat, WhatsApp and voice replies, summaries,
 * ingestion) goes through the connection's chat and embedder, so they report the key's health
 * here (issue 34): a refused or exhausted key flags the integration "needs attention", and the
 * first call that works clears a flag read with the integration (no write while it is healthy).
 */
import type { SecretBox } from '../secrets/ports.js';
import type { AiConnection, AiConnector, Transcriber } from '../ai/ports.js';
import type { IntegrationHealth } from '../../contract/integration-health.js';
import type { IntegrationHealthReports } from './health.js';
import type { AiModel, AiModelFactory, IntegrationRepository } from './records.js';
import { chatgptSettings } from './view.js';

const CHATGPT = 'chatgpt' as const;

/** The model with each call's outcome reported: a failure once per call, a success once per connection (it clears at most one flag). */
function reporting(model: AiModel, userId: string, health: IntegrationHealthReports, flagged: IntegrationHealth | undefined): AiModel {
  let pending = flagged;
  const track = async <T>(call: () => Promise<T>): Promise<T> => {
    let result: T;
    try {
      result = await call();
    } catch (error) {
      await health.failed(userId, error, pending);
      throw error;
    }
    if (pending) {
      const cleared = pending;
      pending = undefined;
      await health.recovered(userId, CHATGPT, cleared);
    }
    return result;
  };
  const { stream, transcribe } = model;
  return {
    complete: (request) => track(() => model.complete(request)),
    ...(stream ? { stream: (request, options) => track(() => stream.call(model, request, options)) } : {}),
    embed: (texts) => track(() => model.embed(texts)),
    verify: (name) => model.verify(name),
    ...(transcribe ? { transcribe: (request, name) => track(() => transcribe.call(model, request, name)) } : {}),
  };
}

export function createAiConnector(deps: {
  integrations: IntegrationRepository;
  secrets: SecretBox;
  models: AiModelFactory;
  /** Absent: calls are not reported (tests of other features). */
  health?: IntegrationHealthReports;
  /** The transcription model (config OPENAI_TRANSCRIPTION_MODEL, issue 31); absent = connections have no transcriber. */
  transcriptionModel?: string;
}): AiConnector {
  const transcriberOf = (model: AiModel): Transcriber | undefined => {
    const { transcribe } = model;
    const name = deps.transcriptionModel;
    return transcribe && name ? { transcribe: (request) => transcribe.call(model, request, name) } : undefined;
  };
  return {
    async forUser(userId: string): Promise<AiConnection | null> {
      const record = await deps.integrations.get(userId, CHATGPT);
      if (!record?.isActive || !record.credentials.apiKey) return null;
      const settings = chatgptSettings(record.settings);
      const opened = deps.models.forKey(await deps.secrets.open(record.credentials.apiKey), settings.baseUrl);
      const model = deps.health ? reporting(opened, userId, deps.health, record.health) : opened;
      const transcriber = transcriberOf(model);
      return { settings, chat: model, embedder: model, ...(transcriber ? { transcriber } : {}) };
    },
  };
}
