import { describe, expect, it } from 'vitest';
import { AGENT_LIMITS } from '../../../src/contract/agents.js';
import { DEFAULT_REPLIES, RUNTIME_LIMITS, runAgent, type RunAgentInput } from '../../../src/domain/agents/runtime/run-agent.js';
import {
  ANSWER_FROM_KNOWLEDGE,
  ANSWER_FROM_KNOWLEDGE_WHATSAPP,
  NO_SUPPORT,
  NO_SUPPORT_SEARCH,
  NO_SUPPORT_WHATSAPP,
  UNANSWERED_MARKER,
} from '../../../src/domain/agents/runtime/prompt.js';
import { ModelError } from '../../../src/domain/ai/ports.js';
import type { AgentWithChildren } from '../../../src/domain/agents/ports.js';
import type { KnowledgeRetriever } from '../../../src/domain/knowledge/ports.js';
import {
  agent,
  call,
  chunk,
  FakeEmbedder,
  MemoryRetriever,
  RecordingExecutor,
  ScriptedModel,
  settings,
  someFile,
  textReply,
  tool,
  toolsReply,
} from './fakes.js';

function turn(over: Partial<RunAgentInput> & { model: ScriptedModel }): RunAgentInput {
  return {
    userId: 'user1',
    agent: agent({ tools: [tool()] }),
    settings: settings(),
    embedder: new FakeEmbedder(),
    retriever: new MemoryRetriever(),
    tools: new RecordingExecutor(),
    history: [],
    message: 'Where is my order A-100?',
    channel: 'chat',
    ...over,
  };
}

describe('runAgent: a customer\'s photo (issue 31)', () => {
  it('sends the message and the photo as one user turn of a text and an image part; the history stays text', async () => {
    const model = new ScriptedModel([textReply('Veo la foto.')]);
    const image = 'data:image/jpeg;base64,/9j/4AAQ';
    await runAgent(turn({ model, message: '[The customer sent a photo]\n¿Es normal?', image, history: [{ role: 'user', content: 'Hola' }] }));
    const req = model.requests[0]!;
    expect(req.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: '[The customer sent a photo]\n¿Es normal?' },
        { type: 'image', dataUrl: image },
      ],
    });
    expect(req.messages[1]).toEqual({ role: 'user', content: 'Hola' });
  });
});

