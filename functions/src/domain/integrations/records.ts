/**
 * The integrations feature's own ports: the stored integration, its repository, and the factory
 * of AI models the ChatGPT integration hands out (AiConnector in domain/ai/ports.ts is what other features
 * use). Secret credentials are stored sealed (SecretBox) and only ever shown as '***'.
 */
import type { IntegrationType, IntegrationView } from '../../contract/integrations.js';
import type { ChatModel, Embedder, TranscriptionRequest } from '../ai/ports.js';

/** The API's integration keyed by user, with its secrets sealed rather than masked. */
export interface IntegrationRecord extends Omit<IntegrationView, '_id'> {
  id: string;
  userId: string;
  /** name → sealed secret ("v1:…") or plain value (ids, phone numbers). */
  credentials: Record<string, string>;
}

export interface IntegrationRepository {
  get(userId: string, type: IntegrationType): Promise<IntegrationRecord | null>;
  list(userId: string): Promise<IntegrationRecord[]>;
  /** Create or replace (setup). */
  put(record: IntegrationRecord): Promise<void>;
  /** Partial update of an existing integration; null when there is none. */
  update(
    userId: string,
    type: IntegrationType,
    patch: { isActive?: boolean; settings?: Record<string, unknown>; updatedAt: string },
  ): Promise<IntegrationRecord | null>;
  /** False when there was nothing to delete. */
  delete(userId: string, type: IntegrationType): Promise<boolean>;
}

/** A model for one API key: chat, embeddings, and the cheapest call that proves the key works. */
export interface AiModel extends ChatModel, Embedder {
  verify(model: string): Promise<void>;
  /** Audio → text with `model` (issue 31: customers' voice notes); absent = the key's provider cannot. */
  transcribe?(request: TranscriptionRequest, model: string): Promise<{ text: string; language: string; durationSeconds: number }>;
}

export interface AiModelFactory {
  /** `baseUrl` '' = the default API (OPENAI_BASE_URL, else api.openai.com). */
  forKey(apiKey: string, baseUrl: string): AiModel;
}

/** Whether a user-supplied base URL may be called at all (public address; false = refused). */
export type PublicUrlCheck = (url: string) => Promise<boolean>;
