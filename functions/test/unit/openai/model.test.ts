/**
 * OpenAiModel through the real `openai` SDK against the fake OpenAI server, with every request
 * going through the outbound guard: chat (model quirks, tools, structured output), embeddings
 * (batching, order, normalisation), the key check, and provider errors mapped to ModelError kinds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuard } from '../../../src/adapters/outbound/guarded-fetch.js';
import { EMBED_BATCH_MAX_INPUTS, OpenAiModel, chatCompletionBody, isReasoningModel } from '../../support/openai-sdk/model.js';
import { EMBEDDING_DIMENSIONS, ModelError, type ModelToolSpec } from '../../../src/domain/ai/ports.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../local/fake-openai/server.js';

let fake: FakeOpenAi;
let guard: ReturnType<typeof createGuard>;

beforeAll(async () => {
  fake = await startFakeOpenAi({ slowDelayMs: 5_000 });
  guard = createGuard({ allowHosts: [`127.0.0.1:${fake.port}`] });
});
afterAll(() => fake.close());

let keySeq = 0;
/** A fresh key per test: the fake records and scripts per key. */
const newKey = (prefix = 'sk-test') => `${prefix}-${Date.now()}-${keySeq++}`;
const model = (apiKey: string, baseUrl = fake.baseUrl) => new OpenAiModel({ apiKey, baseUrl, guard: guard.fetch, checkUrl: guard.check });
const requestsOf = (key: string) => fake.requests.filter((r) => r.key === key);
const errorOf = async (p: Promise<unknown>) => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
};

const orderTool: ModelToolSpec = {
  name: 'check_order_status',
  description: 'Look up an order',
  parameters: {
    type: 'object',
    properties: { order_id: { type: 'string' }, quantity: { type: 'number' }, express: { type: 'boolean' } },
    required: ['order_id', 'quantity'],
    additionalProperties: false,
  },
};

describe('OpenAiModel.complete', () => {
  it('sends the conversation and returns the reply with usage', async () => {
    const key = newKey();

    const reply = await model(key).complete({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'Hello there' },
      ],
      maxTokens: 200,
      temperature: 0.3,
    });

    expect(reply).toMatchObject({ content: 'Echo: Hello there', toolCalls: [], finishReason: 'stop' });
    expect(reply.usage?.promptTokens).toBeGreaterThan(0);
    expect(requestsOf(key)[0]?.body).toMatchObject({ model: 'gpt-4o', max_tokens: 200, temperature: 0.3 });
  });

  it.each(['gpt-5', 'gpt-5-mini', 'gpt-5-nano'])('uses max_completion_tokens and no temperature for %s', async (name) => {
    const key = newKey();

    const reply = await model(key).complete({ model: name, messages: [{ role: 'user', content: 'Hi' }], maxTokens: 50, temperature: 0.7 });

    const body = requestsOf(key)[0]?.body as Record<string, unknown>;
    expect(reply.content).toBe('Echo: Hi');
    expect(body).toMatchObject({ max_completion_tokens: 50, reasoning_effort: 'minimal' });
    expect(body).not.toHaveProperty('max_tokens');
    expect(body).not.toHaveProperty('temperature');
  });

  it('classifies reasoning models', () => {
    expect(['gpt-5', 'gpt-5-mini', 'o3-mini', 'o1'].map(isReasoningModel)).toEqual([true, true, true, true]);
    expect(['gpt-3.5-turbo', 'gpt-4', 'gpt-4o', 'gpt-5-chat-latest'].map(isReasoningModel)).toEqual([false, false, false, false]);
    expect(chatCompletionBody({ model: 'o3-mini', messages: [], maxTokens: 5, temperature: 1 })).not.toHaveProperty('reasoning_effort');
  });

  it('offers tools, returns the tool call, and sends the tool result back', async () => {
    const key = newKey();
    const m = model(key);

    const first = await m.complete({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Please run check_order_status order_id=A-17 quantity: 3' }],
      tools: [orderTool],
      maxTokens: 100,
      temperature: 0,
    });
    const call = first.toolCalls[0]!;
    const second = await m.complete({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Please run check_order_status order_id=A-17 quantity: 3' },
        { role: 'assistant', content: null, toolCalls: [call] },
        { role: 'tool', toolCallId: call.id, content: '{"status":"shipped"}' },
      ],
      tools: [orderTool],
      maxTokens: 100,
      temperature: 0,
    });

    expect(first.finishReason).toBe('tool_calls');
    expect(first.toolCalls).toHaveLength(1);
    expect(call.name).toBe('check_order_status');
    expect(JSON.parse(call.arguments)).toEqual({ order_id: 'A-17', quantity: 3 });
    expect(requestsOf(key)[0]?.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'check_order_status', description: 'Look up an order', parameters: orderTool.parameters } }],
    });
    expect((requestsOf(key)[1]?.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: 'Please run check_order_status order_id=A-17 quantity: 3' },
      { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] },
      { role: 'tool', tool_call_id: call.id, content: '{"status":"shipped"}' },
    ]);
    expect(second.content).toBe('Tool check_order_status returned: {"status":"shipped"}');
  });

  it('asks for strict structured output with a JSON schema', async () => {
    const key = newKey();
    const schema = {
      type: 'object',
      properties: { summary: { type: 'string' }, sentiment: { type: 'string', enum: ['positive', 'negative'] } },
      required: ['summary', 'sentiment'],
      additionalProperties: false,
    };

    const reply = await model(key).complete({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Summarise' }],
      maxTokens: 100,
      temperature: 0,
      jsonSchema: { name: 'call_summary', schema },
    });

    expect(requestsOf(key)[0]?.body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'call_summary', schema, strict: true } },
    });
    expect(JSON.parse(reply.content ?? '')).toEqual({ summary: 'example', sentiment: 'positive' });
  });
});

