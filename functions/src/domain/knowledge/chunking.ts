/**
 * Splits an extracted document (headings, paragraphs, tables: StructuredDocument) into chunks for
 * embedding and keyword search, each knowing its page and heading path. Pure.
 *
 * - A heading closes the current chunk (when it has content of its own) and updates the heading
 *   path; every chunk's text starts with its section's heading(s) (`headingContext`), so "Horario"
 *   is searchable next to the rows under it.
 * - Paragraph units are sentences (split after . ! ? … followed by whitespace), kept whole where
 *   possible; a unit longer than `maxChars` is split at line breaks, then between words, then
 *   (a single "word" that long) hard-cut.
 * - Table units are rows, never split (unless one row alone exceeds maxChars), each rendered to be
 *   self-contained: "Viernes | 9:00–15:00" under a header line for narrow tables, every cell
 *   labelled with its header for wide ones ("Croquetas | Gluten: X | Huevo: X", empty cells
 *   dropped). A table continued in a new chunk repeats its header line there.
 * - Units are packed greedily: a chunk is closed once it reaches `targetChars` (`tableTargetChars`
 *   for table rows), or when the next unit would take it over `maxChars`.
 * - Each new chunk of the same section starts with the tail of the previous one (whole trailing
 *   sentences of about `overlapChars`; the last words of a long sentence otherwise), so a fact that
 *   straddles a boundary is whole in at least one chunk. Table rows need no overlap.
 * - Chunks with fewer than `minContentChars` letters or digits are dropped. More than `maxChunks`
 *   chunks is a KnowledgeSourceError the user sees.
 */
import { KnowledgeSourceError, knowledgeMessages } from './errors.js';
import type { DocumentBlock, StructuredDocument } from './ports.js';
import { normaliseWhitespace } from './text.js';

export interface ChunkingOptions {
  targetChars: number;
  maxChars: number;
  overlapChars: number;
  minContentChars: number;
  maxChunks: number;
  /** What of the heading path starts each chunk's text: the whole path ("A › B"), the nearest heading, or nothing. */
  headingContext: 'path' | 'last' | 'none';
  /** Tables with at least this many columns (and a header) label every cell with its header. */
  labelCellsFrom: number;
  /** A chunk holding table rows is closed at this size (rows are dense facts: smaller chunks rank the right rows higher). */
  tableTargetChars: number;
}

/**
 * Measured on the graded set (npx tsx functions/scripts/bench-knowledge-eval.ts, hybrid, local
 * embedding): table chunks of ~300 characters (4–6 rows under their header) raise recall@3 from
 * 91.8 % (1,200) to 95.3 % — a row of a long matrix no longer competes with its 20 neighbours —
 * while 200 drops it to 90.6 %; prose sizes from 500 to 1,500 made no difference there (sections
 * end at headings first), so prose keeps 1,200 with a 15 % overlap. With 1,200-character tables,
 * the heading path in the text beat the nearest heading only (r@1 71.1 vs 69.9 %) and no heading
 * (66.3 %), and labelling cells from 3 columns beat never (r@3 90.4 vs 88.0 %) and equalled from 2.
 */
export const DEFAULT_CHUNKING: ChunkingOptions = {
  targetChars: 1200,
  maxChars: 1500,
  overlapChars: 180,
  minContentChars: 3,
  maxChunks: 2000,
  headingContext: 'path',
  labelCellsFrom: 3,
  tableTargetChars: 300,
};

export interface DocumentChunk {
  text: string;
  /** 1-based page where the chunk's own content starts; null for formats without pages. */
  page: number | null;
  /** The headings above the chunk, outermost first. */
  headings: string[];
}

interface Unit {
  text: string;
  /** What joins it to the unit before it in the same chunk. */
  sep: string;
  /** Overlap may carry it into the next chunk (sentences; not rows). */
  carry: boolean;
  page: number | null;
}

