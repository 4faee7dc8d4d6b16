/**
 * FetchOpenAiModel (every function's model since issue 28; the `openai` SDK adapter in
 * test/support/openai-sdk/ is the oracle it is compared with) against the fake OpenAI, every request
 * through the outbound guard's streamed request: the same request bodies and answers as the SDK
 * adapter (model.ts), the answer streamed token by token at the fake's pace (text, tool calls,
 * usage), abort mid-stream closing the connection (the fake stops sending), the same ModelError
 * kinds, one retry only before the answer started, and embeddings/verify as the SDK adapter.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FetchOpenAiModel } from '../../../src/adapters/openai/fetch-model.js';
import { OpenAiModel } from '../../support/openai-sdk/model.js';
import { createGuard } from '../../../src/adapters/outbound/guarded-fetch.js';
import { EMBEDDING_DIMENSIONS, ModelError, type CompletionRequest, type ModelToolSpec } from '../../../src/domain/ai/ports.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../local/fake-openai/server.js';
import { tokenPieces } from '../../../local/fake-openai/stream.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A loopback server for what the fake does not do: an error inside the stream, a dropped connection. */
async function startOddServer(handle: Parameters<typeof createServer>[1]) {
  const server: Server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { port, baseUrl: `http://127.0.0.1:${port}/v1`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let fake: FakeOpenAi;
let odd: Awaited<ReturnType<typeof startOddServer>>;
let oddRequests = 0;
let oddMode: 'in-stream-error' | 'drop-first' | 'cut-mid-stream' | 'complete-stream' = 'in-stream-error';
/** The client port of each request the odd server saw: the same port twice = a reused connection. */
const oddPorts: number[] = [];
let guard: ReturnType<typeof createGuard>;

const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const chunk = (delta: object, finish: string | null = null) => ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] });

beforeAll(async () => {
  fake = await startFakeOpenAi({ slowDelayMs: 5_000 });
  odd = await startOddServer((req, res) => {
    oddRequests++;
    oddPorts.push(req.socket.remotePort ?? 0);
    req.resume();
    if (oddMode === 'drop-first' && oddRequests === 1) return void req.socket.destroy();
    if (oddMode === 'drop-first') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'Second try.' }, finish_reason: 'stop' }] }));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(sse(chunk({ role: 'assistant', content: '' })));
    res.write(sse(chunk({ content: 'Your order' })));
    res.write(sse(chunk({ content: ' is' })));
    if (oddMode === 'complete-stream') {
      res.write(sse(chunk({}, 'stop')));
      res.write('data: [DONE]\n\n');
      // The body's end comes a little after [DONE], as over a real network.
      return void setTimeout(() => res.end(), 15);
    }
    if (oddMode === 'in-stream-error') {
      res.write(sse({ error: { message: 'The server had an error while processing your request.', type: 'server_error' } }));
      return void res.end();
    }
    setTimeout(() => res.socket?.destroy(), 20);
  });
  guard = createGuard({ allowHosts: [`127.0.0.1:${fake.port}`, `127.0.0.1:${odd.port}`] });
});
afterAll(async () => {
  await fake.close();
  await odd.close();
});
beforeEach(() => {
  fake.setStreamDelays({ firstTokenMs: 0, tokenMs: 0 });
  oddRequests = 0;
  oddPorts.length = 0;
});

let keySeq = 0;
const newKey = (prefix = 'sk-fetch') => `${prefix}-${Date.now()}-${keySeq++}`;
const fetchModel = (apiKey: string, baseUrl = fake.baseUrl) => new FetchOpenAiModel({ apiKey, baseUrl, guard: guard.stream, checkUrl: guard.check, retryDelayMs: 20 });
const sdkModel = (apiKey: string) => new OpenAiModel({ apiKey, baseUrl: fake.baseUrl, guard: guard.fetch, checkUrl: guard.check });
const requestsOf = (key: string) => fake.requests.filter((r) => r.key === key);
const errorOf = async (p: Promise<unknown>) => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
};
/** Waits until the fake has recorded `count` requests of `key` (a stream is recorded when it ends). */
async function recorded(key: string, count = 1) {
  const until = Date.now() + 3_000;
  while (requestsOf(key).length < count) {
    if (Date.now() > until) throw new Error(`the fake recorded ${requestsOf(key).length} requests, expected ${count}`);
    await sleep(10);
  }
  return requestsOf(key);
}

