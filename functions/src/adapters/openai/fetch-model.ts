/**
 * ChatModel (with stream()) and Embedder over plain HTTP through the outbound guard, without the
 * `openai` SDK: the voice relay's WebSocket function must stay small and start fast (issue 16),
 * and the SDK is most of a bundle. Same requests as the SDK adapter (model.ts; the body and the
 * model quirks are wire.ts's), same ModelError kinds for the same failures, and like the SDK one
 * retry of a 5xx answer or a failed connection — only before the answer started, never once text
 * was handed on. A stream is read as server-sent events (chat-stream.ts); aborting the caller's
 * signal stops reading and closes the connection.
 */
import {
  EMBEDDING_DIMENSIONS,
  EMBEDDING_MODEL,
  ModelError,
  type ChatModel,
  type ChatStreamOptions,
  type Completion,
  type CompletionRequest,
  type Embedder,
  type ModelToolCall,
} from '../../domain/ai/ports.js';
import { parseRetryAfter } from '../../domain/retry.js';
import {
  OutboundBlockedError,
  OutboundError,
  OutboundNetworkError,
  OutboundTimeoutError,
  OutboundTooLargeError,
} from '../outbound/errors.js';
import type { GuardedStreamRequest, GuardedStreamResponse } from '../outbound/guarded-fetch.js';
import { chatStreamEvents, sseData, StreamedModelError } from './chat-stream.js';
import {
  chatCompletionBody,
  DEFAULT_CHAT_TIMEOUT_MS,
  EMBED_TIMEOUT_MS,
  embedInBatches,
  embeddingVectors,
  OPENAI_DEFAULT_BASE_URL,
  VERIFY_TIMEOUT_MS,
} from './wire.js';

/** The outbound guard's streamed request (tests inject a guard with their own allow-list). */
export type GuardStream = (url: string, req?: GuardedStreamRequest) => Promise<GuardedStreamResponse>;

export interface FetchModelOptions {
  apiKey: string;
  /** The API root including /v1 (https://api.openai.com/v1 when empty). */
  baseUrl?: string;
  guard: GuardStream;
  /** Scheme/address check of the base URL before the first call (a refused URL is not retried). */
  checkUrl?: (url: string) => Promise<void>;
  /** Pause before the one retry; default 300 ms (the SDK waits 0.5–1 s, too long for a caller on the line). */
  retryDelayMs?: number;
}

/** Chat replies and embedding batches (base64) stay well under this. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** An error answer is read only to free the connection; its text is never shown. */
const MAX_ERROR_BYTES = 64 * 1024;
/** How long the end of a finished stream is waited for before its connection is closed instead of reused. */
const DRAIN_MS = 1_000;

/** An error thrown by the caller's onText: it propagates as it is, never as a ModelError. */
class CallerError {
  constructor(readonly error: unknown) {}
}

/** OpenAI's error code in an error answer's body ({error: {code}}), or undefined; never its message. */
export function errorCodeOf(body: string | undefined): string | undefined {
  try {
    const code = (JSON.parse(body ?? '') as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * HTTP status of an error answer → ModelError (the message is for logs), with the answer's
 * Retry-After (issue 34) and OpenAI's code ('invalid_api_key', 'insufficient_quota': the
 * integration then needs attention, domain/integrations/health.ts).
 */
export function statusError(status: number, retryAfter?: string, body?: string): ModelError {
  const answer = { status, ...(errorCodeOf(body) ? { code: errorCodeOf(body) } : {}) };
  if (status === 401 || status === 403) return new ModelError('auth', `API key rejected (${status})`, undefined, answer);
  if (status === 429) return new ModelError('rate_limit', `Rate limited (429${answer.code ? ` ${answer.code}` : ''})`, parseRetryAfter(retryAfter), answer);
  if (status === 404) return new ModelError('not_found', 'Model or endpoint not found (404)', undefined, answer);
  if (status === 400 || status === 422) return new ModelError('bad_request', `Request rejected (${status})`, undefined, answer);
  return new ModelError('unavailable', `Provider error (${status})`, parseRetryAfter(retryAfter), answer);
}

/** Transport or format failure → ModelError, as model.ts maps the SDK's. */
export function transportError(error: unknown): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof OutboundTimeoutError) return new ModelError('timeout', 'The model call timed out');
  if (error instanceof OutboundBlockedError) return new ModelError('unavailable', error.message);
  if (error instanceof OutboundTooLargeError) return new ModelError('unavailable', 'The model’s answer was too large');
  if (error instanceof OutboundError) return new ModelError('unavailable', `Connection failed: ${error.message}`);
  if (error instanceof StreamedModelError) return new ModelError('unavailable', 'The model failed in the middle of its answer');
  if (error instanceof SyntaxError) return new ModelError('unavailable', 'Malformed answer from the model');
  return new ModelError('unavailable', error instanceof Error ? error.message : 'Unknown model error');
}

