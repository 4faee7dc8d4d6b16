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
import type { AiConnection, AiConnector, ChatModel, Embedder } from '../ai/ports.js';
import type { IntegrationHealth } from '../../contract/integration-health.js';
import type { IntegrationHealthReports } from './health.js';
import type { AiModelFactory, IntegrationRepository } from './records.js';
import { chatgptSettings } from './view.js';

const CHATGPT = 'chatgpt' as const;

/** The model with each call's outcome reported: a failure once per call, a success once per connection (it clears at most one flag). */
function reporting(model: ChatModel & Embedder, userId: string, health: IntegrationHealthReports, flagged: IntegrationHealth | undefined): ChatModel & Embedder {
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
  const { stream } = model;
  return {
    complete: (request) => track(() => model.complete(request)),
    ...(stream ? { stream: (request, options) => track(() => stream.call(model, request, options)) } : {}),
    embed: (texts) => track(() => model.embed(texts)),
  };
}

export function createAiConnector(deps: {
  integrations: IntegrationRepository;
  secrets: SecretBox;
  models: AiModelFactory;
  /** Absent: calls are not reported (tests of other features). */
  health?: IntegrationHealthReports;
}): AiConnector {
  return {
    async forUser(userId: string): Promise<AiConnection | null> {
      const record = await deps.integrations.get(userId, CHATGPT);
      if (!record?.isActive || !record.credentials.apiKey) return null;
      const settings = chatgptSettings(record.settings);
      const opened = deps.models.forKey(await deps.secrets.open(record.credentials.apiKey), settings.baseUrl);
      const model = deps.health ? reporting(opened, userId, deps.health, record.health) : opened;
      return { settings, chat: model, embedder: model };
    },
  };
}
