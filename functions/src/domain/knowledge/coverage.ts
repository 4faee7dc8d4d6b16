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
 * Computed at query time for the few chunks a search returns (no index change, so snapshots are
 * unaffected), cached per index like the near-duplicate shingles.
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

/**
 * The analysed terms of each passage of a chunk, each with its heading path and (for a table row)
 * its table's header line. A chunk without text gives its heading path alone.
 */
export function passageTerms(chunk: { text: string; headings: readonly string[] }, language: KnowledgeLanguage): Set<string>[] {
  const context = analyse(chunk.headings.join('\n'), language);
  const out: Set<string>[] = [];
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
    for (const sentence of row ? [line.trim()] : sentencesOf(line)) out.push(new Set([...analyse(sentence, language), ...context, ...(header ?? [])]));
  }
  if (out.length === 0) out.push(new Set(context));
  return out;
}

/** The passages' terms per chunk of an index, made on demand once (keyed by the index object). */
export class PassageCache {
  private readonly byChunk = new Map<number, Set<string>[]>();
  constructor(private readonly language: KnowledgeLanguage) {}

  of(i: number, chunk: { text: string; headings: readonly string[] }): Set<string>[] {
    let sets = this.byChunk.get(i);
    if (!sets) this.byChunk.set(i, (sets = passageTerms(chunk, this.language)));
    return sets;
  }
}

/**
 * The highest weighted share of the question's terms found in one passage: Σ weight of the terms
 * the passage holds / `total`, over the chunk's passages (0 when `total` is 0).
 */
export function bestPassageShare(passages: readonly ReadonlySet<string>[], terms: readonly string[], weights: readonly number[], total: number): number {
  if (total <= 0) return 0;
  let best = 0;
  for (const passage of passages) {
    let held = 0;
    for (let k = 0; k < terms.length; k++) if (passage.has(terms[k]!)) held += weights[k]!;
    if (held > best) best = held;
  }
  return best / total;
}
