import { describe, expect, it } from 'vitest';
import type { AgentKnowledgeRef, ChunkStore, KnowledgeChunk } from '../../../src/domain/knowledge/ports.js';
import { buildAgentIndex, CachedKnowledgeRetriever, combineRelevance, KEYWORD_WEIGHT, searchIndex, VECTOR_WEIGHT } from '../../../src/domain/knowledge/retrieval.js';
import { tokenize } from '../../../src/domain/knowledge/text.js';

const DIMS = 8;
const unit = (i: number, dims = DIMS) => {
  const v = new Float32Array(dims);
  v[i] = 1;
  return v;
};
const mix = (a: Float32Array, b: Float32Array, wa: number) => a.map((x, i) => wa * x + (1 - wa) * b[i]!);

let seq = 0;
function chunk(text: string, vector: Float32Array | null, source = 'prices.pdf'): KnowledgeChunk {
  return { agentId: 'a1', sourceKind: 'file', sourceId: `f-${source}`, sourceName: source, index: seq++, text, page: null, headings: [], vector };
}

/** Hashed bag of words (what the fake OpenAI server does): texts sharing words get close vectors. */
function hashedEmbedding(text: string, dims = 1536): Float32Array {
  const v = new Float32Array(dims);
  for (const t of tokenize(text)) {
    let h = 2166136261;
    for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619);
    v[(h >>> 0) % dims]! += 1;
  }
  return v;
}

describe('searchIndex: keyword half', () => {
  const chunks = [
    chunk('Teeth whitening costs $420 per session.', null),
    chunk('A dental implant with a crown costs $3,200.', null),
    chunk('We are open Monday to Friday from 8 to 18.', null, 'hours.txt'),
  ];
  const index = buildAgentIndex(chunks, DIMS);

  it('ranks by BM25 alone when there is no query vector, with source names, best first, limited', () => {
    const results = searchIndex(index, 'How much is a dental implant?', null, 5);
    expect(results.map((r) => r.chunk.text)).toEqual(['A dental implant with a crown costs $3,200.']);
    expect(results[0]!.chunk.sourceName).toBe('prices.pdf');
    expect(results[0]!.score).toBe(1);
  });

  it('returns only chunks holding a query word', () => {
    expect(searchIndex(index, 'parking', null, 5)).toEqual([]);
    expect(searchIndex(index, 'costs', null, 1)).toHaveLength(1);
    expect(searchIndex(index, 'costs', null, 5)).toHaveLength(2);
  });

  it('finds accented text with an unaccented query and the other way round', () => {
    const es = buildAgentIndex([chunk('La garantía de los electrodomésticos es de 24 meses.', null, 'garantia.txt')], DIMS);
    expect(searchIndex(es, 'garantia electrodomesticos', null, 3)).toHaveLength(1);
    expect(searchIndex(es, 'GARANTÍA', null, 3)).toHaveLength(1);
  });
});

