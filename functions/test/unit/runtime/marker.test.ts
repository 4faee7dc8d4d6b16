/** The model's "I don't know" marker (issue 28) never reaches the customer, whole or streamed. */
import { describe, expect, it } from 'vitest';
import { MarkerFilter, stripMarker } from '../../../src/domain/agents/runtime/marker.js';
import { UNANSWERED_MARKER } from '../../../src/domain/agents/runtime/prompt.js';

/** Pushes `pieces` through a filter: what it passes on, piece by piece, then the flush. */
function streamed(pieces: string[]): { out: string[]; found: boolean } {
  const filter = new MarkerFilter(UNANSWERED_MARKER);
  const out = pieces.map((p) => filter.push(p));
  out.push(filter.flush());
  return { out, found: filter.found };
}

describe('stripMarker', () => {
  it('removes the marker and the spaces after it, wherever it is and whatever its case, and says it was there', () => {
    expect(stripMarker('[UNANSWERED] Lo siento, no tengo esa información.', UNANSWERED_MARKER)).toEqual({ text: 'Lo siento, no tengo esa información.', found: true });
    expect(stripMarker('Sorry, I do not know. [unanswered]', UNANSWERED_MARKER)).toEqual({ text: 'Sorry, I do not know. ', found: true });
    expect(stripMarker('We open at 9:00 [see the table].', UNANSWERED_MARKER)).toEqual({ text: 'We open at 9:00 [see the table].', found: false });
  });
});

describe('MarkerFilter', () => {
  it('drops a marker split over several pieces and passes everything else on as it comes', () => {
    const { out, found } = streamed(['[UNAN', 'SWER', 'ED]', ' Lo', ' siento.']);
    expect(out).toEqual(['', '', '', 'Lo', ' siento.', '']);
    expect(found).toBe(true);
  });

  it('holds back only what could still start a marker, and gives it back when it was not one', () => {
    const { out, found } = streamed(['Open 9–14', ' [', 'closed Sundays]']);
    expect(out.join('')).toBe('Open 9–14 [closed Sundays]');
    expect(out[0]).toBe('Open 9–14');
    expect(out[1]).toBe(' ');
    expect(found).toBe(false);
    // A reply ending on what looks like the start of a marker: the flush says it.
    expect(streamed(['See you [UNANS']).out).toEqual(['See you ', '[UNANS']);
  });

  it('drops a marker in the middle of the text and in another case', () => {
    const { out, found } = streamed(['I do not know that. ', '[Unanswered]', ' Ask the team.']);
    expect(out.join('')).toBe('I do not know that. Ask the team.');
    expect(found).toBe(true);
  });
});
