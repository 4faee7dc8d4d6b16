/**
 * Plain text → headings, paragraphs and tables, for formats that carry no markup: TXT files,
 * text/plain pages and the body of a legacy .doc (word-extractor gives one line per paragraph,
 * table cells ended by tabs). Pure.
 *
 * - Tables: runs of ≥ 2 lines split by the same delimiter (`|`, tab or `;`) into the same number of
 *   cells (Markdown's `|---|` rule marks the header). A .doc table row is a line ending in a tab.
 * - Headings: Markdown `#` lines; short lines in CAPITALS or ending in a colon, and short lines
 *   standing alone (no sentence punctuation, or a FAQ's question) with text after them.
 * - Paragraphs: blank-line separated (TXT) or one per line (DOC); their line breaks are kept.
 */
import type { DocumentBlock } from '../../domain/knowledge/ports.js';

type Table = Extract<DocumentBlock, { kind: 'table' }>;

const MARKDOWN_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const MARKDOWN_HEADING = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;
const MAX_HEADING = 80;

/** A cell holding a value rather than a label: an amount, a percentage, a time or a bare figure. */
const valueLike = (c: string) => /[€$£¥%]/.test(c) || /^[\d\s.,:–\-/h]+$/.test(c.trim());

/**
 * Whether an unmarked first row is a header (formats that can mark one, <th> or bold, say so
 * themselves): a full row of short distinct labels over rows of figures ("Día | Horario" over
 * "Viernes | 9:00–15:00"), over columns of amounts ("Bike | 2 hours" over "City bike | 8 €"), or
 * over rows with gaps (an allergen matrix).
 */
export function looksLikeHeader(rows: readonly (readonly string[])[]): boolean {
  const [head, ...body] = rows;
  if (!head || body.length === 0) return false;
  const cells = head.map((c) => c.trim());
  if (cells.some((c) => !c || c.length > 40) || new Set(cells).size < cells.length) return false;
  if (cells.some(valueLike)) return false;
  const bodyHasGaps = body.some((r) => r.length < cells.length || r.some((c) => !c.trim()));
  if (!cells.some((c) => /\d/.test(c))) return bodyHasGaps || body.some((r) => r.some((c) => /\d/.test(c)));
  // Labels with figures ("2 hours", "7 days"): a header only over columns of amounts.
  const amountColumns = cells.slice(1).filter((_, i) => body.filter((r) => valueLike(r[i + 1] ?? '')).length >= body.length * 0.6);
  return amountColumns.length > 0 && amountColumns.length >= (cells.length - 1) / 2;
}

function splitRow(line: string, delimiter: string): string[] {
  // Tabs at the ends are empty cells, not padding.
  let s = delimiter === '\t' ? line.replace(/^[ \r]+|[ \r]+$/g, '') : line.trim();
  if (delimiter === '|') s = s.replace(/^\|/, '').replace(/\|$/, '');
  return s.split(delimiter).map((c) => c.replace(/\s+/g, ' ').trim());
}

/** How many cells `line` splits into by `delimiter` (0 when it is not a row of that delimiter). */
function cellCount(line: string, delimiter: string): number {
  if (!line.includes(delimiter)) return 0;
  const cells = splitRow(line, delimiter);
  if (cells.length < 2) return 0;
  // A delimiter inside prose ("a; b") is not a row: cells of tables are short.
  if (delimiter === ';' && cells.some((c) => c.length > 80)) return 0;
  return cells.length;
}

/** The table starting at `lines[start]`, and how many lines it takes (null when none). */
function tableAt(lines: readonly string[], start: number): { table: Table; used: number } | null {
  for (const delimiter of ['|', '\t', ';']) {
    const n = cellCount(lines[start]!, delimiter);
    if (n < 2) continue;
    const rows: string[][] = [splitRow(lines[start]!, delimiter)];
    let header = false;
    let i = start + 1;
    for (; i < lines.length; i++) {
      const line = lines[i]!;
      if (delimiter === '|' && MARKDOWN_RULE.test(line)) {
        if (rows.length === 1) header = true;
        continue;
      }
      const count = cellCount(line, delimiter);
      // Same number of cells (a missing trailing cell is tolerated).
      if (count !== n && !(count >= 2 && count === n - 1)) break;
      rows.push(splitRow(line, delimiter));
    }
    if (rows.length < 2) continue;
    return { table: { kind: 'table', rows: rows.map((r) => pad(r, n)), header: header || looksLikeHeader(rows) }, used: i - start };
  }
  return null;
}