export const HEADING_PATH_SEPARATOR = ' › ';

const cell = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A table's rows as self-contained lines: `header` is the line repeated atop every chunk of the table (null when none). */
export function renderTable(block: Extract<DocumentBlock, { kind: 'table' }>, labelCellsFrom = DEFAULT_CHUNKING.labelCellsFrom): { header: string | null; rows: string[] } {
  const rows = block.rows.map((r) => r.map(cell)).filter((r) => r.some(Boolean));
  if (rows.length === 0) return { header: null, rows: [] };
  const columns = Math.max(...rows.map((r) => r.length));
  if (!block.header || rows.length === 1) return { header: null, rows: rows.map((r) => r.filter(Boolean).join(' | ')) };
  const [head, ...body] = rows as [string[], ...string[][]];
  if (columns < labelCellsFrom) return { header: head.filter(Boolean).join(' | '), rows: body.map((r) => r.filter(Boolean).join(' | ')).filter(Boolean) };
  // The first cell names the row; the others read "Header: value".
  const labelled = body.map((r) =>
    r
      .map((value, c) => (!value ? '' : c === 0 || !head[c] ? value : `${head[c]}: ${value}`))
      .filter(Boolean)
      .join(' | '),
  );
  return { header: null, rows: labelled.filter(Boolean) };
}

/**
 * Characters of extracted text past which a document cannot fit in `maxChunks` chunks even if most
 * of it were whitespace: chunkDocument refuses it before normalising, and the extractors stop
 * there instead of building all of it (issue 28).
 */
export const maxDocumentChars = (o: Pick<ChunkingOptions, 'maxChunks' | 'maxChars'> = DEFAULT_CHUNKING) => o.maxChunks * o.maxChars * 4;
export const MAX_DOCUMENT_CHARS = maxDocumentChars();

/** The document as one text (what a contentHash is taken over): blocks in order, tables rendered as their chunks show them. */
export function renderDocument(doc: StructuredDocument, options: Partial<ChunkingOptions> = {}): string {
  const labelCellsFrom = options.labelCellsFrom ?? DEFAULT_CHUNKING.labelCellsFrom;
  return doc.blocks
    .map((b) => {
      if (b.kind === 'table') {
        const { header, rows } = renderTable(b, labelCellsFrom);
        return [...(header ? [header] : []), ...rows].join('\n');
      }
      return normaliseWhitespace(b.text);
    })
    .filter(Boolean)
    .join('\n\n');
}

