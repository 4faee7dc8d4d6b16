/**
 * The dashboard's median turn latency (issue 16) without AWS: the fixed buckets, the median of a
 * histogram (the nearest-rank rule of voice/latency.ts, read as the bucket's upper bound), the
 * merge of day histograms into the user's period, the local days of the hours, the counter
 * attributes a finished call writes, and what endCall hands to the counters.
 */
import { describe, expect, it } from 'vitest';
import { latencyAttributes } from '../../../src/adapters/dynamo/activity.js';
import { VOICE_DEFAULTS, type CallTurn } from '../../../src/contract/voice.js';
import type { ActivityDay, DashboardReader, FinishedCall } from '../../../src/domain/dashboard/ports.js';
import { createDashboardService, latencyOfPeriod, localDay, localDaysOfHours, sumByLocalDay } from '../../../src/domain/dashboard/service.js';
import { histogramMedian, latencyBucket, latencyHistogram, parseLatencyAttribute } from '../../../src/domain/dashboard/turn-latency.js';
import { endCall } from '../../../src/domain/voice/call-end.js';
import { percentile } from '../../../src/domain/voice/latency.js';
import type { StoredCall } from '../../../src/domain/voice/ports.js';

/** A deterministic pseudo-random sequence (the same data on every run). */
function seeded(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

describe('latency buckets', () => {
  it('25 ms wide up to 2 s, 100 ms up to 10 s, one overflow; named by the upper bound they include', () => {
    const cases: Array<[number, string]> = [
      [-3, '0'],
      [0, '0'],
      [0.4, '25'],
      [25, '25'],
      [25.01, '50'],
      [480, '500'],
      [1999, '2000'],
      [2000, '2000'],
      [2000.5, '2100'],
      [2100, '2100'],
      [9901, '10000'],
      [10_000, '10000'],
      [10_000.01, 'x'],
      [28_000, 'x'],
    ];
    expect(cases.map(([ms]) => [ms, latencyBucket(ms)])).toEqual(cases);
    const all = new Set(Array.from({ length: 10_050 }, (_, i) => latencyBucket(i + 1)));
    expect(all.size).toBe(80 + 80 + 1);
  });

  it('counts latencies per bucket and leaves out non-finite values', () => {
    expect(latencyHistogram([])).toEqual({});
    expect(latencyHistogram([10, 20, 30, 2050, 15_000, Number.NaN, Infinity])).toEqual({ '25': 2, '50': 1, '2100': 1, x: 1 });
  });
});

describe('histogram median', () => {
  it('is null without turns (none, or only empty buckets)', () => {
    expect(histogramMedian({})).toBeNull();
    expect(histogramMedian({ '500': 0 })).toBeNull();
  });

  it('one turn: its bucket’s upper bound', () => {
    expect(histogramMedian(latencyHistogram([480]))).toEqual({ medianMs: 500, turns: 1 });
    expect(histogramMedian(latencyHistogram([500]))).toEqual({ medianMs: 500, turns: 1 });
  });

  it('known data: the rank ⌈N/2⌉ turn’s bucket, buckets sorted by value (not by name)', () => {
    // Sorted: 90, 350, 505, 780, 1310, 2150 → rank 3 = 505 → (500, 525].
    expect(histogramMedian(latencyHistogram([1310, 90, 2150, 505, 780, 350]))).toEqual({ medianMs: 525, turns: 6 });
    // Odd count: 90, 350, 1310 → rank 2 = 350.
    expect(histogramMedian(latencyHistogram([1310, 90, 350]))).toEqual({ medianMs: 350, turns: 3 });
  });

  it('overflow: reads 10,000 when the median turn is over 10 s, and only sorts last otherwise', () => {
    expect(histogramMedian(latencyHistogram([12_000, 15_000, 300]))).toEqual({ medianMs: 10_000, turns: 3 });
    expect(histogramMedian(latencyHistogram([12_000, 9_950, 300]))).toEqual({ medianMs: 10_000, turns: 3 });
    expect(histogramMedian(latencyHistogram([12_000, 200, 300]))).toEqual({ medianMs: 300, turns: 3 });
    expect(histogramMedian({ x: 4 })).toEqual({ medianMs: 10_000, turns: 4 });
  });

  it('equals the call list’s nearest-rank p50 (voice/latency.ts) for values on the bucket grid', () => {
    const rnd = seeded(16);
    for (let run = 0; run < 200; run++) {
      const n = 1 + Math.floor(rnd() * 40);
      const values = Array.from({ length: n }, () => (rnd() < 0.7 ? 25 * (1 + Math.floor(rnd() * 80)) : 2000 + 100 * (1 + Math.floor(rnd() * 80))));
      const exact = percentile([...values].sort((a, b) => a - b), 50);
      expect(histogramMedian(latencyHistogram(values))).toEqual({ medianMs: exact, turns: n });
    }
  });

  it('any values: never below the exact median, at most one bucket above it', () => {
    const rnd = seeded(7);
    for (let run = 0; run < 200; run++) {
      const values = Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => rnd() * 9_999 + 1);
      const exact = percentile([...values].sort((a, b) => a - b), 50);
      const { medianMs } = histogramMedian(latencyHistogram(values))!;
      expect(medianMs).toBeGreaterThanOrEqual(exact);
      expect(medianMs - exact).toBeLessThan(exact <= 2000 ? 25 : 100);
    }
  });
});