const orderTool: ModelToolSpec = {
  name: 'check_order_status',
  description: 'Look up an order',
  parameters: { type: 'object', properties: { order_id: { type: 'string' }, quantity: { type: 'number' } }, required: ['order_id'], additionalProperties: false },
};
const ask = (content: string, over: Partial<CompletionRequest> = {}): CompletionRequest => ({
  model: 'gpt-4o',
  messages: [
    { role: 'system', content: 'You are helpful.' },
    { role: 'user', content },
  ],
  maxTokens: 200,
  temperature: 0.3,
  ...over,
});

describe('FetchOpenAiModel.complete: the SDK adapter’s requests and answers', () => {
  it.each(['gpt-4o', 'gpt-5-mini', 'o3-mini'])('sends the same body as the SDK adapter and reads the same answer (%s)', async (name) => {
    const [viaFetch, viaSdk] = [newKey(), newKey()];
    const request = ask('Please run check_order_status order_id=A-17 quantity: 3', { model: name, tools: [orderTool] });

    const fetched = await fetchModel(viaFetch).complete(request);
    const sdk = await sdkModel(viaSdk).complete(request);

    expect(requestsOf(viaFetch)[0]!.body).toEqual(requestsOf(viaSdk)[0]!.body);
    expect(fetched).toEqual({ ...sdk, toolCalls: [{ ...sdk.toolCalls[0]!, id: fetched.toolCalls[0]!.id }] });
    expect(fetched.finishReason).toBe('tool_calls');
    expect(JSON.parse(fetched.toolCalls[0]!.arguments)).toEqual({ order_id: 'A-17', quantity: 3 });
  });

  it('asks for strict structured output and returns usage', async () => {
    const key = newKey();
    const schema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false };

    const reply = await fetchModel(key).complete({ ...ask('Summarise'), jsonSchema: { name: 'call_summary', schema } });

    expect(requestsOf(key)[0]!.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'call_summary', schema, strict: true } } });
    expect(JSON.parse(reply.content!)).toHaveProperty('summary');
    expect(reply.usage?.promptTokens).toBeGreaterThan(0);
  });
});

