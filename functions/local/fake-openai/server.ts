/**
 * A fake OpenAI API on loopback: the tests' OpenAI and the local runtime's default model, so
 * `npm start` works offline with any key starting "sk-". The app reaches it through the official
 * `openai` SDK (base URL <url>/v1), so local mode and production share every line of app code.
 *
 *   POST /v1/chat/completions   tools → tool_calls; response_format json_schema; `stream: true` →
 *                               server-sent chunks with configurable delays (stream.ts)
 *   POST /v1/embeddings         deterministic hashed bag-of-words vectors (float or base64)
 *   POST /v1/audio/transcriptions  multipart; the transcript registered for the audio (transcriptions.ts)
 *   GET  /v1/models[/{id}]
 *   /_test/...                  control API: scripted replies per API key, recorded requests, reset,
 *                               stream delays (for every key, or per key so parallel tests do not
 *                               slow each other down)
 *   /_test/faults               failure switches (../faults.ts): 500 / 429 with Retry-After / hang /
 *                               dropped connections, per key or path, count- or time-based
 *
 * Keys: "sk-invalid…" → 401 invalid_api_key, "sk-ratelimit…" → 429, "sk-slow…" → answers after
 * 20 s, anything else starting "sk-" works. The /v1 prefix is optional. See README.md.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeOnce, createWaits, listen, readJsonObject, sendJson } from '../fake-http.js';
import { fakeFaults, type FaultAnswer, type ProviderError } from '../faults.js';
import { CHATGPT_MODELS } from '../../src/contract/integrations.js';
import { think, type BrainReply, type WireMessage, type WireTool } from './brain.js';
import { fakeEmbedding, toBase64 } from './embeddings.js';
import { fillSchema } from './schema-fill.js';
import { streamCompletion, type StreamDelays } from './stream.js';
import { readTranscriptionForm, TranscriptionRequestError, transcriptionAnswer, type RegisteredTranscript, type TranscriptionForm } from './transcriptions.js';

export const FAKE_OPENAI_CHAT_MODELS = [...new Set([...CHATGPT_MODELS, 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'o3-mini', 'o4-mini'])];
export const FAKE_OPENAI_EMBEDDING_MODELS = ['text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002'];
const EMBEDDING_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};
export const SLOW_KEY_DELAY_MS = 20_000;
const MAX_BODY = 8 * 1024 * 1024;
const MAX_RECORDED = 5000;

/** A scripted reply: an assistant message (answered after `delayMs` when set: a slow model), or an error the API answers with. */
export type ScriptedReply =
  | { role?: 'assistant'; content?: string | null; tool_calls?: BrainReply['tool_calls']; delayMs?: number }
  | { error: { status: number; message?: string; type?: string; code?: string | null } };

export interface RecordedOpenAiRequest {
  at: string;
  method: string;
  path: string;
  /** The API key (Bearer), '' when none was sent. */
  key: string;
  status: number;
  body: unknown;
  /** Streamed answers: the content/tool pieces sent before the stream ended or the client left. */
  streamedPieces?: number;
}

export interface FakeOpenAiOptions {
  /** 0 or missing: any free port. */
  port?: number;
  host?: string;
  /** Delay of "sk-slow" keys (default 20 s). */
  slowDelayMs?: number;
  /** Pace of streamed answers (default: no delay); changeable with POST /_test/stream-delays. */
  streamDelays?: StreamDelays;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface FakeOpenAi {
  /** http://127.0.0.1:<port> (the SDK's base URL is `${url}/v1`). */
  url: string;
  baseUrl: string;
  port: number;
  host: string;
  requests: RecordedOpenAiRequest[];
  /** Queue exact replies for one API key ('' = any key without its own queue). */
  script(key: string, replies: ScriptedReply[]): void;
  reset(key?: string): void;
  /** Sets the pace of streamed answers from now on. */
  setStreamDelays(delays: StreamDelays): void;
  close(): Promise<void>;
  /** Same as close (the local stack's service shape). */
  stop(): Promise<void>;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { message: string; type: string; param?: string | null; code?: string | null },
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

const invalidRequest = (message: string, param: string | null = null, code: string | null = null) =>
  new ApiError(400, { message, type: 'invalid_request_error', param, code });

const modelNotFound = (model: string) =>
  new ApiError(404, {
    message: `The model \`${model}\` does not exist or you do not have access to it.`,
    type: 'invalid_request_error',
    param: null,
    code: 'model_not_found',
  });

function bearer(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (match?.[1]) return match[1].trim();
  const azure = req.headers['api-key'];
  return typeof azure === 'string' ? azure.trim() : '';
}

function checkKey(key: string): void {
  if (!key) {
    throw new ApiError(401, {
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      type: 'invalid_request_error',
      param: null,
      code: null,
    });
  }
  if (!key.startsWith('sk-') || key.startsWith('sk-invalid')) {
    const shown = key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(Math.min(20, key.length - 7))}${key.slice(-4)}` : key;
    throw new ApiError(401, {
      message: `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_api_key',
    });
  }
  if (key.startsWith('sk-ratelimit')) {
    throw new ApiError(
      429,
      {
        message: 'Rate limit reached for requests. Limit: 3 / min. Please try again in 20s.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
      // Real OpenAI sends retry hints too; a short one keeps the SDK's single retry fast.
      { 'retry-after-ms': '20', 'x-ratelimit-limit-requests': '3', 'x-ratelimit-remaining-requests': '0' },
    );
  }
}

