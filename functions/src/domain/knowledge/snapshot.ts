/**
 * The compact index snapshot: one agent's search index (retrieval.ts AgentIndex) at one
 * knowledgeVersion and language as one binary object, so a cold function loads it with one GET
 * instead of reading thousands of chunk items from DynamoDB and tokenising them again.
 *
 * Layout (little-endian; every section starts on a 4-byte boundary):
 *
 *   "ADKI"  u32 format  u32 header bytes  header (UTF-8 JSON, padded)
 *   vectors    float32 × rows-with-a-vector × dims  (already L2-normalised, in chunk order)
 *   hasVector  u8 × n                               (padded)
 *   docLength  u32 × n                              BM25 document lengths
 *   offsets    u32 × (terms + 1)                    term i's postings = [offsets[i], offsets[i+1])
 *   docs       u32 × postings
 *   tfs        u16 × postings                       (padded)
 *
 * The header holds the format, knowledgeVersion, language, dims, the analysis fingerprint, the
 * BM25 terms and each chunk's metadata and text. Vectors stay float32: the same bytes as the
 * DynamoDB path, so a snapshot answers exactly what a load from DynamoDB answers (5,000 × 1,536-d
 * is 31 MB and still loads well under the 1 s target: npm run bench).
 *
 * Decoding validates everything (magic, format, lengths, ranges, types) and answers null for
 * anything else — a corrupt, truncated or other-version object is a missing snapshot, never a
 * crash. The analysis fingerprint (BM25 postings of a fixed probe text indexed by the current
 * code, with the customer vocabulary's lists) makes snapshots written by an older analysis
 * (stemmer, stop words, vocabulary, what is indexed) count as missing too, so they are rebuilt
 * rather than searched with mismatched tokens.
 */
import { createHash } from 'node:crypto';
import { Bm25Index, type Bm25Parts } from './bm25.js';
import type { AgentKnowledgeRef, ChunkStore, IndexSnapshotStore, KnowledgeChunk, KnowledgeLanguage, KnowledgeSourceKind } from './ports.js';
import { buildAgentIndex, type AgentIndex } from './retrieval.js';
import { createVectorMatrix } from './vector-scan.js';
import { VOCABULARY_SIGNATURE } from './vocabulary.js';

export const SNAPSHOT_FORMAT = 1;
const MAGIC = [0x41, 0x44, 0x4b, 0x49]; // "ADKI"
const PREFIX_BYTES = 12;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const KINDS: readonly KnowledgeSourceKind[] = ['file', 'url', 'entry'];

interface ChunkMeta {
  /** sourceKind, sourceId, sourceName, index, page, headings, text */
  k: KnowledgeSourceKind;
  s: string;
  n: string;
  i: number;
  p: number | null;
  h: string[];
  t: string;
}

interface Header {
  format: number;
  knowledgeVersion: number;
  language: KnowledgeLanguage;
  dims: number;
  analysis: string;
  count: number;
  vectorRows: number;
  postings: number;
  terms: string[];
  chunks: ChunkMeta[];
}

/** What a decoded snapshot gives the retriever. */
export interface DecodedSnapshot {
  knowledgeVersion: number;
  language: KnowledgeLanguage;
  index: AgentIndex;
}

// ---------------------------------------------------------------- analysis fingerprint

/** Spanish and English text with accents, plurals, verb forms, stop words, times and a table row. */
const PROBE: Record<KnowledgeLanguage, { headings: string[]; text: string }[]> = {
  es: [
    { headings: ['Horarios de atención', 'Sábados y festivos'], text: '¿Abrís los sábados? Viernes | 9:00–15:00. Las reservaciones se confirman por teléfono; los menús incluyen bebidas y cafés.' },
    { headings: ['Precios'], text: 'El corte de pelo cuesta 15 €. Garantía de dos años en todas las piezas. Envíos gratuitos desde 50 euros.' },
  ],
  en: [
    { headings: ['Opening hours', "Saturdays and holidays"], text: 'Are you open on Saturdays? Friday | 9:00–15:00. Bookings are confirmed by phone; the menus include drinks and coffees.' },
    { headings: ['Prices'], text: "A haircut costs $15. Two years' warranty on all parts. Free shipping from 50 dollars; policies apply." },
  ],
};

const fingerprints = new Map<string, string>();

