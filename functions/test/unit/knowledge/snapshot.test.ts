import { describe, expect, it } from 'vitest';
import type { AgentKnowledgeRef, IndexSnapshotStore, KnowledgeChunk, KnowledgeLanguage } from '../../../src/domain/knowledge/ports.js';
import { buildAgentIndex, CachedKnowledgeRetriever, searchIndex, type AgentIndex } from '../../../src/domain/knowledge/retrieval.js';
import { decodeSnapshot, encodeSnapshot, writeIndexSnapshot } from '../../../src/domain/knowledge/snapshot.js';

const DIMS = 16;

/** A deterministic vector per text (words hashed into dims), so similar texts get close vectors. */
function embed(text: string): Float32Array {
  const v = new Float32Array(DIMS);
  for (const w of text.toLowerCase().split(/\P{L}+/u).filter(Boolean)) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    v[(h >>> 0) % DIMS]! += 1;
  }
  return v;
}

function chunk(text: string, i: number, extra: Partial<KnowledgeChunk> = {}): KnowledgeChunk {
  return { agentId: 'agent-1', sourceKind: 'file', sourceId: 'f1', sourceName: 'Horario y precios.pdf', index: i, text, page: null, headings: [], vector: embed(text), ...extra };
}

/** A Spanish hair salon's knowledge: table rows, headings, pages, an entry, a chunk without a vector. */
const CHUNKS: KnowledgeChunk[] = [
  chunk('Día | Horario\nLunes a jueves | 9:00–20:00\nViernes | 9:00–15:00\nSábados | 10:00–14:00', 0, { page: 1, headings: ['Horarios de atención'] }),
  chunk('Corte de pelo: 15 €. Tinte: 35 €. Mechas: 50 €. Los precios incluyen IVA.', 1, { page: 2, headings: ['Precios', 'Peluquería'] }),
  chunk('Las reservas se cancelan gratis hasta 24 horas antes; después se cobra el 50 %.', 2, { page: 3, headings: ['Política de cancelación'] }),
  chunk('Aparcamiento gratuito en la calle Mayor, a dos minutos del salón.', 3, { page: 3, headings: [], vector: null }),
  chunk('¿Hacéis tratamientos de keratina?\nSí, el alisado con keratina cuesta 80 € y dura unas tres horas.', 0, {
    sourceKind: 'entry',
    sourceId: 'e1',
    sourceName: '¿Hacéis tratamientos de keratina?',
  }),
  chunk('Opening hours in English: Monday to Friday 9 to 20.', 4, { sourceKind: 'url', sourceId: 'u1', sourceName: 'https://peluqueria.example/en', page: null }),
];

const QUERIES: [string, Float32Array | null][] = [
  ['¿y los sábados?', embed('sábados horario')],
  ['¿Cuánto cuesta un corte de pelo?', null],
  ['precio keratina', embed('keratina alisado precio')],
  ['aparcamiento', embed('aparcar coche')],
  ['zzz nada que ver', embed('nada')],
];

const ref = (over: Partial<AgentKnowledgeRef> = {}): AgentKnowledgeRef => ({ userId: 'user-1', agentId: 'agent-1', knowledgeVersion: 3, language: 'es', ...over });

/** What a search answers, with vectors as plain numbers (views into different matrices otherwise). */
const answers = (index: AgentIndex) =>
  QUERIES.map(([q, v]) => searchIndex(index, q, v, 5).map((r) => ({ ...r, chunk: { ...r.chunk, vector: r.chunk.vector && Array.from(r.chunk.vector) } })));

const expected = { agentId: 'agent-1', language: 'es' as KnowledgeLanguage, dims: DIMS };

describe('index snapshot: encode → decode', () => {
  const index = buildAgentIndex(CHUNKS, DIMS, 'es');
  const bytes = encodeSnapshot(index, ref());

  it('gives back an index that answers every search exactly like the one it was made from', () => {
    const decoded = decodeSnapshot(bytes, expected);
    expect(decoded).not.toBeNull();
    expect(decoded!.knowledgeVersion).toBe(3);
    expect(decoded!.language).toBe('es');
    expect(answers(decoded!.index)).toEqual(answers(index));
    // Sanity: the searches do find things (the comparison is not between two empty lists).
    expect(answers(index)[0]![0]!.chunk.text).toContain('Sábados | 10:00–14:00');
  });

  it('keeps every chunk field: source, page, heading path, text with accents, and which chunks have no vector', () => {
    const decoded = decodeSnapshot(bytes, expected)!.index;
    expect(decoded.chunks.map(({ vector, ...rest }) => ({ ...rest, hasVector: vector !== null }))).toEqual(
      index.chunks.map(({ vector, ...rest }) => ({ ...rest, hasVector: vector !== null })),
    );
    expect(decoded.chunks[4]).toMatchObject({ sourceKind: 'entry', sourceName: '¿Hacéis tratamientos de keratina?' });
    expect(decoded.vectorCount).toBe(5);
    expect(decoded.bm25.vocabularySize).toBe(index.bm25.vocabularySize);
  });

  it('round-trips an agent without chunks and one whose chunks have no vectors', () => {
    const empty = decodeSnapshot(encodeSnapshot(buildAgentIndex([], DIMS, 'es'), ref()), expected);
    expect(empty!.index.chunks).toEqual([]);
    const keywordsOnly = buildAgentIndex(CHUNKS.map((c) => ({ ...c, vector: null })), DIMS, 'es');
    const decoded = decodeSnapshot(encodeSnapshot(keywordsOnly, ref()), expected)!;
    expect(decoded.index.vectorCount).toBe(0);
    expect(answers(decoded.index)).toEqual(answers(keywordsOnly));
  });
});

