/**
 * Passage-level coverage (coverage.ts, used by retrieval.ts's absolute relevance): the question's
 * key words count fully when one sentence or one table row (with its heading path and header line)
 * holds them, less when they are scattered over unrelated sentences of the chunk.
 */
import { describe, expect, it } from 'vitest';
import { analyse } from '../../../src/domain/knowledge/analysis.js';
import { bestPassageShare, passageTerms } from '../../../src/domain/knowledge/coverage.js';
import type { KnowledgeChunk } from '../../../src/domain/knowledge/ports.js';
import { buildAgentIndex, combineCoverage, combineRelevance, PASSAGE_COVERAGE_WEIGHT, searchIndex } from '../../../src/domain/knowledge/retrieval.js';

let seq = 0;
function chunk(text: string, headings: string[] = [], vector: Float32Array | null = null): KnowledgeChunk {
  return { agentId: 'a1', sourceKind: 'file', sourceId: 'f1', sourceName: 'info.pdf', index: seq++, text, page: null, headings, vector };
}
const relevanceOf = (index: ReturnType<typeof buildAgentIndex>, query: string, text: string) =>
  searchIndex(index, query, null, 10).find((r) => r.chunk.text === text)?.relevance ?? 0;

describe('passage-level coverage in the absolute relevance', () => {
  const together = 'Tenemos menú infantil para los niños de hasta 10 años. Los domingos hay paella valenciana.';
  const scattered = 'El menú del día incluye primero, segundo y postre. Los niños son bienvenidos en la terraza.';
  const index = buildAgentIndex([chunk(together), chunk(scattered), chunk('Abrimos de martes a domingo.')], 8, 'es');

  it('scores a chunk whose key words are scattered over unrelated sentences below one holding them in one sentence', () => {
    // Both chunks hold "menú" and "niños": the whole-chunk share is 1 for each.
    const one = relevanceOf(index, '¿Tenéis menú para niños?', together);
    const apart = relevanceOf(index, '¿Tenéis menú para niños?', scattered);
    expect(one).toBe(1);
    expect(apart).toBeLessThan(one);
    // Each sentence holds one of the two words (equal weights): the passage share is a half.
    expect(apart).toBeCloseTo(combineCoverage(1, 0.5), 3);
  });

  it('blends the passage share with the whole-chunk share (the share of one passage never exceeds the chunk’s)', () => {
    expect(combineCoverage(1, 1)).toBe(1);
    expect(combineCoverage(0.6, 0.2)).toBeCloseTo((1 - PASSAGE_COVERAGE_WEIGHT) * 0.6 + PASSAGE_COVERAGE_WEIGHT * 0.2, 6);
    // With a query vector, the keyword half carries the blended coverage.
    const v = new Float32Array(8);
    v[0] = 1;
    const withVectors = buildAgentIndex([chunk(scattered, [], v)], 8, 'es');
    expect(searchIndex(withVectors, '¿Tenéis menú para niños?', v, 1)[0]!.relevance).toBeCloseTo(combineRelevance(combineCoverage(1, 0.5), 1), 3);
  });

  it('reads a table row with its header line and heading path: the row holding the answer keeps the full share', () => {
    const table = 'Guided tours\nTour | Meeting point\nOld Town | Plaza de la Reina\nAlbufera | Shop door';
    const tours = buildAgentIndex([chunk(table, ['Guided tours']), chunk('Tours run with a minimum of 4 people.')], 8, 'en');
    // "meeting point" is only in the header, "Albufera" only in its row.
    expect(relevanceOf(tours, 'meeting point of the Albufera tour', table)).toBe(1);
  });
});

describe('passageTerms', () => {
  const terms = (text: string, language: 'es' | 'en' = 'en') => new Set(analyse(text, language));
  const has = (sets: Set<string>[], text: string, language: 'es' | 'en' = 'en') => sets.some((s) => [...terms(text, language)].every((t) => s.has(t)));

  it('gives each sentence of a line its own passage, with the heading path', () => {
    const sets = passageTerms({ text: 'Deposit\nWe block 100 € per bike. It is released on return.', headings: ['Rental terms', 'Deposit'] }, 'en');
    expect(has(sets, 'rental terms deposit block bike')).toBe(true);
    expect(has(sets, 'rental terms released return')).toBe(true);
    expect(has(sets, 'block released')).toBe(false);
  });

  it('joins a narrow table’s header line to each of its rows, and only to its own table', () => {
    const sets = passageTerms({ text: 'Plato | Precio\nCroquetas caseras | 9,00 €\nTarta de queso | 6,00 €\n\nLa cocina cierra pronto.', headings: [] }, 'es');
    expect(has(sets, 'plato croquetas caseras 9,00 €', 'es')).toBe(true);
    expect(has(sets, 'plato tarta queso', 'es')).toBe(true);
    expect(has(sets, 'plato cocina', 'es')).toBe(false);
  });

  it('takes no header from a wide table, whose rows label every cell ("Gluten: X"), nor from a row with numbers', () => {
    const wide = passageTerms({ text: 'Salmorejo cordobés | Gluten: X | Huevo: X\nArroz con leche | Lácteos: X', headings: [] }, 'es');
    expect(has(wide, 'salmorejo arroz', 'es')).toBe(false);
    const plain = passageTerms({ text: 'Lunes | 9:00–14:00\nMartes | 9:00–20:00', headings: [] }, 'es');
    expect(has(plain, 'lunes martes', 'es')).toBe(false);
  });

  it('keeps "9.50" and "3,200.50" inside one sentence', () => {
    const sets = passageTerms({ text: 'The tour costs 9.50 per person and the bike 3,200.50 in total.', headings: [] }, 'en');
    expect(sets).toHaveLength(1);
  });
});

describe('bestPassageShare', () => {
  it('is the highest weighted share one passage holds', () => {
    const passages = [new Set(['a', 'b']), new Set(['c'])];
    expect(bestPassageShare(passages, ['a', 'b', 'c'], [1, 1, 2], 4)).toBe(0.5);
    expect(bestPassageShare(passages, ['c'], [2], 2)).toBe(1);
    expect(bestPassageShare(passages, ['d'], [1], 1)).toBe(0);
    expect(bestPassageShare(passages, ['a'], [1], 0)).toBe(0);
  });
});
