/**
 * Layout analysis of a PDF's positioned text (pdf.js text content items) into headings,
 * paragraphs and tables. Pure (unit-tested with the items of real PDFs).
 *
 * 1. Items → lines (same baseline within a fraction of the font size), a line's items → segments
 *    (a horizontal gap wider than about one em separates two cells).
 * 2. Runs of consecutive lines with ≥ 2 segments are tables: columns are the union of the
 *    segments' x ranges, a line whose cells only continue the row above (a wrapped cell, closer
 *    than the row pitch) is merged into it. The first row is the header when it is in another
 *    font than the body (bold) or has no digits while the rows below do. Runs of long segments
 *    are two text columns, not a table: read column by column.
 * 3. Other lines: larger than the body font (or a short line wholly in another font) → a heading,
 *    levels by size; the rest are paragraphs, split where the line gap widens.
 */
import type { DocumentBlock } from '../../domain/knowledge/ports.js';

/** What the layout needs of a pdf.js TextItem. */
export interface PositionedText {
  str: string;
  x: number;
  /** Baseline, PDF space (grows upwards). */
  y: number;
  width: number;
  /** Font size. */
  size: number;
  font: string;
}

interface Segment {
  text: string;
  x0: number;
  x1: number;
  size: number;
  font: string;
}

interface Line {
  y: number;
  size: number;
  segments: Segment[];
  page: number;
}

/** Page furniture: "3", "- 3 -", "Página 3 de 10", "Page 3 of 10". */
const PAGE_NUMBER = /^(?:[-–—\s]*\d+[-–—\s]*|(?:p(?:á|a)gina|page|p\.)\s*\d+(?:\s*(?:de|of|\/)\s*\d+)?)$/i;

export function layoutBlocks(pages: readonly (readonly PositionedText[])[]): DocumentBlock[] {
  const lines: Line[][] = pages.map((items, i) => toLines(items, i + 1));
  const all = lines.flat();
  const bodySize = dominant(all.flatMap((l) => l.segments.map((s) => [round(s.size), s.text.length] as const)));
  const bodyFont = dominantString(all.flatMap((l) => l.segments.map((s) => [s.font, s.text.length] as const)));
  const headingSizes = [...new Set(all.filter((l) => isLargeHeading(l, bodySize)).map((l) => round(l.size)))].sort((a, b) => b - a);
  const ctx: Context = { bodySize, bodyFont, headingSizes };

  const blocks: DocumentBlock[] = [];
  for (const pageLines of lines) {
    const page = pageBlocks(pageLines, ctx);
    continueTable(blocks[blocks.length - 1], page[0]);
    blocks.push(...page);
  }
  return blocks;
}

/** A table that goes on at the top of the next page gets its header there too (repeated or not by the document). */
function continueTable(before: DocumentBlock | undefined, next: DocumentBlock | undefined): void {
  if (before?.kind !== 'table' || next?.kind !== 'table' || !before.header) return;
  const head = before.rows[0]!;
  if (next.rows[0]?.length !== head.length) return;
  if (next.rows[0].join('|') !== head.join('|')) next.rows.unshift([...head]);
  next.header = true;
}

interface Context {
  bodySize: number;
  bodyFont: string;
  headingSizes: number[];
}

const round = (n: number) => Math.round(n * 2) / 2;

function dominant(weights: readonly (readonly [number, number])[]): number {
  const totals = new Map<number, number>();
  for (const [k, w] of weights) totals.set(k, (totals.get(k) ?? 0) + w);
  let best = 10;
  let bestW = -1;
  for (const [k, w] of totals) if (w > bestW) [best, bestW] = [k, w];
  return best;
}

function dominantString(weights: readonly (readonly [string, number])[]): string {
  const totals = new Map<string, number>();
  for (const [k, w] of weights) totals.set(k, (totals.get(k) ?? 0) + w);
  let best = '';
  let bestW = -1;
  for (const [k, w] of totals) if (w > bestW) [best, bestW] = [k, w];
  return best;
}

function toLines(items: readonly PositionedText[], page: number): Line[] {
  const visible = items.filter((it) => it.str.trim() && it.size > 0).sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: { y: number; size: number; items: PositionedText[] }[] = [];
  for (const it of visible) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line.y - it.y) <= Math.max(1.5, 0.3 * Math.min(line.size, it.size))) {
      line.items.push(it);
      line.size = Math.max(line.size, it.size);
    } else {
      lines.push({ y: it.y, size: it.size, items: [it] });
    }
  }
  return lines
    .map((l) => ({ y: l.y, size: l.size, page, segments: toSegments(l.items.sort((a, b) => a.x - b.x)) }))
    .filter((l) => !(l.segments.length === 1 && PAGE_NUMBER.test(l.segments[0]!.text)));
}

