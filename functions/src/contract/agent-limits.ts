/**
 * Agents' field limits and knowledge defaults (SPEC §5 limits; beyond the spec: entries, unanswered
 * questions, the agent's language and minimum relevance). Plain constants, no zod: the agent runtime
 * and the adapters import them without the request schemas of contract/agents.ts.
 */

export const AGENT_LIMITS = {
  name: 20,
  description: 500,
  objective: 600,
  instructions: 600,
  knowledgeBase: 3000,
  priorityMin: 0,
  priorityMax: 10,
  toolName: 64,
  toolDescription: 1000,
  toolParameters: 20,
  parameterDescription: 500,
  endpoint: 2048,
  headerKey: 100,
  headerValue: 4000,
  urlLength: 2048,
  urlsPerRequest: 20,
  filesPerRequest: 20,
  chatMessage: 4000,
  chatHistory: 50,
  /** Knowledge entries (the owner's question + answer pairs, e.g. an answered unanswered question). */
  entryQuestion: 300,
  entryAnswer: 2000,
  entriesPerAgent: 200,
  /** Unanswered questions kept per agent (oldest dropped) and shown grouped. */
  unansweredKept: 500,
} as const;

/** The languages an agent's knowledge is analysed in (and its refusals written in by default). */
export const AGENT_LANGUAGES = ['es', 'en'] as const;
export type AgentLanguage = (typeof AGENT_LANGUAGES)[number];

/**
 * Below this absolute relevance (0..1) no passage supports an answer: the agent says it does not
 * know. Since issue 28 it is a low floor, refusing only when retrieval found nothing related (no key
 * word of the question in any passage the runtime keeps, and a low cosine): a passage holding one of
 * the question's topic words scores at least 0.4 (domain/knowledge/retrieval.ts combineRelevance),
 * and whether it holds the answer is the model's call. Measured with npm run bench
 * (bench-knowledge-eval, hybrid, the local hashed embedding, one-business agents): 1 of the 228
 * answerable questions of the graded, held-out and blind sets refused (a place the documents name
 * otherwise: "Tenerife" for "Canarias"), and 10–15 % of the unanswerable ones — the rest are the
 * model's to refuse. Each agent can change it.
 */
export const DEFAULT_MIN_RELEVANCE = 0.35;