describe('searchIndex: hybrid fusion', () => {
  it('finds a chunk by meaning alone when no query word occurs in it', () => {
    const index = buildAgentIndex([chunk('Bleaching session: $420.', unit(0)), chunk('Opening hours: 8 to 18.', unit(1))], DIMS);
    const results = searchIndex(index, 'how much does whitening cost', unit(0), 1);
    expect(results[0]!.chunk.text).toBe('Bleaching session: $420.');
  });

  it('weights the rescaled halves 0.4 vector + 0.6 keyword', () => {
    const index = buildAgentIndex(
      [
        chunk('alpha text', unit(0)), // best vector, no keyword
        chunk('beta keyword', unit(1)), // best keyword, worst vector
        chunk('gamma', mix(unit(0), unit(1), 0.5)), // in between, no keyword
      ],
      DIMS,
    );
    const results = searchIndex(index, 'keyword', unit(0), 3);
    const score = Object.fromEntries(results.map((r) => [r.chunk.text, r.score]));
    expect(score['alpha text']).toBeCloseTo(VECTOR_WEIGHT, 4);
    expect(score['beta keyword']).toBeCloseTo(KEYWORD_WEIGHT, 4);
    expect(score['gamma']).toBeGreaterThan(0);
    expect(score['gamma']).toBeLessThan(VECTOR_WEIGHT);
    expect(results[0]!.chunk.text).toBe('beta keyword');
  });

  it('does not stretch a tiny spread of cosines into a full-scale difference (the keyword half decides)', () => {
    const index = buildAgentIndex([chunk('about implants in general', mix(unit(0), unit(1), 0.51)), chunk('bone graft price', mix(unit(0), unit(1), 0.49))], DIMS);
    const results = searchIndex(index, 'bone graft', unit(0), 2);
    expect(results[0]!.chunk.text).toBe('bone graft price');
    expect(results[1]!.score).toBeCloseTo(VECTOR_WEIGHT, 4); // the best cosine still rescales to 1
  });

  it('puts a chunk that is good on both halves above chunks good on one', () => {
    const index = buildAgentIndex(
      [
        chunk('implant prices: single implant $3,200', mix(unit(0), unit(1), 0.8)),
        chunk('implant aftercare advice', unit(2)),
        chunk('a crown for a tooth', unit(0)),
      ],
      DIMS,
    );
    const results = searchIndex(index, 'implant price', unit(0), 3);
    expect(results[0]!.chunk.text).toBe('implant prices: single implant $3,200');
    for (const r of results) {
      expect(r.score).toBeGreaterThan(0);
      expect(r.score).toBeLessThanOrEqual(1);
    }
  });

  it('ranks chunks stored without vectors by keywords next to chunks with vectors', () => {
    const index = buildAgentIndex([chunk('deposit of 150 euros', null), chunk('helmets included', unit(3)), chunk('late fees', unit(4))], DIMS);
    const results = searchIndex(index, 'deposit', unit(3), 3);
    expect(results.map((r) => r.chunk.text)).toContain('deposit of 150 euros');
    expect(results.find((r) => r.chunk.text === 'deposit of 150 euros')!.score).toBeCloseTo(KEYWORD_WEIGHT, 4);
  });

  it('uses the keyword half alone when the agent has no vectors, and the vector half alone when no word matches', () => {
    const noVectors = buildAgentIndex([chunk('deposit of 150 euros', null), chunk('helmets included', null)], DIMS);
    expect(searchIndex(noVectors, 'deposit', unit(0), 3).map((r) => [r.chunk.text, r.score])).toEqual([['deposit of 150 euros', 1]]);

    const withVectors = buildAgentIndex([chunk('deposit of 150 euros', unit(0)), chunk('helmets included', unit(1))], DIMS);
    const results = searchIndex(withVectors, 'zzz', unit(1), 3);
    expect(results[0]!.chunk.text).toBe('helmets included');
    expect(results[0]!.score).toBe(1);
  });

  it('treats vectors of another length (or all zeros) as missing, and ignores a query vector of another length', () => {
    const index = buildAgentIndex([chunk('deposit', new Float32Array(3).fill(1)), chunk('helmet', new Float32Array(DIMS))], DIMS);
    expect(index.vectorCount).toBe(0);
    expect(index.chunks.every((c) => c.vector === null)).toBe(true);
    const ok = buildAgentIndex([chunk('deposit', unit(0))], DIMS);
    expect(searchIndex(ok, 'deposit', new Float32Array(5), 3)[0]!.score).toBe(1);
  });

  it('stores normalised vectors in one contiguous matrix, the chunks viewing their rows', () => {
    const index = buildAgentIndex([chunk('a', unit(0).map((x) => x * 5)), chunk('b', null), chunk('c', unit(2))], DIMS);
    expect(index.matrix).toHaveLength(3 * DIMS);
    expect(index.matrix[0]).toBeCloseTo(1, 6);
    expect(index.chunks[0]!.vector!.buffer).toBe(index.matrix.buffer);
    expect(index.chunks[1]!.vector).toBeNull();
    expect(index.matrix[2 * DIMS + 2]).toBe(1);
  });

  it('with hashed bag-of-words vectors (like the fake OpenAI server) finds the chunk of each fact', () => {
    const texts = [
      'In-office teeth whitening costs $420 per session.',
      'A single titanium dental implant with its porcelain crown costs $3,200.',
      'Wisdom tooth extraction costs $310 per tooth under local anaesthesia.',
      'Our reception answers the phone from 8:00 to 18:00, Monday to Friday.',
    ];
    const index = buildAgentIndex(texts.map((t) => chunk(t, hashedEmbedding(t))));
    const ask = (q: string) => searchIndex(index, q, hashedEmbedding(q), 1)[0]!.chunk.text;
    expect(ask('How much is a dental implant?')).toBe(texts[1]);
    expect(ask('When can I call reception?')).toBe(texts[3]);
    expect(ask('price of whitening')).toBe(texts[0]);
  });
});

