/**
 * The stale-call sweeper's rules without AWS: which active calls are stale (their own
 * maxCallDuration + 15 min; 4 h + 15 min once forwarded), what is billed (the known length,
 * capped at the limit, at least the reserved minute; nothing for calls refused over the plan),
 * and that a call is ended once (billing and summary) however often the sweeper runs.
 */
import { describe, expect, it } from 'vitest';
import { VOICE_DEFAULTS } from '../../../src/contract/voice.js';
import type { CallRepository, CallSummaryJob, StoredCall } from '../../../src/domain/voice/ports.js';
import { createStaleCallSweeper, FORWARDED_CALL_LIMIT_SECONDS, STALE_MARGIN_SECONDS } from '../../../src/domain/voice/stale-calls.js';

const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

function call(id: string, startedSecondsAgo: number, overrides: Partial<StoredCall> = {}): StoredCall {
  return {
    id,
    userId: 'user-1',
    callSid: `CA${id}`,
    status: 'active',
    phoneNumber: '+34600000000',
    internalNumber: '+34910000000',
    contact: null,
    duration: 0,
    createdAt: ago(startedSecondsAgo),
    endedAt: null,
    voiceSettings: { name: 'A', description: '', language: 'es-ES' },
    messages: [],
    summary: null,
    summaryStatus: 'pending',
    deliveries: [],
    agent: null,
    escalated: false,
    settings: { ...VOICE_DEFAULTS, maxCallDuration: 300 },
    silences: 0,
    endedByUs: false,
    recording: null,
    billedMinutes: 0,
    conversationMode: 'gather',
    latency: null,
    ...overrides,
  };
}

function world(...calls: StoredCall[]) {
  const byId = new Map(calls.map((c) => [c.id, structuredClone(c)]));
  const usage: string[] = [];
  const jobs: CallSummaryJob[] = [];
  const repo: Pick<CallRepository, 'finish' | 'activeStartedBefore'> = {
    async activeStartedBefore(before, limit) {
      return [...byId.values()].filter((c) => c.status === 'active' && c.createdAt < before).slice(0, limit).map((c) => structuredClone(c));
    },
    async finish(_u, id, end) {
      const c = byId.get(id)!;
      if (c.status !== 'active') return null;
      Object.assign(c, end);
      return structuredClone(c);
    },
  };
  const sweeper = createStaleCallSweeper({
    calls: repo,
    usage: { reserve: async (_u, _a, n = 1) => (usage.push(`+${n}`), 0), release: async (_u, _a, n = 1) => void usage.push(`-${n}`) },
    queue: { enqueue: async (job) => void jobs.push(job) },
    now: () => NOW,
  });
  return { sweeper, byId, usage, jobs };
}

describe('stale-call sweeper', () => {
  it('closes only calls past their own limit + 15 min; a forwarded call gets 4 h', async () => {
    const limit = 300 + STALE_MARGIN_SECONDS;
    const w = world(
      call('fresh', limit - 5),
      call('stale', limit + 5),
      call('forwarded', limit + 5, { endReason: 'forwarded', endedByUs: true }),
      call('forwarded-old', FORWARDED_CALL_LIMIT_SECONDS + STALE_MARGIN_SECONDS + 5, { endReason: 'forwarded', endedByUs: true }),
    );

    const result = await w.sweeper.sweep();

    expect(result).toEqual({ checked: 4, closed: 2, failed: 0 });
    expect([...w.byId.values()].filter((c) => c.status !== 'active').map((c) => c.id).sort()).toEqual(['forwarded-old', 'stale']);
    expect(w.byId.get('stale')).toMatchObject({ status: 'completed', endReason: 'stale', endedAt: new Date(NOW).toISOString() });
  });

  it('bills the known length (last turn or recording), capped at the limit, at least the reserved minute; refused calls bill nothing', async () => {
    const old = 300 + STALE_MARGIN_SECONDS + 60;
    const turn = (secondsAfterStart: number) => ({ role: 'user' as const, content: 'x', at: ago(old - secondsAfterStart), confidence: 0.9 });
    const w = world(
      call('silent', old),
      call('talked', old, { messages: [turn(0), turn(130)] }),
      call('recorded', old, { messages: [turn(10)], recording: { sid: 'RE1', url: 'u', durationSec: 200 } }),
      call('capped', old, { messages: [turn(1000)] }),
      call('refused', old, { endReason: 'usage_limit', endedByUs: true }),
    );

    await w.sweeper.sweep();

    const billed = Object.fromEntries([...w.byId.values()].map((c) => [c.id, [c.billedMinutes, c.duration]]));
    expect(billed).toEqual({ silent: [1, 0], talked: [3, 130_000], recorded: [4, 200_000], capped: [5, 300_000], refused: [0, 0] });
    // One minute was reserved at the start of each call but the refused one: only the difference moves.
    expect(w.usage.sort()).toEqual(['+2', '+3', '+4']);
  });

  it('ends a call once: a second run finds nothing, one summary job', async () => {
    const w = world(call('stale', 300 + STALE_MARGIN_SECONDS + 60));

    const first = await w.sweeper.sweep();
    const second = await w.sweeper.sweep();

    expect(first.closed).toBe(1);
    expect(second).toEqual({ checked: 0, closed: 0, failed: 0 });
    expect(w.jobs).toEqual([{ userId: 'user-1', callId: 'stale' }]);
  });
});
