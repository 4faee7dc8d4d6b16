/**
 * ChatModel and Embedder over the official `openai` SDK (v6), for api.openai.com and any
 * OpenAI-compatible API (Azure OpenAI's /openai/v1, a self-hosted server) at a user-supplied base
 * URL. All traffic goes through the outbound guard (guarded-sdk-fetch.ts). Provider errors become
 * ModelError kinds; nothing of the provider's error text reaches the user.
 *
 * Model quirks: reasoning models (gpt-5, gpt-5-mini, gpt-5-nano, o1/o3/o4…) reject `max_tokens`
 * (they take `max_completion_tokens`, which also counts reasoning tokens) and any temperature but
 * the default; they get reasoning_effort 'minimal' so a short answer is not eaten by reasoning.
 * Older models get `max_tokens`, which every OpenAI-compatible server understands.
 */
import { OpenAI } from 'openai/client';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from 'openai/error';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import {
  EMBEDDING_DIMENSIONS,
  EMBEDDING_MODEL,
  ModelError,
  type ChatModel,
  type Completion,
  type CompletionRequest,
  type Embedder,
  type ModelMessage,
} from '../../domain/ai/ports.js';
import { OutboundBlockedError, OutboundError, OutboundTimeoutError } from '../outbound/errors.js';
import { guardedSdkFetch, type GuardFetch } from './guarded-sdk-fetch.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Default bound of one chat call: under API Gateway's 29 s with room for the rest of the request. */
export const DEFAULT_CHAT_TIMEOUT_MS = 25_000;
const EMBED_TIMEOUT_MS = 60_000;
const VERIFY_TIMEOUT_MS = 10_000;
/** OpenAI takes up to 2048 inputs and 300k tokens per embeddings request; we stay far below. */
export const EMBED_BATCH_MAX_INPUTS = 96;
export const EMBED_BATCH_MAX_CHARS = 250_000;
const EMBED_PARALLEL = 2;

export interface OpenAiModelOptions {
  apiKey: string;
  /** The API root including /v1 (https://api.openai.com/v1 when empty). */
  baseUrl?: string;
  /** The outbound guard's fetch (tests inject a guard with their own allow-list). */
  guard: GuardFetch;
  /** Scheme/address check of the base URL before the first call (saves the SDK's retry on a refused URL). */
  checkUrl?: (url: string) => Promise<void>;
}

/** gpt-5 family and o-series: max_completion_tokens, default temperature only. */
export function isReasoningModel(model: string): boolean {
  return /^(gpt-5(?!-chat)|o\d)/.test(model);
}

/** reasoning_effort 'minimal' exists for gpt-5, gpt-5-mini and gpt-5-nano (not gpt-5.1+, not o-series). */
const supportsMinimalEffort = (model: string) => /^gpt-5(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/.test(model);

function toWireMessage(message: ModelMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/** The request body for one chat completion (exported for unit tests of the model quirks). */
export function chatCompletionBody(request: CompletionRequest): ChatCompletionCreateParamsNonStreaming {
  const reasoning = isReasoningModel(request.model);
  return {
    model: request.model,
    messages: request.messages.map(toWireMessage),
    ...(reasoning
      ? {
          max_completion_tokens: request.maxTokens,
          ...(supportsMinimalEffort(request.model) ? { reasoning_effort: 'minimal' as const } : {}),
        }
      : { max_tokens: request.maxTokens, temperature: request.temperature }),
    ...(request.tools?.length
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        }
      : {}),
    ...(request.jsonSchema
      ? {
          response_format: {
            type: 'json_schema' as const,
            json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema, strict: true },
          },
        }
      : {}),
  };
}

/** Provider/transport error → ModelError kind (the message is for logs, never shown as is). */
export function toModelError(error: unknown): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) {
    return new ModelError('auth', `API key rejected (${error.status})`);
  }
  if (error instanceof RateLimitError) return new ModelError('rate_limit', 'Rate limited (429)');
  if (error instanceof NotFoundError) return new ModelError('not_found', 'Model or endpoint not found (404)');
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError || error instanceof OutboundTimeoutError) {
    return new ModelError('timeout', 'The model call timed out');
  }
  if (error instanceof APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof OutboundBlockedError) return new ModelError('unavailable', cause.message);
    if (cause instanceof OutboundTimeoutError) return new ModelError('timeout', 'The model call timed out');
    return new ModelError('unavailable', `Connection failed: ${cause instanceof Error ? cause.message : 'unknown'}`);
  }
  if (error instanceof BadRequestError || error instanceof UnprocessableEntityError) {
    return new ModelError('bad_request', `Request rejected (${error.status})`);
  }
  if (error instanceof APIError) return new ModelError('unavailable', `Provider error (${error.status ?? 'no status'})`);
  if (error instanceof OutboundError) return new ModelError('unavailable', error.message);
  return new ModelError('unavailable', error instanceof Error ? error.message : 'Unknown model error');
}

