/**
 * Per-turn latency of streamed calls (issue 16) in the call logs: the list's 'p50 / p95' cell
 * ('—' for <Gather> calls) and the detail's timeline rows (values formatted by shared/latency).
 */
import type { CallLatencyStats, CallTurn, ConversationMode } from '@agentdesk/functions/contract';
import { NO_LATENCY, formatLatency } from '../../shared/latency';

/** The call list's cell: 'p50 / p95' of a streamed call's turns, '—' for a <Gather> call or one without an answered turn. */
export function latencyPair(call: { conversationMode?: ConversationMode; latency?: CallLatencyStats | null }, language: string): string {
  if (call.conversationMode !== 'streaming' || !call.latency) return NO_LATENCY;
  return `${formatLatency(call.latency.p50Ms, language)} / ${formatLatency(call.latency.p95Ms, language)}`;
}

export interface LatencyRow {
  /** 1-based number of the agent's answer among the timed ones. */
  turn: number;
  /** Index of the turn in the transcript. */
  index: number;
  at: string;
  firstTokenMs: number;
  lastTokenMs: number;
  interrupted: boolean;
  /** Bar geometry as percentages of the slowest turn's last token (0..100). */
  firstPct: number;
  lastPct: number;
}

const pct = (value: number, max: number) => (max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0);

/** One row per agent turn with a latency, in transcript order; bars share one scale (the slowest last token). */
export function latencyRows(messages: readonly CallTurn[]): LatencyRow[] {
  const timed = messages.flatMap((m, index) =>
    m.role === 'agent' && m.latency && Number.isFinite(m.latency.firstTokenMs) && Number.isFinite(m.latency.lastTokenMs)
      ? [{ m, index, first: Math.max(0, m.latency.firstTokenMs), last: Math.max(m.latency.firstTokenMs, m.latency.lastTokenMs, 0) }]
      : [],
  );
  const max = Math.max(0, ...timed.map((t) => t.last));
  return timed.map(({ m, index, first, last }, i) => ({
    turn: i + 1,
    index,
    at: m.at,
    firstTokenMs: first,
    lastTokenMs: last,
    interrupted: m.interrupted === true,
    firstPct: pct(first, max),
    lastPct: pct(last, max),
  }));
}
