import { describe, expect, it } from 'vitest';
import type { CallTurn } from '@agentdesk/functions/contract';
import { latencyPair, latencyRows } from './latencyFormat';

const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('latencyPair', () => {
  it("shows a streamed call's p50 / p95", () => {
    const call = { conversationMode: 'streaming' as const, latency: { turns: 3, p50Ms: 620, p95Ms: 910 } };
    expect(plain(latencyPair(call, 'es'))).toBe('0,62 s / 0,91 s');
    expect(plain(latencyPair(call, 'en'))).toBe('0.62 s / 0.91 s');
  });
  it('shows a dash for <Gather> calls and streamed calls without a timed answer', () => {
    expect(latencyPair({ conversationMode: 'gather', latency: null }, 'en')).toBe('—');
    expect(latencyPair({ conversationMode: 'gather', latency: { turns: 1, p50Ms: 1, p95Ms: 1 } }, 'en')).toBe('—');
    expect(latencyPair({ conversationMode: 'streaming', latency: null }, 'en')).toBe('—');
    expect(latencyPair({}, 'en')).toBe('—');
  });
});

describe('latencyRows', () => {
  const at = '2026-11-25T20:00:00.000Z';
  const turns: CallTurn[] = [
    { role: 'agent', content: 'Hola, ¿en qué puedo ayudarle?', at, confidence: null },
    { role: 'user', content: 'Quiero una cita', at, confidence: 0.9 },
    { role: 'agent', content: 'Claro, ¿qué día?', at, confidence: null, latency: { firstTokenMs: 500, lastTokenMs: 1000 } },
    { role: 'user', content: 'El martes', at, confidence: 0.8 },
    { role: 'agent', content: 'El martes tenemos', at, confidence: null, latency: { firstTokenMs: 700, lastTokenMs: 2000 }, interrupted: true },
  ];

  it('gives one row per timed agent turn, numbered in order, with the interrupted flag', () => {
    const rows = latencyRows(turns);
    expect(rows.map((r) => [r.turn, r.index, r.firstTokenMs, r.lastTokenMs, r.interrupted])).toEqual([
      [1, 2, 500, 1000, false],
      [2, 4, 700, 2000, true],
    ]);
  });
  it('draws every bar on the scale of the slowest last token', () => {
    const rows = latencyRows(turns);
    expect(rows.map((r) => [r.firstPct, r.lastPct])).toEqual([
      [25, 50],
      [35, 100],
    ]);
  });
  it('is empty for a <Gather> call (no latency on any turn)', () => {
    expect(latencyRows(turns.map(({ latency: _latency, ...t }) => t))).toEqual([]);
    expect(latencyRows([])).toEqual([]);
  });
  it('never draws a last token before the first one', () => {
    const [row] = latencyRows([{ role: 'agent', content: 'x', at, confidence: null, latency: { firstTokenMs: 800, lastTokenMs: 300 } }]);
    expect(row).toMatchObject({ firstTokenMs: 800, lastTokenMs: 800, firstPct: 100, lastPct: 100 });
  });
});