describe('CachedKnowledgeRetriever', () => {
  function countingStore(byAgent: Record<string, KnowledgeChunk[]>) {
    const loads: string[] = [];
    const store: Pick<ChunkStore, 'loadAgent'> & { loads: string[] } = {
      loads,
      async loadAgent(userId: string, agentId: string) {
        loads.push(`${userId}/${agentId}`);
        await new Promise((r) => setTimeout(r, 5));
        return byAgent[agentId] ?? [];
      },
    };
    return store;
  }
  const ref = (agentId: string, knowledgeVersion: number, userId = 'u1'): AgentKnowledgeRef => ({ userId, agentId, knowledgeVersion, language: 'en' });

  it('builds an agent index once per knowledge version and rebuilds when the version changes', async () => {
    const data = { a1: [chunk('deposit of 150 euros', null)] };
    const store = countingStore(data);
    const retriever = new CachedKnowledgeRetriever(store, { dims: DIMS });

    await retriever.search(ref('a1', 1), 'deposit', null, 3);
    await retriever.search(ref('a1', 1), 'euros', null, 3);
    expect(store.loads).toEqual(['u1/a1']);

    data.a1 = [chunk('deposit of 200 euros', null)];
    const stale = await retriever.search(ref('a1', 1), 'deposit', null, 3);
    expect(stale[0]!.chunk.text).toBe('deposit of 150 euros');
    const fresh = await retriever.search(ref('a1', 2), 'deposit', null, 3);
    expect(fresh[0]!.chunk.text).toBe('deposit of 200 euros');
    expect(store.loads).toEqual(['u1/a1', 'u1/a1']);
  });

  it('keys the cache by user and agent', async () => {
    const store = countingStore({ a1: [chunk('x marks', null)] });
    const retriever = new CachedKnowledgeRetriever(store, { dims: DIMS });
    await retriever.search(ref('a1', 1, 'u1'), 'x', null, 1);
    await retriever.search(ref('a1', 1, 'u2'), 'x', null, 1);
    expect(store.loads).toEqual(['u1/a1', 'u2/a1']);
  });

  it('shares one load between concurrent searches of the same agent and version', async () => {
    const store = countingStore({ a1: [chunk('deposit', null)] });
    const retriever = new CachedKnowledgeRetriever(store, { dims: DIMS });
    const results = await Promise.all(Array.from({ length: 5 }, () => retriever.search(ref('a1', 3), 'deposit', null, 1)));
    expect(results.every((r) => r.length === 1)).toBe(true);
    expect(store.loads).toHaveLength(1);
  });

  it('evicts the least recently used agents beyond the chunk bound', async () => {
    const many = (n: number, word: string) => Array.from({ length: n }, (_, i) => chunk(`${word} ${i}`, null));
    const store = countingStore({ a1: many(4, 'one'), a2: many(4, 'two'), a3: many(4, 'three'), big: many(20, 'big') });
    const retriever = new CachedKnowledgeRetriever(store, { dims: DIMS, maxCachedChunks: 10 });

    await retriever.search(ref('a1', 1), 'one', null, 1);
    await retriever.search(ref('a2', 1), 'two', null, 1);
    await retriever.search(ref('a1', 1), 'one', null, 1); // a1 is now the most recent
    await retriever.search(ref('a3', 1), 'three', null, 1); // 12 > 10: evicts a2
    expect(retriever.stats).toEqual({ agents: 2, chunks: 8 });
    await retriever.search(ref('a1', 1), 'one', null, 1);
    expect(store.loads.filter((l) => l === 'u1/a1')).toHaveLength(1);
    await retriever.search(ref('a2', 1), 'two', null, 1);
    expect(store.loads.filter((l) => l === 'u1/a2')).toHaveLength(2);

    // An agent larger than the bound is served but not kept.
    expect(await retriever.search(ref('big', 1), 'big', null, 2)).toHaveLength(2);
    expect(retriever.stats.chunks).toBeLessThanOrEqual(10);
    await retriever.search(ref('big', 1), 'big', null, 2);
    expect(store.loads.filter((l) => l === 'u1/big')).toHaveLength(2);
  });

  it('answers nothing for an agent without chunks', async () => {
    const retriever = new CachedKnowledgeRetriever(countingStore({}), { dims: DIMS });
    expect(await retriever.search(ref('none', 1), 'anything', unit(0), 5)).toEqual([]);
  });
});