describe('merging day histograms', () => {
  const days: ActivityDay[] = [
    { day: '2026-06-01', counters: { calls10: 2, lt_500: 2, lt_x: 1, lt_300: 1, max10: 90 } },
    { day: '2026-06-02', counters: { calls02: 1, lt_300: 3, lt_2100: 1, lt_25: 1 } },
    { day: '2026-06-03', counters: { calls23: 1, lt_975: 2 } },
  ];

  it('sums the buckets of every day in the period', () => {
    expect(latencyOfPeriod(days, 'UTC', ['2026-06-01', '2026-06-02'])).toEqual({ '500': 2, x: 1, '300': 4, '2100': 1, '25': 1 });
    expect(latencyOfPeriod(days, 'UTC', ['2026-06-02'])).toEqual({ '300': 3, '2100': 1, '25': 1 });
    expect(latencyOfPeriod(days, 'UTC', ['2026-05-31'])).toEqual({});
  });

  it('a UTC day counts in the local day of its 12:00, one UTC day per local day in any zone', () => {
    // Tokyo (+9): 06-01 12:00Z is 06-01 21:00 there; Kiritimati (+14): 06-02 02:00; Los Angeles (−7): 06-01 05:00.
    expect(latencyOfPeriod(days, 'Asia/Tokyo', ['2026-06-01'])).toEqual({ '500': 2, x: 1, '300': 1 });
    expect(latencyOfPeriod(days, 'Pacific/Kiritimati', ['2026-06-02'])).toEqual({ '500': 2, x: 1, '300': 1 });
    expect(latencyOfPeriod(days, 'Pacific/Kiritimati', ['2026-06-01'])).toEqual({});
    expect(latencyOfPeriod(days, 'America/Los_Angeles', ['2026-06-03'])).toEqual({ '975': 2 });
    for (const tz of ['Etc/GMT+12', 'America/Los_Angeles', 'UTC', 'Asia/Kolkata', 'Pacific/Kiritimati']) {
      const hoursOf = localDaysOfHours(tz);
      const locals = Array.from({ length: 400 }, (_, i) => hoursOf(new Date(Date.parse('2026-01-01T00:00:00Z') + i * 86_400_000).toISOString().slice(0, 10))[12]);
      expect(new Set(locals).size).toBe(400);
    }
  });

  it('the histogram of a merge is the histogram of all the turns (same median)', () => {
    const a = [120, 480, 505, 2050];
    const b = [90, 12_000, 610];
    const merged = latencyOfPeriod(
      [
        { day: '2026-06-01', counters: latencyAttributes(a, '09') },
        { day: '2026-06-02', counters: latencyAttributes(b, '23') },
      ],
      'UTC',
      ['2026-06-01', '2026-06-02'],
    );
    expect(merged).toEqual(latencyHistogram([...a, ...b]));
    // Sorted: 90, 120, 480, 505, 610, 2050, 12000 → rank 4 = 505 → (500, 525].
    expect(histogramMedian(merged)).toEqual({ medianMs: 525, turns: 7 });
  });

  it('latency attributes do not leak into the other day sums', () => {
    const sums = sumByLocalDay(days, 'UTC', ['2026-06-01', '2026-06-02']);
    expect(sums.get('2026-06-01')).toMatchObject({ calls: 2, max: 90 });
    expect(sums.get('2026-06-02')).toMatchObject({ calls: 1 });
  });
});

