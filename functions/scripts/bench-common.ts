/**
 * What the in-process benches (bench-contacts, bench-runtime, bench-knowledge) share: their
 * `--name=N` options, percentiles, the Markdown result table, and seeded random numbers and
 * unit vectors so runs are comparable. Not a bench itself.
 */
import { EMBEDDING_DIMENSIONS } from '../src/domain/ai/ports.js';

const args = process.argv.slice(2);
/** The number given as `--name=N`, or the fallback. */
export const arg = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);

/** The p-th percentile (nearest rank) of xs. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

/** A Markdown table: the first column left-aligned, the others right-aligned. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => [...(r[i] ?? '')].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so runs are comparable. */
export function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random embedding-sized vector of length 1. */
export function randomUnitVector(random: () => number): Float32Array {
  const v = new Float32Array(EMBEDDING_DIMENSIONS);
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    v[i] = random() * 2 - 1;
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
