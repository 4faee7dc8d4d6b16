import { describe, expect, it } from 'vitest';
import type { CallTurn } from '../../../src/contract/voice.js';
import { latencyStats, percentile } from '../../../src/domain/voice/latency.js';

const agent = (firstTokenMs?: number): CallTurn => ({
  role: 'agent',
  content: 'x',
  at: '2026-11-25T10:00:00.000Z',
  confidence: null,
  ...(firstTokenMs !== undefined ? { latency: { firstTokenMs, lastTokenMs: firstTokenMs + 500 } } : {}),
});
const user: CallTurn = { role: 'user', content: 'hola', at: '2026-11-25T10:00:00.000Z', confidence: 0.9 };

describe('call latency figures', () => {
  it('takes the nearest-rank percentile', () => {
    const values = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 95)).toBe(100);
    expect(percentile([7], 95)).toBe(7);
  });

  it('summarises only the agent turns that carry a latency (the welcome and caller turns do not)', () => {
    const stats = latencyStats([agent(), user, agent(400), user, agent(900), user, agent(350)]);
    expect(stats).toEqual({ turns: 3, p50Ms: 400, p95Ms: 900 });
  });

  it('is null for a call without streamed turns', () => {
    expect(latencyStats([agent(), user, agent()])).toBeNull();
  });
});
