/**
 * `npm run bench`: every benchmark in turn, each in its own process, and one summary at the end.
 * A bench that misses its target (exit 1) no longer stops the ones after it, as the old `&&`
 * chain did; the run still fails when any of them failed.
 */
import { spawnSync } from 'node:child_process';

const BENCHES = [
  'infra/scripts/bench.ts',
  'functions/scripts/bench-contacts.ts',
  'functions/scripts/bench-contacts-import.ts',
  'functions/scripts/bench-runtime.ts',
  'functions/scripts/bench-knowledge.ts',
  'functions/scripts/bench-knowledge-eval.ts',
  'functions/scripts/bench-whatsapp-webhook.ts',
  'functions/scripts/bench-whatsapp-inbound.ts',
  'functions/scripts/bench-voice-webhook.ts',
  'functions/scripts/bench-voice-relay.ts',
  // Issue 8: the dashboard's p95; issue 32: GET /api/conversations as a team member costs no more DynamoDB requests than as the owner.
  'functions/scripts/bench-dashboard.ts',
  // Issue 30: find_slots over 3 months for 10 staff, and 50 bookings racing for one slot.
  'functions/scripts/bench-bookings.ts',
  // Issue 31: a 30 s voice note from delivery to reply (p95 ≤ 500 ms) and the worker's peak memory on a 16 MB one (≤ 256 MB).
  'functions/scripts/bench-media.ts',
  // Issue 34: every dependency failing in turn; fails on any loss or duplicate.
  'functions/scripts/bench-fault-matrix.ts',
  // Issue 33: a person's erasure (10,000 messages, 500 media objects) within 60 s, requests proportional to items, no Scan, memory bounded.
  'functions/scripts/bench-erasure.ts',
];

const outcomes: { bench: string; status: string; seconds: string }[] = [];
for (const bench of BENCHES) {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', bench, ...process.argv.slice(2)], { stdio: 'inherit' });
  const status = run.error ? `could not start: ${run.error.message}` : run.status === 0 ? 'targets met' : `failed (exit ${run.status ?? run.signal})`;
  outcomes.push({ bench, status, seconds: ((performance.now() - started) / 1000).toFixed(0) });
}

console.log('\nBenchmarks\n');
console.log('| bench | outcome | s |\n|-------|---------|---|');
for (const o of outcomes) console.log(`| ${o.bench} | ${o.status} | ${o.seconds} |`);
process.exitCode = outcomes.every((o) => o.status === 'targets met') ? 0 : 1;
