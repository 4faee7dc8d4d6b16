/**
 * Hybrid retrieval over one agent's chunks, with a per-warm-Lambda cache.
 *
 * Index (built once per agent and knowledge version): every vector L2-normalised into ONE
 * contiguous Float32Array of n × dims (so cosine similarity is a dot product over a flat array,
 * scanned with WebAssembly SIMD where available: vector-scan.ts),
 * a flag per row for chunks stored without a vector, and a BM25 index of the chunk tokens
 * (analysis.ts, in the agent's language: heading path + text, folded, stop words dropped, lightly
 * stemmed). After fusion, near-duplicates of a better chunk are dropped and each result gets an
 * absolute relevance (combineRelevance). Chunk objects keep a view into the
 * matrix instead of their own copy.
 *
 * Merge: relative score fusion (the scheme Weaviate made its default hybrid fusion). Each half
 * proposes its best `max(5 × limit, 50)` chunks; over that candidate set each half's score is
 * rescaled to 0..1 (BM25: divided by the best score, so a chunk without any query term gets 0;
 * vector: min-max of the cosines, 1 for the best, except that a spread of cosines under 0.1 counts
 * as 0.1, so near-identical cosines, e.g. an agent with two similar chunks, are not blown up into a
 * full-scale 1-vs-0 difference) and the fused score is 0.4 · vector + 0.6 · keyword (measured on the
 * graded set, npm run bench: with 0.6 · vector the hashed local embedding pushed prose above the
 * table row holding the answer — hybrid recall@3 86.7 % → 91.6 %, recall@1 53 % → 71 %). Chosen over
 * reciprocal rank fusion because it keeps how MUCH better a chunk is (rank fusion treats the
 * 2nd-best as nearly as good as the best), and the fused score (0..1) is meaningful enough to show
 * as a source's score. When one half has nothing to say (no query vector, no stored vectors, or
 * no chunk holds a query term) the other half alone ranks, with weight 1. Keyword-only results are
 * only chunks holding at least one query term; results never include a fused score of 0.
 *
 * Cache: keyed by userId/agentId and holding the knowledgeVersion it was built for; a search for
 * another version rebuilds it (a newer version means the chunks changed). Concurrent searches of
 * the same agent share one load. Bounded by the total number of cached chunks: least recently
 * used agents are evicted first (an agent bigger than the bound is still served, then dropped).
 */
import { EMBEDDING_DIMENSIONS } from '../ai/ports.js';
import { analyse, chunkTerms, weightOfTerm } from './analysis.js';
import { Bm25Index } from './bm25.js';
import type { AgentKnowledgeRef, ChunkStore, IndexSnapshotStore, KnowledgeChunk, KnowledgeLanguage, KnowledgeRetriever, RetrievedChunk } from './ports.js';
import { decodeSnapshot, encodeSnapshot } from './snapshot.js';
import { createVectorMatrix, dot, type VectorMatrix } from './vector-scan.js';

export const VECTOR_WEIGHT = 0.4;
export const KEYWORD_WEIGHT = 0.6;
const MIN_CANDIDATES = 50;
/** Cosine spreads below this are not stretched to the full 0..1 range. */
export const MIN_COSINE_SPREAD = 0.1;
const CANDIDATES_PER_RESULT = 5;

export interface AgentIndex {
  readonly chunks: readonly KnowledgeChunk[];
  /** The analysis the BM25 terms were made with (queries are analysed the same way). */
  readonly language: KnowledgeLanguage;
  readonly dims: number;
  /** n × dims, row i = chunk i's normalised vector (zeros when it has none). */
  readonly matrix: Float32Array;
  /** The scan over `matrix` (WebAssembly SIMD where available, vector-scan.ts). */
  readonly vectors: VectorMatrix;
  readonly hasVector: Uint8Array;
  readonly vectorCount: number;
  readonly bm25: Bm25Index;
}

/**
 * Builds the search structures of one agent's chunks (vectors of another length than `dims` count
 * as missing); the keyword terms are each chunk's heading path + text in the agent's language.
 */
