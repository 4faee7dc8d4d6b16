/**
 * Knowledge: text chunks (with embeddings) of an agent's files and web pages, and hybrid retrieval
 * over them. Chunks of one agent live in their own partition (see adapters/dynamo/ACCESS-PATTERNS.md).
 */

/** Files and web pages are ingested by the workers; entries are the owner's own question + answer pairs (the "teach the agent" loop). */
export type KnowledgeSourceKind = 'file' | 'url' | 'entry';

/** The languages knowledge is analysed in (accent folding, stop words, a light stemmer): the agent's language. */
export type KnowledgeLanguage = 'es' | 'en';

/**
 * A document as the extractors read it, structure kept: headings, paragraphs and tables (rows of
 * cells, the first row the header when the document has one). `page` is the 1-based page of a PDF
 * block (absent for formats without pages). Chunking works on blocks, so a table row never loses
 * its header and every chunk knows its page and heading path.
 */
export type DocumentBlock =
  | { kind: 'heading'; level: number; text: string; page?: number }
  | { kind: 'paragraph'; text: string; page?: number }
  | { kind: 'table'; rows: string[][]; header: boolean; page?: number };

export interface StructuredDocument {
  blocks: DocumentBlock[];
  /** A page's or document's title when the format has one. */
  title?: string;
}

export interface KnowledgeChunk {
  agentId: string;
  sourceKind: KnowledgeSourceKind;
  sourceId: string;
  /** File name or URL, shown to the model and the user. */
  sourceName: string;
  /** 0-based position of the chunk within its source. */
  index: number;
  text: string;
  /** 1-based page of a PDF where the chunk starts; null for formats without pages. */
  page: number | null;
  /** The headings above the chunk, outermost first ([] when none). */
  headings: string[];
  /** null when the chunk was stored without an embedding (embeddings unavailable): keyword search still finds it. */
  vector: Float32Array | null;
}

export interface RetrievedChunk {
  chunk: KnowledgeChunk;
  /** Fused rank score (higher is better; only comparable within one search). */
  score: number;
  /**
   * Absolute relevance 0..1, comparable across searches and agents and independent of the rest of
   * the index: how much of the query's key words the chunk holds (fixed weights, retrieval.ts
   * combineRelevance) with the cosine as is. Refusal compares it with the agent's minRelevance.
   */
  relevance: number;
}

/** Which state of an agent's knowledge a retrieval must see: bumped on every chunk change, so caches key on it. */
export interface AgentKnowledgeRef {
  userId: string;
  agentId: string;
  knowledgeVersion: number;
  /** The analysis of the agent's chunks and queries (part of the cache key: the index's tokens depend on it). */
  language: KnowledgeLanguage;
}

export interface KnowledgeRetriever {
  /**
   * The best `limit` chunks of the agent for `query`. `queryVector` is the query's embedding, or null
   * when embeddings are unavailable (then only the keyword half ranks).
   */
  search(agent: AgentKnowledgeRef, query: string, queryVector: Float32Array | null, limit: number): Promise<RetrievedChunk[]>;
}

/**
 * Compact index snapshots (vectors + postings of one agent at one knowledgeVersion and language),
 * so a cold function loads an agent's index in one GET instead of reading every chunk item.
 * Written after ingestion; a missing snapshot falls back to ChunkStore.loadAgent (and writes one).
 */
export interface IndexSnapshotStore {
  get(ref: AgentKnowledgeRef): Promise<Uint8Array | null>;
  put(ref: AgentKnowledgeRef, bytes: Uint8Array): Promise<void>;
}

/** An agent's knowledgeVersion and language as they are after a change (the rest of an AgentKnowledgeRef). */
export type KnowledgeState = Pick<AgentKnowledgeRef, 'knowledgeVersion' | 'language'>;

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
  /** The processing round it is pending in (contract/jobs.ts `generation`); absent on sources from before rounds existed. */
  generation?: string;
}

/** A job's outcome for its source. */
export interface KnowledgeSourceUpdate {
  status: 'completed' | 'failed';
  /** Written for the user ("The PDF has no extractable text"); removed when absent. */
  error?: string;
  chunkCount?: number;
  contentHash?: string;
  title?: string;
}

/** What settle() did: `settled` false = nothing written (the source is gone, or no longer pending in that round). */
export interface SettleResult {
  settled: boolean;
  /** The agent's knowledge state after the bump (what the index snapshot is labelled); null when nothing was bumped. */
  state: KnowledgeState | null;
}

export interface KnowledgeSources {
  /** null when the source (or its agent) no longer exists: the job is dropped. */
  get(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string): Promise<KnowledgeSourceRecord | null>;
  /**
   * Records a job's outcome (status, lastUpdateAt, …) only while the source is still pending in the
   * job's `generation` (one conditional write, issue 34): a completed or failed source, or one
   * reprocessed since, is never overwritten by a late or repeated job. When it settles and
   * `chunksChanged`, ADDs 1 to the agent's knowledgeVersion.
   */
  settle(
    userId: string,
    agentId: string,
    kind: KnowledgeSourceKind,
    sourceId: string,
    generation: string | undefined,
    update: KnowledgeSourceUpdate,
    chunksChanged: boolean,
  ): Promise<SettleResult>;
}
