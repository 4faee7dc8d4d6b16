/**
 * Streamed agent turns (issue 16, voice over ConversationRelay): text reaches onText while the
 * model writes it (also the words before a round's tool calls), onToolStart comes before the tools
 * run, an aborted signal ends the turn with TurnCancelledError wherever it is, and the hand-off
 * reply can be left to the caller. Turns without `stream` are covered by run-agent.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_REPLIES, runAgent, TurnCancelledError, type AgentStream, type RunAgentInput } from '../../../src/domain/agents/runtime/index.js';
import { ModelError, type ChatModel, type ChatStreamOptions, type Completion, type CompletionRequest } from '../../../src/domain/ai/ports.js';
import { UNANSWERED_MARKER } from '../../../src/domain/agents/runtime/prompt.js';
import { agent, call, chunk, FakeEmbedder, MemoryRetriever, RecordingExecutor, ScriptedModel, settings, someFile, textReply, tool, toolsReply } from './fakes.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Step = Completion | Error | { completion: Completion; failAfterPieces: number; error: Error };

/** Streams the scripted completions word by word (`pieceMs` apart); records requests and what was sent. */
class StreamingModel implements ChatModel {
  requests: CompletionRequest[] = [];
  completeCalls = 0;
  piecesSent: string[] = [];
  constructor(
    private readonly script: Step[],
    private readonly pieceMs = 0,
    private readonly log: string[] = [],
  ) {}

  async complete(): Promise<Completion> {
    this.completeCalls++;
    throw new Error('complete() must not be called on a streamed turn');
  }

  async stream(request: CompletionRequest, options: ChatStreamOptions): Promise<Completion> {
    this.requests.push(structuredClone(request));
    const step = this.script[Math.min(this.requests.length - 1, this.script.length - 1)]!;
    if (step instanceof Error) throw step;
    const completion = 'completion' in step ? step.completion : step;
    const pieces = completion.content?.match(/\s*\S+/g) ?? [];
    for (const [i, piece] of pieces.entries()) {
      if ('completion' in step && i === step.failAfterPieces) throw step.error;
      if (this.pieceMs) await sleep(this.pieceMs);
      if (options.signal?.aborted) throw options.signal.reason;
      this.piecesSent.push(piece);
      this.log.push(`text:${piece.trim()}`);
      await options.onText(piece);
    }
    return completion;
  }
}

function turn(over: Partial<RunAgentInput> & { model: ChatModel; stream: AgentStream }): RunAgentInput {
  return {
    userId: 'user1',
    agent: agent({ tools: [tool()] }),
    settings: settings(),
    embedder: new FakeEmbedder(),
    retriever: new MemoryRetriever(),
    tools: new RecordingExecutor(),
    history: [],
    message: 'Where is my order A-100?',
    channel: 'voice',
    ...over,
  };
}

/** onText collecting into `heard`. */
function listener(log: string[] = []) {
  const heard: string[] = [];
  return { heard, onText: (piece: string) => void (heard.push(piece), log.push(`heard:${piece.trim()}`)) };
}

