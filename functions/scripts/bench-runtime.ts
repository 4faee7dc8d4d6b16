/**
 * Agent runtime overhead (part of `npm run bench`): one chat turn through runAgent with the model
 * time taken out — an instant in-memory model (one tool round + the final answer), an instant
 * embedder and tool executor — over the real hybrid retriever (domain/knowledge/retrieval.ts)
 * with an agent of 5,000 chunks × 1,536 dimensions, its index warm as in a warm Lambda.
 *
 * What is measured per turn: embedding the message (instant) + retrieval of the prompt's 4
 * excerpts, the system prompt, the tool schemas, serialising each model request (what the SDK
 * does before sending), the tool round (a custom tool call), the final call and the reply.
 * Target: p95 ≤ 30 ms. Also shown: the runtime without retrieval, and a round that also calls
 * search_knowledge (a second retrieval).
 *
 *   --chunks=N   chunks of the agent (default 5000)
 *   --runs=N     measured turns (default 200, after 10 warm-up turns)
 */
import { AGENT_LIMITS } from '../src/contract/agents.js';
import type { AgentWithChildren, ToolRecord } from '../src/domain/agents/ports.js';
import type { ToolExecutor } from '../src/domain/agents/runtime/ports.js';
import { runAgent } from '../src/domain/agents/runtime/run-agent.js';
import { EMBEDDING_DIMENSIONS, type ChatModel, type Completion, type CompletionRequest, type Embedder } from '../src/domain/ai/ports.js';
import type { KnowledgeChunk, KnowledgeRetriever } from '../src/domain/knowledge/ports.js';
import { CachedKnowledgeRetriever } from '../src/domain/knowledge/retrieval.js';
import { arg, percentile, randomUnitVector, seededRandom, table } from './bench-common.js';

const CHUNKS = arg('chunks', 5_000);
const RUNS = arg('runs', 200);
const WARMUP = 10;
const TARGET_MS = 30;

const random = seededRandom(42);
const unitVector = () => randomUnitVector(random);

const WORDS = (
  'appointment booking price whitening implant cleaning insurance payment refund opening hours saturday ' +
  'parking location emergency child orthodontics braces crown filling root canal consultation invoice ' +
  'cancel reschedule doctor hygienist anesthesia x-ray warranty discount family plan monthly card cash'
).split(' ');
const sentence = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');

const userId = 'bench-user';
const agentId = 'bench-agent';
const chunks: KnowledgeChunk[] = Array.from({ length: CHUNKS }, (_, i) => ({
  agentId,
  sourceKind: i % 5 === 0 ? 'url' : 'file',
  sourceId: `src${i % 40}`,
  sourceName: i % 5 === 0 ? `https://clinic.example/page-${i % 40}` : `handbook-${i % 40}.pdf`,
  index: i,
  page: null,
  headings: [],
  // ~170 words, the size of a real chunk.
  text: `${sentence(170)}.`,
  vector: unitVector(),
}));

