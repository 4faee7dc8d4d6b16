/**
 * The reply box's `/` shortcut, as pure functions: where a `/query` is being typed (a `/` at the
 * start or after a space, up to the caret), which saved replies match it (title, case- and
 * accent-insensitive: "cita" finds "Cita médica"), and the text once one is picked (the `/query`
 * replaced by the reply's text).
 */
import type { SavedReply } from '@agentdesk/functions/contract';

/** Lower case without diacritics ("Cita Médica" → "cita medica"; ñ → n too, which helps typing). */
export const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('es');

export interface SlashTrigger {
  /** Index of the `/`. */
  start: number;
  /** Index just past the query (the caret). */
  end: number;
  /** What was typed after the `/` (may be empty). */
  query: string;
}

/** The `/query` that ends at the caret, or null: the `/` must open the text or follow whitespace, and the query holds no line break. */
export function slashTrigger(text: string, caret: number): SlashTrigger | null {
  const before = text.slice(0, caret);
  const slash = before.lastIndexOf('/');
  if (slash < 0) return null;
  if (slash > 0 && !/\s/.test(before[slash - 1] ?? '')) return null;
  const query = before.slice(slash + 1);
  // A query is part of a title: stop at a line break, and past a title's length nobody is searching any more.
  if (/[\n\r]/.test(query) || query.length > 60) return null;
  return { start: slash, end: caret, query };
}

/** The replies whose title holds every word of the query (any order), titles starting with the query first. */
export function matchSavedReplies(replies: readonly SavedReply[], query: string): SavedReply[] {
  const q = fold(query).trim();
  if (!q) return [...replies];
  const words = q.split(/\s+/);
  const hits = replies.filter((r) => {
    const title = fold(r.title);
    return words.every((w) => title.includes(w));
  });
  const starts = (r: SavedReply) => (fold(r.title).startsWith(q) ? 0 : 1);
  return hits.sort((a, b) => starts(a) - starts(b));
}

/** The text with the trigger's `/query` replaced by the reply, and where the caret goes (after it). */
export function insertSavedReply(text: string, trigger: SlashTrigger, replyText: string): { text: string; caret: number } {
  const next = text.slice(0, trigger.start) + replyText + text.slice(trigger.end);
  return { text: next, caret: trigger.start + replyText.length };
}