describe('FetchOpenAiModel.stream', () => {
  it('hands the answer over piece by piece and returns the same completion as complete(), with usage', async () => {
    const key = newKey();
    const pieces: string[] = [];

    const streamed = await fetchModel(key).stream(ask('Hello there, how are you today?'), { onText: (p) => void pieces.push(p) });
    const whole = await fetchModel(key).complete(ask('Hello there, how are you today?'));

    expect(pieces).toEqual(tokenPieces(whole.content!));
    expect(streamed).toMatchObject({ content: whole.content, toolCalls: [], finishReason: 'stop' });
    expect(streamed.usage?.completionTokens).toBeGreaterThan(0);
    const body = requestsOf(key)[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true }, model: 'gpt-4o', max_tokens: 200 });
  });

  it('passes the model’s first token on as it arrives, before the rest is written', async () => {
    fake.setStreamDelays({ firstTokenMs: 300, tokenMs: 40 });
    const started = Date.now();
    const arrivals: number[] = [];

    const reply = await fetchModel(newKey()).stream(ask('Tell me about the opening hours on Saturday morning'), {
      onText: () => void arrivals.push(Date.now() - started),
    });

    expect(reply.content).toBeTruthy();
    expect(arrivals[0]!).toBeGreaterThanOrEqual(290);
    expect(arrivals[0]!).toBeLessThan(arrivals.at(-1)! - 3 * 30);
  });

  it('streams a tool call: the words before it reach onText, the call comes back whole', async () => {
    const key = newKey();
    fake.script(key, [
      {
        content: 'Let me check that for you.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'check_order_status', arguments: '{"order_id":"A-17","quantity":3}' } }],
      },
    ]);
    const pieces: string[] = [];

    const reply = await fetchModel(key).stream(ask('Where is A-17?', { tools: [orderTool] }), { onText: (p) => void pieces.push(p) });

    expect(pieces.join('')).toBe('Let me check that for you.');
    expect(reply).toMatchObject({
      content: 'Let me check that for you.',
      finishReason: 'tool_calls',
      toolCalls: [{ id: 'call_1', name: 'check_order_status', arguments: '{"order_id":"A-17","quantity":3}' }],
    });
  });

  it('an abort mid-stream rejects with the signal’s reason and closes the connection: the fake stops sending', async () => {
    fake.setStreamDelays({ firstTokenMs: 0, tokenMs: 40 });
    const key = newKey();
    const controller = new AbortController();
    const pieces: string[] = [];
    const question = 'Please tell me everything about your prices for whitening, implants, cleaning and check-ups';

    const error = await fetchModel(key)
      .stream(ask(question), {
        signal: controller.signal,
        onText: (p) => {
          pieces.push(p);
          if (pieces.length === 2) controller.abort(new Error('barge-in'));
        },
      })
      .catch((e: unknown) => e);

    expect(error).toEqual(new Error('barge-in'));
    const [request] = await recorded(key);
    const total = tokenPieces((await fetchModel(newKey()).complete(ask(question))).content!).length;
    expect(request!.streamedPieces).toBeLessThanOrEqual(3);
    expect(total).toBeGreaterThan(6);
    expect(pieces).toHaveLength(2);
  });

  it('an error thrown by onText propagates as it is and stops the stream', async () => {
    fake.setStreamDelays({ firstTokenMs: 0, tokenMs: 30 });
    const key = newKey();
    const gone = new Error('caller gone');

    const error = await fetchModel(key)
      .stream(ask('Please tell me everything about your prices for whitening, implants and cleaning'), {
        onText: () => {
          throw gone;
        },
      })
      .catch((e: unknown) => e);

    expect(error).toBe(gone);
    expect((await recorded(key))[0]!.streamedPieces).toBeLessThanOrEqual(2);
  });

  it('an error inside the stream is ModelError unavailable after the text already handed on, and is not retried', async () => {
    oddMode = 'in-stream-error';
    const pieces: string[] = [];

    const error = await errorOf(fetchModel(newKey(), odd.baseUrl).stream(ask('Where is my order?'), { onText: (p) => void pieces.push(p) }));

    expect(error.kind).toBe('unavailable');
    expect(pieces.join('')).toBe('Your order is');
    expect(oddRequests).toBe(1);
  });

  it('a connection cut mid-answer is unavailable, never retried once text was handed on', async () => {
    oddMode = 'cut-mid-stream';
    const pieces: string[] = [];

    const error = await errorOf(fetchModel(newKey(), odd.baseUrl).stream(ask('Where is my order?'), { onText: (p) => void pieces.push(p) }));

    expect(error.kind).toBe('unavailable');
    expect(pieces.join('')).toBe('Your order is');
    expect(oddRequests).toBe(1);
  });

  it('a finished stream leaves its connection for the next call; a stream stopped by a barge-in does not', async () => {
    oddMode = 'complete-stream';
    const m = fetchModel(newKey(), odd.baseUrl);
    const pieces: string[] = [];

    const first = await m.stream(ask('Where is my order?'), { onText: (p) => void pieces.push(p) });
    await sleep(50);
    await m.stream(ask('And the other one?'), { onText: () => undefined });
    await sleep(50);
    const controller = new AbortController();
    await m.stream(ask('Stop'), { signal: controller.signal, onText: () => controller.abort(new Error('barge-in')) }).catch(() => undefined);
    await m.stream(ask('Again'), { onText: () => undefined });

    expect(first).toMatchObject({ content: 'Your order is', finishReason: 'stop' });
    expect(oddPorts).toHaveLength(4);
    expect(oddPorts[1]).toBe(oddPorts[0]);
    expect(oddPorts[2]).toBe(oddPorts[1]);
    expect(oddPorts[3]).not.toBe(oddPorts[2]);
  });

  it('bounds the whole stream by timeoutMs: a model slow to start is a timeout', async () => {
    fake.setStreamDelays({ firstTokenMs: 3_000, tokenMs: 0 });
    const started = Date.now();

    const error = await errorOf(fetchModel(newKey()).stream(ask('Hi', { timeoutMs: 300 }), { onText: () => undefined }));

    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});

