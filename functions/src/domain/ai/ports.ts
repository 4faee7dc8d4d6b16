/**
 * The AI model as the domain sees it: chat completions with tools (optionally streamed), and
 * embeddings. The adapters (adapters/openai/) speak the OpenAI API through the official SDK, or
 * over fetch with server-sent events for the small voice-relay bundle; tests use the fake
 * OpenAI-compatible server in local/fake-openai/. Nothing here knows about HTTP.
 */
import type { ChatGptSettings } from '../../contract/integrations.js';
import type { MediaTranscript } from '../../contract/whatsapp-media.js';

/** A part of a customer's message for a model that sees (issue 31): text, or a photo sent inline as a data: URL. */
export type UserContentPart = { type: 'text'; text: string } | { type: 'image'; dataUrl: string };

export type ModelMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | UserContentPart[] }
  | { role: 'assistant'; content: string | null; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ModelToolCall {
  id: string;
  name: string;
  /** JSON text exactly as the model produced it (may be invalid JSON). */
  arguments: string;
}

/** A function the model may call (OpenAI "tools" with type function). */
export interface ModelToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface CompletionRequest {
  model: string;
  messages: ModelMessage[];
  tools?: ModelToolSpec[];
  maxTokens: number;
  temperature: number;
  /** Structured output: the reply must match this JSON schema (used by call summaries). */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  /** Bounds the call; the adapter aborts and throws ModelError('timeout') after it. */
  timeoutMs?: number;
}

export interface Completion {
  content: string | null;
  toolCalls: ModelToolCall[];
  finishReason: string;
  usage?: { promptTokens: number; completionTokens: number };
}

/** How a streamed completion hands over its text, and how the caller stops it (a caller's barge-in). */
export interface ChatStreamOptions {
  /** Each piece of text as it arrives, in order; awaited before the next piece is read. */
  onText(piece: string): void | Promise<void>;
  /** Aborting stops reading, closes the connection and rejects with the signal's reason (not a ModelError). */
  signal?: AbortSignal;
}

export interface ChatModel {
  complete(request: CompletionRequest): Promise<Completion>;
  /**
   * The same completion as complete() (content = all the text), its text handed to onText while
   * the model writes it, tool calls included. Errors and timeouts as complete(). Optional: only
   * the streaming adapter (adapters/openai/fetch-model.ts) has it.
   */
  stream?(request: CompletionRequest, options: ChatStreamOptions): Promise<Completion>;
}

export const EMBEDDING_MODEL = 'text-embedding-3-small';
export const EMBEDDING_DIMENSIONS = 1536;

export interface Embedder {
  /** One vector (L2-normalised, EMBEDDING_DIMENSIONS long) per text, in order. The adapter batches. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/**
 * Why a model call failed, in terms the user can act on. The adapter maps provider errors to
 * these kinds; the HTTP layer turns them into clear messages (contract/integrations.ts
 * integrationMessages.model*), never the provider's internals.
 */
export type ModelErrorKind = 'auth' | 'rate_limit' | 'timeout' | 'not_found' | 'bad_request' | 'unavailable';

export class ModelError extends Error {
  /** The provider's HTTP status, when it answered. */
  readonly status?: number;
  /** The provider's error code (OpenAI: 'invalid_api_key', 'insufficient_quota'…), when its answer named one. */
  readonly code?: string;

  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    /** The provider's Retry-After (seconds) of a 429 or 5xx answer, when it sent one (domain/retry.ts honours it). */
    readonly retryAfterSeconds?: number,
    answer?: { status?: number; code?: string },
  ) {
    super(message);
    this.name = 'ModelError';
    if (answer?.status !== undefined) this.status = answer.status;
    if (answer?.code) this.code = answer.code;
  }
}

/** What one audio transcription needs. */
export interface TranscriptionRequest {
  bytes: Uint8Array;
  mimeType: string;
  fileName: string;
  /** ISO 639-1 hint ('es'); the provider detects it when absent. */
  language?: string;
  /** The business's own names (≤ MEDIA_LIMITS.transcriptionPromptChars) so they come out spelt right. */
  prompt?: string;
  /** Bounds the call. */
  timeoutMs?: number;
}

/** Throws ModelError like the chat model: auth, rate_limit, timeout, unavailable, bad_request. */
export interface Transcriber {
  transcribe(request: TranscriptionRequest): Promise<Omit<MediaTranscript, 'truncated'>>;
}

/**
 * What features that answer with the model (agent chat, WhatsApp, voice, summaries, ingestion)
 * need: the user's ready model, or null when their ChatGPT integration is missing or inactive.
 * The integrations domain implements it (domain/integrations/connector.ts).
 */
export interface AiConnection {
  settings: ChatGptSettings;
  chat: ChatModel;
  embedder: Embedder;
  /** Voice notes → text with the same key (issue 31); absent when the connector has no transcription model. */
  transcriber?: Transcriber;
}

export interface AiConnector {
  /** The user's active ChatGPT integration with its key opened, or null when missing or inactive. */
  forUser(userId: string): Promise<AiConnection | null>;
}
