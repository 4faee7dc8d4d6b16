/**
 * Splits a streamed answer into text tokens for ConversationRelay (issue 16): the model's first
 * piece goes out at once (Twilio starts its voice on the first token: waiting for a whole clause
 * cost a token's pace per word of it), then clause-sized tokens, never one per word (each post is
 * a round trip, and Twilio's voice reads whole clauses better).
 *
 * A clause ends at . ! ? ; : or a line break followed by more text, or at a comma once it holds
 * MIN_COMMA_CLAUSE characters; a clause without any of those is cut at a space after
 * MAX_CLAUSE characters. Each token is cleaned for speech (speakable()) and starts with a space
 * when a word boundary lies before it (the model's own whitespace, or always before a sentence of
 * ours), so the tokens' concatenation is the spoken answer even when the first piece ends mid-word.
 */
import { speakable } from '../speakable.js';

export const CLAUSE_LIMITS = {
  /** A comma ends a clause only after this many characters ("Sí, claro" stays one piece). */
  minCommaClause: 24,
  /** A clause without punctuation is cut at a space after this many characters. */
  maxClause: 160,
} as const;

/** Index just after the last clause end in `text` that is followed by more text, or -1. */
function lastClauseEnd(text: string): number {
  let end = -1;
  const strong = /[.!?;:…](?=\s)|\n/g;
  for (let m = strong.exec(text); m; m = strong.exec(text)) end = m.index + m[0].length;
  const comma = /,(?=\s)/g;
  for (let m = comma.exec(text); m; m = comma.exec(text)) {
    const at = m.index + 1;
    const clauseStart = end === -1 ? 0 : end;
    if (at > end && at - clauseStart >= CLAUSE_LIMITS.minCommaClause) end = at;
  }
  if (end === -1 && text.length > CLAUSE_LIMITS.maxClause) {
    const space = text.lastIndexOf(' ', text.length - 1);
    if (space > 0) end = space;
  }
  return end;
}

export interface ClauseSplitter {
  /** A piece of the model's text; returns the tokens that are complete now (maybe none). */
  push(piece: string): string[];
  /** Everything still buffered, as the last token ('' when nothing is left). */
  flush(): string;
  /**
   * A whole sentence of ours (filler, fallback, error message) after what is buffered: the tokens
   * to send now, the buffered answer text apart from ours (they are spoken with other flags).
   */
  interject(text: string): { before: string[]; own: string[] };
  /** Concatenation of every token returned so far. */
  readonly spoken: string;
}

export function clauseSplitter(): ClauseSplitter {
  let buffer = '';
  let spoken = '';
  /** The last emitted raw text ended in whitespace (speakable() trims it away). */
  let endedAtSpace = false;
  const emit = (raw: string, ownSentence = false): string | null => {
    const clean = speakable(raw);
    if (clean === '') return null;
    const boundary = ownSentence || endedAtSpace || /^\s/.test(raw);
    const token = spoken !== '' && boundary ? ` ${clean}` : clean;
    spoken += token;
    endedAtSpace = ownSentence || /\s$/.test(raw);
    return token;
  };
  return {
    push(piece) {
      buffer += piece;
      const tokens: string[] = [];
      if (spoken === '') {
        // The first piece is sent as it comes: the caller hears the agent start.
        const first = emit(buffer);
        buffer = '';
        if (first !== null) tokens.push(first);
        return tokens;
      }
      for (let end = lastClauseEnd(buffer); end > 0; end = lastClauseEnd(buffer)) {
        const token = emit(buffer.slice(0, end));
        buffer = buffer.slice(end);
        if (token !== null) tokens.push(token);
      }
      return tokens;
    },
    flush() {
      const token = emit(buffer);
      buffer = '';
      return token ?? '';
    },
    interject(text) {
      const rest = emit(buffer);
      buffer = '';
      const own = emit(text, true);
      return { before: rest === null ? [] : [rest], own: own === null ? [] : [own] };
    },
    get spoken() {
      return spoken;
    },
  };
}
