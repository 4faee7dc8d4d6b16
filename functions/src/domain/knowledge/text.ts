/**
 * Text rules of knowledge: whitespace normalisation of extracted text, and the tokens of the
 * keyword (BM25) half of retrieval. Pure functions (unit-tested).
 *
 * The analysis itself (folding, stop words and a light stemmer per language) is in analysis.ts.
 */
import { analyse } from './analysis.js';
import type { KnowledgeLanguage } from './ports.js';

export { fold, MAX_TOKEN_LENGTH } from './analysis.js';

/** The text as extracted, with whitespace made regular: CRLF/CR → LF, tabs, NBSP and other spaces → ' ',
 * spaces collapsed and trimmed per line, control characters dropped, at most one blank line in a row. */
export function normaliseWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[\u2028\u2029]/g, '\n')
    .replace(/\f|\v/g, '\n\n')
    .replace(/\u00ad/g, '') // soft hyphens
    // eslint-disable-next-line no-control-regex -- dropping control characters is the point
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f\ufffe\uffff]/g, '')
    .replace(/[\t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]/g, ' ')
    .replace(/[\u200b-\u200d\u2060]/g, '')
    .split('\n')
    .map((line) => line.replace(/ {2,}/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The keyword terms of a text in a language (analysis.ts: folded, stop words dropped, lightly stemmed). */
export function tokenize(text: string, language: KnowledgeLanguage = 'en'): string[] {
  return analyse(text, language);
}