/** A hash of the BM25 postings the current code builds for the probe text: it changes when the analysis does. */
export function analysisFingerprint(language: KnowledgeLanguage, dims: number): string {
  const key = `${language}/${dims}`;
  let fp = fingerprints.get(key);
  if (!fp) {
    const probe: KnowledgeChunk[] = PROBE[language].map((p, index) => ({
      agentId: 'probe',
      sourceKind: 'file',
      sourceId: 'probe',
      sourceName: 'probe.txt',
      index,
      text: p.text,
      page: index + 1,
      headings: p.headings,
      vector: null,
    }));
    const parts = buildAgentIndex(probe, dims, language).bm25.parts();
    const hash = createHash('sha256').update(JSON.stringify(parts.terms)).update(VOCABULARY_SIGNATURE);
    for (const a of [parts.offsets, parts.docs, parts.tfs, parts.docLength]) hash.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    fingerprints.set(key, (fp = hash.digest('hex').slice(0, 16)));
  }
  return fp;
}

// ---------------------------------------------------------------- encode

const align4 = (n: number) => (n + 3) & ~3;
const bytesOf = (a: Float32Array | Uint32Array | Uint16Array | Uint8Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** The snapshot of `index` (built for `ref.language`) labelled `ref.knowledgeVersion`. */
export function encodeSnapshot(index: AgentIndex, ref: Pick<AgentKnowledgeRef, 'knowledgeVersion' | 'language'>): Uint8Array {
  if (!LITTLE_ENDIAN) throw new Error('Index snapshots are little-endian only');
  const n = index.chunks.length;
  const { dims } = index;
  const parts = index.bm25.parts();
  const header: Header = {
    format: SNAPSHOT_FORMAT,
    knowledgeVersion: ref.knowledgeVersion,
    language: ref.language,
    dims,
    analysis: analysisFingerprint(ref.language, dims),
    count: n,
    vectorRows: index.vectorCount,
    postings: parts.docs.length,
    terms: parts.terms,
    chunks: index.chunks.map((c) => ({ k: c.sourceKind, s: c.sourceId, n: c.sourceName, i: c.index, p: c.page, h: c.headings, t: c.text })),
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const sizes = [
    index.vectorCount * dims * 4,
    n,
    n * 4,
    parts.offsets.byteLength,
    parts.docs.byteLength,
    parts.tfs.byteLength,
  ];
  const total = PREFIX_BYTES + align4(headerBytes.length) + sizes.reduce((sum, s) => sum + align4(s), 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  view.setUint32(4, SNAPSHOT_FORMAT, true);
  view.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, PREFIX_BYTES);
  let offset = PREFIX_BYTES + align4(headerBytes.length);
  const put = (bytes: Uint8Array) => {
    out.set(bytes, offset);
    offset += align4(bytes.length);
  };
  // Vectors: only the rows that have one, in chunk order.
  let row = 0;
  for (let i = 0; i < n; i++) {
    if (!index.hasVector[i]) continue;
    out.set(bytesOf(index.matrix.subarray(i * dims, (i + 1) * dims)), offset + row * dims * 4);
    row++;
  }
  offset += align4(sizes[0]!);
  put(index.hasVector);
  put(bytesOf(new Uint32Array(parts.docLength)));
  put(bytesOf(parts.offsets));
  put(bytesOf(parts.docs));
  put(bytesOf(parts.tfs));
  return out;
}

// ---------------------------------------------------------------- decode

const isInt = (x: unknown, min = 0): x is number => typeof x === 'number' && Number.isInteger(x) && x >= min;
const isStr = (x: unknown): x is string => typeof x === 'string';

function validHeader(h: unknown): h is Header {
  if (typeof h !== 'object' || h === null) return false;
  const x = h as Record<string, unknown>;
  return (
    x.format === SNAPSHOT_FORMAT &&
    isInt(x.knowledgeVersion) &&
    (x.language === 'es' || x.language === 'en') &&
    isInt(x.dims, 1) &&
    isStr(x.analysis) &&
    isInt(x.count) &&
    isInt(x.vectorRows) &&
    (x.vectorRows as number) <= (x.count as number) &&
    isInt(x.postings) &&
    Array.isArray(x.terms) &&
    x.terms.every(isStr) &&
    Array.isArray(x.chunks) &&
    x.chunks.length === x.count &&
    x.chunks.every(validChunk)
  );
}

function validChunk(c: unknown): c is ChunkMeta {
  if (typeof c !== 'object' || c === null) return false;
  const x = c as Record<string, unknown>;
  return (
    KINDS.includes(x.k as KnowledgeSourceKind) &&
    isStr(x.s) &&
    isStr(x.n) &&
    isInt(x.i) &&
    (x.p === null || isInt(x.p, 1)) &&
    Array.isArray(x.h) &&
    x.h.every(isStr) &&
    isStr(x.t)
  );
}

/**
 * The index held by `bytes`, or null when they are not a snapshot this code can use for
 * `expected` (another format, dims, language or analysis; truncated; inconsistent).
 */
export function decodeSnapshot(bytes: Uint8Array, expected: { agentId: string; language: KnowledgeLanguage; dims: number }): DecodedSnapshot | null {
  try {
    return decode(bytes, expected);
  } catch {
    // Malformed JSON, an allocation the lengths made impossible...: not a snapshot.
    return null;
  }
}

function decode(bytes: Uint8Array, expected: { agentId: string; language: KnowledgeLanguage; dims: number }): DecodedSnapshot | null {
  if (!LITTLE_ENDIAN || bytes.length < PREFIX_BYTES) return null;
  if (MAGIC.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(4, true) !== SNAPSHOT_FORMAT) return null;
  const headerLength = view.getUint32(8, true);
  if (PREFIX_BYTES + headerLength > bytes.length) return null;
  const header: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX_BYTES, PREFIX_BYTES + headerLength)));
  if (!validHeader(header)) return null;
  const { dims, count: n, vectorRows, postings, terms } = header;
  if (dims !== expected.dims || header.language !== expected.language || header.analysis !== analysisFingerprint(expected.language, dims)) return null;

  const sizes = [vectorRows * dims * 4, n, n * 4, (terms.length + 1) * 4, postings * 4, postings * 2];
  const starts: number[] = [];
  let offset = PREFIX_BYTES + align4(headerLength);
  for (const size of sizes) {
    starts.push(offset);
    offset += align4(size);
  }
  if (offset !== bytes.length) return null;
  // A copy of each section: aligned for its typed array and independent of the response buffer.
  const section = (i: number) => bytes.slice(starts[i]!, starts[i]! + sizes[i]!);

  const hasVector = section(1);
  let flagged = 0;
  for (const f of hasVector) {
    if (f > 1) return null;
    flagged += f;
  }
  if (flagged !== vectorRows) return null;
  const docLength = new Uint32Array(section(2).buffer);
  const offsets = new Uint32Array(section(3).buffer);
  const docs = new Uint32Array(section(4).buffer);
  const tfs = new Uint16Array(section(5).buffer);
  if (offsets[0] !== 0 || offsets[terms.length] !== postings) return null;
  for (let i = 0; i < terms.length; i++) if (offsets[i]! > offsets[i + 1]!) return null;
  for (const d of docs) if (d >= n) return null;
  if (new Set(terms).size !== terms.length) return null;

  // Vectors straight into the scan's matrix (WebAssembly memory where SIMD runs); rows without one stay zero.
  const vectors = createVectorMatrix(n, dims);
  const matrix = vectors.data;
  const dense = new Uint8Array(matrix.buffer, matrix.byteOffset, matrix.byteLength);
  const src = starts[0]!;
  if (vectorRows === n) {
    // Every chunk has a vector (the usual case): one copy.
    dense.set(bytes.subarray(src, src + sizes[0]!));
  } else {
    let row = 0;
    for (let i = 0; i < n; i++) {
      if (!hasVector[i]) continue;
      dense.set(bytes.subarray(src + row * dims * 4, src + (row + 1) * dims * 4), i * dims * 4);
      row++;
    }
  }
  const chunks: KnowledgeChunk[] = header.chunks.map((c, i) => ({
    agentId: expected.agentId,
    sourceKind: c.k,
    sourceId: c.s,
    sourceName: c.n,
    index: c.i,
    text: c.t,
    page: c.p,
    headings: c.h,
    vector: hasVector[i] ? matrix.subarray(i * dims, (i + 1) * dims) : null,
  }));
  const bm25 = Bm25Index.fromParts({ terms, offsets, docs, tfs, docLength } satisfies Bm25Parts);
  return {
    knowledgeVersion: header.knowledgeVersion,
    language: header.language,
    index: { chunks, language: header.language, dims, matrix, vectors, hasVector, vectorCount: vectorRows, bm25 },
  };
}

// ---------------------------------------------------------------- writing after a change

/**
 * Builds the agent's index from its chunks as they are now and stores its snapshot labelled
 * `ref.knowledgeVersion`. Call it AFTER the version was bumped: the load then holds at least
 * every change up to that version.
 */
export async function writeIndexSnapshot(
  deps: { chunks: Pick<ChunkStore, 'loadAgent'>; snapshots: IndexSnapshotStore; dims: number },
  ref: AgentKnowledgeRef,
): Promise<{ chunks: number; bytes: number }> {
  const chunks = await deps.chunks.loadAgent(ref.userId, ref.agentId);
  const bytes = encodeSnapshot(buildAgentIndex(chunks, deps.dims, ref.language), ref);
  await deps.snapshots.put(ref, bytes);
  return { chunks: chunks.length, bytes: bytes.length };
}