describe('index snapshot: what decodes to null (a missing snapshot), never a throw', () => {
  const bytes = encodeSnapshot(buildAgentIndex(CHUNKS, DIMS, 'es'), ref());

  it('truncated at any length', () => {
    for (let cut = 0; cut < bytes.length; cut += Math.max(1, Math.floor(bytes.length / 200))) {
      expect(decodeSnapshot(bytes.subarray(0, cut), expected)).toBeNull();
    }
    expect(decodeSnapshot(bytes.subarray(0, bytes.length - 1), expected)).toBeNull();
  });

  it('with bytes appended, random bytes or another file', () => {
    expect(decodeSnapshot(new Uint8Array([...bytes, 0, 0, 0, 0]), expected)).toBeNull();
    const random = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) & 0xff);
    expect(decodeSnapshot(random, expected)).toBeNull();
    expect(decodeSnapshot(new TextEncoder().encode('%PDF-1.7 not a snapshot'), expected)).toBeNull();
    expect(decodeSnapshot(new Uint8Array(0), expected)).toBeNull();
  });

  it('of another format version, language or vector length', () => {
    const otherFormat = bytes.slice();
    new DataView(otherFormat.buffer).setUint32(4, 2, true);
    expect(decodeSnapshot(otherFormat, expected)).toBeNull();
    expect(decodeSnapshot(bytes, { ...expected, language: 'en' })).toBeNull();
    expect(decodeSnapshot(bytes, { ...expected, dims: 1536 })).toBeNull();
  });

  it('written by another analysis (its fingerprint differs) or with a damaged header', () => {
    const text = new TextDecoder().decode(bytes);
    const fingerprint = /"analysis":"([0-9a-f]+)"/.exec(text)![1]!;
    const patch = (from: string, to: string) => {
      expect(to).toHaveLength(from.length);
      const at = text.indexOf(from);
      const copy = bytes.slice();
      copy.set(new TextEncoder().encode(to), new TextEncoder().encode(text.slice(0, at)).length);
      return copy;
    };
    expect(decodeSnapshot(patch(fingerprint, '0'.repeat(fingerprint.length)), expected)).toBeNull();
    expect(decodeSnapshot(patch('"format":1', '"format":9'), expected)).toBeNull();
    expect(decodeSnapshot(patch('"count":6', '"count":7'), expected)).toBeNull();
    expect(decodeSnapshot(patch('"chunks":[{', '"chunks":[['), expected)).toBeNull();
  });

  it('whose postings point past the last chunk', () => {
    const copy = bytes.slice();
    // The docs section precedes the tfs: set the first doc id of the first term out of range.
    const text = new TextDecoder().decode(bytes);
    const postings = Number(/"postings":(\d+)/.exec(text)![1]);
    const tfsBytes = (postings * 2 + 3) & ~3;
    const docsStart = bytes.length - tfsBytes - postings * 4;
    new DataView(copy.buffer).setUint32(docsStart, 99, true);
    expect(decodeSnapshot(copy, expected)).toBeNull();
  });
});

/** An in-memory snapshot store keyed as the S3 adapter keys (tenant, agent, language). */
class MemorySnapshots implements IndexSnapshotStore {
  readonly objects = new Map<string, Uint8Array>();
  gets = 0;
  puts = 0;
  failGet: Error | null = null;
  key = (r: AgentKnowledgeRef) => `${r.userId}/${r.agentId}/${r.language}`;
  async get(r: AgentKnowledgeRef) {
    this.gets++;
    if (this.failGet) throw this.failGet;
    return this.objects.get(this.key(r)) ?? null;
  }
  async put(r: AgentKnowledgeRef, bytes: Uint8Array) {
    this.puts++;
    this.objects.set(this.key(r), bytes);
  }
}

/** A chunk store counting its loads (a cold function that reads DynamoDB loads once). */
function countingStore(chunks: KnowledgeChunk[] = CHUNKS) {
  const store = { loads: 0, loadAgent: async () => (store.loads++, chunks.map((c) => ({ ...c }))) };
  return store;
}