describe('OpenAiModel errors', () => {
  it('maps a rejected key, a rate limit and an unknown model', async () => {
    const bad = await errorOf(model(newKey('sk-invalid')).complete({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], maxTokens: 5, temperature: 0 }));
    const limited = await errorOf(model(newKey('sk-ratelimit')).complete({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], maxTokens: 5, temperature: 0 }));
    const missing = await errorOf(model(newKey()).complete({ model: 'gpt-unknown', messages: [{ role: 'user', content: 'x' }], maxTokens: 5, temperature: 0 }));

    expect(bad.kind).toBe('auth');
    expect(limited.kind).toBe('rate_limit');
    expect(missing.kind).toBe('not_found');
  });

  it('bounds the whole call by timeoutMs', async () => {
    const t0 = Date.now();

    const error = await errorOf(
      model(newKey('sk-slow')).complete({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], maxTokens: 5, temperature: 0, timeoutMs: 300 }),
    );

    expect(error.kind).toBe('timeout');
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it('maps a provider 400 to bad_request and a 5xx (after one retry) to unavailable', async () => {
    const key400 = newKey();
    const key500 = newKey();
    fake.script(key400, [{ error: { status: 400, message: 'context_length_exceeded' } }]);
    fake.script(key500, [{ error: { status: 500 } }, { error: { status: 503 } }]);

    const bad = await errorOf(model(key400).complete({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], maxTokens: 5, temperature: 0 }));
    const down = await errorOf(model(key500).complete({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], maxTokens: 5, temperature: 0 }));

    expect(bad.kind).toBe('bad_request');
    expect(bad.message).not.toContain('context_length_exceeded');
    expect(down.kind).toBe('unavailable');
    expect(requestsOf(key500)).toHaveLength(2);
  });

  it('refuses a base URL on a private or non-allow-listed loopback address without calling it', async () => {
    const privateUrl = await errorOf(model(newKey(), 'http://10.0.0.5/v1').complete({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }], maxTokens: 5, temperature: 0 }));
    const loopback = await errorOf(model(newKey(), 'http://127.0.0.1:9/v1').verify('gpt-4o'));
    const metadata = await errorOf(model(newKey(), 'http://169.254.169.254/v1').embed(['x']));

    expect(privateUrl.kind).toBe('unavailable');
    for (const refused of [privateUrl, loopback, metadata]) {
      expect(refused.message).toContain('Blocked: the address points to a private or local network and cannot be reached');
      expect(refused.message).not.toMatch(/10\.0\.0\.5|127\.0\.0\.1|169\.254/);
    }
  });
});

describe('OpenAiModel.embed', () => {
  const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

  it('returns one normalised 1536-dimension vector per text, in order, batched by count', async () => {
    const key = newKey();
    const texts = Array.from({ length: 2 * EMBED_BATCH_MAX_INPUTS + 8 }, (_, i) => `document number ${i} about topic${i}`);

    const vectors = await model(key).embed(texts);

    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(EMBEDDING_DIMENSIONS);
      expect(cosine(v, v)).toBeCloseTo(1, 5);
    }
    const batches = requestsOf(key).map((r) => (r.body as { input: string[] }).input);
    expect(batches.map((b) => b.length).sort((a, b) => b - a)).toEqual([96, 96, 8]);
    expect(requestsOf(key)[0]?.body).toMatchObject({ model: 'text-embedding-3-small', encoding_format: 'base64' });
    // Order: each vector matches its own text best.
    const again = await model(key).embed([texts[150]!]);
    expect(cosine(again[0]!, vectors[150]!)).toBeCloseTo(1, 5);
    expect(cosine(again[0]!, vectors[149]!)).toBeLessThan(0.9);
  });

  it('batches by size and embeds blank texts instead of failing', async () => {
    const key = newKey();
    const big = 'word '.repeat(20_000);

    const vectors = await model(key).embed([big, big, big, '', '   ']);

    expect(vectors).toHaveLength(5);
    // Two requests run in parallel, so their order is not fixed.
    expect(requestsOf(key).map((r) => (r.body as { input: string[] }).input.length).sort()).toEqual([2, 3]);
  });

  it('puts texts that share words closer than texts that do not', async () => {
    const [refund, question, weather] = await model(newKey()).embed([
      'Our refund policy: refunds are issued within 30 days of purchase.',
      'How many days do I have to get a refund?',
      'Sunny weather expected tomorrow across the coast.',
    ]);

    expect(cosine(refund!, question!)).toBeGreaterThan(cosine(weather!, question!) + 0.2);
  });
});

describe('OpenAiModel.verify', () => {
  it('passes with a good key and model, fails with a bad key or an unavailable model', async () => {
    const ok = await model(newKey()).verify('gpt-4o').then(() => 'ok');
    const bad = await errorOf(model(newKey('sk-invalid')).verify('gpt-4o'));
    const missing = await errorOf(model(newKey()).verify('gpt-unknown'));

    expect(ok).toBe('ok');
    expect(bad.kind).toBe('auth');
    expect(missing.kind).toBe('not_found');
  });
});
