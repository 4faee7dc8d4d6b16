import { describe, expect, it } from 'vitest';
import { createAgentChat, type AgentChatDeps } from '../../../src/domain/agents/runtime/chat.js';
import type { AgentReader, AgentWithChildren } from '../../../src/domain/agents/ports.js';
import { type AiConnector, ModelError, type ModelErrorKind } from '../../../src/domain/ai/ports.js';
import { agent, FakeEmbedder, MemoryRetriever, RecordingExecutor, ScriptedModel, settings, someFile, textReply } from './fakes.js';

class MemoryAgents implements AgentReader {
  constructor(private readonly byUser: Record<string, AgentWithChildren[]>) {}
  async get(userId: string, agentId: string) {
    return this.byUser[userId]?.find((a) => a._id === agentId) ?? null;
  }
  async list(userId: string) {
    return this.byUser[userId] ?? [];
  }
}

const connector = (model: ScriptedModel | null): AiConnector => ({
  forUser: async () => (model ? { settings: settings(), chat: model, embedder: new FakeEmbedder() } : null),
});

function service(over: Partial<AgentChatDeps> & { model?: ScriptedModel | null } = {}) {
  const { model = new ScriptedModel([textReply('Hello!')]), ...deps } = over;
  return createAgentChat({
    agents: new MemoryAgents({ u1: [agent({ _id: 'a1', name: 'Sonia' })], u2: [agent({ _id: 'b1' })] }),
    ai: connector(model),
    retriever: new MemoryRetriever(),
    tools: new RecordingExecutor(),
    now: () => Date.parse('2026-03-01T12:00:00Z'),
    ...deps,
  });
}

const input = { message: 'Hi', messages: [] };

describe('agent chat service', () => {
  it('answers with the agent and a timestamp', async () => {
    const reply = await service().chat('u1', 'a1', input);
    expect(reply).toEqual({
      reply: 'Hello!',
      agent: { _id: 'a1', name: 'Sonia' },
      timestamp: '2026-03-01T12:00:00.000Z',
      toolCalls: [],
      sources: [],
      escalation: null,
    });
  });

  it('another user’s agent or a missing one → 404 Agent not found', async () => {
    await expect(service().chat('u1', 'b1', input)).rejects.toMatchObject({ status: 404, message: 'Agent not found' });
    await expect(service().chat('u1', 'nope', input)).rejects.toMatchObject({ status: 404 });
  });

  it('no ChatGPT connection → 400 with the clear message', async () => {
    await expect(service({ model: null }).chat('u1', 'a1', input)).rejects.toMatchObject({ status: 400, message: 'Connect the ChatGPT integration first' });
  });

  it('the answering agent: highest priority enabled, ties → oldest; none enabled → 400', async () => {
    const agents = new MemoryAgents({
      u1: [
        agent({ _id: 'old-low', priority: 1, createdAt: '2026-01-01T00:00:00.000Z' }),
        agent({ _id: 'new-high', priority: 5, createdAt: '2026-01-03T00:00:00.000Z' }),
        agent({ _id: 'old-high', priority: 5, createdAt: '2026-01-02T00:00:00.000Z' }),
        agent({ _id: 'off-top', priority: 9, enabled: false }),
      ],
      u2: [agent({ _id: 'off', enabled: false })],
    });
    expect((await service({ agents }).chat('u1', null, input)).agent._id).toBe('old-high');
    await expect(service({ agents }).chat('u2', null, input)).rejects.toMatchObject({ status: 400, message: 'No enabled agent to answer. Enable an agent first.' });
  });

  it('passes a reply deadline within the API Gateway limit', async () => {
    const model = new ScriptedModel([textReply('ok')]);
    await service({ model, replyBudgetMs: 20_000 }).chat('u1', 'a1', input);
    expect(model.requests[0]!.timeoutMs).toBe(20_000);
  });

  it.each([
    ['auth', 400, 'OpenAI rejected the API key. Check the key in Integrations.'],
    ['rate_limit', 429, 'OpenAI is rate limiting this API key. Please try again in a moment.'],
    ['timeout', 504, 'The AI model took too long to answer. Please try again.'],
    ['not_found', 400, 'This model is not available for the API key. Choose another model in Integrations.'],
    ['bad_request', 502, 'The AI model could not be reached. Please try again later.'],
    ['unavailable', 502, 'The AI model could not be reached. Please try again later.'],
  ] as [ModelErrorKind, number, string][])('model error %s → %i with a clear message', async (kind, status, message) => {
    const model = new ScriptedModel([new ModelError(kind, 'provider internals: req_abc123')]);
    const error = await service({ model, onError: () => undefined }).chat('u1', 'a1', input).catch((e: unknown) => e);
    expect(error).toMatchObject({ status, message });
  });

  it('a question no passage supports is recorded for the owner (channel chat) and not shown in the reply', async () => {
    const recorded: unknown[] = [];
    const chat = createAgentChat({
      agents: new MemoryAgents({ u1: [agent({ _id: 'a1', files: [someFile()], minRelevance: 0.35 })] }),
      ai: connector(new ScriptedModel([textReply('Lo siento, no tengo esa información.')])),
      retriever: new MemoryRetriever(),
      tools: new RecordingExecutor(),
      recordUnanswered: async (...args) => void recorded.push(args),
    });

    const reply = await chat.chat('u1', 'a1', { message: '¿Tenéis aparcamiento?', messages: [] });

    expect(recorded).toEqual([['u1', 'a1', { question: '¿Tenéis aparcamiento?' }, { channel: 'chat' }]]);
    expect(reply).not.toHaveProperty('unanswered');
  });

  it('an answered turn marks the agent tested (getting-started checklist); a failed one does not', async () => {
    const marked: string[][] = [];
    const markTested = async (userId: string, agentId: string) => void marked.push([userId, agentId]);

    await service({ markTested }).chat('u1', 'a1', input);
    await service({ markTested, model: new ScriptedModel([new ModelError('auth', 'x')]) }).chat('u1', 'a1', input).catch(() => undefined);
    await service({ markTested }).chat('u1', 'b1', input).catch(() => undefined);

    expect(marked).toEqual([['u1', 'a1']]);
  });

  it('a marker that fails is logged and the reply is still answered', async () => {
    const errors: string[] = [];
    const markTested = () => Promise.reject(new Error('throttled'));

    const reply = await service({ markTested, onError: (message) => void errors.push(message) }).chat('u1', 'a1', input);

    expect(reply.reply).toBe('Hello!');
    expect(errors).toEqual(['Marking the agent tested failed']);
  });
});