describe('searchIndex: Spanish analysis, near-duplicates and absolute relevance', () => {
  const es = (text: string, source: string, headings: string[] = [], vector: Float32Array | null = null): KnowledgeChunk => ({
    ...chunk(text, vector, source),
    headings,
  });

  it('analyses chunks and queries in the agent language and indexes the heading path with the text', () => {
    const index = buildAgentIndex(
      [es('Viernes | 9:00–15:00\nSábados | 10:00–14:00', 'horario.pdf', ['Horario de verano']), es('Limpieza dental | 45 €', 'precios.pdf', ['Tarifas'])],
      DIMS,
      'es',
    );
    expect(index.language).toBe('es');
    expect(searchIndex(index, '¿abrís los sabado?', null, 1)[0]!.chunk.sourceName).toBe('horario.pdf');
    // Only the heading says "verano" / "tarifa".
    expect(searchIndex(index, 'verano', null, 1)[0]!.chunk.sourceName).toBe('horario.pdf');
    expect(searchIndex(index, 'tarifas', null, 1)[0]!.chunk.sourceName).toBe('precios.pdf');
  });

  it('drops the same passage from another format or page, so other documents reach the top results', () => {
    const policy = 'Las citas se pueden cancelar sin coste hasta 24 horas antes. Después se cobra una penalización de 20 € por cita cancelada.';
    const index = buildAgentIndex(
      [
        es(policy, 'politicas.pdf'),
        es(`Política de cancelación\n${policy}`, 'politicas.docx'),
        es(policy.replace('20 €', '20 euros'), 'politicas.txt'),
        es('Una cita de revisión cancelada con menos de 24 horas no se cobra a los menores.', 'menores.pdf'),
      ],
      DIMS,
      'es',
    );
    const results = searchIndex(index, '¿Me cobráis si cancelo la cita?', null, 3);
    expect(results.map((r) => r.chunk.sourceName).filter((n) => n.startsWith('politicas'))).toHaveLength(1);
    expect(results.map((r) => r.chunk.sourceName)).toContain('menores.pdf');
  });

  it('keeps chunks that merely share some words', () => {
    const index = buildAgentIndex(
      [es('Limpieza dental con ultrasonidos: 45 € por sesión.', 'a.pdf'), es('Blanqueamiento dental con férula: 250 € por tratamiento.', 'b.pdf')],
      DIMS,
      'es',
    );
    expect(searchIndex(index, 'precio dental', null, 3)).toHaveLength(2);
  });

  it('gives an absolute relevance that does not depend on the other chunks: 1 when the chunk holds the question\'s key words, ½ for one of two, ~0 for none', () => {
    const small = buildAgentIndex([es('Sábados | 10:00–14:00', 'horario.pdf', ['Horario']), es('Limpieza dental | 45 €', 'precios.pdf')], DIMS, 'es');
    const large = buildAgentIndex(
      [
        es('Sábados | 10:00–14:00', 'horario.pdf', ['Horario']),
        ...Array.from({ length: 30 }, (_, i) => es(`Tratamiento ${i} | ${i * 10} €`, `t${i}.pdf`)),
        es('Ortodoncia invisible | 3.000 €', 'orto.pdf'),
      ],
      DIMS,
      'es',
    );
    const relevances = [small, large].map((index) => {
      const hit = searchIndex(index, '¿Qué horario tenéis los sábados?', null, 1)[0]!;
      expect(hit.chunk.sourceName).toBe('horario.pdf');
      expect(hit.relevance).toBe(1);
      // "implantes de titanio" appear nowhere: the only match is "sábados", one key word of three —
      // related enough to pass the gate (counted against two key words), the model says whether it answers.
      const partial = searchIndex(index, '¿Hacéis implantes de titanio los sábados?', null, 1)[0]!;
      expect(partial.relevance).toBe(0.5);
      expect(partial.score).toBe(1); // the fused rank score stays relative
      expect(searchIndex(index, '¿Hacéis implantes de titanio?', unit(0), 1)[0]?.relevance ?? 0).toBeLessThan(0.05);
      return [hit.relevance, partial.relevance];
    });
    // 32 chunks beside it or one: the same passage, the same relevance (issue 28: a one-business agent).
    expect(relevances[0]).toEqual(relevances[1]);
  });

  it('meets a question worded in the customer vocabulary, and counts filler words and the customer\'s numbers a quarter', () => {
    const index = buildAgentIndex(
      [
        es('Hay un parking público a 50 metros con la primera hora gratis.', 'como-llegar.pdf', ['Cómo llegar']),
        es('Ortodoncia invisible: puedes pagarla en 12 meses sin intereses.', 'pagos.pdf', ['Formas de pago']),
        es('Los menores de 16 años vienen acompañados de un adulto.', 'condiciones.pdf', ['Menores']),
        es('Limpieza dental | 55 €', 'precios.pdf', ['Tarifas']),
      ],
      DIMS,
      'es',
    );
    const top = (q: string) => searchIndex(index, q, null, 1)[0]!;
    // No word of the question is in the passage: the rings make them one term.
    expect(top('¿Se puede aparcar cerca?').chunk.sourceName).toBe('como-llegar.pdf');
    expect(top('¿Se puede aparcar cerca?').relevance).toBeGreaterThanOrEqual(0.35);
    expect(top('¿Puedo pagar la ortodoncia a plazos?').chunk.sourceName).toBe('pagos.pdf');
    expect(top('Mi hijo tiene 15 años, ¿puede ir solo?').chunk.sourceName).toBe('condiciones.pdf');
    expect(top('Mi hijo tiene 15 años, ¿puede ir solo?').relevance).toBeGreaterThanOrEqual(0.35);
    // "normal" is missing from the passage but weighs a quarter; a missing topic word weighs a whole one.
    expect(top('¿Cuánto cuesta una limpieza normal?').relevance).toBe(1);
    expect(top('¿Cuánto cuesta un implante de titanio?').relevance).toBe(0.5);
    // The passage holds only a filler word ("clientes") of the question: nothing related, refused.
    expect(searchIndex(index, '¿Tenéis wifi para los clientes?', null, 1)[0]?.relevance ?? 0).toBeLessThan(0.35);
  });

  it('combines the halves into one relevance, each half alone when the other cannot speak', () => {
    const index = buildAgentIndex([es('depósito de 150 €', 'a.pdf', [], unit(0))], DIMS, 'es');
    const both = searchIndex(index, 'depósito', unit(0), 1)[0]!;
    expect(both.relevance).toBeCloseTo(combineRelevance(1, 1), 3);
    expect(searchIndex(index, 'depósito', null, 1)[0]!.relevance).toBeGreaterThan(0.5);
    expect(searchIndex(index, 'depósito', unit(0), 1, { mode: 'vector' })[0]!.relevance).toBe(1);
    expect(searchIndex(index, 'nada', mix(unit(0), unit(1), 0.5), 1)[0]!.relevance).toBeCloseTo(combineRelevance(0, Math.SQRT1_2), 3);
    expect(searchIndex(index, '¿y de eso qué?', mix(unit(0), unit(1), 0.5), 1)[0]!.relevance).toBeCloseTo(Math.SQRT1_2, 3);
  });
});