export function buildAgentIndex(chunks: readonly KnowledgeChunk[], dims = EMBEDDING_DIMENSIONS, language: KnowledgeLanguage = 'en'): AgentIndex {
  const n = chunks.length;
  const vectors = createVectorMatrix(n, dims);
  const matrix = vectors.data;
  const hasVector = new Uint8Array(n);
  let vectorCount = 0;
  const indexed: KnowledgeChunk[] = new Array<KnowledgeChunk>(n);
  for (let i = 0; i < n; i++) {
    const chunk = chunks[i]!;
    const v = chunk.vector;
    let row: Float32Array | null = null;
    if (v && v.length === dims) {
      const norm = Math.sqrt(dot(v, 0, v, dims));
      if (norm > 0 && Number.isFinite(norm)) {
        row = matrix.subarray(i * dims, (i + 1) * dims);
        for (let j = 0; j < dims; j++) row[j] = v[j]! / norm;
        hasVector[i] = 1;
        vectorCount++;
      }
    }
    indexed[i] = { ...chunk, vector: row };
  }
  const bm25 = new Bm25Index(indexed.map((c) => chunkTerms(c, language)));
  return { chunks: indexed, language, dims, matrix, vectors, hasVector, vectorCount, bm25 };
}

/** The `k` highest entries of `score` among `ids` (best first). */
function topK(ids: Iterable<number>, score: (i: number) => number, k: number): number[] {
  // A min-heap of size k: O(n log k).
  const heap: number[] = [];
  const less = (a: number, b: number) => score(a) < score(b) || (score(a) === score(b) && a > b);
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const id of ids) {
    if (heap.length < k) {
      heap.push(id);
      up(heap.length - 1);
    } else if (k > 0 && less(heap[0]!, id)) {
      heap[0] = id;
      down(0);
    }
  }
  return heap.sort((a, b) => (less(a, b) ? 1 : less(b, a) ? -1 : 0));
}

export interface SearchOptions {
  /** Which halves rank (the evaluation bench compares them); default both. */
  mode?: 'hybrid' | 'keyword' | 'vector';
}

/** Ranks the index's chunks for a query (see the module comment for the fusion). */
export function searchIndex(index: AgentIndex, query: string, queryVector: Float32Array | null, limit: number, options: SearchOptions = {}): RetrievedChunk[] {
  const mode = options.mode ?? 'hybrid';
  const n = index.chunks.length;
  if (n === 0 || limit <= 0) return [];
  const candidates = Math.max(limit * CANDIDATES_PER_RESULT, MIN_CANDIDATES);

  // ---- vector half
  let cosines: Float32Array | null = null;
  if (mode !== 'keyword' && queryVector && queryVector.length === index.dims && index.vectorCount > 0) {
    const qNorm = Math.sqrt(dot(queryVector, 0, queryVector, index.dims));
    if (qNorm > 0 && Number.isFinite(qNorm)) {
      const q = new Float32Array(index.dims);
      for (let j = 0; j < index.dims; j++) q[j] = queryVector[j]! / qNorm;
      cosines = index.vectors.scores(q);
    }
  }
  const vectorTop = cosines ? topK(rowsWithVectors(index), (i) => cosines![i]!, candidates) : [];

  // ---- keyword half
  const queryTerms = mode === 'vector' ? [] : analyse(query, index.language);
  const keyword = index.bm25.search(queryTerms);
  const keywordTop = keyword.max > 0 ? topK(keyword.matched, (i) => keyword.scores[i]!, candidates) : [];

  // ---- fusion over the union of candidates
  const union = [...new Set([...vectorTop, ...keywordTop])];
  let vMin = Infinity;
  let vMax = -Infinity;
  if (cosines) {
    for (const i of union) {
      if (!index.hasVector[i]) continue;
      vMin = Math.min(vMin, cosines[i]!);
      vMax = Math.max(vMax, cosines[i]!);
    }
  }
  const useVector = cosines !== null && vMax >= vMin;
  const useKeyword = keyword.max > 0;
  const vw = useVector && useKeyword ? VECTOR_WEIGHT : useVector ? 1 : 0;
  const kw = useVector && useKeyword ? KEYWORD_WEIGHT : useKeyword ? 1 : 0;
  const fused = new Map<number, number>();
  for (const i of union) {
    const v = useVector && index.hasVector[i] ? 1 - (vMax - cosines![i]!) / Math.max(vMax - vMin, MIN_COSINE_SPREAD) : 0;
    const k = useKeyword ? keyword.scores[i]! / keyword.max : 0;
    const score = vw * v + kw * k;
    if (score > 0) fused.set(i, score);
  }

  // ---- absolute relevance: the share of the question's key words the chunk holds, with fixed weights
  // (combineRelevance): nothing else in the index enters it
  const distinct = [...new Set(queryTerms)];
  const weights = distinct.map((t) => weightOfTerm(t, index.language));
  const queryWeight = Math.min(RELEVANCE_KEY_WORDS, weights.reduce((a, b) => a + b, 0));
  const keywordRelevance = (i: number) => {
    if (queryWeight <= 0 || keyword.scores[i] === 0) return 0;
    let held = 0;
    distinct.forEach((t, k) => {
      if (index.bm25.holds(t, i)) held += weights[k]!;
    });
    return Math.min(1, held / queryWeight);
  };
  const vectorRelevance = (i: number) => (cosines && index.hasVector[i] ? Math.max(0, cosines[i]!) : 0);
  // A half that cannot speak (no query vector / no query term, or switched off) leaves the relevance to the other.
  const relevanceOf = (i: number) =>
    !cosines ? keywordRelevance(i) : queryTerms.length === 0 ? vectorRelevance(i) : combineRelevance(keywordRelevance(i), vectorRelevance(i));

  // ---- best first, near-duplicates of a better chunk dropped
  const ranked = [...fused.keys()].sort((a, b) => fused.get(b)! - fused.get(a)! || a - b);
  const kept: number[] = [];
  for (const i of ranked) {
    if (kept.length >= limit) break;
    if (kept.some((j) => isNearDuplicate(index, i, j))) continue;
    kept.push(i);
  }
  return kept.map((i) => ({ chunk: index.chunks[i]!, score: round(fused.get(i)!), relevance: round(relevanceOf(i)) }));
}

