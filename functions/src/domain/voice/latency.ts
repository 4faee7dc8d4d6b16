/**
 * Per-turn latency of streamed calls (issue 16): the figures of one call (p50/p95 of the
 * first-token latency of its agent turns) and the percentile rule every view uses.
 */
import type { CallLatencyStats, CallTurn } from '../../contract/voice.js';

/** Nearest-rank percentile (p in 0..100) of an ascending list; the list must not be empty. */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

/** First-token latencies (ms) of the agent turns that have one, in transcript order. */
export function firstTokenLatencies(turns: readonly CallTurn[]): number[] {
  return turns.flatMap((t) => (t.role === 'agent' && t.latency ? [t.latency.firstTokenMs] : []));
}

/** p50/p95 of a call's streamed turns; null when it has none (a <Gather> call, or no answer yet). */
export function latencyStats(turns: readonly CallTurn[]): CallLatencyStats | null {
  const values = firstTokenLatencies(turns).sort((a, b) => a - b);
  if (values.length === 0) return null;
  return { turns: values.length, p50Ms: percentile(values, 50), p95Ms: percentile(values, 95) };
}