describe('CachedKnowledgeRetriever with index snapshots', () => {
  it('a cold retriever answers from the snapshot without loading any chunk, exactly as the chunk path does', async () => {
    const snapshots = new MemorySnapshots();
    await writeIndexSnapshot({ chunks: countingStore(), snapshots, dims: DIMS }, ref());
    const fromChunks = new CachedKnowledgeRetriever(countingStore(), { dims: DIMS });
    const store = countingStore();
    const cold = new CachedKnowledgeRetriever(store, { dims: DIMS, snapshots });

    for (const [q, v] of QUERIES) {
      const a = await cold.search(ref(), q, v, 4);
      const b = await fromChunks.search(ref(), q, v, 4);
      expect(a.map((r) => [r.chunk.sourceId, r.chunk.index, r.score, r.relevance])).toEqual(b.map((r) => [r.chunk.sourceId, r.chunk.index, r.score, r.relevance]));
    }
    expect(store.loads).toBe(0);
    expect(cold.snapshotLoads).toBe(1);
    expect(snapshots.gets).toBe(1);
  });

  it('without a snapshot, loads the chunks, answers, and writes the snapshot the next cold start uses', async () => {
    const snapshots = new MemorySnapshots();
    const store = countingStore();
    const first = new CachedKnowledgeRetriever(store, { dims: DIMS, snapshots });
    const results = await first.search(ref(), '¿y los sábados?', null, 3);
    expect(results[0]!.chunk.text).toContain('Sábados');
    await first.settled();
    expect(store.loads).toBe(1);
    expect(snapshots.puts).toBe(1);

    const next = countingStore();
    const cold = new CachedKnowledgeRetriever(next, { dims: DIMS, snapshots });
    expect((await cold.search(ref(), '¿y los sábados?', null, 3)).map((r) => r.chunk.text)).toEqual(results.map((r) => r.chunk.text));
    expect(next.loads).toBe(0);
  });

  it('falls back to the chunks and rewrites a corrupt, older or unreadable snapshot (the error is reported, the search answers)', async () => {
    const snapshots = new MemorySnapshots();
    const errors: string[] = [];
    snapshots.objects.set('user-1/agent-1/es', new Uint8Array([1, 2, 3]));
    const store = countingStore();
    const retriever = new CachedKnowledgeRetriever(store, { dims: DIMS, snapshots, onSnapshotError: (m) => errors.push(m) });
    expect(await retriever.search(ref(), 'keratina', null, 1)).toHaveLength(1);
    await retriever.settled();
    expect(store.loads).toBe(1);
    expect(decodeSnapshot(snapshots.objects.get('user-1/agent-1/es')!, expected)?.knowledgeVersion).toBe(3);

    // Version 4 asked, the snapshot holds 3: not good enough.
    const newer = countingStore();
    const r4 = new CachedKnowledgeRetriever(newer, { dims: DIMS, snapshots });
    await r4.search(ref({ knowledgeVersion: 4 }), 'keratina', null, 1);
    await r4.settled();
    expect(newer.loads).toBe(1);
    expect(decodeSnapshot(snapshots.objects.get('user-1/agent-1/es')!, expected)?.knowledgeVersion).toBe(4);

    snapshots.failGet = new Error('S3 answered 500');
    const failing = countingStore();
    const r5 = new CachedKnowledgeRetriever(failing, { dims: DIMS, snapshots, onSnapshotError: (m) => errors.push(m) });
    expect(await r5.search(ref({ knowledgeVersion: 4 }), 'keratina', null, 1)).toHaveLength(1);
    expect(failing.loads).toBe(1);
    expect(errors).toEqual(['Reading the knowledge index snapshot failed']);
  });

  it('uses a snapshot newer than the version asked for, does not overwrite it with an older one, and serves that version from its cache', async () => {
    const snapshots = new MemorySnapshots();
    await writeIndexSnapshot({ chunks: countingStore(), snapshots, dims: DIMS }, ref({ knowledgeVersion: 7 }));
    const store = countingStore();
    const retriever = new CachedKnowledgeRetriever(store, { dims: DIMS, snapshots });
    await retriever.search(ref({ knowledgeVersion: 6 }), 'tinte', null, 1);
    await retriever.search(ref({ knowledgeVersion: 7 }), 'tinte', null, 1);
    await retriever.settled();
    expect(store.loads).toBe(0);
    expect(retriever.builds).toBe(1);
    expect(snapshots.puts).toBe(1);
  });

  it("an agent's index in another language is another snapshot, and a cached index of one language does not answer the other", async () => {
    const snapshots = new MemorySnapshots();
    await writeIndexSnapshot({ chunks: countingStore(), snapshots, dims: DIMS }, ref({ language: 'es' }));
    const store = countingStore();
    const retriever = new CachedKnowledgeRetriever(store, { dims: DIMS, snapshots });
    await retriever.search(ref({ language: 'es' }), 'tinte', null, 1);
    expect(store.loads).toBe(0);
    await retriever.search(ref({ language: 'en' }), 'opening hours', null, 1);
    await retriever.settled();
    expect(store.loads).toBe(1);
    expect([...snapshots.objects.keys()].sort()).toEqual(['user-1/agent-1/en', 'user-1/agent-1/es']);
  });
});
