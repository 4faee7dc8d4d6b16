/**
 * The model marks a reply that says it does not know (prompt.ts UNANSWERED_MARKER); the customer
 * never sees the marker. A whole reply is cleaned with stripMarker; a streamed one (voice) with a
 * MarkerFilter, which holds back only the end of the text that could still be the start of the
 * marker, so everything else is spoken as soon as it arrives. Case-insensitive ("[unanswered]"),
 * anywhere in the reply, with the spaces after it.
 */

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The reply without the marker, and whether it held one. */
export function stripMarker(text: string, marker: string): { text: string; found: boolean } {
  const pattern = new RegExp(`${escape(marker)}\\s*`, 'gi');
  const cleaned = text.replace(pattern, '');
  return { text: cleaned, found: cleaned !== text };
}

export class MarkerFilter {
  private held = '';
  private afterMarker = false;
  /** A marker was seen in the pieces so far. */
  found = false;
  private readonly lower: string;

  constructor(private readonly marker: string) {
    this.lower = marker.toLowerCase();
  }

  /** The part of `piece` (with what was held back) that can be passed on now. */
  push(piece: string): string {
    let text = this.held + piece;
    this.held = '';
    let out = '';
    for (;;) {
      if (this.afterMarker) {
        text = text.replace(/^\s+/, '');
        if (text === '') return out;
        this.afterMarker = false;
      }
      const at = text.toLowerCase().indexOf(this.lower);
      if (at < 0) break;
      out += text.slice(0, at);
      text = text.slice(at + this.marker.length);
      this.found = true;
      this.afterMarker = true;
    }
    const keep = this.partialAtEnd(text);
    this.held = text.slice(text.length - keep);
    return out + text.slice(0, text.length - keep);
  }

  /** What was held back at the end of the reply (the start of a marker that never came). */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }

  /** Length of the longest end of `text` that is a proper start of the marker. */
  private partialAtEnd(text: string): number {
    const lower = text.toLowerCase();
    for (let n = Math.min(this.lower.length - 1, lower.length); n > 0; n--) {
      if (this.lower.startsWith(lower.slice(lower.length - n))) return n;
    }
    return 0;
  }
}
