/** In-memory implementations of the knowledge ports for the domain unit tests. */
import { type AiConnector, type Embedder, EMBEDDING_DIMENSIONS, ModelError } from '../../../src/domain/ai/ports.js';
import type {
  ChunkStore,
  KnowledgeChunk,
  KnowledgeSourceKind,
  KnowledgeSourceRecord,
  KnowledgeSources,
  KnowledgeSourceUpdate,
  SettleResult,
} from '../../../src/domain/knowledge/ports.js';

export class MemorySources implements KnowledgeSources {
  readonly records = new Map<string, KnowledgeSourceRecord & { update?: KnowledgeSourceUpdate; chunkCount?: number; title?: string; error?: string }>();
  readonly versions = new Map<string, number>();
  /** Every settle() asked, written or not (`settled`). */
  readonly updates: { key: string; update: KnowledgeSourceUpdate; chunksChanged: boolean; settled: boolean }[] = [];

  key = (userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string) => `${userId}/${agentId}/${kind}/${sourceId}`;

  add(userId: string, agentId: string, record: KnowledgeSourceRecord): void {
    this.records.set(this.key(userId, agentId, record.kind, record.sourceId), { ...record });
    this.versions.set(`${userId}/${agentId}`, this.versions.get(`${userId}/${agentId}`) ?? 0);
  }

  /** Back to pending in round `generation` (what a refresh or reprocess does through the agents repository). */
  restart(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string, generation?: string): void {
    const r = this.records.get(this.key(userId, agentId, kind, sourceId));
    if (!r) return;
    r.status = 'pending';
    r.error = undefined;
    if (generation === undefined) delete r.generation;
    else r.generation = generation;
  }

  async get(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string): Promise<KnowledgeSourceRecord | null> {
    const r = this.records.get(this.key(userId, agentId, kind, sourceId));
    return r ? { ...r } : null;
  }

  /** As the DynamoDB adapter: written only while the source is pending in the job's round. */
  async settle(
    userId: string,
    agentId: string,
    kind: KnowledgeSourceKind,
    sourceId: string,
    generation: string | undefined,
    update: KnowledgeSourceUpdate,
    chunksChanged: boolean,
  ): Promise<SettleResult> {
    const key = this.key(userId, agentId, kind, sourceId);
    const r = this.records.get(key);
    const settled = Boolean(r && r.status === 'pending' && r.generation === generation);
    this.updates.push({ key, update, chunksChanged, settled });
    if (r && settled) {
      r.status = update.status;
      r.error = update.error;
      if (update.chunkCount !== undefined) r.chunkCount = update.chunkCount;
      if (update.contentHash !== undefined) r.contentHash = update.contentHash;
      if (update.title !== undefined) r.title = update.title;
      if (chunksChanged) this.versions.set(`${userId}/${agentId}`, (this.versions.get(`${userId}/${agentId}`) ?? 0) + 1);
    }
    return { settled, state: settled && chunksChanged ? { knowledgeVersion: this.versions.get(`${userId}/${agentId}`) ?? 0, language: 'es' } : null };
  }
}

export class MemoryChunkStore implements ChunkStore {
  readonly chunks = new Map<string, KnowledgeChunk[]>();
  private key = (userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string) => `${userId}/${agentId}/${kind}/${sourceId}`;

  async replaceSource(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string, chunks: readonly KnowledgeChunk[]): Promise<void> {
    this.chunks.set(this.key(userId, agentId, kind, sourceId), [...chunks]);
  }
  async loadAgent(userId: string, agentId: string): Promise<KnowledgeChunk[]> {
    return [...this.chunks.entries()].filter(([k]) => k.startsWith(`${userId}/${agentId}/`)).flatMap(([, v]) => v);
  }
  async deleteSource(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string): Promise<void> {
    this.chunks.delete(this.key(userId, agentId, kind, sourceId));
  }
  async deleteAgent(userId: string, agentId: string): Promise<void> {
    for (const k of [...this.chunks.keys()]) if (k.startsWith(`${userId}/${agentId}/`)) this.chunks.delete(k);
  }
  of(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string): KnowledgeChunk[] | undefined {
    return this.chunks.get(this.key(userId, agentId, kind, sourceId));
  }
}

/** An embedder that answers unit vectors (or throws what it is told to), counting calls. */
export class ScriptedEmbedder implements Embedder {
  calls = 0;
  failWith: Error | null = null;
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls++;
    if (this.failWith) throw this.failWith;
    return texts.map((_, i) => {
      const v = new Float32Array(EMBEDDING_DIMENSIONS);
      v[i % EMBEDDING_DIMENSIONS] = 1;
      return v;
    });
  }
}

export function connector(embedder: Embedder | null): AiConnector {
  return {
    async forUser() {
      if (!embedder) return null;
      return {
        settings: {} as never,
        chat: { complete: async () => ({ content: '', toolCalls: [], finishReason: 'stop' }) },
        embedder,
      };
    },
  };
}

export const modelError = (kind: ModelError['kind']) => new ModelError(kind, kind);
