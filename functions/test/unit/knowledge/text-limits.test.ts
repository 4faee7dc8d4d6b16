/** A text file with more characters than can ever be chunked is refused before it is split into blocks (issue 28). */
import { describe, expect, it } from 'vitest';
import { extractText } from '../../../src/adapters/extract/text.js';
import { DEFAULT_CHUNKING, MAX_DOCUMENT_CHARS } from '../../../src/domain/knowledge/chunking.js';
import { knowledgeMessages } from '../../../src/domain/knowledge/errors.js';

describe('text file limit', () => {
  it('refuses more than MAX_DOCUMENT_CHARS characters at once, and reads a short file', () => {
    const line = 'Opening hours: Monday to Friday, 9 to 17.\n';
    const huge = new TextEncoder().encode(line.repeat(Math.ceil((MAX_DOCUMENT_CHARS + 1) / line.length)));

    const started = performance.now();
    expect(() => extractText(huge)).toThrow(knowledgeMessages.tooManyChunks(DEFAULT_CHUNKING.maxChunks));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(extractText(new TextEncoder().encode(line)).blocks).toEqual([{ kind: 'paragraph', text: line.trim() }]);
  });
});