describe('runAgent streamed: text as the model writes it', () => {
  it('hands every piece to onText in order and returns the same reply as a whole turn', async () => {
    const model = new StreamingModel([textReply('It shipped yesterday, it arrives tomorrow.')]);
    const { heard, onText } = listener();

    const reply = await runAgent(turn({ model, stream: { onText } }));

    expect(heard.join('')).toBe('It shipped yesterday, it arrives tomorrow.');
    expect(heard.length).toBeGreaterThan(3);
    expect(reply).toEqual({ reply: 'It shipped yesterday, it arrives tomorrow.', toolCalls: [], sources: [], escalation: null, unanswered: null });
    expect(model.completeCalls).toBe(0);
    expect(model.requests[0]).toMatchObject({ model: 'gpt-4o', maxTokens: 500, temperature: 0.3 });
    expect(model.requests[0]!.tools?.map((t) => t.name)).toEqual(['check_order', 'search_knowledge', 'escalate_to_human']);
  });

  it('passes the words written before a round’s tool calls, calls onToolStart before the tools run, then the answer', async () => {
    const log: string[] = [];
    const model = new StreamingModel(
      [{ ...toolsReply(call('check_order', { order_id: 'A-100' })), content: 'Let me check.' }, textReply('It shipped.')],
      0,
      log,
    );
    const tools = new RecordingExecutor((t) => (log.push(`tool:${t.name}`), { ok: true, status: 200, result: 'HTTP 200\n{"status":"shipped"}' }));
    const { heard, onText } = listener();

    const reply = await runAgent(turn({ model, tools, stream: { onText, onToolStart: (names) => void log.push(`toolStart:${names.join(',')}`) } }));

    expect(heard).toEqual(['Let', ' me', ' check.', 'It', ' shipped.']);
    expect(log).toEqual(['text:Let', 'text:me', 'text:check.', 'toolStart:check_order', 'tool:check_order', 'text:It', 'text:shipped.']);
    expect(reply.reply).toBe('It shipped.');
    expect(model.requests[1]!.messages.find((m) => m.role === 'assistant')).toMatchObject({ content: 'Let me check.' });
  });

  it('runs the tools while a slow onToolStart is still speaking, and streams the answer only after it', async () => {
    const log: string[] = [];
    const model = new StreamingModel([toolsReply(call('check_order', { order_id: 'A-100' })), textReply('Shipped.')], 0, log);
    const tools = new RecordingExecutor(() => (log.push('tool ran'), { ok: true, result: 'HTTP 200\n{}' }));
    const onToolStart = async () => {
      log.push('filler started');
      await sleep(60);
      log.push('filler done');
    };

    await runAgent(turn({ model, tools, stream: { onText: () => undefined, onToolStart } }));

    expect(log).toEqual(['filler started', 'tool ran', 'filler done', 'text:Shipped.']);
  });

  it('the model’s "I don’t know" marker is never heard, and the question is recorded as unanswered (issue 28)', async () => {
    const model = new StreamingModel([textReply(`${UNANSWERED_MARKER} Sorry, I do not know where your order is.`)]);
    const { heard, onText } = listener();
    const knowledge = new MemoryRetriever([chunk('Every order ships within 2 days.')]);

    const reply = await runAgent(turn({ model, retriever: knowledge, agent: agent({ files: [someFile()] }), message: 'Where is my order A-100?', stream: { onText } }));

    expect(heard.join('')).toBe('Sorry, I do not know where your order is.');
    expect(reply.reply).toBe('Sorry, I do not know where your order is.');
    expect(reply.sources).toHaveLength(1);
    expect(reply.unanswered).toEqual({ question: 'Where is my order A-100?' });
  });

  it('a model without stream() gives each completion’s text in one piece', async () => {
    const model = new ScriptedModel([{ ...toolsReply(call('check_order', { order_id: 'A-1' })), content: 'One moment.' }, textReply('Shipped.')]);
    const { heard, onText } = listener();

    const reply = await runAgent(turn({ model, stream: { onText } }));

    expect(heard).toEqual(['One moment.', 'Shipped.']);
    expect(reply.reply).toBe('Shipped.');
  });

  it('an empty answer: the caller hears the default text the reply carries', async () => {
    const { heard, onText } = listener();

    const reply = await runAgent(turn({ model: new StreamingModel([textReply('  ')]), stream: { onText } }));

    expect(reply.reply).toBe(DEFAULT_REPLIES.empty);
    expect(heard.join('').trim()).toBe(DEFAULT_REPLIES.empty);
  });

  it('a model error mid-stream propagates as the ModelError, after the words already said', async () => {
    const model = new StreamingModel([{ completion: textReply('Your order is on its way'), failAfterPieces: 2, error: new ModelError('unavailable', 'stream cut') }]);
    const { heard, onText } = listener();

    await expect(runAgent(turn({ model, stream: { onText } }))).rejects.toMatchObject({ name: 'ModelError', kind: 'unavailable' });
    expect(heard.join('')).toBe('Your order');
  });

  it('deadlines bound every streamed call as they bound complete()', async () => {
    let t = 1_000;
    const model = new StreamingModel([toolsReply(call('check_order', { order_id: 'A-1' })), textReply('ok')]);
    const tools = new RecordingExecutor(() => ((t += 3_000), { ok: true, result: 'HTTP 200\n{}' }));

    await runAgent(turn({ model, tools, deadline: 9_000, now: () => t, stream: { onText: () => undefined } }));

    expect(model.requests.map((r) => r.timeoutMs)).toEqual([8_000, 5_000]);
    await expect(runAgent(turn({ model, deadline: 500, now: () => 1_000, stream: { onText: () => undefined } }))).rejects.toMatchObject({ kind: 'timeout' });
  });
});

