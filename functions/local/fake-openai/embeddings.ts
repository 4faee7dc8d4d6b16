/**
 * Deterministic embeddings for the fake OpenAI: a hashed bag of lower-case word tokens (stop words
 * dropped) in `dimensions` buckets, L2-normalised. Texts that share words get a high cosine
 * similarity, texts that share none are (almost) orthogonal, so retrieval is testable.
 */

const STOP_WORDS = new Set(
  ('a an and are as at be but by can do does for from has have how i if in into is it its me my ' +
    'no not of on or our so that the their them then there these they this to us was we what when where ' +
    'which who why will with you your').split(' '),
);

/** Lower-case letter/digit runs, without stop words. */
export function wordTokens(text: string): string[] {
  return (text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOP_WORDS.has(t));
}

/** FNV-1a, 32 bit. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function fakeEmbedding(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  const tokens = wordTokens(text);
  if (tokens.length === 0) vector[0] = 1;
  for (const token of tokens) vector[fnv1a(token) % dimensions]! += 1;
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) vector[i]! /= norm;
  return vector;
}

/** The API's base64 encoding: little-endian float32 bytes. */
export function toBase64(vector: Float32Array): string {
  const buf = Buffer.alloc(vector.length * 4);
  vector.forEach((x, i) => buf.writeFloatLE(x, i * 4));
  return buf.toString('base64');
}
