/**
 * Dashboard read time (part of `npm run bench`; issue 8: GET /api/dashboard p95 ≤ 100 ms through
 * the local gateway with 10,000 seeded calls).
 *
 * The local stack on a throw-away data dir; one registered user whose history is 10,000 completed
 * calls over the last 60 days from 500 callers, seeded with BatchWriteItem exactly as the call
 * loop's writes leave it (call items, hourly ACT# counters with the latency buckets of two streamed
 * answers per call, CALLER# items: test/support/seed-activity.ts),
 * plus a non-UTC profile time zone. Measured per request, from the GET to the last byte: the
 * gateway and JWT check, then the four reads side by side (profile + conversations + ≤ 33 day
 * items in one BatchGet, the 8 contacts shards, the top-callers Query, the newest-calls Query)
 * and the per-local-day sums and median turn latency. Both ranges and the voice trends are shown.
 *
 *   --runs=N    measured requests per row (default 200, after 20 warm-up requests)
 *   --calls=N   seeded calls (default 10000)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../local/services.js';
import { startLocalStack } from '../local/stack.js';
import { seedCallHistory } from '../test/support/seed-activity.js';
import { arg, percentile, registeredToken, table } from './bench-common.js';

const RUNS = arg('runs', 200);
const CALLS = arg('calls', 10_000);
const WARMUP = 20;
const TARGET_MS = 100;

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bench-dashboard-'));
const stack = await startLocalStack({ dataDir, quiet: true, env: { LOG_LEVEL: 'ERROR' } });
try {
  console.log(`\nGET /api/dashboard through the local gateway (${CALLS.toLocaleString('en-US')} seeded calls, ${RUNS} requests per row)\n`);
  const { token, userId } = await registeredToken(stack.apiUrl, stack.mailboxUrl);
  const db = DynamoDBDocumentClient.from(dynamoClient(stack.endpoints.dynamodb));
  const seedStart = performance.now();
  const { last29Days } = await seedCallHistory(db, stack.tableName, userId, CALLS);
  await db.send(
    new UpdateCommand({ TableName: stack.tableName, Key: { pk: `USER#${userId}`, sk: 'PROFILE' }, UpdateExpression: 'SET #tz = :tz', ExpressionAttributeNames: { '#tz': 'timeZone' }, ExpressionAttributeValues: { ':tz': 'Europe/Madrid' } }),
  );
  console.log(`seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s\n`);

  let wrong = 0;
  const timed = async (p: string, check: (data: Record<string, unknown>) => boolean): Promise<number> => {
    const t0 = performance.now();
    const res = await fetch(`${stack.apiUrl}${p}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { data?: Record<string, unknown> };
    const ms = performance.now() - t0;
    if (res.status !== 200 || !body.data || !check(body.data)) wrong++;
    return ms;
  };
  const dashboardOk = (d: Record<string, unknown>) => {
    const v = d.voiceAnalytics as {
      callsPerDay: Array<{ total: number }>;
      topPhoneNumbers: unknown[];
      overview: { totalCalls: number };
      turnLatency: { medianMs: number; turns: number } | null;
    };
    // Two streamed answers of 300–1,200 ms per seeded call, counted per UTC day (≈ the period's calls).
    const t = v.turnLatency;
    const latencyOk = t !== null && t.turns % 2 === 0 && Math.abs(t.turns / 2 - v.overview.totalCalls) <= v.overview.totalCalls / 5 && t.medianMs >= 300 && t.medianMs <= 1200;
    return v.callsPerDay.length === 30 && v.topPhoneNumbers.length === 5 && v.callsPerDay.reduce((n, x) => n + x.total, 0) >= last29Days && latencyOk;
  };
  const rows: Array<[string, string, (d: Record<string, unknown>) => boolean]> = [
    ['GET /api/dashboard (7days)', '/api/dashboard', dashboardOk],
    ['GET /api/dashboard?timeFilter=30days', '/api/dashboard?timeFilter=30days', dashboardOk],
    ['GET /api/dashboard/voice-trends', '/api/dashboard/voice-trends', (d) => (d.days as unknown[]).length === 30],
  ];
  for (let i = 0; i < WARMUP; i++) await timed(rows[0]![1], dashboardOk);

  let failures = 0;
  const out: string[][] = [];
  for (const [name, p, check] of rows) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await timed(p, check));
    const p95 = percentile(times, 95);
    const ok = p95 <= TARGET_MS;
    if (!ok) failures++;
    out.push([name, percentile(times, 50).toFixed(1), `${p95.toFixed(1)} ${ok ? '✓' : '✗'}`, percentile(times, 99).toFixed(1), Math.max(...times).toFixed(1), ok ? 'pass' : 'FAIL']);
  }
  console.log(table(['request', 'p50 ms', `p95 ms (≤${TARGET_MS})`, 'p99 ms', 'max ms', 'result'], out));
  if (wrong > 0) {
    failures++;
    console.log(`\n${wrong} response(s) were not the expected figures.`);
  }
  console.log(`\n${failures === 0 ? 'Dashboard target met.' : `Dashboard target missed (${failures}).`}`);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
