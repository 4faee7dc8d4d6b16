/**
 * Passage-level coverage for the absolute relevance (retrieval.ts): a chunk's question words count
 * most when they stand together in one passage of the chunk rather than scattered over unrelated
 * sentences ("menú" in one sentence, "niños" three sentences further).
 *
 * A chunk's passages are its sentences and its table rows (lines are split into sentences after
 * . ! ? … followed by a space, so "9.50" stays whole). Each passage is read with its context:
 *
 *   - the chunk's heading path (chunks end at headings, so every sentence of a section is about it;
 *     this also makes "heading path + first sentence" a passage);
 *   - for a table row, the table's header line ("Plato | Precio" above "Croquetas | 9,00 €"): the
 *     first line of a run of " | " lines, when it holds no digit and no "Header: value" cell (wide
 *     tables label every cell and have no header line; chunking.ts renderTable).
 *
 * Computed at query time for the few chunks a search returns that hold two or more of the
 * question's key words (no index change, so snapshots are unaffected), cached per index like the
 * near-duplicate shingles: ~0.3–0.4 ms (median) per search of 5 chunks not yet analysed, 5,000-chunk
 * agent; nothing once analysed.
 */
import { analyse } from './analysis.js';
import type { KnowledgeLanguage } from './ports.js';

/** A sentence ends at . ! ? … followed by whitespace. */
const SENTENCE_END = /[.!?…]+(?=\s)/gu;
const CELL_SEPARATOR = ' | ';

/** The sentences of one line, trimmed, empty ones dropped. */
function sentencesOf(line: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (const m of line.matchAll(SENTENCE_END)) {
    out.push(line.slice(from, m.index + m[0].length));
    from = m.index + m[0].length;
  }
  out.push(line.slice(from));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** A table's header line: cell names, no values (no digit, no "Header: value" cell). */
const isHeaderLine = (line: string) => line.includes(CELL_SEPARATOR) && !/\p{N}|: /u.test(line);

/** A chunk's passages as analysed terms: the context (heading path) once, a table's header terms shared by its rows. */
export interface ChunkPassages {
  context: readonly string[];
  passages: readonly { terms: readonly string[]; header: readonly string[] | null }[];
}

/**
 * The analysed terms of each passage of a chunk, with its heading path and (for a table row) its
 * table's header line. A chunk without text has no passage (its heading path alone counts).
 */
export function chunkPassages(chunk: { text: string; headings: readonly string[] }, language: KnowledgeLanguage): ChunkPassages {
  const passages: { terms: string[]; header: string[] | null }[] = [];
  let header: string[] | null = null;
  let inTable = false;
  for (const line of chunk.text.split('\n')) {
    const row = line.includes(CELL_SEPARATOR);
    if (!row) {
      inTable = false;
      header = null;
    } else if (!inTable) {
      inTable = true;
      if (isHeaderLine(line)) {
        header = analyse(line, language);
        continue;
      }
    }
    for (const sentence of row ? [line] : sentencesOf(line)) passages.push({ terms: analyse(sentence, language), header });
  }
  return { context: analyse(chunk.headings.join('\n'), language), passages };
}

/** The passages of the chunks of one index, analysed on demand once per chunk. */
export class PassageCache {
  private readonly byChunk = new Map<number, ChunkPassages>();
  constructor(private readonly language: KnowledgeLanguage) {}

  of(i: number, chunk: { text: string; headings: readonly string[] }): ChunkPassages {
    let passages = this.byChunk.get(i);
    if (!passages) this.byChunk.set(i, (passages = chunkPassages(chunk, this.language)));
    return passages;
  }
}

/**
 * The highest weighted share of the question's terms found in one passage (with its context):
 * Σ weight of the distinct `terms` it holds / `total`, over the chunk's passages (0 when `total` is 0).
 */
export function bestPassageShare(chunk: ChunkPassages, terms: readonly string[], weights: readonly number[], total: number): number {
  if (total <= 0) return 0;
  const slot = new Map<string, number>();
  terms.forEach((t, k) => slot.set(t, k));
  const seen = new Uint8Array(terms.length);
  const add = (list: readonly string[]) => {
    let held = 0;
    for (const t of list) {
      const k = slot.get(t);
      if (k !== undefined && seen[k] === 0) {
        seen[k] = 1;
        held += weights[k]!;
      }
    }
    return held;
  };
  const contextHeld = add(chunk.context);
  const contextSeen = seen.slice();
  let best = contextHeld;
  for (const p of chunk.passages) {
    seen.set(contextSeen);
    const held = contextHeld + (p.header ? add(p.header) : 0) + add(p.terms);
    if (held > best) best = held;
  }
  return best / total;
}
