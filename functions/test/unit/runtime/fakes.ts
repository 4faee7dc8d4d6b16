/** In-memory ports for the agent runtime's unit tests (same contracts as the OpenAI, retrieval and HTTP tool adapters). */
import type { ChatGptSettings } from '../../../src/contract/integrations.js';
import type { AgentWithChildren, ToolRecord } from '../../../src/domain/agents/ports.js';
import type { ToolCallOptions, ToolExecutor, ToolOutcome } from '../../../src/domain/agents/runtime/ports.js';
import type { ChatModel, Completion, CompletionRequest, Embedder, ModelToolCall } from '../../../src/domain/ai/ports.js';
import type { AgentKnowledgeRef, KnowledgeChunk, KnowledgeRetriever, RetrievedChunk } from '../../../src/domain/knowledge/ports.js';

export const settings = (over: Partial<ChatGptSettings> = {}): ChatGptSettings => ({
  model: 'gpt-4o',
  maxTokens: 500,
  temperature: 0.3,
  systemPrompt: 'You work for Acme Dental.',
  baseUrl: '',
  ...over,
});

export function tool(over: Partial<ToolRecord> = {}): ToolRecord {
  return {
    _id: 'tool1',
    agentId: 'agent1',
    name: 'check_order',
    description: 'Look up the status of an order',
    type: 'http_request',
    properties: { order_id: { type: 'string', description: 'The order number' } },
    required: ['order_id'],
    endpoint: 'https://shop.example.com/orders',
    method: 'GET',
    headerKey: '',
    sealedHeaderValue: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  };
}

export function agent(over: Partial<AgentWithChildren> = {}): AgentWithChildren {
  return {
    _id: 'agent1',
    name: 'Sonia',
    description: 'Receptionist of a dental clinic',
    objective: 'Book appointments and answer questions about treatments',
    instructions: 'Always confirm the date back to the customer',
    knowledgeBase: 'Opening hours: Mon–Fri 9:00–18:00',
    priority: 0,
    enabled: true,
    language: 'en',
    minRelevance: 0,
    bookingsEnabled: false,
    whatsappTools: { sendFiles: false, sendLocation: false, offerChoices: false },
    entries: [],
    knowledgeVersion: 3,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    files: [],
    urls: [],
    tools: [],
    ...over,
  };
}

/** A file record so the runtime knows the agent has knowledge. */
export const someFile = (): AgentWithChildren['files'][number] => ({
  id: 'file1',
  _id: 'file1',
  agentId: 'agent1',
  shareable: false,
  originalName: 'prices.pdf',
  mimeType: 'application/pdf',
  size: 1000,
  uploadedAt: '2026-01-01T00:00:00.000Z',
  status: 'completed',
  s3Key: 'k',
});

export const call = (name: string, args: unknown, id = `call_${name}_${Math.random().toString(36).slice(2, 7)}`): ModelToolCall => ({
  id,
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

export const toolsReply = (...calls: ModelToolCall[]): Completion => ({ content: null, toolCalls: calls, finishReason: 'tool_calls' });
export const textReply = (content: string | null): Completion => ({ content, toolCalls: [], finishReason: 'stop' });

/** Answers with the scripted completions in order (then the last one again); records every request. */
export class ScriptedModel implements ChatModel {
  requests: CompletionRequest[] = [];
  constructor(private readonly script: (Completion | Error | ((req: CompletionRequest) => Completion))[]) {}
  async complete(request: CompletionRequest): Promise<Completion> {
    this.requests.push(structuredClone(request));
    const step = this.script[Math.min(this.requests.length - 1, this.script.length - 1)]!;
    if (step instanceof Error) throw step;
    return typeof step === 'function' ? step(request) : step;
  }
}

export class FakeEmbedder implements Embedder {
  calls: string[][] = [];
  constructor(private readonly fail = false) {}
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    if (this.fail) throw new Error('embedding endpoint down');
    return texts.map(() => new Float32Array([1, 0, 0]));
  }
}

export const chunk = (text: string, over: Partial<KnowledgeChunk> = {}): KnowledgeChunk => ({
  agentId: 'agent1',
  sourceKind: 'file',
  sourceId: 'file1',
  sourceName: 'prices.pdf',
  index: 0,
  text,
  page: null,
  headings: [],
  vector: null,
  ...over,
});

/** Keyword retriever: chunks sharing a word with the query, in order; records every search. */
export class MemoryRetriever implements KnowledgeRetriever {
  searches: { ref: AgentKnowledgeRef; query: string; queryVector: Float32Array | null; limit: number }[] = [];
  constructor(
    private readonly chunks: KnowledgeChunk[] = [],
    private readonly fail = false,
  ) {}
  async search(ref: AgentKnowledgeRef, query: string, queryVector: Float32Array | null, limit: number): Promise<RetrievedChunk[]> {
    this.searches.push({ ref, query, queryVector, limit });
    if (this.fail) throw new Error('table unavailable');
    const words = new Set(query.toLowerCase().match(/\w+/g) ?? []);
    return this.chunks
      .filter((c) => (c.text.toLowerCase().match(/\w+/g) ?? []).some((w) => words.has(w)))
      .slice(0, limit)
      .map((c, i) => ({ chunk: c, score: 1 - i * 0.1, relevance: 1 - i * 0.1 }));
  }
}

export class RecordingExecutor implements ToolExecutor {
  calls: { tool: string; args: Record<string, unknown>; options?: ToolCallOptions }[] = [];
  constructor(private readonly outcome: (tool: ToolRecord, args: Record<string, unknown>) => ToolOutcome = () => ({ ok: true, status: 200, result: 'HTTP 200\n{"status":"shipped"}' })) {}
  async execute(tool: ToolRecord, args: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolOutcome> {
    this.calls.push({ tool: tool.name, args, options });
    return this.outcome(tool, args);
  }
}
