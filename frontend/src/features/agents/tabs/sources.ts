/**
 * The sources panel's pure rules (issue 18, "sources that convince"): the passage cut into plain
 * and highlighted pieces from the server's [start, end) ranges, and where the passage sits
 * (page, section) — testable without a browser.
 */
import type { ChatSource } from '@agentdesk/functions/contract';

export interface PassagePiece {
  text: string;
  mark: boolean;
}

/**
 * Cuts `text` at the highlight ranges. Ranges are clamped to the text, sorted and merged when they
 * touch or overlap; empty or inverted ones are dropped, so a bad range never loses text.
 */
export function highlightPieces(text: string, highlights: readonly (readonly [number, number])[] | undefined): PassagePiece[] {
  const ranges = (highlights ?? [])
    .map(([s, e]) => [Math.max(0, Math.min(text.length, Math.floor(s))), Math.max(0, Math.min(text.length, Math.floor(e)))] as const)
    .filter(([s, e]) => Number.isFinite(s) && Number.isFinite(e) && e > s)
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of ranges) {
    const last = merged[merged.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else merged.push([s, e]);
  }
  const pieces: PassagePiece[] = [];
  let at = 0;
  for (const [s, e] of merged) {
    if (s > at) pieces.push({ text: text.slice(at, s), mark: false });
    pieces.push({ text: text.slice(s, e), mark: true });
    at = e;
  }
  if (at < text.length || pieces.length === 0) pieces.push({ text: text.slice(at), mark: false });
  return pieces;
}

/** A passage longer than this is clamped to a few lines with "Show more". */
export const PASSAGE_CLAMP_CHARS = 320;

/** Whether the passage is long enough to clamp. */
export function isLongPassage(text: string): boolean {
  return text.length > PASSAGE_CLAMP_CHARS || text.split('\n').length > 5;
}

/** The page (1-based) when the source has one. */
export function sourcePage(source: Pick<ChatSource, 'page'>): number | null {
  return typeof source.page === 'number' && Number.isInteger(source.page) && source.page > 0 ? source.page : null;
}
