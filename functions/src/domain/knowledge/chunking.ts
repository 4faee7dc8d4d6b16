/**
 * Splits extracted text into overlapping chunks for embedding and keyword search. Pure.
 *
 * - Whitespace is normalised first (text.ts), paragraphs are blank-line separated.
 * - Units are sentences (split after . ! ? … followed by whitespace), kept whole where possible;
 *   a unit longer than `maxChars` is split at line breaks, then between words, then (a single
 *   "word" that long) hard-cut.
 * - Units are packed greedily: a chunk is closed once it reaches `targetChars`, or when the next
 *   unit would take it over `maxChars`. So chunks are ~targetChars..maxChars, paragraphs and
 *   sentences intact.
 * - Each new chunk starts with the tail of the previous one (whole trailing sentences of about
 *   `overlapChars`, ~15% of the target; the last words of a long sentence otherwise), so a fact that
 *   straddles a boundary is whole in at least one chunk.
 * - Chunks with fewer than `minContentChars` letters or digits (page numbers, rules of dashes) are
 *   dropped. More than `maxChunks` chunks is a KnowledgeSourceError the user sees.
 */
import { KnowledgeSourceError, knowledgeMessages } from './errors.js';
import { normaliseWhitespace } from './text.js';

export interface ChunkingOptions {
  targetChars: number;
  maxChars: number;
  overlapChars: number;
  minContentChars: number;
  maxChunks: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = {
  targetChars: 1200,
  maxChars: 1500,
  overlapChars: 180,
  minContentChars: 3,
  maxChunks: 2000,
};

interface Unit {
  text: string;
  /** What joins it to the unit before it in the same chunk. */
  sep: string;
}

export function chunkText(text: string, options: Partial<ChunkingOptions> = {}): string[] {
  const o = { ...DEFAULT_CHUNKING, ...options };
  if (o.overlapChars * 2 >= o.targetChars || o.targetChars > o.maxChars) throw new Error('chunkText: overlap must be under half the target, target ≤ max');
  // Far beyond the cap even if most of it were whitespace: refuse before normalising megabytes.
  if (text.length > o.maxChunks * o.maxChars * 4) throw new KnowledgeSourceError(knowledgeMessages.tooManyChunks(o.maxChunks));
  const normalised = normaliseWhitespace(text);
  if (!normalised) return [];

  const chunks: string[] = [];
  let current: Unit[] = [];
  let length = 0;
  /** Units in `current` that are not overlap from the previous chunk. */
  let fresh = 0;
  const joinedLength = (u: Unit) => (current.length === 0 ? u.text.length : length + u.sep.length + u.text.length);

  const emit = () => {
    const chunk = current.map((u, i) => (i === 0 ? u.text : u.sep + u.text)).join('');
    if (countContent(chunk) < o.minContentChars) return;
    chunks.push(chunk);
    if (chunks.length > o.maxChunks) throw new KnowledgeSourceError(knowledgeMessages.tooManyChunks(o.maxChunks));
  };

  for (const unit of units(normalised, o.maxChars)) {
    if (fresh > 0 && (length >= o.targetChars || joinedLength(unit) > o.maxChars)) {
      emit();
      current = overlapOf(current, o.overlapChars);
      length = measure(current);
      fresh = 0;
      // The overlap gives way when it and the next unit do not fit together.
      while (current.length > 0 && joinedLength(unit) > o.maxChars) {
        current.shift();
        length = measure(current);
      }
    }
    length = joinedLength(unit);
    current.push(unit);
    fresh++;
  }
  if (fresh > 0) emit();
  return chunks;
}

const countContent = (s: string) => s.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
const measure = (us: readonly Unit[]) => us.reduce((n, u, i) => n + u.text.length + (i === 0 ? 0 : u.sep.length), 0);

/** Sentences (or pieces of over-long ones) with the separator that precedes each. */
function* units(text: string, maxChars: number): Generator<Unit> {
  let firstParagraph = true;
  for (const paragraph of text.split(/\n{2,}/)) {
    let sep = firstParagraph ? '' : '\n\n';
    firstParagraph = false;
    for (const sentence of sentences(paragraph)) {
      for (const piece of splitLong(sentence.text, maxChars)) {
        yield { text: piece.text, sep: piece.first ? (sep || sentence.sep) : piece.sep };
      }
      sep = '';
    }
  }
}

/** Sentence boundary: terminal punctuation (with closing quotes/brackets), then whitespace. */
const SENTENCE_END = /(?<=[.!?…]["'”’»)\]]*)(\s+)/u;

function sentences(paragraph: string): Unit[] {
  const parts = paragraph.split(SENTENCE_END);
  const out: Unit[] = [];
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

/** The tail of a closed chunk that starts the next one: whole trailing units up to ~overlapChars, or the last words of the last unit. */
function overlapOf(closed: readonly Unit[], overlapChars: number): Unit[] {
  const out: Unit[] = [];
  let total = 0;
  for (let i = closed.length - 1; i >= 0 && total < overlapChars; i--) {
    const u = closed[i]!;
    const added = u.text.length + (out.length > 0 ? out[0]!.sep.length : 0);
    if (total + added > overlapChars * 2) break;
    out.unshift(u);
    total += added;
  }
  if (out.length > 0) return out;
  const last = closed[closed.length - 1];
  if (!last) return [];
  const tail = last.text.slice(-overlapChars);
  const space = tail.search(/\s/);
  const words = space >= 0 ? tail.slice(space + 1) : tail;
  return words ? [{ text: words, sep: last.sep }] : [];
}