function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Math.abs(norm - 1) > 1e-6) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

function decodeEmbedding(embedding: unknown): Float32Array {
  if (typeof embedding === 'string') {
    const bytes = Buffer.from(embedding, 'base64');
    const out = new Float32Array(bytes.length / 4);
    for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
    return out;
  }
  if (Array.isArray(embedding)) return Float32Array.from(embedding as number[]);
  throw new ModelError('unavailable', 'Malformed embedding in the response');
}

/** Split texts into batches of at most EMBED_BATCH_MAX_INPUTS inputs and ~EMBED_BATCH_MAX_CHARS characters. */
export function embeddingBatches(texts: readonly string[]): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const raw of texts) {
    // The API rejects empty inputs; a blank chunk embeds as a single space.
    const text = raw.trim() === '' ? ' ' : raw;
    if (current.length > 0 && (current.length >= EMBED_BATCH_MAX_INPUTS || chars + text.length > EMBED_BATCH_MAX_CHARS)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export class OpenAiModel implements ChatModel, Embedder {
  readonly baseUrl: string;
  private readonly client: OpenAI;
  private readonly checkUrl?: (url: string) => Promise<void>;
  private checked: Promise<void> | undefined;

  constructor(options: OpenAiModelOptions) {
    this.baseUrl = (options.baseUrl?.trim() || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.checkUrl = options.checkUrl;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: this.baseUrl,
      maxRetries: 1,
      // The SDK aborts each attempt itself; the guard's own timer is only a backstop.
      fetch: guardedSdkFetch(options.guard, 120_000),
      // Never pick up OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment: the key is the user's.
      organization: null,
      project: null,
    });
  }

  async complete(request: CompletionRequest): Promise<Completion> {
    const response = await this.call(request.timeoutMs ?? DEFAULT_CHAT_TIMEOUT_MS, (options) =>
      this.client.chat.completions.create(chatCompletionBody(request), options),
    );
    const choice = response.choices[0];
    if (!choice) throw new ModelError('unavailable', 'The model returned no choices');
    const toolCalls = (choice.message.tool_calls ?? []).flatMap((call) =>
      call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
    );
    return {
      content: choice.message.content ?? null,
      toolCalls,
      finishReason: choice.finish_reason ?? 'stop',
      ...(response.usage
        ? { usage: { promptTokens: response.usage.prompt_tokens, completionTokens: response.usage.completion_tokens } }
        : {}),
    };
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const batches = embeddingBatches(texts);
    const results: Float32Array[][] = new Array(batches.length);
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const index = next++;
        results[index] = await this.embedBatch(batches[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(EMBED_PARALLEL, batches.length) }, worker));
    return results.flat();
  }

  /** The cheapest real call that proves the key (and that it may use `model`): GET /models/{model}. */
  async verify(model: string): Promise<void> {
    await this.call(VERIFY_TIMEOUT_MS, (options) => this.client.models.retrieve(model, options));
  }

  private async embedBatch(input: string[]): Promise<Float32Array[]> {
    const response = await this.call(EMBED_TIMEOUT_MS, (options) =>
      this.client.embeddings.create({ model: EMBEDDING_MODEL, input, encoding_format: 'base64' }, options),
    );
    const data = [...response.data].sort((a, b) => a.index - b.index);
    if (data.length !== input.length) throw new ModelError('unavailable', `Expected ${input.length} embeddings, got ${data.length}`);
    return data.map((item) => {
      const vector = decodeEmbedding(item.embedding);
      if (vector.length !== EMBEDDING_DIMENSIONS) {
        throw new ModelError('bad_request', `Embeddings have ${vector.length} dimensions, expected ${EMBEDDING_DIMENSIONS}`);
      }
      return normalise(vector);
    });
  }

  /** Runs one SDK call bounded by `timeoutMs` overall (retries included); errors become ModelError. */
  private async call<T>(timeoutMs: number, run: (options: { timeout: number; signal: AbortSignal }) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      await this.checkBaseUrl();
      return await run({ timeout: timeoutMs, signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) throw new ModelError('timeout', `The model call took longer than ${timeoutMs} ms`);
      throw toModelError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  private checkBaseUrl(): Promise<void> {
    if (!this.checkUrl || this.baseUrl === OPENAI_DEFAULT_BASE_URL) return Promise.resolve();
    this.checked ??= this.checkUrl(this.baseUrl).catch((error: unknown) => {
      this.checked = undefined;
      throw error;
    });
    return this.checked;
  }
}
