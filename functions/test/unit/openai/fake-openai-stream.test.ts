/**
 * The fake OpenAI streams like the real API (issue 16's groundwork): the official `openai` SDK
 * reads its server-sent chunks — content in pieces, tool calls as index-keyed deltas, the usage
 * chunk on request — at the pace the fake is set to, and a client that hangs up stops the stream.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../../../local/fake-openai/server.js';
import { tokenPieces } from '../../../local/fake-openai/stream.js';

let fake: FakeOpenAi;
let client: OpenAI;
const model = 'gpt-4o';
const question = { role: 'user' as const, content: '¿Abrís el sábado por la mañana?' };

beforeAll(async () => {
  fake = await startFakeOpenAi();
  client = new OpenAI({ apiKey: 'sk-stream-test', baseURL: fake.baseUrl, maxRetries: 0 });
});
afterAll(() => fake.close());
beforeEach(() => fake.setStreamDelays({ firstTokenMs: 0, tokenMs: 0 }));

describe('fake OpenAI streaming', () => {
  it('streams the same answer as without stream, in several pieces, then the finish reason', async () => {
    const whole = await client.chat.completions.create({ model, messages: [question] });
    const stream = await client.chat.completions.create({ model, messages: [question], stream: true });

    const pieces: string[] = [];
    const finish: Array<string | null> = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      const choice = chunk.choices[0]!;
      if (choice.delta.content) pieces.push(choice.delta.content);
      finish.push(choice.finish_reason);
    }

    expect(pieces.join('')).toBe(whole.choices[0]!.message.content);
    expect(pieces.length).toBeGreaterThan(3);
    expect(finish.at(-1)).toBe('stop');
    expect(finish.slice(0, -1).every((f) => f === null)).toBe(true);
  });

  it('streams a tool call as deltas the SDK assembles into the same call', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'book_appointment', description: 'Books', parameters: { type: 'object', properties: { date: { type: 'string' } }, required: ['date'] } },
      },
    ];
    const stream = client.chat.completions.stream({ model, messages: [{ role: 'user', content: 'book_appointment date="2030-01-02" please' }], tools });
    const final = await stream.finalChatCompletion();

    const call = final.choices[0]!.message.tool_calls![0]!;
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && call.function.name).toBe('book_appointment');
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toMatchObject({ date: '2030-01-02' });
  });

  it('sends the usage chunk only when stream_options.include_usage is set', async () => {
    const usages = async (includeUsage: boolean) => {
      const found: unknown[] = [];
      const stream = await client.chat.completions.create({ model, messages: [question], stream: true, ...(includeUsage ? { stream_options: { include_usage: true } } : {}) });
      for await (const chunk of stream) if (chunk.usage) found.push(chunk.usage);
      return found;
    };

    expect(await usages(false)).toEqual([]);
    const [usage] = (await usages(true)) as Array<{ prompt_tokens: number; completion_tokens: number; total_tokens: number }>;
    expect(usage!.total_tokens).toBe(usage!.prompt_tokens + usage!.completion_tokens);
  });

  it('paces the pieces: the first after firstTokenMs, then one every tokenMs', async () => {
    fake.setStreamDelays({ firstTokenMs: 150, tokenMs: 30 });
    const started = performance.now();
    const stream = await client.chat.completions.create({ model, messages: [question], stream: true });
    const arrivals: number[] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) arrivals.push(performance.now() - started);

    expect(arrivals[0]).toBeGreaterThanOrEqual(145);
    const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(25);
  });

  it('stops sending when the client hangs up mid-answer (a barge-in)', async () => {
    fake.setStreamDelays({ firstTokenMs: 0, tokenMs: 40 });
    const barge = new OpenAI({ apiKey: 'sk-stream-barge-in', baseURL: fake.baseUrl, maxRetries: 0 });
    const long = { role: 'user' as const, content: 'uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince' };
    const controller = new AbortController();
    const stream = await barge.chat.completions.create({ model, messages: [long], stream: true }, { signal: controller.signal });
    let received = 0;
    try {
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content && ++received === 3) controller.abort();
    } catch {
      // The SDK may end the iteration or throw on abort; either way the caller stopped listening.
    }

    const recorded = () => fake.requests.find((r) => r.key === 'sk-stream-barge-in');
    await expect.poll(() => recorded()?.streamedPieces, { timeout: 2_000 }).toBeDefined();
    expect(received).toBe(3);
    expect(recorded()!.streamedPieces).toBeLessThanOrEqual(4);
    expect(tokenPieces(`Echo: ${long.content}`).length).toBe(16);
  });

  it('paces one key on its own when the delays name it (parallel tests do not slow each other)', async () => {
    const slowKey = 'sk-stream-paced-key';
    await fetch(`${fake.url}/_test/stream-delays`, { method: 'POST', body: JSON.stringify({ key: slowKey, firstTokenMs: 200, tokenMs: 0 }) });
    const firstPiece = async (apiKey: string) => {
      const started = performance.now();
      const stream = await new OpenAI({ apiKey, baseURL: fake.baseUrl, maxRetries: 0 }).chat.completions.create({ model, messages: [question], stream: true });
      let at = -1;
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content && at < 0) at = performance.now() - started;
      return at;
    };

    const paced = await firstPiece(slowKey);
    const other = await firstPiece('sk-stream-other-key');
    fake.reset(slowKey);
    const afterReset = await firstPiece(slowKey);

    expect(paced).toBeGreaterThanOrEqual(195);
    expect(other).toBeLessThan(150);
    expect(afterReset).toBeLessThan(150);
  });

  it('refuses invalid stream delays on its control API', async () => {
    const res = await fetch(`${fake.url}/_test/stream-delays`, { method: 'POST', body: JSON.stringify({ firstTokenMs: -1, tokenMs: 'x' }) });
    expect(res.status).toBe(400);
    const ok = await fetch(`${fake.url}/_test/stream-delays`, { method: 'POST', body: JSON.stringify({ firstTokenMs: 300, tokenMs: 20 }) });
    expect(await ok.json()).toMatchObject({ ok: true, firstTokenMs: 300, tokenMs: 20 });
  });
});

describe('tokenPieces', () => {
  it('splits into words with their leading space and joins back to the text exactly', () => {
    const text = ' Hola, ¿qué tal?\nAbrimos de 9:00 a 14:00.  ';
    expect(tokenPieces(text).join('')).toBe(text);
    expect(tokenPieces('Echo: hi there')).toEqual(['Echo:', ' hi', ' there']);
    expect(tokenPieces('')).toEqual([]);
  });
});