const tool: ToolRecord = {
  _id: 't1',
  agentId,
  name: 'check_appointment',
  description: 'Look up the next free appointment slots for a treatment',
  type: 'http_request',
  properties: {
    treatment: { type: 'string', description: 'The treatment' },
    date: { type: 'string', description: 'Day, YYYY-MM-DD' },
    patients: { type: 'number', description: 'How many people' },
  },
  required: ['treatment'],
  endpoint: 'https://clinic.example/api/slots',
  method: 'GET',
  headerKey: 'X-Api-Key',
  sealedHeaderValue: 'v1:local:x',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const agent: AgentWithChildren = {
  _id: agentId,
  name: 'Sonia',
  description: 'Receptionist of a dental clinic in Madrid',
  objective: 'Book appointments and answer questions about treatments, prices and insurance',
  instructions: 'Confirm the date back. Never give medical advice.',
  knowledgeBase: 'Opening hours: Monday to Friday 9:00–18:00, Saturday 10:00–14:00.',
  priority: 5,
  language: 'en',
  minRelevance: 0,
  bookingsEnabled: false,
  whatsappTools: { sendFiles: false, sendLocation: false, offerChoices: false },
  entries: [],
  enabled: true,
  knowledgeVersion: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  files: [
    {
      id: 'src1',
      _id: 'src1',
      agentId,
      shareable: false,
      originalName: 'handbook-1.pdf',
      mimeType: 'application/pdf',
      size: 1,
      uploadedAt: '2026-01-01T00:00:00.000Z',
      status: 'completed',
      s3Key: 'k',
    },
  ],
  urls: [],
  tools: [tool, { ...tool, _id: 't2', name: 'book_appointment', method: 'POST' }, { ...tool, _id: 't3', name: 'cancel_appointment', method: 'DELETE' }],
};

/**
 * Instant model: round 1 asks for a custom tool (and search_knowledge when `withSearch`), round 2
 * answers. Serialises each request like the SDK would before sending it.
 */
const instantModel = (withSearch: boolean): ChatModel => ({
  async complete(req: CompletionRequest): Promise<Completion> {
    JSON.stringify(req);
    if (req.messages.some((m) => m.role === 'tool')) {
      return { content: 'You can come on Tuesday at 10:00; whitening costs 200 EUR.', toolCalls: [], finishReason: 'stop' };
    }
    return {
      content: null,
      toolCalls: [
        { id: 'c1', name: 'check_appointment', arguments: '{"treatment":"whitening","date":"2026-05-05"}' },
        ...(withSearch ? [{ id: 'c2', name: 'search_knowledge', arguments: '{"query":"whitening price insurance"}' }] : []),
      ],
      finishReason: 'tool_calls',
    };
  },
});

const queryVector = unitVector();
const embedder: Embedder = { embed: async (texts) => texts.map(() => queryVector) };
const tools: ToolExecutor = {
  execute: async () => ({ ok: true, status: 200, result: 'HTTP 200\n{"slots":["2026-05-05T10:00","2026-05-05T11:30"]}' }),
};
const retriever = new CachedKnowledgeRetriever({ loadAgent: async () => chunks });
const history = Array.from({ length: AGENT_LIMITS.chatHistory }, (_, i) => ({
  role: i % 2 ? ('assistant' as const) : ('user' as const),
  content: sentence(25),
}));

const noKnowledge: KnowledgeRetriever = { search: async () => [] };

const turn = (model: ChatModel, retriever: KnowledgeRetriever) =>
  runAgent({
    userId,
    agent,
    settings: { model: 'gpt-4o', maxTokens: 1000, temperature: 0.7, systemPrompt: 'You work for Clínica Sonrisa.', baseUrl: '' },
    model,
    embedder,
    retriever,
    tools,
    history,
    message: 'How much is a whitening and when can I come?',
    channel: 'chat',
  });

console.log(
  `\nAgent runtime overhead: one chat turn without model time (${CHUNKS.toLocaleString('en-US')} chunks × ${EMBEDDING_DIMENSIONS} dims, ` +
    `${agent.tools.length} custom tools, ${history.length} history messages, one tool round + the final answer; ${RUNS} turns each)\n`,
);

const t = performance.now();
const first = await turn(instantModel(false), retriever);
const coldMs = performance.now() - t;
if (first.toolCalls.length !== 1 || first.sources.length === 0) throw new Error(`unexpected turn: ${JSON.stringify(first).slice(0, 300)}`);

async function measure(model: ChatModel, over: KnowledgeRetriever): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await turn(model, over);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await turn(model, over);
    times.push(performance.now() - start);
  }
  return times;
}

const scenarios = [
  { name: 'runtime alone (no knowledge to search)', times: await measure(instantModel(false), noKnowledge), target: false },
  { name: 'chat turn: retrieval + a custom tool round', times: await measure(instantModel(false), retriever), target: true },
  { name: '… + search_knowledge in the round (2nd retrieval)', times: await measure(instantModel(true), retriever), target: false },
];
let pass = true;
const rows = [['first turn (index build, cold)', coldMs.toFixed(1), '', '', '']];
for (const s of scenarios) {
  const p95 = percentile(s.times, 95);
  if (s.target && p95 > TARGET_MS) pass = false;
  rows.push([s.name, percentile(s.times, 50).toFixed(2), p95.toFixed(2), Math.max(...s.times).toFixed(2), s.target ? (p95 <= TARGET_MS ? 'pass ✓' : 'FAIL ✗') : '']);
}
console.log(table(['measure', 'p50 ms', 'p95 ms', 'max ms', `p95 ≤ ${TARGET_MS} ms`], rows));
console.log(`\n${pass ? 'Runtime overhead target met.' : 'Runtime overhead target missed.'}`);
