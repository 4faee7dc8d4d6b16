/**
 * Unanswered questions (issue 18, "teach the agent"): every turn that ended without a supporting
 * passage (AgentReply.unanswered) is recorded per agent, best effort (a failed write is logged,
 * the customer's reply goes out anyway); the agent page lists them grouped by similarity, and the
 * owner answers a group (it becomes a knowledge entry) or dismisses it.
 */
import { AGENT_LIMITS } from '../../contract/agent-limits.js';
import type { UnansweredChannel, UnansweredGroup, UnansweredQuestion } from '../../contract/agents.js';
import type { KnowledgeLanguage } from './ports.js';
import { analyse } from './analysis.js';

/** adapters/dynamo/unanswered.ts: one item per question, kept ≤ AGENT_LIMITS.unansweredKept per agent. */
export interface UnansweredStore {
  add(userId: string, agentId: string, question: UnansweredQuestion): Promise<void>;
  /** The agent's questions, newest first (at most AGENT_LIMITS.unansweredKept; older ones are dropped). */
  list(userId: string, agentId: string): Promise<UnansweredQuestion[]>;
  /** Removes those of `ids` that exist; returns the ids removed. */
  remove(userId: string, agentId: string, ids: readonly string[]): Promise<string[]>;
  /** Every question of the agent (the agent is being deleted). */
  deleteAgent(userId: string, agentId: string): Promise<void>;
}

/** Where a channel asked the question (the owner's link back to it). */
export interface AskedWhere {
  channel: UnansweredChannel;
  conversationId?: string;
  callId?: string;
}

export interface UnansweredRecorderDeps {
  store: Pick<UnansweredStore, 'add'>;
  newId: (now: number) => string;
  now?: () => number;
  onError?: (message: string, error: unknown) => void;
}

/** The channels' one call: records `unanswered` (when set) and never throws. */
export function createUnansweredRecorder(deps: UnansweredRecorderDeps) {
  const now = deps.now ?? Date.now;
  return async (userId: string, agentId: string, unanswered: { question: string } | null, where: AskedWhere): Promise<void> => {
    if (!unanswered) return;
    const at = now();
    try {
      await deps.store.add(userId, agentId, {
        _id: deps.newId(at),
        question: unanswered.question,
        channel: where.channel,
        askedAt: new Date(at).toISOString(),
        ...(where.conversationId ? { conversationId: where.conversationId } : {}),
        ...(where.callId ? { callId: where.callId } : {}),
      });
    } catch (error) {
      deps.onError?.('Could not record an unanswered question', error);
    }
  };
}

export type RecordUnanswered = ReturnType<typeof createUnansweredRecorder>;

/** Two questions are alike when their analysed words overlap this much (Jaccard, or containment for short ones). */
export const SIMILARITY_THRESHOLD = 0.5;

function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  const jaccard = shared / (a.size + b.size - shared);
  // "¿Abrís los domingos?" within "¿Abrís los domingos por la tarde?": the shorter one's words all shared.
  const containment = shared / Math.min(a.size, b.size);
  return Math.max(jaccard, containment >= 1 && Math.min(a.size, b.size) >= 2 ? containment : 0);
}

/**
 * Greedy grouping of `questions` (newest first, as listed): each question joins the first group
 * whose representative (newest wording) it resembles, else starts one. Groups are returned most
 * asked first, then most recent; each group's questions newest first.
 */
export function groupUnanswered(questions: readonly UnansweredQuestion[], language: KnowledgeLanguage): UnansweredGroup[] {
  const groups: { terms: Set<string>; questions: UnansweredQuestion[] }[] = [];
  const sorted = [...questions].sort((a, b) => (a.askedAt < b.askedAt ? 1 : a.askedAt > b.askedAt ? -1 : a._id < b._id ? 1 : -1));
  for (const q of sorted) {
    const terms = new Set(analyse(q.question, language));
    const group = groups.find((g) => similarity(g.terms, terms) >= SIMILARITY_THRESHOLD);
    if (group) group.questions.push(q);
    else groups.push({ terms, questions: [q] });
  }
  return groups
    .map((g) => ({ question: g.questions[0]!.question, count: g.questions.length, lastAskedAt: g.questions[0]!.askedAt, questions: g.questions }))
    .sort((a, b) => b.count - a.count || (a.lastAskedAt < b.lastAskedAt ? 1 : a.lastAskedAt > b.lastAskedAt ? -1 : 0));
}

export const UNANSWERED_KEPT = AGENT_LIMITS.unansweredKept;