/**
 * OpenAI's error for a fault (../faults.ts): {error: {message, type, param, code}} as the API
 * answers it, by status or by code: 429 rate_limit_exceeded (with the x-ratelimit-* headers) or
 * insufficient_quota, 401 invalid_api_key, 500 server_error, 503 server_is_overloaded.
 */
export function openAiFaultError(spec: FaultAnswer): ProviderError {
  const code = typeof spec.code === 'string' ? spec.code : undefined;
  const status =
    spec.status ?? (code === 'rate_limit_exceeded' || code === 'insufficient_quota' ? 429 : code === 'invalid_api_key' ? 401 : code === 'server_is_overloaded' ? 503 : 500);
  const known: Record<number, { message: string; type: string; code: string | null }> = {
    401: {
      message: 'Incorrect API key provided: sk-fault****************here. You can find your API key at https://platform.openai.com/account/api-keys.',
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    },
    429:
      code === 'insufficient_quota'
        ? {
            message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
            type: 'insufficient_quota',
            code: 'insufficient_quota',
          }
        : {
            message: 'Rate limit reached for gpt-4o-mini in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.',
            type: 'requests',
            code: 'rate_limit_exceeded',
          },
    500: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', code: null },
    503: { message: 'The server is overloaded or not ready yet.', type: 'service_unavailable_error', code: 'server_is_overloaded' },
  };
  const base = known[status] ?? { message: `HTTP ${status}`, type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
  const headers: Record<string, string> =
    status === 429 && base.code === 'rate_limit_exceeded'
      ? { 'x-ratelimit-limit-requests': '3', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '20s' }
      : {};
  return {
    status,
    body: { error: { message: spec.message ?? base.message, type: spec.type ?? base.type, param: null, code: code ?? (spec.code !== undefined ? String(spec.code) : base.code) } },
    headers,
  };
}

const isReasoning = (model: string) => /^(gpt-5(?!-chat)|o\d)/.test(model);
const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** A data: URL image part OpenAI would refuse (not an image type, or not base64). */
function checkImages(messages: unknown[]): void {
  for (const m of messages as WireMessage[]) {
    if (!Array.isArray(m.content)) continue;
    for (const part of m.content as Array<{ type?: string; image_url?: { url?: unknown } }>) {
      if (part.type !== 'image_url') continue;
      const url = part.image_url?.url;
      if (typeof url !== 'string' || (url.startsWith('data:') && !/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/.test(url))) {
        throw invalidRequest('Invalid image data. Expected a base64 data URL of a PNG, JPEG, GIF or WEBP image.', 'messages', 'invalid_image_format');
      }
    }
  }
}

function chatCompletion(body: Record<string, unknown>, scripted: ScriptedReply | undefined, images?: ReadonlyMap<string, string>) {
  const model = body.model;
  if (typeof model !== 'string' || model === '') throw invalidRequest('you must provide a model parameter', 'model');
  if (!FAKE_OPENAI_CHAT_MODELS.includes(model)) throw modelNotFound(model);
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw invalidRequest("Invalid 'messages': empty array. Expected an array with minimum length 1.", 'messages', 'empty_array');
  }
  // The reasoning models' real restrictions, so an adapter that gets them wrong fails here too.
  if (isReasoning(model) && body.max_tokens !== undefined) {
    throw invalidRequest(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens',
      'unsupported_parameter',
    );
  }
  if (isReasoning(model) && body.temperature !== undefined && body.temperature !== 1) {
    throw invalidRequest(
      `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`,
      'temperature',
      'unsupported_value',
    );
  }
  checkImages(messages);
  const tools = (Array.isArray(body.tools) ? body.tools : []) as WireTool[];
  for (const tool of tools) {
    if (tool.type !== 'function' || !tool.function?.name || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.function.name)) {
      throw invalidRequest("Invalid 'tools': each tool needs type 'function' and a valid function.name.", 'tools');
    }
  }
  if (scripted && 'error' in scripted) {
    const { status, message = 'Scripted error', type = 'server_error', code = null } = scripted.error;
    throw new ApiError(status, { message, type, param: null, code });
  }
  const format = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  let message: BrainReply;
  if (scripted) {
    message = { role: 'assistant', content: scripted.content ?? null, ...(scripted.tool_calls ? { tool_calls: scripted.tool_calls } : {}) };
  } else if (format?.type === 'json_schema') {
    message = { role: 'assistant', content: JSON.stringify(fillSchema(format.json_schema?.schema ?? { type: 'object' })) };
  } else {
    message = think(messages as WireMessage[], tools, images);
  }
  const promptTokens = tokens(JSON.stringify(messages) + JSON.stringify(tools));
  const completionTokens = tokens(message.content ?? JSON.stringify(message.tool_calls ?? []));
  return {
    id: `chatcmpl-${randomBytes(12).toString('hex')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: message.content, refusal: null, ...(message.tool_calls?.length ? { tool_calls: message.tool_calls } : {}) },
        logprobs: null,
        finish_reason: message.tool_calls?.length ? ('tool_calls' as const) : ('stop' as const),
      },
    ],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    system_fingerprint: 'fp_fake_openai',
  };
}

function embeddings(body: Record<string, unknown>) {
  const model = body.model;
  if (typeof model !== 'string' || model === '') throw invalidRequest('you must provide a model parameter', 'model');
  if (FAKE_OPENAI_CHAT_MODELS.includes(model)) throw invalidRequest(`The model \`${model}\` does not support embeddings.`, 'model');
  if (!FAKE_OPENAI_EMBEDDING_MODELS.includes(model)) throw modelNotFound(model);
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0 || input.length > 2048 || !input.every((t) => typeof t === 'string' && t !== '')) {
    throw invalidRequest("'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", 'input');
  }
  const dimensions = typeof body.dimensions === 'number' ? body.dimensions : EMBEDDING_DIMENSIONS[model]!;
  const base64 = body.encoding_format === 'base64';
  const used = (input as string[]).reduce((n, t) => n + tokens(t), 0);
  return {
    object: 'list',
    data: (input as string[]).map((text, index) => {
      const vector = fakeEmbedding(text, dimensions);
      return { object: 'embedding', index, embedding: base64 ? toBase64(vector) : Array.from(vector) };
    }),
    model,
    usage: { prompt_tokens: used, total_tokens: used },
  };
}