describe('FetchOpenAiModel: errors and the one retry', () => {
  it('maps a rejected key, a rate limit and an unknown model like the SDK adapter', async () => {
    expect((await errorOf(fetchModel('sk-invalid-abc').complete(ask('Hi')))).kind).toBe('auth');
    expect((await errorOf(fetchModel(newKey('sk-ratelimit')).stream(ask('Hi'), { onText: () => undefined }))).kind).toBe('rate_limit');
    expect((await errorOf(fetchModel(newKey()).complete(ask('Hi', { model: 'gpt-9000' })))).kind).toBe('not_found');
  });

  it.each([
    [400, 'bad_request'],
    [422, 'bad_request'],
    [403, 'auth'],
  ] as const)('maps a provider %i to %s without a retry', async (status, kind) => {
    const key = newKey();
    fake.script(key, [{ error: { status } }, { content: 'never' }]);

    expect((await errorOf(fetchModel(key).stream(ask('Hi'), { onText: () => undefined }))).kind).toBe(kind);
    expect(requestsOf(key)).toHaveLength(1);
  });

  it('retries a 5xx once before the answer starts: a second 5xx is unavailable, a good second answer is streamed', async () => {
    const failing = newKey();
    fake.script(failing, [{ error: { status: 500 } }, { error: { status: 503 } }, { content: 'never' }]);
    expect((await errorOf(fetchModel(failing).complete(ask('Hi')))).kind).toBe('unavailable');
    expect(requestsOf(failing)).toHaveLength(2);

    const recovering = newKey();
    fake.script(recovering, [{ error: { status: 502 } }, { content: 'Back again.' }]);
    const pieces: string[] = [];
    const reply = await fetchModel(recovering).stream(ask('Hi'), { onText: (p) => void pieces.push(p) });
    expect(reply.content).toBe('Back again.');
    expect(pieces.join('')).toBe('Back again.');
    expect(await recorded(recovering, 2)).toHaveLength(2);
  });

  it('retries a connection dropped before any answer', async () => {
    oddMode = 'drop-first';

    const reply = await fetchModel(newKey(), odd.baseUrl).complete(ask('Hi'));

    expect(reply.content).toBe('Second try.');
    expect(oddRequests).toBe(2);
  });

  it('bounds complete() by timeoutMs', async () => {
    const started = Date.now();

    expect((await errorOf(fetchModel(newKey('sk-slow')).complete(ask('Hi', { timeoutMs: 300 })))).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('refuses a base URL on a loopback address that is not allow-listed without calling it', async () => {
    const before = fake.requests.length;
    const strict = new FetchOpenAiModel({ apiKey: newKey(), baseUrl: fake.baseUrl, guard: createGuard().stream, checkUrl: createGuard().check });

    const error = await errorOf(strict.stream(ask('Hi'), { onText: () => undefined }));

    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/^Blocked/);
    expect(fake.requests.length).toBe(before);
  });
});

describe('FetchOpenAiModel: embeddings and key check', () => {
  it('returns the SDK adapter’s normalised vectors, in order, across batches', async () => {
    const texts = Array.from({ length: 100 }, (_, i) => (i === 7 ? '   ' : `text number ${i} about teeth`));
    const key = newKey();

    const viaFetch = await fetchModel(key).embed(texts);
    const viaSdk = await sdkModel(newKey()).embed(texts);

    expect(viaFetch).toHaveLength(100);
    expect(viaFetch[0]).toHaveLength(EMBEDDING_DIMENSIONS);
    expect(viaFetch).toEqual(viaSdk);
    expect(requestsOf(key).map((r) => (r.body as { input: string[]; encoding_format: string }).input.length)).toEqual([96, 4]);
    expect(requestsOf(key)[0]!.body).toMatchObject({ model: 'text-embedding-3-small', encoding_format: 'base64' });
  });

  it('sends the SDK’s embeddings and key-check requests: method, path and body (every function uses this adapter, issue 28)', async () => {
    const [viaFetch, viaSdk] = [newKey(), newKey()];
    const texts = ['opening hours', '  ', 'prices of a cleaning'];

    await fetchModel(viaFetch).embed(texts);
    await fetchModel(viaFetch).verify('gpt-4o-mini');
    await sdkModel(viaSdk).embed(texts);
    await sdkModel(viaSdk).verify('gpt-4o-mini');

    const shape = (key: string) => requestsOf(key).map((r) => ({ method: r.method, path: r.path, body: r.body }));
    expect(shape(viaFetch)).toEqual(shape(viaSdk));
    expect(shape(viaFetch).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/embeddings', 'GET /v1/models/gpt-4o-mini']);
  });

  it('verify passes with a good key and model, fails with a bad key or an unknown model', async () => {
    await expect(fetchModel(newKey()).verify('gpt-4o')).resolves.toBeUndefined();
    expect((await errorOf(fetchModel('sk-invalid-x').verify('gpt-4o'))).kind).toBe('auth');
    expect((await errorOf(fetchModel(newKey()).verify('gpt-9000'))).kind).toBe('not_found');
  });
});