function toSegments(items: readonly PositionedText[]): Segment[] {
  const segments: Segment[] = [];
  for (const it of items) {
    const last = segments[segments.length - 1];
    const gap = last ? it.x - last.x1 : Infinity;
    const em = Math.max(last?.size ?? 0, it.size);
    if (last && gap < Math.max(6, 0.9 * em)) {
      const space = gap > 0.15 * em && !/\s$/.test(last.text) && !/^\s/.test(it.str) ? ' ' : '';
      last.text += space + it.str;
      last.x1 = Math.max(last.x1, it.x + it.width);
      if (it.str.trim().length > 0 && last.font !== it.font && it.str.trim().length > last.text.length / 2) last.font = it.font;
    } else {
      segments.push({ text: it.str, x0: it.x, x1: it.x + it.width, size: it.size, font: it.font });
    }
  }
  return segments.map((s) => ({ ...s, text: s.text.replace(/\s+/g, ' ').trim() })).filter((s) => s.text);
}

const lineText = (l: Line) => l.segments.map((s) => s.text).join(' ');
const isLargeHeading = (l: Line, bodySize: number) => round(l.size) >= bodySize * 1.15 && lineText(l).length <= 150 && l.segments.length <= 2;

function pageBlocks(lines: readonly Line[], ctx: Context): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let i = 0;
  const prose: Line[] = [];
  const flushProse = () => {
    blocks.push(...proseBlocks(prose, ctx));
    prose.length = 0;
  };
  while (i < lines.length) {
    const run = tableRunAt(lines, i);
    if (run > 0) {
      flushProse();
      blocks.push(...tableBlocks(lines.slice(i, i + run), ctx));
      i += run;
    } else {
      prose.push(lines[i]!);
      i++;
    }
  }
  flushProse();
  return blocks;
}

/** How many lines from `start` form a table (0 when none): ≥ 2 multi-cell lines, wrapped-cell continuation lines in between. */
function tableRunAt(lines: readonly Line[], start: number): number {
  const first = lines[start]!;
  if (first.segments.length < 2) return 0;
  let columns = first.segments.map((s) => [s.x0, s.x1] as [number, number]);
  let end = start + 1;
  let rows = 1;
  let pitch = 0;
  while (end < lines.length) {
    const line = lines[end]!;
    const gap = lines[end - 1]!.y - line.y;
    // A wider gap than the rows' pitch (or, before the second row, than a few lines) ends the table.
    if (gap > (pitch > 0 ? pitch * 1.6 : line.size * 2.6)) break;
    // So does a line in another size (a heading).
    if (Math.abs(round(line.size) - round(first.size)) > 0.5) break;
    const inside = line.segments.every((s) => columnOf(columns, s) >= 0);
    if (line.segments.length >= 2) {
      // A line whose cells straddle two columns is not a row of this table (unless it redraws the columns).
      if (!inside && !compatible(columns, line)) break;
      columns = mergeColumns(columns, line.segments);
      if (gap > 0 && (pitch === 0 || gap < pitch)) pitch = gap;
      rows++;
      end++;
      continue;
    }
    // One segment: a wrapped cell of the row above (or a sparse row) when it sits inside a column.
    if (!inside || line.segments[0]!.x1 - line.segments[0]!.x0 > spanOf(columns) * 0.8) break;
    end++;
  }
  // Trailing single-cell lines that were not followed by another row belong to the prose after it,
  // unless they are close continuations.
  while (end > start + 1 && lines[end - 1]!.segments.length < 2 && !(lines[end - 2]!.y - lines[end - 1]!.y < (pitch || Infinity) * 0.85)) end--;
  return rows >= 2 ? end - start : 0;
}

const spanOf = (columns: readonly [number, number][]) => columns[columns.length - 1]![1] - columns[0]![0];

function columnOf(columns: readonly [number, number][], s: Segment): number {
  return columns.findIndex(([a, b]) => s.x0 < b + 2 && s.x1 > a - 2 && !(s.x0 < a - 2 && columns.some(([c, d]) => c !== a && s.x0 < d && s.x1 > c)));
}

/** Every segment falls in at most one column, and no column holds two segments. */
function compatible(columns: readonly [number, number][], line: Line): boolean {
  const merged = mergeColumns(columns, line.segments);
  return merged.length >= Math.max(columns.length, line.segments.length);
}

function mergeColumns(columns: readonly [number, number][], segments: readonly Segment[]): [number, number][] {
  const ranges = [...columns.map(([a, b]) => [a, b] as [number, number]), ...segments.map((s) => [s.x0, s.x1] as [number, number])].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const r of ranges) {
    const last = out[out.length - 1];
    if (last && r[0] < last[1] - 1) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}

