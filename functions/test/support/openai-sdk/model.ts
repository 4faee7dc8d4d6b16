/**
 * The test oracle of the OpenAI wire format (issue 28): ChatModel and Embedder over the official
 * `openai` SDK (v6). The functions reach the model through the SDK-free fetch adapter
 * (src/adapters/openai/fetch-model.ts), whose requests and answers the unit tests compare with
 * this one's (test/unit/openai/fetch-model.test.ts); the SDK stays out of every Lambda bundle.
 * For api.openai.com and any
 * OpenAI-compatible API (Azure OpenAI's /openai/v1, a self-hosted server) at a user-supplied base
 * URL. All traffic goes through the outbound guard (guarded-sdk-fetch.ts). Provider errors become
 * ModelError kinds; nothing of the provider's error text reaches the user. The request body and
 * the model quirks are wire.ts's, shared with the SDK-free fetch adapter (fetch-model.ts).
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
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import {
  EMBEDDING_DIMENSIONS,
  EMBEDDING_MODEL,
  ModelError,
  type ChatModel,
  type Completion,
  type CompletionRequest,
  type Embedder,
} from '../../../src/domain/ai/ports.js';
import { OutboundBlockedError, OutboundError, OutboundTimeoutError } from '../../../src/adapters/outbound/errors.js';
import { guardedSdkFetch, type GuardFetch } from './guarded-sdk-fetch.js';
import {
  chatCompletionBody,
  DEFAULT_CHAT_TIMEOUT_MS,
  EMBED_TIMEOUT_MS,
  embedInBatches,
  embeddingVectors,
  OPENAI_DEFAULT_BASE_URL,
  VERIFY_TIMEOUT_MS,
} from '../../../src/adapters/openai/wire.js';

export {
  chatCompletionBody,
  DEFAULT_CHAT_TIMEOUT_MS,
  EMBED_BATCH_MAX_CHARS,
  EMBED_BATCH_MAX_INPUTS,
  embeddingBatches,
  isReasoningModel,
  OPENAI_DEFAULT_BASE_URL,
} from '../../../src/adapters/openai/wire.js';

export interface OpenAiModelOptions {
  apiKey: string;
  /** The API root including /v1 (https://api.openai.com/v1 when empty). */
  baseUrl?: string;
  /** The outbound guard's fetch (tests inject a guard with their own allow-list). */
  guard: GuardFetch;
  /** Scheme/address check of the base URL before the first call (saves the SDK's retry on a refused URL). */
  checkUrl?: (url: string) => Promise<void>;
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
      this.client.chat.completions.create(chatCompletionBody(request) satisfies ChatCompletionCreateParamsNonStreaming, options),
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

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return embedInBatches(texts, (input) => this.embedBatch(input));
  }

  /** The cheapest real call that proves the key (and that it may use `model`): GET /models/{model}. */
  async verify(model: string): Promise<void> {
    await this.call(VERIFY_TIMEOUT_MS, (options) => this.client.models.retrieve(model, options));
  }

  private async embedBatch(input: string[]): Promise<Float32Array[]> {
    const response = await this.call(EMBED_TIMEOUT_MS, (options) =>
      this.client.embeddings.create({ model: EMBEDDING_MODEL, input, encoding_format: 'base64' }, options),
    );
    return embeddingVectors(response.data, input.length, EMBEDDING_DIMENSIONS);
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