interface ChatResponseShape {
  choices?: Array<{
    message?: { content?: string | null; tool_calls?: Array<{ id: string; type?: string; function?: { name: string; arguments: string } }> };
    finish_reason?: string | null;
  }>;
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
}

/** The body as text; past `max` bytes reading stops there (and the connection is closed). */
export async function readText(res: GuardedStreamResponse, max = Infinity): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for await (const bytes of res.body) {
    text += decoder.decode(bytes, { stream: true });
    if ((size += bytes.length) >= max) break;
  }
  return text + decoder.decode();
}

/**
 * After [DONE] the body's end is usually a few bytes away: read it in the background (briefly,
 * never holding the answer up) so the kept-alive connection serves the next model call of the
 * turn without a new TLS handshake; a server that keeps sending or stays open is cut off.
 */
function drainForReuse(bytes: AsyncIterator<Uint8Array>, res: GuardedStreamResponse): void {
  const timer = setTimeout(() => res.close(), DRAIN_MS);
  void (async () => {
    let size = 0;
    for (let read = await bytes.next(); !read.done; read = await bytes.next()) {
      if ((size += read.value.length) > MAX_ERROR_BYTES) return res.close();
    }
  })()
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}

/** A body the model sends as it is (not as JSON): a transcription's multipart form (transcriber.ts). */
export class RawBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly contentType: string,
  ) {}
}

/** Waits `ms`, or less when the signal aborts first (the caller then sees the abort). */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

export class FetchOpenAiModel implements ChatModel, Embedder {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly guard: GuardStream;
  private readonly checkUrl?: (url: string) => Promise<void>;
  private readonly retryDelayMs: number;
  private checked: Promise<void> | undefined;