function tableBlocks(lines: readonly Line[], ctx: Context): DocumentBlock[] {
  let columns: [number, number][] = [];
  for (const l of lines) columns = mergeColumns(columns, l.segments);
  const page = lines[0]!.page;
  const cells = lines.flatMap((l) => l.segments);
  // Two columns of running text side by side (long cells, lines going on in lower case): read each column top to bottom.
  const words = median(cells.map((s) => s.text.split(/\s+/).length));
  const goingOn = cells.filter((s) => /^\p{Ll}/u.test(s.text)).length / cells.length;
  if (columns.length === 2 && (median(cells.map((s) => s.text.length)) > 45 || (words >= 6 && goingOn >= 0.3))) {
    return columns.flatMap(([a, b]) => {
      const column = lines
        .map((l) => ({ ...l, segments: l.segments.filter((s) => s.x0 >= a - 2 && s.x1 <= b + 2) }))
        .filter((l) => l.segments.length > 0);
      return proseBlocks(column, ctx);
    });
  }
  const rows: { y: number; cells: string[]; fonts: string[] }[] = [];
  let pitch = Infinity;
  for (let i = 1; i < lines.length; i++) if (lines[i]!.segments.length >= 2) pitch = Math.min(pitch, lines[i - 1]!.y - lines[i]!.y);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const placed: string[] = Array(columns.length).fill('');
    const fonts: string[] = [];
    for (const s of line.segments) {
      const c = Math.max(0, columns.findIndex(([a, b]) => s.x0 < b && s.x1 > a));
      placed[c] = placed[c] ? `${placed[c]} ${s.text}` : s.text;
      fonts.push(s.font);
    }
    const previous = rows[rows.length - 1];
    const gap = i > 0 ? lines[i - 1]!.y - line.y : Infinity;
    const continuation = previous && line.segments.length < columns.length && gap < pitch * 0.85;
    if (continuation) {
      placed.forEach((text, c) => {
        if (text) previous.cells[c] = previous.cells[c] ? `${previous.cells[c]} ${text}` : text;
      });
    } else {
      rows.push({ y: line.y, cells: placed, fonts });
    }
  }
  const [head, ...body] = rows;
  const header =
    !!head &&
    body.length > 0 &&
    ((head.fonts.every((f) => f !== ctx.bodyFont) && body.some((r) => r.fonts.some((f) => f === ctx.bodyFont))) ||
      (!head.cells.some((c) => /\d/.test(c)) && body.some((r) => r.cells.some((c) => /\d/.test(c)))));
  return [{ kind: 'table', rows: rows.map((r) => r.cells), header, page }];
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function proseBlocks(lines: readonly Line[], ctx: Context): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const a = lines[i - 1]!;
    const b = lines[i]!;
    if (round(a.size) === ctx.bodySize && round(b.size) === ctx.bodySize) gaps.push(a.y - b.y);
  }
  const lineGap = gaps.length > 0 ? Math.min(...gaps.filter((g) => g > 0), Infinity) : ctx.bodySize * 1.3;
  let paragraph: string[] = [];
  let page = lines[0]?.page ?? 1;
  const flush = () => {
    const text = joinLines(paragraph);
    if (text) blocks.push({ kind: 'paragraph', text, page });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const text = lineText(line);
    const level = headingLevel(line, lines[i + 1], ctx);
    if (level > 0) {
      flush();
      const last = blocks[blocks.length - 1];
      // A heading wrapped over two lines is one heading.
      if (last?.kind === 'heading' && last.level === level && i > 0 && lines[i - 1]!.y - line.y < line.size * 1.6) last.text += ` ${text}`;
      else blocks.push({ kind: 'heading', level, text, page: line.page });
      continue;
    }
    const gap = i > 0 ? lines[i - 1]!.y - line.y : 0;
    if (paragraph.length > 0 && gap > (Number.isFinite(lineGap) ? lineGap : line.size * 1.3) * 1.3) flush();
    if (paragraph.length === 0) page = line.page;
    paragraph.push(text);
  }
  flush();
  return blocks;
}

/** A line hyphenated at its end ("reser-" + "va") joins without the hyphen; other lines join with a space. */
function joinLines(lines: readonly string[]): string {
  let out = '';
  for (const line of lines) {
    if (!out) out = line;
    else if (/\p{Ll}-$/u.test(out) && /^\p{Ll}/u.test(line)) out = out.slice(0, -1) + line;
    else out += ` ${line}`;
  }
  return out.trim();
}

function headingLevel(line: Line, next: Line | undefined, ctx: Context): number {
  const text = lineText(line);
  if (!/\p{L}/u.test(text)) return 0;
  if (isLargeHeading(line, ctx.bodySize)) return Math.min(6, ctx.headingSizes.indexOf(round(line.size)) + 1) || 1;
  // A short line wholly in another font (bold) than the body, not ending a sentence, with text below it.
  const otherFont = line.segments.every((s) => s.font !== ctx.bodyFont);
  if (otherFont && line.segments.length === 1 && text.length <= 80 && !/[.,;]$/.test(text) && next && next.segments.some((s) => s.font === ctx.bodyFont)) {
    return Math.min(6, ctx.headingSizes.length + 1);
  }
  return 0;
}