export function chunkDocument(doc: StructuredDocument, options: Partial<ChunkingOptions> = {}): DocumentChunk[] {
  const o = { ...DEFAULT_CHUNKING, ...options };
  if (o.overlapChars * 2 >= o.targetChars || o.targetChars > o.maxChars) throw new Error('chunkDocument: overlap must be under half the target, target ≤ max');
  // Far beyond the cap even if most of it were whitespace: refuse before normalising megabytes.
  let size = 0;
  for (const b of doc.blocks) size += b.kind === 'table' ? b.rows.reduce((n, r) => n + r.reduce((m, c) => m + c.length + 3, 0), 0) : b.text.length;
  if (size > maxDocumentChars(o)) throw new KnowledgeSourceError(knowledgeMessages.tooManyChunks(o.maxChunks));

  const chunks: DocumentChunk[] = [];
  const path: { level: number; text: string }[] = [];
  let current: Unit[] = [];
  let length = 0;
  /** Units in `current` that are not overlap or a repeated table header. */
  let fresh = 0;
  let firstFreshPage: number | null = null;
  /** The header line of the table being packed (repeated atop a new chunk). */
  let tableHeader: Unit | null = null;
  let sectionHasContent = false;
  /** Where a chunk of table rows is closed. */
  const rowTarget = Math.min(o.targetChars, o.tableTargetChars);
  let lastHeadingPage: number | null = null;

  const context = () => {
    if (o.headingContext === 'none' || path.length === 0) return '';
    return o.headingContext === 'last' ? path[path.length - 1]!.text : path.map((h) => h.text).join(HEADING_PATH_SEPARATOR);
  };
  const joinedLength = (u: Unit) => (current.length === 0 ? context().length + (context() ? 1 : 0) + u.text.length : length + u.sep.length + u.text.length);
  const measure = () => current.reduce((n, u, i) => n + u.text.length + (i === 0 ? 0 : u.sep.length), context() ? context().length + 1 : 0);

  const emit = () => {
    const body = current.map((u, i) => (i === 0 ? u.text : u.sep + u.text)).join('');
    const ctx = context();
    const text = ctx ? `${ctx}\n${body}` : body;
    if (countContent(body) < o.minContentChars) return;
    chunks.push({ text, page: firstFreshPage, headings: path.map((h) => h.text) });
    if (chunks.length > o.maxChunks) throw new KnowledgeSourceError(knowledgeMessages.tooManyChunks(o.maxChunks));
  };
  const reset = () => {
    current = [];
    length = 0;
    fresh = 0;
    firstFreshPage = null;
  };
  const push = (unit: Unit) => {
    const target = unit.carry ? o.targetChars : rowTarget;
    if (fresh > 0 && (length >= target || joinedLength(unit) > o.maxChars)) {
      emit();
      current = overlapOf(current, o.overlapChars);
      if (tableHeader && !unit.carry) current = [{ ...tableHeader, sep: '' }];
      fresh = 0;
      firstFreshPage = null;
      length = measure();
      // The overlap gives way when it and the next unit do not fit together.
      while (current.length > 0 && joinedLength(unit) > o.maxChars) {
        current.shift();
        if (current[0]) current[0] = { ...current[0], sep: '' };
        length = measure();
      }
    }
    const u = current.length === 0 ? { ...unit, sep: '' } : unit;
    length = joinedLength(u);
    current.push(u);
    if (fresh === 0) firstFreshPage = unit.page;
    fresh++;
    sectionHasContent = true;
  };

  let blockSep = '';
  let previousWasTable = false;
  for (const block of doc.blocks) {
    const page = block.page ?? null;
    if (block.kind !== 'table') {
      previousWasTable = false;
      tableHeader = null;
    }
    if (block.kind === 'heading') {
      const text = cell(block.text);
      if (!text) continue;
      if (fresh > 0) emit();
      reset();
      while (path.length > 0 && path[path.length - 1]!.level >= block.level) path.pop();
      path.push({ level: block.level, text });
      sectionHasContent = false;
      lastHeadingPage = page;
      blockSep = '';
      continue;
    }
    if (block.kind === 'paragraph') {
      const normalised = normaliseWhitespace(block.text);
      if (!normalised) continue;
      let first = true;
      for (const paragraph of normalised.split(/\n{2,}/)) {
        for (const sentence of sentences(paragraph)) {
          for (const piece of splitLong(sentence.text, o.maxChars)) {
            const sep = piece.first ? (first ? blockSep : sentence.sep || '\n\n') : piece.sep;
            push({ text: piece.text, sep, carry: true, page });
            first = false;
          }
        }
        blockSep = '\n\n';
      }
      blockSep = '\n\n';
      continue;
    }
    const { header, rows } = renderTable(block, o.labelCellsFrom);
    if (rows.length === 0 && !header) continue;
    // The same table going on (on the next page): its header is already above in this chunk.
    const sameTable = header !== null && tableHeader?.text === header && previousWasTable && current.some((u) => u.text === header);
    const headerUnit: Unit | null = header ? { text: header, sep: '', carry: false, page } : null;
    tableHeader = headerUnit;
    if (headerUnit && !sameTable) {
      // The header line travels with the first row (a header alone at a chunk's end says nothing).
      const withHeader = joinedLength({ ...headerUnit, sep: blockSep });
      if (fresh > 0 && (withHeader >= rowTarget || withHeader + 1 + (rows[0]?.length ?? 0) > o.maxChars)) {
        emit();
        reset();
      }
      current.push({ ...headerUnit, sep: current.length === 0 ? '' : blockSep });
      length = measure();
    }
    let sep = header || sameTable ? '\n' : blockSep;
    for (const row of rows) {
      for (const piece of splitLong(row, o.maxChars - (header?.length ?? 0) - 1)) {
        push({ text: piece.text, sep: piece.first ? sep : piece.sep, carry: false, page });
        sep = '\n';
      }
    }
    previousWasTable = true;
    blockSep = '\n\n';
  }
  if (fresh > 0) emit();
  // A document that is only headings (a title page): its headings are its text.
  if (chunks.length === 0 && !sectionHasContent && path.length > 0) {
    const text = path.map((h) => h.text).join('\n');
    if (countContent(text) >= o.minContentChars) chunks.push({ text, page: lastHeadingPage, headings: [] });
  }
  return chunks;
}

