/**
 * AiConnector over the stored ChatGPT integration: the user's active integration with its key
 * opened and a model for it, or null when there is none or it is inactive.
 */
import type { SecretBox } from '../secrets/ports.js';
import type { AiConnection, AiConnector } from '../ai/ports.js';
import type { AiModelFactory, IntegrationRepository } from './records.js';
import { chatgptSettings } from './view.js';

export function createAiConnector(deps: { integrations: IntegrationRepository; secrets: SecretBox; models: AiModelFactory }): AiConnector {
  return {
    async forUser(userId: string): Promise<AiConnection | null> {
      const record = await deps.integrations.get(userId, 'chatgpt');
      if (!record?.isActive || !record.credentials.apiKey) return null;
      const settings = chatgptSettings(record.settings);
      const model = deps.models.forKey(await deps.secrets.open(record.credentials.apiKey), settings.baseUrl);
      return { settings, chat: model, embedder: model };
    },
  };
}
