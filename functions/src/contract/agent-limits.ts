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
 * know. Chosen on the graded set (npm run bench: bench-knowledge-eval, hybrid, the local hashed
 * embedding) as the lowest value refusing ≥ 90 % of the unanswerable questions: 0.35 refuses 14 of
 * 15 of them (0.325: 13) and ~25 % of the answerable ones (paraphrases the hashed embedding cannot
 * see: "aparcar" for "parking", "a plazos" for "sin intereses"); lower values trade refusals the
 * other way (0.25: 73 % / 13 %). Each agent can change it.
 */
export const DEFAULT_MIN_RELEVANCE = 0.35;