describe('runAgent streamed: barge-in', () => {
  it('an abort mid-answer stops the model at the next piece and rejects with TurnCancelledError', async () => {
    const controller = new AbortController();
    const model = new StreamingModel([textReply('one two three four five six seven eight')], 5);
    const heard: string[] = [];
    const onText = (piece: string) => {
      heard.push(piece);
      if (heard.length === 3) controller.abort();
    };

    const error = await runAgent(turn({ model, stream: { onText, signal: controller.signal } })).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TurnCancelledError);
    expect(heard.join('')).toBe('one two three');
    expect(model.piecesSent).toHaveLength(3);
  });

  it('an abort while a tool runs rejects at once, and the model is not called again', async () => {
    const controller = new AbortController();
    const model = new StreamingModel([toolsReply(call('check_order', { order_id: 'A-1' })), textReply('Shipped.')]);
    const tools = new RecordingExecutor(() => ({ ok: true, result: 'HTTP 200\n{}' }));
    const slowTools = { execute: async (...args: Parameters<RecordingExecutor['execute']>) => (await sleep(5_000), tools.execute(...args)) };
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();

    await expect(runAgent(turn({ model, tools: slowTools, stream: { onText: () => undefined, signal: controller.signal } }))).rejects.toBeInstanceOf(
      TurnCancelledError,
    );

    expect(Date.now() - started).toBeLessThan(1_000);
    expect(model.requests).toHaveLength(1);
  });

  it('an already aborted signal calls nothing', async () => {
    const model = new StreamingModel([textReply('Hello')]);
    const retriever = new MemoryRetriever();

    await expect(
      runAgent(turn({ model, retriever, agent: agent({ files: [] }), stream: { onText: () => undefined, signal: AbortSignal.abort() } })),
    ).rejects.toBeInstanceOf(TurnCancelledError);

    expect(model.requests).toHaveLength(0);
  });

  it('an abort during the hand-off reply is a cancellation, not the default hand-off text', async () => {
    const controller = new AbortController();
    const model = new StreamingModel([toolsReply(call('escalate_to_human', { reason: 'angry' })), textReply('A colleague will call you back shortly.')], 5);
    const heard: string[] = [];
    const onText = (piece: string) => {
      heard.push(piece);
      controller.abort();
    };

    await expect(runAgent(turn({ model, stream: { onText, signal: controller.signal } }))).rejects.toBeInstanceOf(TurnCancelledError);
    expect(heard).toEqual(['A']);
  });
});

describe('runAgent streamed: escalation', () => {
  it('skipHandoffReply: no hand-off completion, no default text, reply empty, escalation kept', async () => {
    const model = new StreamingModel([toolsReply(call('escalate_to_human', { reason: 'Wants a person' })), textReply('never asked')]);
    const { heard, onText } = listener();

    const reply = await runAgent(turn({ model, stream: { onText, skipHandoffReply: true } }));

    expect(reply).toMatchObject({ reply: '', escalation: { reason: 'Wants a person' } });
    expect(reply.toolCalls).toEqual([expect.objectContaining({ name: 'escalate_to_human', ok: true })]);
    expect(model.requests).toHaveLength(1);
    expect(heard).toEqual([]);
  });

  it('without it the hand-off reply is streamed; a hand-off reply failing mid-way keeps what was said', async () => {
    const ok = listener();
    const streamed = await runAgent(
      turn({ model: new StreamingModel([toolsReply(call('escalate_to_human', { reason: 'x' })), textReply('A person will call you.')]), stream: { onText: ok.onText } }),
    );
    expect(streamed.reply).toBe('A person will call you.');
    expect(ok.heard.join('')).toBe('A person will call you.');

    const cut = listener();
    const failing = await runAgent(
      turn({
        model: new StreamingModel([
          toolsReply(call('escalate_to_human', { reason: 'x' })),
          { completion: textReply('A person will call you.'), failAfterPieces: 2, error: new ModelError('timeout', 'slow') },
        ]),
        stream: { onText: cut.onText },
      }),
    );
    expect(cut.heard.join('')).toBe('A person');
    expect(failing).toMatchObject({ reply: 'A person', escalation: { reason: 'x' } });

    const silent = listener();
    const defaulted = await runAgent(
      turn({ model: new StreamingModel([toolsReply(call('escalate_to_human', { reason: 'x' })), new ModelError('timeout', 'slow')]), stream: { onText: silent.onText } }),
    );
    expect(defaulted.reply).toBe(DEFAULT_REPLIES.handoff);
    expect(silent.heard).toEqual([DEFAULT_REPLIES.handoff]);
  });
});