  constructor(options: FetchModelOptions) {
    this.baseUrl = (options.baseUrl?.trim() || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.guard = options.guard;
    this.checkUrl = options.checkUrl;
    this.retryDelayMs = options.retryDelayMs ?? 300;
  }

  complete(request: CompletionRequest): Promise<Completion> {
    return this.call(request.timeoutMs ?? DEFAULT_CHAT_TIMEOUT_MS, undefined, async (signal, deadline) => {
      const res = await this.open('POST', '/chat/completions', chatCompletionBody(request), signal, deadline);
      const body = JSON.parse(await readText(res)) as ChatResponseShape;
      const choice = body.choices?.[0];
      if (!choice) throw new ModelError('unavailable', 'The model returned no choices');
      const toolCalls: ModelToolCall[] = (choice.message?.tool_calls ?? []).flatMap((call) =>
        (call.type ?? 'function') === 'function' && call.function ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
      );
      return {
        content: choice.message?.content ?? null,
        toolCalls,
        finishReason: choice.finish_reason ?? 'stop',
        ...(body.usage ? { usage: { promptTokens: body.usage.prompt_tokens, completionTokens: body.usage.completion_tokens } } : {}),
      };
    });
  }

  stream(request: CompletionRequest, options: ChatStreamOptions): Promise<Completion> {
    return this.call(request.timeoutMs ?? DEFAULT_CHAT_TIMEOUT_MS, options.signal, async (signal, deadline) => {
      const body = { ...chatCompletionBody(request), stream: true, stream_options: { include_usage: true } };
      const res = await this.open('POST', '/chat/completions', body, signal, deadline, true);
      // Without return(): the SSE reader stopping at [DONE] does not close the connection; this does.
      const bytes = res.body[Symbol.asyncIterator]();
      let content = '';
      let toolCalls: ModelToolCall[] = [];
      let finishReason: string | null = null;
      let usage: Completion['usage'];
      try {
        for await (const event of chatStreamEvents(sseData({ [Symbol.asyncIterator]: () => ({ next: () => bytes.next() }) }))) {
          if (event.type === 'text') {
            content += event.text;
            try {
              await options.onText(event.text);
            } catch (error) {
              throw new CallerError(error);
            }
          } else if (event.type === 'tool_calls') {
            toolCalls = event.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }));
          } else {
            finishReason = event.finishReason;
            usage = event.usage;
          }
        }
        if (finishReason === null) throw new ModelError('unavailable', 'The model stream ended before its answer was complete');
      } catch (error) {
        res.close();
        throw error;
      }
      drainForReuse(bytes, res);
      return { content: content === '' ? null : content, toolCalls, finishReason, ...(usage ? { usage } : {}) };
    });
  }

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return embedInBatches(texts, (input) =>
      this.call(EMBED_TIMEOUT_MS, undefined, async (signal, deadline) => {
        const res = await this.open('POST', '/embeddings', { model: EMBEDDING_MODEL, input, encoding_format: 'base64' }, signal, deadline);
        const body = JSON.parse(await readText(res)) as { data?: Array<{ index: number; embedding: unknown }> };
        return embeddingVectors(body.data ?? [], input.length, EMBEDDING_DIMENSIONS);
      }),
    );
  }

  /** The cheapest real call that proves the key (and that it may use `model`): GET /models/{model}. */
  async verify(model: string): Promise<void> {
    await this.call(VERIFY_TIMEOUT_MS, undefined, async (signal, deadline) => {
      const res = await this.open('GET', `/models/${encodeURIComponent(model)}`, undefined, signal, deadline);
      await readText(res);
    });
  }

  /**
   * One request with a 2xx answer, its body unread. An error answer becomes its ModelError; a
   * 5xx or a failed connection is tried once more (nothing was read yet).
   */
  protected async open(method: string, path: string, body: unknown, signal: AbortSignal, deadline: number, streamed = false): Promise<GuardedStreamResponse> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: streamed ? 'text/event-stream' : 'application/json',
      // A compressed event stream may be held back by the decompressor; tokens must flow at once.
      ...(streamed ? { 'accept-encoding': 'identity' } : {}),
      ...(body === undefined ? {} : { 'content-type': body instanceof RawBody ? body.contentType : 'application/json' }),
    };
    const payload = body === undefined ? undefined : body instanceof RawBody ? body.bytes : JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      // The call's own timer decides; the guard's bounds are only a backstop a little later.
      const backstop = Math.max(1, deadline - Date.now()) + 1_000;
      let res: GuardedStreamResponse;
      try {
        res = await this.guard(`${this.baseUrl}${path}`, {
          method,
          headers,
          ...(payload === undefined ? {} : { body: payload }),
          signal,
          headTimeoutMs: backstop,
          timeoutMs: backstop,
          maxBytes: MAX_RESPONSE_BYTES,
        });
      } catch (error) {
        if (attempt === 0 && error instanceof OutboundNetworkError && !signal.aborted) {
          await pause(this.retryDelayMs, signal);
          continue;
        }
        throw error;
      }
      if (res.status >= 200 && res.status < 300) return res;
      const status = res.status;
      const body = await readText(res, MAX_ERROR_BYTES).catch(() => undefined);
      if (status >= 500 && attempt === 0 && !signal.aborted) {
        await pause(this.retryDelayMs, signal);
        continue;
      }
      throw statusError(status, res.headers['retry-after'], body);
    }
  }

  /**
   * Runs one call bounded by `timeoutMs` overall (the retry included): the timeout is
   * ModelError('timeout'), the caller's abort rejects with its signal's reason, an error from the
   * caller's onText propagates as it is, anything else becomes a ModelError.
   */
  protected async call<T>(timeoutMs: number, callerSignal: AbortSignal | undefined, run: (signal: AbortSignal, deadline: number) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(callerSignal!.reason);
    if (callerSignal?.aborted) onAbort();
    else callerSignal?.addEventListener('abort', onAbort, { once: true });
    try {
      await this.checkBaseUrl();
      if (controller.signal.aborted) throw controller.signal.reason;
      return await run(controller.signal, Date.now() + timeoutMs);
    } catch (error) {
      if (timedOut) throw new ModelError('timeout', `The model call took longer than ${timeoutMs} ms`);
      if (callerSignal?.aborted) throw callerSignal.reason ?? new DOMException('This operation was aborted', 'AbortError');
      if (error instanceof CallerError) throw error.error;
      throw transportError(error);
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
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
