/**
 * Knowledge entries and unanswered questions of an agent (issue 18, "teach the agent"): the
 * owner's own question + answer pairs, each stored as a child item of the agent AND as one
 * knowledge chunk (source kind 'entry', text "question\nanswer", named by its question), embedded
 * right away with the owner's ChatGPT connection when there is one (keyword retrieval finds it
 * otherwise); the agent's knowledgeVersion is bumped after every change so retrieval reloads.
 * Answering a group of unanswered questions creates an entry and removes them from the list.
 */
import { AGENT_LIMITS, agentMessages, type KnowledgeEntry, type KnowledgeEntryInput, type UnansweredGroup } from '../../contract/agents.js';
import { newId as defaultNewId, isId } from '../../lib/ids.js';
import type { AiConnector } from '../ai/ports.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { ChunkStore, KnowledgeChunk } from '../knowledge/ports.js';
import { groupUnanswered, type UnansweredStore } from '../knowledge/unanswered.js';
import type { AgentReader, AgentWithChildren, EntryRecord } from './ports.js';

export type AddEntryOutcome = 'added' | 'no_agent' | 'limit';

/** The entry writes of the agents adapter (adapters/dynamo/agents.ts). */
export interface EntryRepository extends Pick<AgentReader, 'get'> {
  /** Puts the entry and counts it on the agent, in one transaction: 'limit' at AGENT_LIMITS.entriesPerAgent. */
  addEntry(userId: string, entry: EntryRecord): Promise<AddEntryOutcome>;
  /** false when the entry does not exist. */
  replaceEntry(userId: string, entry: EntryRecord): Promise<boolean>;
  /** false when the entry does not exist. */
  deleteEntry(userId: string, agentId: string, entryId: string): Promise<boolean>;
  bumpKnowledgeVersion(userId: string, agentId: string): Promise<void>;
}

export interface AgentKnowledgeDeps {
  agents: EntryRepository;
  chunks: Pick<ChunkStore, 'replaceSource' | 'deleteSource'>;
  ai: AiConnector;
  unanswered: UnansweredStore;
  now?: () => Date;
  newId?: () => string;
  onError?: (message: string, error: unknown) => void;
}

const entryView = ({ agentId: _agentId, ...entry }: EntryRecord): KnowledgeEntry => entry;

/** The chunk an entry is searched as. */
export function entryChunk(entry: EntryRecord, vector: Float32Array | null): KnowledgeChunk {
  return {
    agentId: entry.agentId,
    sourceKind: 'entry',
    sourceId: entry._id,
    sourceName: entry.question,
    index: 0,
    text: `${entry.question}\n${entry.answer}`,
    page: null,
    headings: [],
    vector,
  };
}

