/**
 * Voice webhook TwiML response time (part of `npm run bench`; issue 7: p95 ≤ 50 ms for the
 * incoming-call and gather webhooks through the local gateway, the model's time excluded).
 *
 * The local stack on a throw-away data dir; one user (enterprise subscription, ChatGPT on the
 * in-process fake OpenAI — it answers at once, so the model's time is ~0 —, one enabled agent, the
 * Twilio Voice integration set up through the API against the fake Twilio). Calls are played by
 * the call simulator exactly as Twilio plays them: signed form POSTs to the public URLs, TwiML
 * parsed. Measured per request, from the POST to the last byte of TwiML: the gateway, the
 * integration read + auth token opened + X-Twilio-Signature check, then
 *   incoming: settings, agents, ChatGPT connection, contact lookup, minute reservation (side by
 *             side) → the call stored (one transaction) → TwiML;
 *   gather:   the call read → agent + connection → the agent turn (fake model) → the two turns
 *             appended (one conditional write) → TwiML.
 * The call-summary consumer is paused (another Lambda in AWS). Also shown: forged signatures (403).
 *
 *   --runs=N   measured calls (default 200, after 15 warm-up calls)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simulateCall, type SimulatedCall } from '../local/fake-twilio/call-simulator.js';
import { startLocalStack } from '../local/stack.js';
import { arg, digits, percentile, table, voiceBenchUser } from './bench-common.js';

const RUNS = arg('runs', 200);
const WARMUP = 15;
const TARGET_MS = 50;


const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bench-voice-'));
// ERROR only: forged requests log a warning each.
const stack = await startLocalStack({ dataDir, quiet: true, env: { LOG_LEVEL: 'ERROR' } });
try {
  console.log(`\nVoice webhook TwiML through the local gateway (${RUNS} simulated calls; model answers instantly)\n`);
  // The <Gather> loop (streaming is the default since issue 16; bench-voice-relay measures that path).
  const { number, account, setup } = await voiceBenchUser(stack, 'gather');

  stack.dispatcher.stop();

  const play = (authToken = account.authToken): Promise<SimulatedCall> =>
    simulateCall({
      voiceUrl: setup.webhookUrl,
      statusCallbackUrl: setup.statusCallbackUrl,
      accountSid: account.accountSid,
      authToken,
      from: `+346${digits(8)}`,
      to: number,
      turns: [{ speech: '¿A qué hora abrís el sábado?', confidence: 0.92 }],
      twilioApiUrl: stack.twilioApiUrl ?? undefined,
    });

  for (let i = 0; i < WARMUP; i++) await play();

  const incoming: number[] = [];
  const gather: number[] = [];
  const forged: number[] = [];
  let wrong = 0;
  for (let i = 0; i < RUNS; i++) {
    const c = await play();
    const voice = c.requests.find((r) => r.kind === 'voice');
    const g = c.requests.find((r) => r.kind === 'gather');
    if (voice?.status !== 200 || g?.status !== 200 || !c.events.some((e) => e.verb === 'Say' && e.text?.startsWith('Echo:'))) wrong++;
    if (voice) incoming.push(voice.durationMs);
    if (g) gather.push(g.durationMs);
  }
  for (let i = 0; i < RUNS; i++) {
    const c = await play('0'.repeat(32));
    if (c.requests[0]?.status !== 403) wrong++;
    forged.push(c.requests[0]?.durationMs ?? 0);
  }

  let failures = wrong > 0 ? 1 : 0;
  const row = (name: string, times: number[], target: boolean) => {
    const p95 = percentile(times, 95);
    const ok = !target || p95 <= TARGET_MS;
    if (!ok) failures++;
    return [name, percentile(times, 50).toFixed(1), `${p95.toFixed(1)}${target ? (ok ? ' ✓' : ' ✗') : ''}`, percentile(times, 99).toFixed(1), Math.max(...times).toFixed(1), ok ? 'pass' : 'FAIL'];
  };
  console.log(
    table(
      ['webhook', 'p50 ms', `p95 ms (≤${TARGET_MS})`, 'p99 ms', 'max ms', 'result'],
      [row('incoming call → welcome TwiML', incoming, true), row('gather (speech) → agent answer TwiML', gather, true), row('forged signature → 403', forged, true)],
    ),
  );
  if (wrong > 0) console.log(`\n${wrong} call(s) did not answer as expected.`);
  console.log(`\n${failures === 0 ? 'Voice webhook target met.' : `Voice webhook target missed (${failures}).`}`);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