describe('runAgent: a plain answer', () => {
  it('sends the system prompt, the history and the message with the integration settings and every tool', async () => {
    const model = new ScriptedModel([textReply('  It shipped yesterday.  ')]);

    const reply = await runAgent(
      turn({ model, history: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello! How can I help?' }] }),
    );

    expect(reply).toEqual({ reply: 'It shipped yesterday.', toolCalls: [], sources: [], escalation: null, unanswered: null });
    const req = model.requests[0]!;
    expect(req).toMatchObject({ model: 'gpt-4o', maxTokens: 500, temperature: 0.3 });
    expect(req.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(req.messages[0]!.content).toMatch(/^You work for Acme Dental\./);
    expect(req.messages.at(-1)).toEqual({ role: 'user', content: 'Where is my order A-100?' });
    expect(req.tools?.map((t) => t.name)).toEqual(['check_order', 'search_knowledge', 'escalate_to_human']);
  });

  it(`keeps only the last ${AGENT_LIMITS.chatHistory} history messages`, async () => {
    const model = new ScriptedModel([textReply('ok')]);
    const history = Array.from({ length: 70 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `m${i}` }));

    await runAgent(turn({ model, history }));

    const sent = model.requests[0]!.messages.slice(1, -1).map((m) => m.content);
    expect(sent).toHaveLength(AGENT_LIMITS.chatHistory);
    expect(sent[0]).toBe('m20');
    expect(sent.at(-1)).toBe('m69');
  });

  it('an empty answer becomes a default text, never an empty reply', async () => {
    const reply = await runAgent(turn({ model: new ScriptedModel([textReply('   ')]) }));
    expect(reply.reply).toBe(DEFAULT_REPLIES.empty);
  });

  it('model errors propagate for the caller to map', async () => {
    const model = new ScriptedModel([new ModelError('auth', 'Incorrect API key provided: sk-...')]);
    await expect(runAgent(turn({ model }))).rejects.toMatchObject({ name: 'ModelError', kind: 'auth' });
  });
});

describe('runAgent: knowledge', () => {
  const chunks = [
    chunk('Whitening costs 200 EUR per session.', { index: 0 }),
    chunk('Implants start at 900 EUR.', { index: 1, sourceId: 'url1', sourceKind: 'url', sourceName: 'https://acme.example/prices' }),
  ];

  it('retrieves excerpts for the message (embedded) into the prompt and lists them as sources', async () => {
    const model = new ScriptedModel([textReply('Whitening is 200 EUR.')]);
    const retriever = new MemoryRetriever(chunks);
    const embedder = new FakeEmbedder();

    const reply = await runAgent(turn({ model, retriever, embedder, agent: agent({ files: [someFile()] }), message: 'How much is whitening?' }));

    expect(embedder.calls).toEqual([['How much is whitening?']]);
    expect(retriever.searches[0]).toMatchObject({
      ref: { userId: 'user1', agentId: 'agent1', knowledgeVersion: 3 },
      query: 'How much is whitening?',
      limit: RUNTIME_LIMITS.promptExcerpts,
    });
    expect(retriever.searches[0]!.queryVector).toBeInstanceOf(Float32Array);
    expect(model.requests[0]!.messages[0]!.content).toContain('[1] Source: prices.pdf\nWhitening costs 200 EUR per session.');
    expect(reply.sources).toEqual([
      { name: 'prices.pdf', kind: 'file', sourceId: 'file1', score: 1, excerpt: 'Whitening costs 200 EUR per session.', highlights: [[0, 9]] },
    ]);
  });

  it('falls back to keyword-only retrieval (queryVector null) when embedding fails', async () => {
    const model = new ScriptedModel([textReply('ok')]);
    const retriever = new MemoryRetriever(chunks);
    const errors: string[] = [];

    const reply = await runAgent(
      turn({ model, retriever, embedder: new FakeEmbedder(true), agent: agent({ files: [someFile()] }), message: 'whitening', onError: (m) => errors.push(m) }),
    );

    expect(retriever.searches[0]!.queryVector).toBeNull();
    expect(reply.sources.map((s) => s.sourceId)).toEqual(['file1']);
    expect(errors).toHaveLength(1);
  });

  it('does not wait for a slow embedding beyond a quarter of the time left: keyword-only instead', async () => {
    const model = new ScriptedModel([textReply('ok')]);
    const retriever = new MemoryRetriever(chunks);
    const never = { embed: () => new Promise<Float32Array[]>(() => undefined) };
    const errors: string[] = [];
    const started = Date.now();

    await runAgent(turn({ model, retriever, embedder: never, agent: agent({ files: [someFile()] }), message: 'whitening', deadline: Date.now() + 400, onError: (m) => errors.push(m) }));

    expect(Date.now() - started).toBeLessThan(300);
    expect(retriever.searches[0]!.queryVector).toBeNull();
    expect(errors).toEqual(['Embedding the message failed; keyword retrieval only']);
  });

  it('does not search when the agent has no files or web pages', async () => {
    const retriever = new MemoryRetriever(chunks);
    const embedder = new FakeEmbedder();
    await runAgent(turn({ model: new ScriptedModel([textReply('ok')]), retriever, embedder }));
    expect(retriever.searches).toHaveLength(0);
    expect(embedder.calls).toHaveLength(0);
  });

  it('search_knowledge runs retrieval, gives numbered excerpts to the model and adds the sources', async () => {
    const model = new ScriptedModel([toolsReply(call('search_knowledge', { query: 'implants price' }, 'c1')), textReply('Implants start at 900 EUR.')]);
    const retriever = new MemoryRetriever(chunks);

    const reply = await runAgent(turn({ model, retriever, message: 'hello' }));

    expect(retriever.searches).toEqual([expect.objectContaining({ query: 'implants price', limit: RUNTIME_LIMITS.searchExcerpts })]);
    const toolMessage = model.requests[1]!.messages.find((m) => m.role === 'tool');
    expect(toolMessage).toEqual({ role: 'tool', toolCallId: 'c1', content: '[1] Source: https://acme.example/prices\nImplants start at 900 EUR.' });
    expect(reply.sources).toEqual([expect.objectContaining({ name: 'https://acme.example/prices', kind: 'url', sourceId: 'url1' })]);
    expect(reply.toolCalls).toEqual([expect.objectContaining({ name: 'search_knowledge', arguments: { query: 'implants price' }, ok: true })]);
    expect(reply.reply).toBe('Implants start at 900 EUR.');
  });

  it('search_knowledge with no match tells the model that no passage supports an answer', async () => {
    const model = new ScriptedModel([toolsReply(call('search_knowledge', { query: 'parking' })), textReply('I do not know.')]);
    const reply = await runAgent(turn({ model, retriever: new MemoryRetriever(chunks) }));
    expect(reply.toolCalls[0]).toMatchObject({ ok: true, result: NO_SUPPORT_SEARCH });
    expect(reply.sources).toEqual([]);
  });
});

describe('runAgent: honest refusal (issue 18)', () => {
  const hours = chunk('Horario\nViernes | 9:00–15:00\nSábados | 10:00–14:00', { index: 0, page: 2, headings: ['Clínica Sonrisa', 'Horario'] });
  /** Every chunk at a fixed absolute relevance. */
  const at = (relevance: number): KnowledgeRetriever & { queries: string[] } => ({
    queries: [],
    async search(_ref, query) {
      this.queries.push(query);
      return [{ chunk: hours, score: 1, relevance }];
    },
  });
  const spanishAgent = (over: Partial<AgentWithChildren> = {}) => agent({ language: 'es', minRelevance: 0.35, files: [someFile()], ...over });

  it('below the minimum relevance: no excerpts, the refusal instruction, no sources, and the question is unanswered', async () => {
    const model = new ScriptedModel([textReply('Lo siento, no tengo esa información.')]);

    const reply = await runAgent(turn({ model, retriever: at(0.2), agent: spanishAgent(), message: '¿Tenéis aparcamiento para clientes?' }));

    const system = model.requests[0]!.messages[0]!.content!;
    expect(system).toContain(NO_SUPPORT);
    expect(system).not.toContain(NO_SUPPORT_WHATSAPP);
    expect(system).not.toContain('Source: prices.pdf');
    expect(reply.sources).toEqual([]);
    expect(reply.unanswered).toEqual({ question: '¿Tenéis aparcamiento para clientes?' });
  });

  it('on WhatsApp the refusal instruction also offers a person (escalate_to_human when they accept)', async () => {
    const model = new ScriptedModel([textReply('Lo siento…')]);
    await runAgent(turn({ model, retriever: at(0.1), agent: spanishAgent(), message: '¿Aceptáis perros?', channel: 'whatsapp' }));
    expect(model.requests[0]!.messages[0]!.content).toContain(`${NO_SUPPORT} ${NO_SUPPORT_WHATSAPP}`);
    expect(NO_SUPPORT_WHATSAPP).toContain('escalate_to_human');
  });

  it('at or above the minimum relevance: the excerpt is in the prompt, a source, and nothing is unanswered', async () => {
    const model = new ScriptedModel([textReply('Los viernes de 9:00 a 15:00.')]);

    const reply = await runAgent(turn({ model, retriever: at(0.35), agent: spanishAgent(), message: '¿Qué horario tenéis los viernes?' }));

    const system = model.requests[0]!.messages[0]!.content!;
    expect(system).not.toContain(NO_SUPPORT);
    expect(system).toContain('[1] Source: prices.pdf\nHorario\nViernes | 9:00–15:00');
    expect(reply.unanswered).toBeNull();
    expect(reply.sources).toHaveLength(1);
  });

  it('a source carries the best passage with its highlights, the page, the section path and the absolute relevance', async () => {
    const model = new ScriptedModel([textReply('ok')]);

    const reply = await runAgent(turn({ model, retriever: at(0.8123), agent: spanishAgent(), message: '¿Abrís los sábados?' }));

    const [source] = reply.sources;
    expect(source).toMatchObject({ name: 'prices.pdf', kind: 'file', sourceId: 'file1', score: 0.812, page: 2, section: 'Clínica Sonrisa › Horario' });
    expect(source!.excerpt).toContain('Sábados | 10:00–14:00');
    const highlighted = source!.highlights.map(([from, to]) => source!.excerpt.slice(from, to));
    expect(highlighted).toContain('Sábados');
  });

  it('small talk ("hola", "gracias", "ok") is never recorded as unanswered', async () => {
    for (const message of ['Hola', '¡Muchas gracias!', 'ok', 'Thanks!', 'buenos días']) {
      const reply = await runAgent(turn({ model: new ScriptedModel([textReply('¡Hola!')]), retriever: at(0), agent: spanishAgent(), message }));
      expect(reply.unanswered, message).toBeNull();
    }
  });

  it('search_knowledge results below the threshold count the same: "No passage supports…" and the question is unanswered', async () => {
    const model = new ScriptedModel([toolsReply(call('search_knowledge', { query: 'perros' })), textReply('No lo sé.')]);

    const reply = await runAgent(turn({ model, retriever: at(0.1), agent: spanishAgent(), message: '¿Puedo ir con mi perro a la consulta?' }));

    expect(reply.toolCalls[0]).toMatchObject({ name: 'search_knowledge', result: NO_SUPPORT_SEARCH });
    expect(reply.sources).toEqual([]);
    expect(reply.unanswered).toEqual({ question: '¿Puedo ir con mi perro a la consulta?' });
  });

  it('a question a custom tool answered is not unanswered', async () => {
    const model = new ScriptedModel([toolsReply(call('check_order', { order_id: 'A-100' })), textReply('Tu pedido ha salido.')]);
    const reply = await runAgent(turn({ model, retriever: at(0.1), agent: spanishAgent({ tools: [tool()] }), message: '¿Dónde está mi pedido A-100?' }));
    expect(reply.unanswered).toBeNull();
  });

  it('knowledge entries alone make the agent search (and refuse below the threshold)', async () => {
    const retriever = at(0.1);
    const entry = { _id: 'e1', agentId: 'agent1', question: '¿Hay parking?', answer: 'Sí, gratuito.', createdAt: 'x', updatedAt: 'x' };
    const reply = await runAgent(turn({ model: new ScriptedModel([textReply('No lo sé.')]), retriever, agent: spanishAgent({ files: [], entries: [entry] }), message: '¿Aceptáis tarjeta de crédito?' }));
    expect(retriever.queries).toHaveLength(1);
    expect(reply.unanswered).not.toBeNull();
  });

  it('an agent with knowledge answers only from it: a reply the model marks as not knowing loses the marker and is recorded, although a passage passed the gate (issue 28)', async () => {
    const model = new ScriptedModel([textReply(`${UNANSWERED_MARKER} Lo siento, no tengo esa información.`)]);

    const reply = await runAgent(turn({ model, retriever: at(0.5), agent: spanishAgent(), message: '¿Hacéis implantes los sábados?' }));

    const system = model.requests[0]!.messages[0]!.content!;
    expect(system).toContain(ANSWER_FROM_KNOWLEDGE);
    expect(system).toContain(`begin your reply with ${UNANSWERED_MARKER}`);
    expect(system).not.toContain(NO_SUPPORT);
    expect(system).toContain('[1] Source: prices.pdf');
    expect(reply.reply).toBe('Lo siento, no tengo esa información.');
    expect(reply.sources).toHaveLength(1);
    expect(reply.unanswered).toEqual({ question: '¿Hacéis implantes los sábados?' });
  });

  it('an unmarked answer is not recorded; an agent without knowledge is not given the instruction (a stray marker is still removed)', async () => {
    const answered = await runAgent(turn({ model: new ScriptedModel([textReply('Los sábados de 10:00 a 14:00.')]), retriever: at(0.5), agent: spanishAgent(), message: '¿Abrís los sábados?' }));
    expect(answered.unanswered).toBeNull();

    const model = new ScriptedModel([textReply(`${UNANSWERED_MARKER} No lo sé.`)]);
    const without = await runAgent(turn({ model, agent: agent({ language: 'es' }), message: '¿Abrís los sábados?' }));
    expect(model.requests[0]!.messages[0]!.content).not.toContain(ANSWER_FROM_KNOWLEDGE);
    expect(without.reply).toBe('No lo sé.');
    expect(without.unanswered).toBeNull();
  });

  it('on WhatsApp the agent offers a person when it says it does not know; the offer comes once when nothing passed the gate', async () => {
    const supported = new ScriptedModel([textReply('ok')]);
    await runAgent(turn({ model: supported, retriever: at(0.5), agent: spanishAgent(), message: '¿Abrís los sábados?', channel: 'whatsapp' }));
    expect(supported.requests[0]!.messages[0]!.content).toContain(`${ANSWER_FROM_KNOWLEDGE} ${ANSWER_FROM_KNOWLEDGE_WHATSAPP}`);
    expect(ANSWER_FROM_KNOWLEDGE_WHATSAPP).toContain('escalate_to_human');

    const unsupported = new ScriptedModel([textReply('ok')]);
    await runAgent(turn({ model: unsupported, retriever: at(0.1), agent: spanishAgent(), message: '¿Aceptáis perros?', channel: 'whatsapp' }));
    const system = unsupported.requests[0]!.messages[0]!.content!;
    expect(system).toContain(ANSWER_FROM_KNOWLEDGE);
    expect(system).not.toContain(ANSWER_FROM_KNOWLEDGE_WHATSAPP);
    expect(system).toContain(`${NO_SUPPORT} ${NO_SUPPORT_WHATSAPP}`);
  });

  it('a marked reply is not recorded after a failed retrieval or a custom tool’s answer (the marker is removed all the same)', async () => {
    const failed = await runAgent(
      turn({ model: new ScriptedModel([textReply(`${UNANSWERED_MARKER} No lo sé.`)]), retriever: new MemoryRetriever([], true), agent: spanishAgent(), message: '¿Tenéis aparcamiento para clientes?', onError: () => undefined }),
    );
    expect(failed).toMatchObject({ reply: 'No lo sé.', unanswered: null });
    const model = new ScriptedModel([toolsReply(call('check_order', { order_id: 'A-100' })), textReply(`${UNANSWERED_MARKER} No sé cuándo llega.`)]);
    const tooled = await runAgent(turn({ model, retriever: at(0.5), agent: spanishAgent({ tools: [tool()] }), message: '¿Cuándo llega mi pedido A-100?' }));
    expect(tooled).toMatchObject({ reply: 'No sé cuándo llega.', unanswered: null });
  });

  it('a failed retrieval is not a refusal: no instruction and nothing recorded', async () => {
    const model = new ScriptedModel([textReply('ok')]);
    const reply = await runAgent(turn({ model, retriever: new MemoryRetriever([], true), agent: spanishAgent(), message: '¿Tenéis aparcamiento para clientes?', onError: () => undefined }));
    expect(model.requests[0]!.messages[0]!.content).not.toContain(NO_SUPPORT);
    expect(reply.unanswered).toBeNull();
  });
});

describe('runAgent: custom tools', () => {
  it('runs the tool with the parsed arguments and gives its result back to the model under the call id', async () => {
    const model = new ScriptedModel([toolsReply(call('check_order', { order_id: 'A-100' }, 'c1')), textReply('Your order shipped.')]);
    const tools = new RecordingExecutor();

    const reply = await runAgent(turn({ model, tools }));

    expect(tools.calls).toEqual([{ tool: 'check_order', args: { order_id: 'A-100' }, options: undefined }]);
    const second = model.requests[1]!.messages;
    expect(second.at(-2)).toMatchObject({ role: 'assistant', toolCalls: [{ id: 'c1', name: 'check_order' }] });
    expect(second.at(-1)).toEqual({ role: 'tool', toolCallId: 'c1', content: 'HTTP 200\n{"status":"shipped"}' });
    expect(reply).toMatchObject({
      reply: 'Your order shipped.',
      toolCalls: [{ name: 'check_order', arguments: { order_id: 'A-100' }, result: 'HTTP 200\n{"status":"shipped"}', ok: true, status: 200 }],
    });
    expect(reply.toolCalls[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('several calls in one round run and are reported in the model order, failures included', async () => {
    const model = new ScriptedModel([
      toolsReply(call('check_order', { order_id: 'A' }, 'c1'), call('check_order', { order_id: 'B' }, 'c2')),
      textReply('done'),
    ]);
    const tools = new RecordingExecutor((_t, args) =>
      args.order_id === 'A' ? { ok: false, result: 'The tool did not answer within 10 seconds' } : { ok: true, status: 200, result: 'HTTP 200\nB ok' },
    );

    const reply = await runAgent(turn({ model, tools }));

    expect(reply.toolCalls.map((c) => [c.arguments.order_id, c.ok, c.result])).toEqual([
      ['A', false, 'The tool did not answer within 10 seconds'],
      ['B', true, 'HTTP 200\nB ok'],
    ]);
    expect(model.requests[1]!.messages.filter((m) => m.role === 'tool')).toEqual([
      { role: 'tool', toolCallId: 'c1', content: 'The tool did not answer within 10 seconds' },
      { role: 'tool', toolCallId: 'c2', content: 'HTTP 200\nB ok' },
    ]);
  });

  it('invalid JSON arguments become an error text for the model, not a crash, and the tool is not called', async () => {
    const model = new ScriptedModel([toolsReply(call('check_order', '{"order_id": "A-1', 'c1')), textReply('Could you repeat the order number?')]);
    const tools = new RecordingExecutor();

    const reply = await runAgent(turn({ model, tools }));

    expect(tools.calls).toHaveLength(0);
    expect(reply.reply).toBe('Could you repeat the order number?');
    expect(reply.toolCalls[0]).toMatchObject({ name: 'check_order', ok: false, arguments: {} });
    const toolMessage = model.requests[1]!.messages.at(-1)!;
    expect(toolMessage).toMatchObject({ role: 'tool', toolCallId: 'c1' });
    expect(toolMessage.content).toMatch(/^Invalid arguments: they are not valid JSON/);
  });

  it('an unknown tool name gets an error text', async () => {
    const model = new ScriptedModel([toolsReply(call('delete_everything', {})), textReply('Sorry.')]);
    const reply = await runAgent(turn({ model }));
    expect(reply.toolCalls[0]).toMatchObject({ ok: false, result: 'Unknown tool delete_everything. Use only the tools you were given.' });
  });

  it(`stops after ${RUNTIME_LIMITS.toolRounds} tool rounds with one last call without tools`, async () => {
    const model = new ScriptedModel([
      ...Array.from({ length: RUNTIME_LIMITS.toolRounds }, (_, i) => toolsReply(call('check_order', { order_id: `A${i}` }))),
      // The last call must answer even if the model would keep asking for tools.
      (req) => (req.tools ? toolsReply(call('check_order', { order_id: 'again' })) : textReply('Here is what I found.')),
    ]);
    const tools = new RecordingExecutor();

    const reply = await runAgent(turn({ model, tools }));

    expect(model.requests).toHaveLength(RUNTIME_LIMITS.toolRounds + 1);
    expect(model.requests.slice(0, -1).every((r) => r.tools && r.tools.length === 3)).toBe(true);
    expect(model.requests.at(-1)!.tools).toBeUndefined();
    expect(tools.calls).toHaveLength(RUNTIME_LIMITS.toolRounds);
    expect(reply.reply).toBe('Here is what I found.');
    expect(reply.toolCalls).toHaveLength(RUNTIME_LIMITS.toolRounds);
  });

  it(`runs at most ${RUNTIME_LIMITS.callsPerRound} calls of one round`, async () => {
    const many = Array.from({ length: RUNTIME_LIMITS.callsPerRound + 2 }, (_, i) => call('check_order', { order_id: String(i) }));
    const tools = new RecordingExecutor();
    const model = new ScriptedModel([toolsReply(...many), textReply('ok')]);

    const reply = await runAgent(turn({ model, tools }));

    expect(tools.calls).toHaveLength(RUNTIME_LIMITS.callsPerRound);
    expect(reply.toolCalls.slice(-2).every((c) => !c.ok && /at most/.test(c.result))).toBe(true);
    // Every call of the round still gets an answer (the API requires one per tool_call_id).
    expect(model.requests[1]!.messages.filter((m) => m.role === 'tool')).toHaveLength(many.length);
  });

  it('caps the result shown in the reply while the model gets all of it', async () => {
    const big = `HTTP 200\n${'x'.repeat(10_000)}`;
    const model = new ScriptedModel([toolsReply(call('check_order', { order_id: 'A' })), textReply('ok')]);

    const reply = await runAgent(turn({ model, tools: new RecordingExecutor(() => ({ ok: true, status: 200, result: big })) }));

    expect(reply.toolCalls[0]!.result.length).toBe(RUNTIME_LIMITS.shownResultChars);
    expect(model.requests[1]!.messages.at(-1)!.content).toBe(big);
  });

  it('a throwing executor is reported as a failed call, not a failed reply', async () => {
    const model = new ScriptedModel([toolsReply(call('check_order', { order_id: 'A' })), textReply('Sorry, the system is down.')]);
    const tools = new RecordingExecutor(() => {
      throw new Error('bug');
    });
    const reply = await runAgent(turn({ model, tools, onError: () => undefined }));
    expect(reply.toolCalls[0]!.ok).toBe(false);
    expect(reply.reply).toBe('Sorry, the system is down.');
  });
});

describe('runAgent: escalation', () => {
  it('records the reason and asks the model (without tools) for a short hand-off reply', async () => {
    const model = new ScriptedModel([
      toolsReply(call('escalate_to_human', { reason: '  Customer wants a refund  ' })),
      textReply('A colleague will contact you shortly.'),
    ]);

    const reply = await runAgent(turn({ model, message: 'I want to talk to a person' }));

    expect(reply.escalation).toEqual({ reason: 'Customer wants a refund' });
    expect(reply.reply).toBe('A colleague will contact you shortly.');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.tools).toBeUndefined();
    expect(reply.toolCalls).toEqual([expect.objectContaining({ name: 'escalate_to_human', ok: true })]);
  });

  it('uses the default hand-off text when the model gives none or fails', async () => {
    const empty = await runAgent(turn({ model: new ScriptedModel([toolsReply(call('escalate_to_human', { reason: 'angry' })), textReply(null)]) }));
    expect(empty).toMatchObject({ reply: DEFAULT_REPLIES.handoff, escalation: { reason: 'angry' } });

    const failing = await runAgent(
      turn({
        model: new ScriptedModel([toolsReply(call('escalate_to_human', { reason: 'angry' })), new ModelError('timeout', 'slow')]),
        onError: () => undefined,
      }),
    );
    expect(failing).toMatchObject({ reply: DEFAULT_REPLIES.handoff, escalation: { reason: 'angry' } });
  });

  it('a blank reason is refused and nothing is escalated', async () => {
    const model = new ScriptedModel([toolsReply(call('escalate_to_human', { reason: ' ' })), textReply('How can I help?')]);
    const reply = await runAgent(turn({ model }));
    expect(reply.escalation).toBeNull();
    expect(reply.toolCalls[0]).toMatchObject({ ok: false, result: 'Missing required parameter: reason.' });
  });
});

describe('runAgent: deadline', () => {
  it('bounds each model call and tool call by the time left', async () => {
    let t = 1_000;
    const model = new ScriptedModel([
      () => {
        t += 2_000;
        return toolsReply(call('check_order', { order_id: 'A' }));
      },
      textReply('ok'),
    ]);
    const tools = new RecordingExecutor();

    await runAgent(turn({ model, tools, deadline: 9_000, now: () => t }));

    expect(model.requests[0]!.timeoutMs).toBe(8_000);
    expect(tools.calls[0]!.options).toEqual({ timeoutMs: 6_000 });
    expect(model.requests[1]!.timeoutMs).toBe(6_000);
  });

  it('a passed deadline is a model timeout', async () => {
    const model = new ScriptedModel([textReply('late')]);
    await expect(runAgent(turn({ model, deadline: 500, now: () => 1_000 }))).rejects.toMatchObject({ kind: 'timeout' });
    expect(model.requests).toHaveLength(0);
  });
});

describe('runAgent: the search query of a follow-up', () => {
  it('"¿y los sábados?" after a question about Friday hours searches with the earlier question\'s words', async () => {
    const retriever = new MemoryRetriever([chunk('Horario: viernes 9:00–15:00, sábados 10:00–14:00')]);
    const model = new ScriptedModel([textReply('Los sábados de 10:00 a 14:00.')]);

    await runAgent(
      turn({
        model,
        retriever,
        agent: agent({ language: 'es', files: [someFile()] }),
        history: [
          { role: 'user', content: '¿Qué horario tenéis los viernes?' },
          { role: 'assistant', content: 'Los viernes de 9:00 a 15:00.' },
        ],
        message: '¿y los sábados?',
      }),
    );

    const query = retriever.searches[0]!.query;
    expect(query).not.toBe('¿y los sábados?');
    expect(query).toMatch(/horario/i);
    expect(query).toMatch(/sábados/i);
  });
});