const countContent = (s: string) => s.match(/[\p{L}\p{N}]/gu)?.length ?? 0;

/** Sentence boundary: terminal punctuation (with closing quotes/brackets), then whitespace. */
const SENTENCE_END = /(?<=[.!?…]["'”’»)\]]*)(\s+)/u;

function sentences(paragraph: string): { text: string; sep: string }[] {
  const parts = paragraph.split(SENTENCE_END);
  const out: { text: string; sep: string }[] = [];
  let sep = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i % 2 === 1) {
      sep = part.includes('\n') ? '\n' : ' ';
      continue;
    }
    if (part) out.push({ text: part, sep });
  }
  return out;
}

/** Splits a unit longer than maxChars: at line breaks, then spaces, then anywhere. */
function splitLong(text: string, maxChars: number, separators: readonly string[] = ['\n', ' ']): { text: string; sep: string; first: boolean }[] {
  if (text.length <= maxChars) return [{ text, sep: '', first: true }];
  const [sep, ...rest] = separators;
  if (sep === undefined) {
    const out = [];
    for (let i = 0; i < text.length; i += maxChars) out.push({ text: text.slice(i, i + maxChars), sep: '', first: i === 0 });
    return out;
  }
  const pieces: { text: string; sep: string; first: boolean }[] = [];
  let buffer = '';
  const flush = () => {
    if (!buffer) return;
    for (const p of splitLong(buffer, maxChars, rest)) pieces.push({ ...p, sep: p.first ? sep : p.sep, first: pieces.length === 0 && p.first });
    buffer = '';
  };
  for (const part of text.split(sep)) {
    if (buffer && buffer.length + sep.length + part.length > maxChars) flush();
    buffer = buffer ? buffer + sep + part : part;
  }
  flush();
  return pieces;
}

/** The tail of a closed chunk that starts the next one: whole trailing sentences up to ~overlapChars, or the last words of the last one. */
function overlapOf(closed: readonly Unit[], overlapChars: number): Unit[] {
  const last = closed[closed.length - 1];
  if (!last?.carry) return [];
  const out: Unit[] = [];
  let total = 0;
  for (let i = closed.length - 1; i >= 0 && total < overlapChars; i--) {
    const u = closed[i]!;
    if (!u.carry) break;
    const added = u.text.length + (out.length > 0 ? out[0]!.sep.length : 0);
    if (total + added > overlapChars * 2) break;
    out.unshift(u);
    total += added;
  }
  if (out.length > 0) return out.map((u, i) => (i === 0 ? { ...u, sep: '' } : u));
  const tail = last.text.slice(-overlapChars);
  const space = tail.search(/\s/);
  const words = space >= 0 ? tail.slice(space + 1) : tail;
  return words ? [{ ...last, text: words, sep: '' }] : [];
}