describe('local days of the hours', () => {
  it('equals formatting every hour on its own, across a year of DST changes, :30/:45 zones and half-hour DST', () => {
    const zones = ['UTC', 'Europe/Madrid', 'America/Los_Angeles', 'America/Santiago', 'America/St_Johns', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Pacific/Kiritimati', 'Etc/GMT+12'];
    const utcDays = Array.from({ length: 366 }, (_, i) => new Date(Date.parse('2026-01-01T00:00:00Z') + i * 86_400_000).toISOString().slice(0, 10));
    for (const tz of zones) {
      const hoursOf = localDaysOfHours(tz);
      for (const day of utcDays) {
        const naive = Array.from({ length: 24 }, (_, h) => localDay(Date.parse(`${day}T00:00:00Z`) + h * 3_600_000, tz));
        expect({ tz, day, hours: hoursOf(day) }).toEqual({ tz, day, hours: naive });
      }
    }
  });
});

describe('counter attributes of a finished call', () => {
  it('one `lt{HH}_{bucket}` per bucket its turns fall in, in the UTC hour the call started; none for a call without streamed turns', () => {
    expect(latencyAttributes([480, 490, 1310, 15_000], '21')).toEqual({ lt21_500: 2, lt21_1325: 1, lt21_x: 1 });
    expect(latencyAttributes([], '21')).toEqual({});
    const attrs = latencyAttributes([0, 25, 2000, 2001, 10_000, 10_001], '07');
    expect(Object.keys(attrs).map(parseLatencyAttribute)).toEqual(['0', '25', '2000', '2100', '10000', 'x'].map((bucket) => ({ bucket, hour: 7 })));
    // The whole-day attributes written before hours were kept still read.
    expect(parseLatencyAttribute('lt_500')).toEqual({ bucket: '500', hour: null });
    for (const other of ['calls07', 'max23', 'lt_', 'lt_1e3', 'lt-25', 'lt_y', 'lt07_y', 'lt24_25', 'lt7_25', 'lt07_']) expect(parseLatencyAttribute(other)).toBeNull();
  });
});

describe('hourly latency buckets (the call\'s UTC hour decides its local day)', () => {
  it('a call in New York at 21:00 counts today, not tomorrow (its UTC day is already the next one)', () => {
    // 2026-11-29 02:00Z is 2026-11-28 21:00 in New York: the whole-day rule put it on the 29th (its 12:00Z is 07:00 there).
    const days: ActivityDay[] = [{ day: '2026-11-29', counters: { ...latencyAttributes([480], '02'), ...latencyAttributes([1310], '14') } }];
    expect(latencyOfPeriod(days, 'America/New_York', ['2026-11-28'])).toEqual({ '500': 1 });
    expect(latencyOfPeriod(days, 'America/New_York', ['2026-11-29'])).toEqual({ '1325': 1 });
    expect(latencyOfPeriod(days, 'Europe/Madrid', ['2026-11-29'])).toEqual({ '500': 1, '1325': 1 });
    // An old whole-day bucket beside them keeps the 12:00 rule.
    expect(latencyOfPeriod([{ day: '2026-11-29', counters: { lt_975: 2 } }], 'America/New_York', ['2026-11-29'])).toEqual({ '975': 2 });
  });
});

describe('the dashboard service', () => {
  const NOW = Date.parse('2026-06-10T12:00:00.000Z');
  const reader = (days: ActivityDay[]): DashboardReader => {
    const snap = { timeZone: '', days, contactsTotal: 0, conversations: { active: 0, closed: 0, requires_human: 0, archived: 0 }, topCallers: [], recentCalls: [] };
    return { snapshot: async () => snap, days: async () => snap };
  };

  it('turnLatency of the period: 7 days and 30 days; null without streamed turns', async () => {
    const days: ActivityDay[] = [
      { day: '2026-06-10', counters: { calls09: 1, lt_400: 1, lt_800: 2 } },
      { day: '2026-05-25', counters: { calls11: 1, lt_200: 4 } },
    ];
    const service = createDashboardService({ reader: reader(days), now: () => NOW });
    const empty = createDashboardService({ reader: reader([{ day: '2026-06-10', counters: { calls09: 3, done09: 3 } }]), now: () => NOW });

    expect((await service.dashboard('u', '7days')).voiceAnalytics.turnLatency).toEqual({ medianMs: 800, turns: 3 });
    expect((await service.dashboard('u', '30days')).voiceAnalytics.turnLatency).toEqual({ medianMs: 200, turns: 7 });
    expect((await empty.dashboard('u', '30days')).voiceAnalytics.turnLatency).toBeNull();
  });
});

describe('endCall hands the streamed turns’ latencies to the counters', () => {
  const turn = (role: CallTurn['role'], latency?: number): CallTurn => ({
    role,
    content: 'x',
    at: '2026-06-10T12:00:00.000Z',
    confidence: role === 'user' ? 0.9 : null,
    ...(latency === undefined ? {} : { latency: { firstTokenMs: latency, lastTokenMs: latency + 900 } }),
  });
  const call = (messages: CallTurn[]): StoredCall => ({
    id: 'c1',
    userId: 'u',
    callSid: 'CA1',
    status: 'active',
    phoneNumber: '+34600000000',
    internalNumber: '+34910000000',
    contact: null,
    duration: 0,
    createdAt: '2026-06-10T12:00:00.000Z',
    endedAt: null,
    voiceSettings: { name: 'A', description: '', language: 'es-ES' },
    messages,
    summary: null,
    summaryStatus: 'pending',
    deliveries: [],
    agent: null,
    escalated: false,
    settings: { ...VOICE_DEFAULTS },
    silences: 0,
    endedByUs: true,
    recording: null,
    billedMinutes: 0,
    conversationMode: messages.some((m) => m.latency) ? 'streaming' : 'gather',
    latency: null,
  });
  const end = { status: 'completed' as const, endReason: 'goodbye' as const, endedAt: '2026-06-10T12:02:00.000Z', seconds: 120, billedMinutes: 2 };

  async function finish(stored: StoredCall, alreadyFinished = false): Promise<FinishedCall[]> {
    const counted: FinishedCall[] = [];
    await endCall(
      {
        calls: { finish: async (_u, _id, e) => (alreadyFinished ? null : { ...stored, ...e }) },
        usage: { reserve: async () => 0, release: async () => undefined },
        queue: { enqueue: async () => undefined },
        activity: { callFinished: async (_u, c) => void counted.push(c) },
      },
      'u',
      stored,
      end,
    );
    return counted;
  }

  it('the agent turns’ first-token latencies in transcript order (not the welcome, not the caller’s turns)', async () => {
    const counted = await finish(call([turn('agent'), turn('user'), turn('agent', 430), turn('user', 999), turn('agent', 1210)]));
    expect(counted).toEqual([expect.objectContaining({ turns: 5, completed: true, seconds: 120, turnLatencies: [430, 1210] })]);
  });

  it('a <Gather> call: no latencies; a call another writer finished: not counted again', async () => {
    expect((await finish(call([turn('agent'), turn('user'), turn('agent')])))[0]!.turnLatencies).toEqual([]);
    expect(await finish(call([turn('agent', 300)]), true)).toEqual([]);
  });
});