const modelObject = (id: string) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'openai' });

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJson(res, status, body, { 'x-request-id': `req_${randomBytes(12).toString('hex')}`, 'openai-processing-ms': '1', ...headers });
}

const readJson = (req: IncomingMessage) =>
  readJsonObject(req, MAX_BODY, {
    tooLarge: () => invalidRequest('Request body too large.'),
    invalid: () =>
      invalidRequest('We could not parse the JSON body of your request. (HINT: This likely means you aren\'t using your HTTP library correctly.)'),
  });

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const host = options.host ?? '127.0.0.1';
  const slowDelayMs = options.slowDelayMs ?? SLOW_KEY_DELAY_MS;
  const requests: RecordedOpenAiRequest[] = [];
  const scripts = new Map<string, ScriptedReply[]>();
  const waits = createWaits();
  const faults = fakeFaults({ errorFor: openAiFaultError, send });
  let streamDelays: StreamDelays = options.streamDelays ?? { firstTokenMs: 0, tokenMs: 0 };
  const keyStreamDelays = new Map<string, StreamDelays>();
  // Issue 31: what the fake hears in an audio (by its bytes' sha256, or a marker its bytes hold) and sees in a photo.
  const transcripts = new Map<string, RegisteredTranscript>();
  const transcriptMarkers: Array<{ marker: Buffer; transcript: RegisteredTranscript }> = [];
  const images = new Map<string, string>();
  const heard = (sha256: string, bytes: Buffer) => transcripts.get(sha256) ?? transcriptMarkers.find((m) => bytes.includes(m.marker))?.transcript;
  const validDelay = (ms: unknown): ms is number => typeof ms === 'number' && Number.isInteger(ms) && ms >= 0 && ms <= 60_000;

  const record = (entry: RecordedOpenAiRequest) => {
    requests.push(entry);
    if (requests.length > MAX_RECORDED) requests.splice(0, requests.length - MAX_RECORDED);
  };
  const nextScripted = (key: string): ScriptedReply | undefined => {
    for (const queueKey of [key, '']) {
      const queue = scripts.get(queueKey);
      if (queue?.length) return queue.shift();
    }
    return undefined;
  };
  const reset = (key?: string) => {
    if (key === undefined) {
      transcripts.clear();
      transcriptMarkers.length = 0;
      images.clear();
      scripts.clear();
      keyStreamDelays.clear();
      requests.length = 0;
      return;
    }
    scripts.delete(key);
    keyStreamDelays.delete(key);
    for (let i = requests.length - 1; i >= 0; i--) if (requests[i]!.key === key) requests.splice(i, 1);
  };

  async function handleApi(req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> {
    const key = bearer(req);
    let body: Record<string, unknown> = {};
    let status = 200;
    let streamedPieces: number | undefined;
    let audio: Buffer | null = null;
    try {
      if (method === 'POST' && path === '/audio/transcriptions') {
        const read = await readTranscriptionForm(req);
        body = read.form as Record<string, unknown>;
        audio = read.bytes;
      } else if (method !== 'GET') body = await readJson(req);
      checkKey(key);
      if (key.startsWith('sk-slow')) {
        const waited = await waits.wait(slowDelayMs, res);
        if (!waited) {
          status = 499;
          return;
        }
      }
      let result: unknown;
      const model = /^\/models\/(.+)$/.exec(path);
      if (method === 'POST' && path === '/chat/completions' && body.stream === true) {
        const completion = chatCompletion(body, nextScripted(key), images);
        const choice = completion.choices[0]!;
        const includeUsage = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
        streamedPieces = await streamCompletion(
          res,
          {
            ...completion,
            content: choice.message.content,
            toolCalls: choice.message.tool_calls,
            finishReason: choice.finish_reason,
            usage: includeUsage ? completion.usage : undefined,
          },
          keyStreamDelays.get(key) ?? streamDelays,
          { 'x-request-id': `req_${randomBytes(12).toString('hex')}` },
        );
        return;
      }
      if (method === 'POST' && path === '/chat/completions') {
        const scripted = nextScripted(key);
        if (scripted && 'delayMs' in scripted && scripted.delayMs && !(await waits.wait(scripted.delayMs, res))) {
          status = 499;
          return;
        }
        result = chatCompletion(body, scripted, images);
      }
      else if (method === 'POST' && path === '/audio/transcriptions') {
        const answer = transcriptionAnswer(body as TranscriptionForm, audio, heard);
        if ('text' in answer) {
          res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-request-id': `req_${randomBytes(12).toString('hex')}` });
          res.end(answer.text);
          return;
        }
        result = answer.json;
      }
      else if (method === 'POST' && path === '/embeddings') result = embeddings(body);
      else if (method === 'GET' && path === '/models') {
        result = { object: 'list', data: [...FAKE_OPENAI_CHAT_MODELS, ...FAKE_OPENAI_EMBEDDING_MODELS].map(modelObject) };
      } else if (method === 'GET' && model) {
        const id = decodeURIComponent(model[1]!);
        if (![...FAKE_OPENAI_CHAT_MODELS, ...FAKE_OPENAI_EMBEDDING_MODELS].includes(id)) throw modelNotFound(id);
        result = modelObject(id);
      } else {
        throw new ApiError(404, { message: `Invalid URL (${method} /v1${path})`, type: 'invalid_request_error', param: null, code: null });
      }
      send(res, 200, result);
    } catch (error) {
      if (error instanceof TranscriptionRequestError) {
        status = error.status;
        send(res, error.status, { error: { message: error.message, type: 'invalid_request_error', param: error.param, code: error.code } });
        return;
      }
      if (!(error instanceof ApiError)) throw error;
      status = error.status;
      send(res, error.status, { error: { param: null, code: null, ...error.body } }, error.headers);
    } finally {
      record({ at: new Date().toISOString(), method, path: `/v1${path}`, key, status, body, ...(streamedPieces === undefined ? {} : { streamedPieces }) });
    }
  }

  async function handleControl(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    const action = url.pathname.slice('/_test/'.length);
    if (method === 'POST' && action === 'script') {
      const body = await readJson(req);
      if (!Array.isArray(body.responses)) return send(res, 400, { error: { message: 'responses must be an array' } });
      const key = typeof body.key === 'string' ? body.key : '';
      scripts.set(key, [...(scripts.get(key) ?? []), ...(body.responses as ScriptedReply[])]);
      return send(res, 200, { ok: true, queued: scripts.get(key)!.length });
    }
    if (method === 'POST' && action === 'transcripts') {
      const body = await readJson(req);
      const sha256 = typeof body.sha256 === 'string' && /^[0-9a-f]{64}$/.test(body.sha256) ? body.sha256 : undefined;
      const marker = typeof body.marker === 'string' && body.marker.length >= 4 ? body.marker : undefined;
      const duration = body.duration;
      if ((!sha256 && !marker) || typeof body.text !== 'string' || (body.language !== undefined && typeof body.language !== 'string') || (duration !== undefined && (typeof duration !== 'number' || !(duration > 0)))) {
        return send(res, 400, { error: { message: 'sha256 (64 hex characters) or marker (4+ characters), text, and optionally language (ISO 639-1) and duration (seconds > 0)' } });
      }
      const transcript: RegisteredTranscript = { text: body.text, ...(typeof body.language === 'string' ? { language: body.language } : {}), ...(typeof duration === 'number' ? { duration } : {}) };
      if (sha256) transcripts.set(sha256, transcript);
      else transcriptMarkers.push({ marker: Buffer.from(marker!, 'latin1'), transcript });
      return send(res, 200, { ok: true });
    }
    if (method === 'POST' && action === 'images') {
      const body = await readJson(req);
      if (typeof body.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(body.sha256) || typeof body.description !== 'string' || !body.description.trim()) {
        return send(res, 400, { error: { message: 'sha256 (64 hex characters of the image bytes) and description are required' } });
      }
      images.set(body.sha256, body.description.trim());
      return send(res, 200, { ok: true });
    }
    if (method === 'POST' && action === 'stream-delays') {
      const body = await readJson(req);
      if (!validDelay(body.firstTokenMs) || !validDelay(body.tokenMs)) {
        return send(res, 400, { error: { message: 'firstTokenMs and tokenMs must be whole milliseconds from 0 to 60000' } });
      }
      const delays = { firstTokenMs: body.firstTokenMs, tokenMs: body.tokenMs };
      if (typeof body.key === 'string' && body.key) keyStreamDelays.set(body.key, delays);
      else streamDelays = delays;
      return send(res, 200, { ok: true, ...delays });
    }
    if (method === 'GET' && action === 'requests') {
      const key = url.searchParams.get('key');
      const path = url.searchParams.get('path');
      return send(res, 200, {
        requests: requests.filter((r) => (key === null || r.key === key) && (!path || r.path.startsWith(path))),
      });
    }
    if (method === 'POST' && action === 'reset') {
      const body = await readJson(req);
      reset(typeof body.key === 'string' ? body.key : undefined);
      return send(res, 200, { ok: true });
    }
    send(res, 404, { error: { message: `Unknown control call ${method} ${url.pathname}` } });
  }

  async function handle(req: IncomingMessage, res: ServerResponse, method: string, url: URL): Promise<void> {
    if (await faults.control(req, res, url.pathname)) return;
    if (url.pathname.startsWith('/_test/')) return handleControl(req, res, method, url);
    if (url.pathname === '/' && method === 'GET') return send(res, 200, { service: 'fake OpenAI (AgentDesk local runtime)', baseUrl: '/v1' });
    const path = url.pathname.replace(/^\/v1(?=\/)/, '').replace(/\/+$/, '');
    if (await faults.intercept(req, res, [url.pathname, path])) return;
    return handleApi(req, res, method, path);
  }

  const server: Server = createServer((req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://fake-openai');
    handle(req, res, method, url).catch((error: unknown) => {
      options.log?.('error', `[openai] ${(error as Error).message}`);
      send(res, 500, { error: { message: 'The fake OpenAI server failed.', type: 'server_error', param: null, code: null } });
    });
  });

  const port = await listen(server, options.port ?? 0, host);
  const url = `http://${host}:${port}`;
  options.log?.('info', `[openai] fake OpenAI API at ${url}/v1`);

  const close = closeOnce(server, { cancel: () => (waits.cancel(), faults.close()) });

  return {
    url,
    baseUrl: `${url}/v1`,
    port,
    host,
    requests,
    script: (key, replies) => scripts.set(key, [...(scripts.get(key) ?? []), ...replies]),
    reset,
    setStreamDelays: (delays) => (streamDelays = { ...delays }),
    close,
    stop: close,
  };
}
