/**
 * The passage of a chunk shown as a source ("What the agent used"): the window of whole lines
 * (table rows are lines) and sentences holding the most query terms, at most `maxChars` long,
 * with the [start, end) ranges of the excerpt's words whose analysed form matches a query term
 * (accent- and case-insensitive, light-stemmed: "sabados" highlights "Sábados").
 *
 * Choice of the window: the highest weight of distinct query terms covered (a term weighs
 * ln(1 + units / units holding it), so "viernes" in one row outweighs "horario" in several), then
 * most term occurrences, then the shortest (the tightest window around the answer), then the earliest; the chosen window is then
 * widened with the following (else preceding) units while it fits, so the row or sentence holding
 * the answer comes with its context. A single unit longer than `maxChars` is cut at word
 * boundaries around its first matching word, marked with "…".
 */
import { analyse, analyseWords } from './analysis.js';
import type { KnowledgeLanguage } from './ports.js';

export interface Passage {
  excerpt: string;
  /** [start, end) offsets in `excerpt` of the words matching a query term, in order. */
  highlights: [number, number][];
}

interface Unit {
  start: number;
  end: number;
  terms: Set<string>;
  hits: number;
}

const ELLIPSIS = '…';

export function bestPassage(text: string, query: string, language: KnowledgeLanguage, maxChars: number): Passage {
  const queryTerms = new Set(analyse(query, language));
  const limit = Math.max(1, Math.floor(maxChars));
  const units = splitUnits(text).map((u) => {
    const terms = new Set<string>();
    let hits = 0;
    for (const w of analyseWords(text.slice(u.start, u.end), language)) {
      if (queryTerms.has(w.term)) {
        terms.add(w.term);
        hits++;
      }
    }
    return { ...u, terms, hits };
  });
  if (units.length === 0) return { excerpt: '', highlights: [] };
  const holding = new Map<string, number>();
  for (const u of units) for (const t of u.terms) holding.set(t, (holding.get(t) ?? 0) + 1);
  const weight = (t: string) => Math.log(1 + units.length / holding.get(t)!);

  // Best window [i, j] of whole units fitting `limit`.
  let best: { i: number; j: number; coverage: number; hits: number; length: number } | null = null;
  for (let i = 0; i < units.length; i++) {
    if (units[i]!.hits === 0 && best) continue; // a best window starts on a matching unit (or is the fallback)
    const covered = new Set<string>();
    let coverage = 0;
    let hits = 0;
    for (let j = i; j < units.length; j++) {
      const length = units[j]!.end - units[i]!.start;
      if (length > limit) break;
      for (const t of units[j]!.terms) {
        if (!covered.has(t)) coverage += weight(t);
        covered.add(t);
      }
      hits += units[j]!.hits;
      if (units[j]!.hits === 0 && j > i) continue; // never end on a non-matching unit
      const better =
        !best || coverage > best.coverage + 1e-9 || (Math.abs(coverage - best.coverage) <= 1e-9 && (hits > best.hits || (hits === best.hits && length < best.length)));
      if (better) {
        best = { i, j, coverage, hits, length };
      }
    }
  }

  let excerpt: string;
  if (!best) {
    // Even the first matching unit is too long: cut it around its first hit.
    const unit = units.find((u) => u.hits > 0) ?? units[0]!;
    excerpt = cutAround(text.slice(unit.start, unit.end), queryTerms, language, limit);
  } else {
    let { i, j } = best;
    while (j + 1 < units.length && units[j + 1]!.end - units[i]!.start <= limit) j++;
    while (i > 0 && units[j]!.end - units[i - 1]!.start <= limit) i--;
    excerpt = text.slice(units[i]!.start, units[j]!.end);
    if (best.coverage === 0) excerpt = excerpt.trimEnd();
  }
  return { excerpt, highlights: highlightsOf(excerpt, queryTerms, language) };
}

/** The [start, end) ranges of `text`'s words matching one of `queryTerms`, in order, overlaps merged (a clock time and its digits). */
export function highlightsOf(text: string, queryTerms: ReadonlySet<string>, language: KnowledgeLanguage): [number, number][] {
  const out: [number, number][] = [];
  for (const w of analyseWords(text, language)) {
    if (!queryTerms.has(w.term)) continue;
    const last = out[out.length - 1];
    if (last && w.start < last[1]) last[1] = Math.max(last[1], w.end);
    else out.push([w.start, w.end]);
  }
  return out;
}

/** Lines, and sentences within lines, as [start, end) ranges without surrounding spaces. */
function splitUnits(text: string): Omit<Unit, 'terms' | 'hits'>[] {
  const out: Omit<Unit, 'terms' | 'hits'>[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    // A sentence ends at . ! ? … followed by a space (so "9.50" and "3,200.50" stay whole).
    let from = 0;
    const parts: [number, number][] = [];
    for (const m of line.matchAll(/[.!?…]+(?=\s)/gu)) {
      parts.push([from, m.index + m[0].length]);
      from = m.index + m[0].length;
    }
    parts.push([from, line.length]);
    for (const [a, b] of parts) {
      const raw = line.slice(a, b);
      const lead = raw.length - raw.trimStart().length;
      const trimmed = raw.trim();
      if (trimmed === '') continue;
      out.push({ start: lineStart + a + lead, end: lineStart + a + lead + trimmed.length });
    }
    lineStart += line.length + 1;
  }
  return out;
}

/** A piece of one over-long unit around its first matching word, cut at spaces. */
function cutAround(unit: string, queryTerms: ReadonlySet<string>, language: KnowledgeLanguage, limit: number): string {
  const first = analyseWords(unit, language).find((w) => queryTerms.has(w.term));
  const room = Math.max(1, limit - 2 * ELLIPSIS.length);
  let start = first ? Math.max(0, first.start - Math.floor(room / 3)) : 0;
  let end = Math.min(unit.length, start + room);
  start = Math.max(0, Math.min(start, end - room));
  if (start > 0) {
    const space = unit.indexOf(' ', start);
    if (space !== -1 && space < (first?.start ?? end)) start = space + 1;
  }
  if (end < unit.length) {
    const space = unit.lastIndexOf(' ', end);
    if (space > start && (!first || space >= first.end)) end = space;
  }
  return `${start > 0 ? ELLIPSIS : ''}${unit.slice(start, end).trim()}${end < unit.length ? ELLIPSIS : ''}`;
}
