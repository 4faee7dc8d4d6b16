/** What other features need from the ChatGPT integration: a ready model for a user, or null when not connected. */
import type { ChatModel, Embedder } from '../ai/ports.js';
import type { ChatGptSettings } from '../../contract/integrations.js';

export interface AiConnection {
  settings: ChatGptSettings;
  chat: ChatModel;
  embedder: Embedder;
}

export interface AiConnector {
  /** The user's active ChatGPT integration with its key opened, or null when missing or inactive. */
  forUser(userId: string): Promise<AiConnection | null>;
}