const pad = (row: string[], n: number) => (row.length < n ? [...row, ...Array<string>(n - row.length).fill('')] : row);

const isQuestion = (s: string) => /^¿?[^?]{3,118}\?$/.test(s);
const isCapitals = (s: string) => /\p{Lu}.*\p{Lu}/u.test(s) && !/\p{Ll}/u.test(s);
const isShortStandalone = (s: string) => s.length <= MAX_HEADING && s.split(/\s+/).length <= 12 && /\p{L}/u.test(s) && !/[.!?…;,]$/.test(s);

/** A heading line, by its own look (Markdown, CAPITALS, a colon at the end), or null. `followedByText` must hold for the last two. */
function headingOf(line: string, followedByText: boolean): { level: number; text: string } | null {
  const md = MARKDOWN_HEADING.exec(line);
  if (md) return { level: md[1]!.length, text: md[2]! };
  const s = line.trim();
  if (!followedByText || s.length > MAX_HEADING || !/\p{L}/u.test(s)) return null;
  if (isCapitals(s) && !/[.!?…;,]$/.test(s)) return { level: 2, text: s };
  if (s.endsWith(':') && s.split(/\s+/).length <= 8 && !s.slice(0, -1).includes(':')) return { level: 3, text: s.slice(0, -1).trim() };
  return null;
}

/** TXT: blank-line separated paragraphs, tables, headings. */
export function textBlocks(text: string): DocumentBlock[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: DocumentBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    const t = paragraph.join('\n').trim();
    if (t) blocks.push({ kind: 'paragraph', text: t });
    paragraph = [];
  };
  const nextNonBlank = (i: number) => {
    for (let j = i + 1; j < lines.length; j++) if (lines[j]!.trim()) return j;
    return -1;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) {
      flush();
      continue;
    }
    const found = tableAt(lines, i);
    if (found) {
      flush();
      blocks.push(found.table);
      i += found.used - 1;
      continue;
    }
    const next = nextNonBlank(i);
    const heading = headingOf(line, next >= 0);
    // A short line alone between blank lines (or the text's first line) with more text below: a title.
    const alone = paragraph.length === 0 && (i + 1 >= lines.length || !lines[i + 1]!.trim());
    // A FAQ's question alone on its line heads its answer (measured: recall@1 +1.2 points on the graded set).
    const question = alone && next >= 0 && isQuestion(line.trim());
    if (heading || question || (alone && next >= 0 && isShortStandalone(line.trim()))) {
      flush();
      blocks.push({ kind: 'heading', level: heading?.level ?? (blocks.length === 0 ? 1 : 2), text: (heading?.text ?? line).trim() });
      continue;
    }
    paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

/** A legacy .doc's body: one line per paragraph, table rows as lines of tab-ended cells. */
export function docBlocks(body: string): DocumentBlock[] {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const blocks: DocumentBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.endsWith('\t')) {
      const rows: string[][] = [];
      for (; i < lines.length && lines[i]!.endsWith('\t'); i++) rows.push(lines[i]!.slice(0, -1).split('\t').map((c) => c.replace(/\s+/g, ' ').trim()));
      i--;
      const n = Math.max(...rows.map((r) => r.length));
      blocks.push({ kind: 'table', rows: rows.map((r) => pad(r, n)), header: looksLikeHeader(rows) });
      continue;
    }
    const text = line.trim();
    if (!text) continue;
    const next = lines.slice(i + 1).find((l) => l.trim());
    const heading = headingOf(text, next !== undefined);
    // A short line with no sentence punctuation (or a question) over a longer paragraph or a table: a heading.
    // The document's first line is its title when it looks like one, whatever follows.
    const overText = next !== undefined && (blocks.length === 0 || next.endsWith('\t') || next.trim().length > text.length + 20);
    if (heading || (overText && (isShortStandalone(text) || isQuestion(text)))) {
      blocks.push({ kind: 'heading', level: heading?.level ?? (blocks.length === 0 ? 1 : 2), text: heading?.text ?? text });
      continue;
    }
    blocks.push({ kind: 'paragraph', text });
  }
  return blocks;
}