/**
 * One relevance from the two absolute halves, the gate of an answer (the agent's minRelevance).
 * Keyword = the weight of the question's distinct terms the chunk holds / the weight of all of them,
 * capped at RELEVANCE_KEY_WORDS: "the chunk holds the question's key words". The weights are a fixed
 * prior of the language (weightOfTerm: a topic word 1, a weak word or a number a quarter), not the
 * index's idf: with idf, the same files scored lower when an agent held one business alone (its own
 * words are common in its own files) than beside other businesses' documents, and an agent with
 * one business and a handful of files — the usual set-up — refused questions its files answer
 * (issue 28). Vector = the cosine as is (negative → 0).
 *
 * The gate only has to tell "retrieval found nothing related" (no key word of the question in the
 * chunk, and a low cosine): whether related passages hold the answer is the model's call (the
 * runtime tells it to answer only from them and to say when they do not: prompt.ts UNANSWERED).
 */
export function combineRelevance(keyword: number, vector: number): number {
  return RELEVANCE_KEYWORD_WEIGHT * keyword + (1 - RELEVANCE_KEYWORD_WEIGHT) * vector;
}
/**
 * A question names its topic in one or two words; the rest is the customer's situation ("mi hijo
 * tiene 15 años, ¿puede ir solo a la cita?"). So the keyword half is full once the chunk holds two
 * topic words' weight, and a long question is not diluted by its many words.
 */
export const RELEVANCE_KEY_WORDS = 2;
/**
 * 0.8 keyword + 0.2 cosine: a chunk holding one of the question's topic words scores at least 0.4,
 * above the default minRelevance 0.35 whatever the cosine, and weak words alone (0.1 each) never
 * reach it. Measured on the graded and held-out sets (bench-knowledge-eval --no-blind, local
 * embedding): no answerable question refused, on one-business agents and on the mixed agent alike.
 */
export const RELEVANCE_KEYWORD_WEIGHT = 0.8;

/**
 * Near-duplicates: the same passage in another format (PDF vs DOCX vs TXT of one document) or on
 * another page. Two chunks are near-duplicates when the word 3-shingles of the smaller one are
 * contained in the other at ≥ NEAR_DUPLICATE_CONTAINMENT (containment rather than Jaccard: chunk
 * boundaries differ between formats, so one chunk is often a shifted part of the other). 0.4 measured
 * on the graded set: the same passage from another format scores 0.49–1.0, different sections of one
 * document ≤ 0.29 (they share heading words), passages of different documents ≤ 0.16.
 */
