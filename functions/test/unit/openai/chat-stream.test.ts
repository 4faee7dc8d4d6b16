/**
 * Reading a streamed completion without the SDK (adapters/openai/chat-stream.ts): the fake
 * OpenAI's real server-sent events read over fetch give the same answer as the non-streamed call,
 * whatever the byte boundaries, and the SSE edge cases of the spec are handled.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatStreamEvents, sseData, StreamedModelError, type ChatStreamEvent } from '../../../src/adapters/openai/chat-stream.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../local/fake-openai/server.js';

let fake: FakeOpenAi;
const model = 'gpt-4o';
const question = { role: 'user', content: '¿Cuánto cuesta una limpieza? Mañana, por favor.' };

beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake.close());

async function rawStream(body: Record<string, unknown>): Promise<Uint8Array> {
  const res = await fetch(`${fake.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk-chat-stream', 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, ...body }),
  });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  return new Uint8Array(await res.arrayBuffer());
}

async function* inPieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function* of(...texts: string[]): AsyncGenerator<Uint8Array> {
  for (const text of texts) yield new TextEncoder().encode(text);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const textOf = (events: ChatStreamEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');

describe('a streamed completion read without the SDK', () => {
  it('gives the non-streamed answer, the finish reason and the usage, whatever the byte boundaries', async () => {
    const whole = await new OpenAI({ apiKey: 'sk-chat-stream', baseURL: fake.baseUrl }).chat.completions.create({ model, messages: [question as never] });
    const bytes = await rawStream({ messages: [question], stream_options: { include_usage: true } });

    for (const size of [bytes.length, 7, 1]) {
      const events = await collect(chatStreamEvents(sseData(inPieces(bytes, size))));
      expect(textOf(events)).toBe(whole.choices[0]!.message.content);
      expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(3);
      expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop', usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) } });
    }
  });

  it('assembles a streamed tool call from its deltas', async () => {
    const tools = [{ type: 'function', function: { name: 'book_appointment', description: 'Books', parameters: { type: 'object', properties: { date: { type: 'string' } }, required: ['date'] } } }];
    const bytes = await rawStream({ messages: [{ role: 'user', content: 'book_appointment date="2030-01-02"' }], tools });

    const events = await collect(chatStreamEvents(sseData(inPieces(bytes, 5))));
    const calls = events.find((e) => e.type === 'tool_calls');
    expect(calls?.type === 'tool_calls' && calls.calls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'book_appointment', arguments: expect.any(String) }]);
    expect(calls?.type === 'tool_calls' && JSON.parse(calls.calls[0]!.arguments)).toMatchObject({ date: '2030-01-02' });
    expect(events.at(-1)).toMatchObject({ type: 'done', finishReason: 'tool_calls' });
  });

  it('follows the SSE rules: CRLF split across reads, comments, multi-line data, no final blank line, nothing after [DONE]', async () => {
    expect(await collect(sseData(of(': keep-alive\r', '\n', 'data: {"a":1}\r\n\r', '\n', 'data: line one\ndata: line two\n\n', 'event: x\nid: 3\ndata:{"b":2}')))).toEqual([
      '{"a":1}',
      'line one\nline two',
      '{"b":2}',
    ]);
    expect(await collect(sseData(of('data: first\n\ndata: [DONE]\n\ndata: after\n\n')))).toEqual(['first']);
  });

  it('turns an error sent inside the stream into a StreamedModelError', async () => {
    const events = chatStreamEvents(sseData(of('data: {"choices":[{"delta":{"content":"Hola"}}]}\n\n', 'data: {"error":{"message":"overloaded"}}\n\n')));
    await expect(collect(events)).rejects.toThrow(StreamedModelError);
  });
});
