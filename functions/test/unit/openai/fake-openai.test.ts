/**
 * The fake OpenAI server: its chat brain's rules, deterministic embeddings, the wire errors the
 * SDK sees, and the control API tests use (scripts per key, recorded requests, reset).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExcerpts, REFUSALS, think, toolArguments, type WireTool } from '../../../local/fake-openai/brain.js';
import { buildSystemPrompt, UNANSWERED_MARKER } from '../../../src/domain/agents/runtime/prompt.js';
import { chunk } from '../runtime/fakes.js';
import { fakeEmbedding } from '../../../local/fake-openai/embeddings.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../local/fake-openai/server.js';

const tool = (name: string, properties: Record<string, unknown> = {}, required: string[] = []): WireTool => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties, required } },
});

const KNOWLEDGE =
  'You are Ava.\n\nRelevant excerpts from the knowledge sources (cite the source when you use one):\n\n' +
  '[1] Source: shipping.pdf\nWe ship worldwide in 3 to 5 days. Express costs extra.\n\n' +
  '[2] Source: refunds.txt\nRefunds are accepted within 30 days of purchase. Keep the receipt.';

describe('fake OpenAI brain', () => {
  it('answers the runtime\'s "no supporting passage" instruction with a refusal in the customer\'s language, offering a person on WhatsApp', () => {
    const agent = { name: 'Sonia', description: '', objective: '', instructions: '', knowledgeBase: '' };
    const system = (channel: 'chat' | 'whatsapp') => buildSystemPrompt({ settings: { systemPrompt: '' }, agent, channel, excerpts: [], unsupported: true });
    const ask = (channel: 'chat' | 'whatsapp', content: string) => think([{ role: 'system', content: system(channel) }, { role: 'user', content }]).content;

    expect(ask('chat', '¿Tenéis aparcamiento?')).toBe('Lo siento, no tengo esa información.');
    expect(ask('chat', 'que precio tiene el parking')).toBe(REFUSALS.es);
    expect(ask('chat', 'Do you have parking?')).toBe("Sorry, I don't have that information.");
    expect(ask('whatsapp', '¿Aceptáis perros?')).toBe('Lo siento, no tengo esa información. ¿Quieres que te pase con una persona del equipo?');
    expect(ask('whatsapp', 'Do you take dogs?')).toBe("Sorry, I don't have that information. Would you like me to pass you to a person from our team?");
    // Without the instruction (excerpts, or no knowledge) the other rules answer.
    expect(think([{ role: 'system', content: buildSystemPrompt({ settings: { systemPrompt: '' }, agent, channel: 'chat', excerpts: [] }) }, { role: 'user', content: 'hola' }]).content).toBe('Echo: hola');
  });

  it('told to answer only from the knowledge (issue 28), judges whether the excerpts answer: answers from them, or says it does not know beginning with the marker it was given', () => {
    const agent = { name: 'Rosa', description: '', objective: '', instructions: '', knowledgeBase: '' };
    const excerpts = [
      { chunk: chunk('Nuestro almacén está en el polígono Plaza, calle Bari 14, nave 3. Allí puedes recoger tu pedido.', { sourceName: 'tienda.docx' }), score: 1, relevance: 0.9 },
      { chunk: chunk('Enviamos a la península por 4,95 €. A Baleares el envío cuesta 9,95 €.', { sourceName: 'envios.doc' }), score: 0.5, relevance: 0.5 },
    ];
    const system = (channel: 'chat' | 'whatsapp', knowledge = true) => buildSystemPrompt({ settings: { systemPrompt: '' }, agent, channel, excerpts, knowledge });
    const ask = (content: string, channel: 'chat' | 'whatsapp' = 'chat', knowledge = true) =>
      think([{ role: 'system', content: system(channel, knowledge) }, { role: 'user', content }]).content;

    expect(ask('¿Dónde está vuestro almacén?')).toBe('From tienda.docx: Nuestro almacén está en el polígono Plaza, calle Bari 14, nave 3.');
    expect(ask('cuanto cuesta el envio a baleares')).toBe('From envios.doc: Enviamos a la península por 4,95 €.');
    // Half of the key words held is enough ("envíos", not "Portugal"); fewer is not an answer.
    expect(ask('¿Hacéis envíos a Portugal?')).toBe('From envios.doc: Enviamos a la península por 4,95 €.');
    expect(ask('¿Vendéis tarjetas regalo?')).toBe(`${UNANSWERED_MARKER} ${REFUSALS.es}`);
    expect(ask('¿Vendéis tarjetas regalo?', 'whatsapp')).toBe(`${UNANSWERED_MARKER} ${REFUSALS.es} ${REFUSALS.esOffer}`);
    expect(ask('Do you sell gift cards?')).toBe(`${UNANSWERED_MARKER} ${REFUSALS.en}`);
    // Without the instruction it answers from the excerpt holding the most key words, as before.
    expect(ask('¿Vendéis tarjetas regalo?', 'chat', false)).toBe('From tienda.docx: Nuestro almacén está en el polígono Plaza, calle Bari 14, nave 3.');
  });

  it('echoes the last user message by default', () => {
    expect(think([{ role: 'user', content: 'first' }, { role: 'assistant', content: 'Echo: first' }, { role: 'user', content: 'second' }]).content).toBe(
      'Echo: second',
    );
  });

  it('answers from the knowledge excerpt sharing the most words, with its source', () => {
    const reply = think([
      { role: 'system', content: KNOWLEDGE },
      { role: 'user', content: 'Can I get refunds after purchase?' },
    ]);

    expect(reply.content).toBe('From refunds.txt: Refunds are accepted within 30 days of purchase.');
    expect(parseExcerpts(KNOWLEDGE).map((e) => e.source)).toEqual(['shipping.pdf', 'refunds.txt']);
  });

  it('calls a tool named in the message with typed key=value arguments and defaults', () => {
    const offered = [
      tool('book_appointment', { date: { type: 'string' }, people: { type: 'integer' }, vip: { type: 'boolean' }, note: { type: 'string' } }, ['date', 'people', 'note']),
      tool('search_knowledge', { query: { type: 'string' } }, ['query']),
    ];

    const reply = think([{ role: 'user', content: 'Please book_appointment date="2030-01-02" people=4 vip: yes for my team' }], offered);

    expect(reply.content).toBeNull();
    expect(reply.tool_calls).toHaveLength(1);
    expect(reply.tool_calls?.[0]?.function.name).toBe('book_appointment');
    expect(JSON.parse(reply.tool_calls![0]!.function.arguments)).toEqual({ date: '2030-01-02', people: 4, vip: true, note: 'Please for my team' });
    expect(toolArguments('search_knowledge opening hours', offered[1]!)).toEqual({ query: 'opening hours' });
  });

  it('does not call a tool whose name is only part of a word, nor one that is not offered', () => {
    const reply = think([{ role: 'user', content: 'what about xbook_appointment or check_order' }], [tool('book_appointment')]);

    expect(reply.tool_calls).toBeUndefined();
    expect(reply.content).toBe('Echo: what about xbook_appointment or check_order');
  });

  it('answers tool results with the tool name, the result and the first excerpt', () => {
    const reply = think(
      [
        { role: 'system', content: KNOWLEDGE },
        { role: 'user', content: 'check_order id=1' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'check_order', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: `{"status":"shipped","pad":"${'x'.repeat(400)}"}` },
      ],
      [tool('check_order')],
    );

    const [first, second] = (reply.content ?? '').split('\n');
    expect(first).toBe(`Tool check_order returned: ${`{"status":"shipped","pad":"${'x'.repeat(400)}"}`.slice(0, 300)}`);
    expect(second).toBe('From shipping.pdf: We ship worldwide in 3 to 5 days.');
  });

  it('improves a text when the system prompt asks for it', () => {
    expect(think([{ role: 'system', content: 'Improve the following text.' }, { role: 'user', content: 'we sell shoes' }]).content).toBe(
      'Improved: we sell shoes',
    );
  });
});

describe('fake embeddings', () => {
  it('are deterministic, normalised and closer for texts sharing words', () => {
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    const a = fakeEmbedding('The Refund policy', 64);

    expect(dot(a, fakeEmbedding('the refund policy', 64))).toBeCloseTo(1, 6);
    expect(dot(a, a)).toBeCloseTo(1, 6);
    expect(dot(fakeEmbedding('refund policy details', 1536), fakeEmbedding('policy for a refund', 1536))).toBeGreaterThan(0.5);
    expect(dot(fakeEmbedding('refund policy', 1536), fakeEmbedding('sunny weather', 1536))).toBeLessThan(0.1);
  });
});

/** JSON bodies read loosely in assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test-only access to nested JSON
type Loose = Record<string, any>;

describe('fake OpenAI server', () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(() => fake.close());

  const call = (path: string, key: string | undefined, body?: unknown) =>
    fetch(`${fake.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Loose }));

  it('answers OpenAI error bodies for missing, invalid and unknown things', async () => {
    const none = await call('/v1/models/gpt-4o', undefined);
    const invalid = await call('/v1/models/gpt-4o', 'sk-invalid-1');
    const notSk = await call('/v1/models/gpt-4o', 'pk-123');
    const limited = await call('/v1/chat/completions', 'sk-ratelimit-1', { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] });
    const unknown = await call('/v1/chat/completions', 'sk-ok', { model: 'gpt-9', messages: [{ role: 'user', content: 'x' }] });
    const gpt5 = await call('/v1/chat/completions', 'sk-ok', { model: 'gpt-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });

    expect(none.status).toBe(401);
    expect(invalid).toMatchObject({ status: 401, body: { error: { type: 'invalid_request_error', code: 'invalid_api_key' } } });
    expect(notSk.status).toBe(401);
    expect(limited).toMatchObject({ status: 429, body: { error: { code: 'rate_limit_exceeded' } } });
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'model_not_found' } } });
    expect(gpt5).toMatchObject({ status: 400, body: { error: { code: 'unsupported_parameter', param: 'max_tokens' } } });
  });

  it('plays scripted replies for one key only, records requests per key, and resets', async () => {
    const script = await call('/_test/script', undefined, {
      key: 'sk-script-a',
      responses: [{ role: 'assistant', content: 'scripted one' }, { error: { status: 503, message: 'down' } }],
    });
    const other = await call('/v1/chat/completions', 'sk-script-b', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    const first = await call('/v1/chat/completions', 'sk-script-a', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    const second = await call('/v1/chat/completions', 'sk-script-a', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    const third = await call('/v1/chat/completions', 'sk-script-a', { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    const recorded = await call('/_test/requests?key=sk-script-a', undefined);
    await call('/_test/reset', undefined, { key: 'sk-script-a' });
    const afterReset = await call('/_test/requests?key=sk-script-a', undefined);
    const stillB = await call('/_test/requests?key=sk-script-b', undefined);

    expect(script.status).toBe(200);
    expect(other.body.choices[0].message.content).toBe('Echo: hi');
    expect(first.body.choices[0].message.content).toBe('scripted one');
    expect(second).toMatchObject({ status: 503, body: { error: { message: 'down' } } });
    expect(third.body.choices[0].message.content).toBe('Echo: hi');
    expect(recorded.body.requests.map((r: { path: string; status: number }) => [r.path, r.status])).toEqual([
      ['/v1/chat/completions', 200],
      ['/v1/chat/completions', 503],
      ['/v1/chat/completions', 200],
    ]);
    expect(recorded.body.requests[0].body).toMatchObject({ model: 'gpt-4o' });
    expect(afterReset.body.requests).toEqual([]);
    expect(stillB.body.requests).toHaveLength(1);
  });

  it('serves embeddings as floats or base64 of the same vector', async () => {
    const floats = await call('/v1/embeddings', 'sk-e', { model: 'text-embedding-3-small', input: ['hello world'] });
    const b64 = await call('/v1/embeddings', 'sk-e', { model: 'text-embedding-3-small', input: 'hello world', encoding_format: 'base64' });
    const empty = await call('/v1/embeddings', 'sk-e', { model: 'text-embedding-3-small', input: [''] });

    const decoded = new Float32Array(new Uint8Array(Buffer.from(b64.body.data[0].embedding as string, 'base64')).buffer);
    expect(floats.body.data[0].embedding).toHaveLength(1536);
    expect(Array.from(decoded)).toEqual(floats.body.data[0].embedding);
    expect(empty.status).toBe(400);
  });
});