export const NEAR_DUPLICATE_CONTAINMENT = 0.4;

/** Below this cosine two chunks cannot be near-duplicates: their texts are not compared (keeps the check off the words on most pairs). */
const DUPLICATE_MIN_COSINE = 0.3;

function isNearDuplicate(index: AgentIndex, a: number, b: number): boolean {
  if (index.hasVector[a] && index.hasVector[b]) {
    const { dims, matrix } = index;
    if (dot(matrix, a * dims, matrix.subarray(b * dims, (b + 1) * dims), dims) < DUPLICATE_MIN_COSINE) return false;
  }
  const sa = shinglesOf(index, a);
  const sb = shinglesOf(index, b);
  const [small, large] = sa.size <= sb.size ? [sa, sb] : [sb, sa];
  if (small.size === 0) return false;
  let shared = 0;
  for (const s of small) if (large.has(s)) shared++;
  // Too short to judge by overlap ("big 0" vs "big 1"): only the same words count.
  if (small.size < 3) return shared === small.size && small.size === large.size;
  return shared / small.size >= NEAR_DUPLICATE_CONTAINMENT;
}

/** Word 3-shingles of a chunk's text (its words themselves when it has fewer than 3), made on demand once per index. */
const shingleCache = new WeakMap<AgentIndex, Map<number, Set<string>>>();
function shinglesOf(index: AgentIndex, i: number): Set<string> {
  let byChunk = shingleCache.get(index);
  if (!byChunk) shingleCache.set(index, (byChunk = new Map()));
  let set = byChunk.get(i);
  if (!set) {
    const terms = analyse(index.chunks[i]!.text, index.language);
    set = new Set(terms.length < 3 ? terms : terms.slice(2).map((t, k) => `${terms[k]} ${terms[k + 1]} ${t}`));
    byChunk.set(i, set);
  }
  return set;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

function* rowsWithVectors(index: AgentIndex): Generator<number> {
  for (let i = 0; i < index.chunks.length; i++) if (index.hasVector[i]) yield i;
}

export interface RetrieverOptions {
  /** Upper bound of the chunks kept across cached agents (≈ 8 KB each with a 1,536-d vector). */
  maxCachedChunks: number;
  /** Vector length of the index (EMBEDDING_DIMENSIONS). */
  dims: number;
  /**
   * Compact index snapshots (snapshot.ts): a cache miss tries one GET first; without one (or
   * with an unusable one) the chunks are loaded and the snapshot is written for the next cold start.
   */
  snapshots?: IndexSnapshotStore;
  /** A snapshot that could not be read or written (the search itself goes on). */
  onSnapshotError?: (message: string, error: unknown) => void;
}

interface CacheEntry {
  /** The knowledgeVersion the index holds (at least the one asked for: a snapshot may be newer). */
  version: number;
  language: KnowledgeLanguage;
  index: AgentIndex;
}

/** KnowledgeRetriever over a ChunkStore with the per-warm-Lambda index cache. */
export class CachedKnowledgeRetriever implements KnowledgeRetriever {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly loading = new Map<string, { version: number; language: KnowledgeLanguage; promise: Promise<{ index: AgentIndex; version: number }> }>();
  private cachedChunks = 0;
  private readonly options: RetrieverOptions;
  /** How many times an index was built (observable for tests and logs). */
  builds = 0;
  /** How many indexes came from a snapshot rather than the chunk store. */
  snapshotLoads = 0;
  /** Snapshot writes started on the fallback path, not awaited by the search. */
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly store: Pick<ChunkStore, 'loadAgent'>,
    options: Partial<RetrieverOptions> = {},
  ) {
    this.options = { maxCachedChunks: 20_000, dims: EMBEDDING_DIMENSIONS, ...options };
  }

  async search(agent: AgentKnowledgeRef, query: string, queryVector: Float32Array | null, limit: number): Promise<RetrievedChunk[]> {
    const index = await this.indexFor(agent);
    return searchIndex(index, query, queryVector, limit);
  }

  /** Drops an agent's cached index (e.g. after deleting the agent in the same Lambda). */
  forget(userId: string, agentId: string): void {
    const key = cacheKey(userId, agentId);
    const entry = this.cache.get(key);
    if (entry) this.evict(key, entry);
  }

  /** Agents and chunks currently cached. */
  get stats(): { agents: number; chunks: number } {
    return { agents: this.cache.size, chunks: this.cachedChunks };
  }

  /** Resolves once the snapshot writes started so far have ended (tests; a Lambda need not wait). */
  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  private async indexFor(agent: AgentKnowledgeRef): Promise<AgentIndex> {
    const key = cacheKey(agent.userId, agent.agentId);
    const hit = this.cache.get(key);
    // A newer index answers an older version too (versions only grow; a snapshot can be ahead of the caller's agent read).
    if (hit && hit.version >= agent.knowledgeVersion && hit.language === agent.language) {
      // Re-insert: Map order is the LRU order.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit.index;
    }
    const pending = this.loading.get(key);
    if (pending && pending.version === agent.knowledgeVersion && pending.language === agent.language) return (await pending.promise).index;

    const promise = this.load(agent);
    this.loading.set(key, { version: agent.knowledgeVersion, language: agent.language, promise });
    try {
      const { index, version } = await promise;
      this.builds++;
      const current = this.cache.get(key);
      // A slower load of an older version must not replace a newer one.
      if (!current || current.version <= version) {
        if (current) this.evict(key, current);
        this.cache.set(key, { version, language: agent.language, index });
        this.cachedChunks += index.chunks.length;
        this.trim(key);
      }
      return index;
    } finally {
      if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
    }
  }

  /** The snapshot when there is a usable one, else the chunks (and a snapshot written for next time). */
  private async load(agent: AgentKnowledgeRef): Promise<{ index: AgentIndex; version: number }> {
    const { snapshots, dims } = this.options;
    let newerSnapshot = false;
    if (snapshots) {
      const bytes = await snapshots.get(agent).catch((error: unknown) => {
        this.options.onSnapshotError?.('Reading the knowledge index snapshot failed', error);
        return null;
      });
      const decoded = bytes ? decodeSnapshot(bytes, { agentId: agent.agentId, language: agent.language, dims }) : null;
      if (decoded && decoded.knowledgeVersion >= agent.knowledgeVersion) {
        this.snapshotLoads++;
        return { index: decoded.index, version: decoded.knowledgeVersion };
      }
      newerSnapshot = decoded !== null && decoded.knowledgeVersion > agent.knowledgeVersion;
    }
    const chunks = await this.store.loadAgent(agent.userId, agent.agentId);
    const index = buildAgentIndex(chunks, dims, agent.language);
    // The load is at least as new as the version asked for, so the snapshot may carry its label.
    if (snapshots && !newerSnapshot) this.writeSnapshot(snapshots, agent, index);
    return { index, version: agent.knowledgeVersion };
  }

  /** Best-effort and not awaited by the search: the answer does not wait for S3. */
  private writeSnapshot(snapshots: IndexSnapshotStore, agent: AgentKnowledgeRef, index: AgentIndex): void {
    const write = (async () => {
      // After the current task: encoding copies the whole index, the answer goes first.
      await new Promise((resolve) => setTimeout(resolve, 0));
      await snapshots.put(agent, encodeSnapshot(index, agent));
    })().catch((error: unknown) => this.options.onSnapshotError?.('Writing the knowledge index snapshot failed', error));
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }

  private evict(key: string, entry: CacheEntry): void {
    this.cache.delete(key);
    this.cachedChunks -= entry.index.chunks.length;
  }

  /** Evicts least recently used agents (never `keep`) while over the bound. */
  private trim(keep: string): void {
    for (const [key, entry] of this.cache) {
      if (this.cachedChunks <= this.options.maxCachedChunks) return;
      if (key !== keep) this.evict(key, entry);
    }
    // Only `keep` is left and it alone is over the bound: serve it this time, do not keep it.
    const kept = this.cache.get(keep);
    if (kept && this.cachedChunks > this.options.maxCachedChunks) this.evict(keep, kept);
  }
}

const cacheKey = (userId: string, agentId: string) => `${userId}/${agentId}`;