export function createAgentKnowledge(deps: AgentKnowledgeDeps) {
  const { agents, chunks, ai, unanswered } = deps;
  const now = () => (deps.now ? deps.now() : new Date()).toISOString();
  const newId = deps.newId ?? (() => defaultNewId());
  const onError = deps.onError ?? (() => undefined);

  async function loadAgent(userId: string, agentId: string): Promise<AgentWithChildren> {
    const agent = isId(agentId) ? await agents.get(userId, agentId) : null;
    if (!agent) throw new NotFoundError(agentMessages.notFound);
    return agent;
  }

  /** The entry's vector with the owner's connection; null without one or when embedding fails (keyword search still finds it). */
  async function embed(userId: string, text: string): Promise<Float32Array | null> {
    try {
      const connection = await ai.forUser(userId);
      if (!connection?.embedder) return null;
      return (await connection.embedder.embed([text]))[0] ?? null;
    } catch (error) {
      onError('Embedding a knowledge entry failed; it is stored for keyword search only', error);
      return null;
    }
  }

  async function writeChunk(userId: string, entry: EntryRecord): Promise<void> {
    const chunk = entryChunk(entry, null);
    await chunks.replaceSource(userId, entry.agentId, 'entry', entry._id, [{ ...chunk, vector: await embed(userId, chunk.text) }]);
    await agents.bumpKnowledgeVersion(userId, entry.agentId);
  }

  async function createEntry(userId: string, agentId: string, input: KnowledgeEntryInput): Promise<KnowledgeEntry> {
    const agent = await loadAgent(userId, agentId);
    if (agent.entries.length >= AGENT_LIMITS.entriesPerAgent) throw new ValidationError(agentMessages.tooManyEntries);
    const at = now();
    const entry: EntryRecord = { _id: newId(), agentId, question: input.question, answer: input.answer, createdAt: at, updatedAt: at };
    const outcome = await agents.addEntry(userId, entry);
    if (outcome === 'no_agent') throw new NotFoundError(agentMessages.notFound);
    if (outcome === 'limit') throw new ValidationError(agentMessages.tooManyEntries);
    try {
      await writeChunk(userId, entry);
    } catch (error) {
      // Nothing half-written: an entry the agent cannot search is taken back.
      await agents.deleteEntry(userId, agentId, entry._id).catch(() => undefined);
      throw error;
    }
    return entryView(entry);
  }

  return {
    async listEntries(userId: string, agentId: string): Promise<KnowledgeEntry[]> {
      return (await loadAgent(userId, agentId)).entries.map(entryView);
    },

    createEntry,

    async updateEntry(userId: string, agentId: string, entryId: string, input: KnowledgeEntryInput): Promise<KnowledgeEntry> {
      const agent = await loadAgent(userId, agentId);
      const existing = agent.entries.find((e) => e._id === entryId);
      if (!existing) throw new NotFoundError(agentMessages.entryNotFound);
      const entry: EntryRecord = { ...existing, question: input.question, answer: input.answer, updatedAt: now() };
      if (!(await agents.replaceEntry(userId, entry))) throw new NotFoundError(agentMessages.entryNotFound);
      await writeChunk(userId, entry);
      return entryView(entry);
    },

    async deleteEntry(userId: string, agentId: string, entryId: string): Promise<void> {
      await loadAgent(userId, agentId);
      if (!isId(entryId) || !(await agents.deleteEntry(userId, agentId, entryId))) throw new NotFoundError(agentMessages.entryNotFound);
      await chunks.deleteSource(userId, agentId, 'entry', entryId);
      await agents.bumpKnowledgeVersion(userId, agentId);
    },

    /** GET /api/agents/{id}/unanswered: grouped by similarity in the agent's language, most asked first. */
    async listUnanswered(userId: string, agentId: string): Promise<{ groups: UnansweredGroup[] }> {
      const agent = await loadAgent(userId, agentId);
      return { groups: groupUnanswered(await unanswered.list(userId, agentId), agent.language) };
    },

    /** The owner's answer to a group: a knowledge entry, and the questions leave the list. */
    async answerUnanswered(userId: string, agentId: string, input: { ids: string[]; question: string; answer: string }): Promise<KnowledgeEntry> {
      await loadAgent(userId, agentId);
      const known = new Set((await unanswered.list(userId, agentId)).map((q) => q._id));
      if (!input.ids.some((id) => known.has(id))) throw new NotFoundError(agentMessages.unansweredNotFound);
      const entry = await createEntry(userId, agentId, { question: input.question, answer: input.answer });
      await unanswered.remove(userId, agentId, input.ids);
      return entry;
    },

    async dismissUnanswered(userId: string, agentId: string, ids: readonly string[]): Promise<{ removed: number }> {
      await loadAgent(userId, agentId);
      const removed = await unanswered.remove(userId, agentId, ids);
      if (removed.length === 0) throw new NotFoundError(agentMessages.unansweredNotFound);
      return { removed: removed.length };
    },
  };
}

export type AgentKnowledge = ReturnType<typeof createAgentKnowledge>;
