/**
 * Text rules of knowledge: whitespace normalisation of extracted text, and the tokens of the
 * keyword (BM25) half of retrieval. Pure functions (unit-tested).
 *
 * Tokens: NFD with diacritics stripped and lower case ("Garantía" → "garantia"), runs of unicode
 * letters/digits, minus a small English + Spanish stop-word list, with one light suffix rule
 * (a final "s" is dropped from words of 4+ letters: "prices"/"price", "precios"/"precio") applied
 * the same way to chunks and queries. No dictionary stemmer: the vector half covers synonyms.
 */

/** Documents and queries are tokenised identically; tokens longer than this are cut. */
export const MAX_TOKEN_LENGTH = 40;

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

/** NFD + strip combining marks + lower case: "José" → "jose". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

const STOP_WORDS = new Set(
  [
    // English
    'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'can', 'do', 'does', 'for', 'from', 'has', 'have', 'how', 'i',
    'if', 'in', 'into', 'is', 'it', 'its', 'me', 'my', 'of', 'on', 'or', 'our', 'so', 'that', 'the', 'their', 'them', 'there',
    'these', 'they', 'this', 'to', 'was', 'we', 'were', 'what', 'when', 'where', 'which', 'who', 'why', 'will', 'with',
    'would', 'you', 'your', 'much', 'many', 'any', 'about', 'tell', 'please',
    // Spanish (folded: no accents)
    'al', 'como', 'con', 'cual', 'cuales', 'cuando', 'de', 'del', 'el', 'ella', 'en', 'es', 'esta', 'este', 'esto', 'hay',
    'la', 'las', 'le', 'les', 'lo', 'los', 'mas', 'me', 'mi', 'mis', 'muy', 'no', 'nos', 'o', 'para', 'pero', 'por', 'que',
    'quien', 'se', 'si', 'sin', 'su', 'sus', 'te', 'tu', 'un', 'una', 'uno', 'unos', 'unas', 'y', 'ya', 'son', 'ser', 'tiene',
    'tienen', 'cuanto', 'cuanta', 'cuantos', 'cuantas',
  ],
);

const stem = (token: string) => (token.length >= 4 && token.endsWith('s') && !token.endsWith('ss') ? token.slice(0, -1) : token);

/** The keyword tokens of a text (in order, repeated as often as they occur). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of fold(text).matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (STOP_WORDS.has(word)) continue;
    out.push(stem(word.length > MAX_TOKEN_LENGTH ? word.slice(0, MAX_TOKEN_LENGTH) : word));
  }
  return out;
}
