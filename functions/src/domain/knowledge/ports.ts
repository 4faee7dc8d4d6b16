/**
 * Knowledge: text chunks (with embeddings) of an agent's files and web pages, and hybrid retrieval
 * over them. Chunks of one agent live in their own partition (see adapters/dynamo/ACCESS-PATTERNS.md).
 */

export type KnowledgeSourceKind = 'file' | 'url';

export interface KnowledgeChunk {
  agentId: string;
  sourceKind: KnowledgeSourceKind;
  sourceId: string;
  /** File name or URL, shown to the model and the user. */
  sourceName: string;
  /** 0-based position of the chunk within its source. */
  index: number;
  text: string;
  /** null when the chunk was stored without an embedding (embeddings unavailable): keyword search still finds it. */
  vector: Float32Array | null;
}

export interface RetrievedChunk {
  chunk: KnowledgeChunk;
  /** Merged score (higher is better). */
  score: number;
}

/** Which state of an agent's knowledge a retrieval must see: bumped on every chunk change, so caches key on it. */
export interface AgentKnowledgeRef {
  userId: string;
  agentId: string;
  knowledgeVersion: number;
}

export interface KnowledgeRetriever {
  /**
   * The best `limit` chunks of the agent for `query`. `queryVector` is the query's embedding, or null
   * when embeddings are unavailable (then only the keyword half ranks).
   */
  search(agent: AgentKnowledgeRef, query: string, queryVector: Float32Array | null, limit: number): Promise<RetrievedChunk[]>;
}

/** Chunk persistence (adapters/dynamo/knowledge-chunks.ts). */
export interface ChunkStore {
  /** Replaces every chunk of one source with `chunks` (all of the same source). */
  replaceSource(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string, chunks: readonly KnowledgeChunk[]): Promise<void>;
  loadAgent(userId: string, agentId: string): Promise<KnowledgeChunk[]>;
  deleteSource(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string): Promise<void>;
  deleteAgent(userId: string, agentId: string): Promise<void>;
}

/** What the ingestion workers read and write about a file or URL (implemented over the agent items). */
export interface KnowledgeSourceRecord {
  kind: KnowledgeSourceKind;
  sourceId: string;
  /** originalName of a file, link of a URL. */
  name: string;
  /** Files: the uploads-bucket key, the declared MIME type and size. */
  s3Key?: string;
  mimeType?: string;
  size?: number;
  /** URLs: the link to fetch. */
  link?: string;
  /** sha256 of the extracted text last ingested (URL refresh replaces chunks only when it changed). */
  contentHash?: string;
  status: 'uploading' | 'pending' | 'completed' | 'failed';
}

export interface KnowledgeSourceUpdate {
  status: 'pending' | 'completed' | 'failed';
  /** Written for the user ("The PDF has no extractable text"); removed when absent. */
  error?: string;
  chunkCount?: number;
  contentHash?: string;
  title?: string;
}

export interface KnowledgeSources {
  /** null when the source (or its agent) no longer exists: the job is dropped. */
  get(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string): Promise<KnowledgeSourceRecord | null>;
  /** Sets the status (and lastUpdateAt) and ADDs 1 to the agent's knowledgeVersion when `chunksChanged`. No-op if the source was deleted meanwhile. */
  update(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string, update: KnowledgeSourceUpdate, chunksChanged: boolean): Promise<void>;
}
