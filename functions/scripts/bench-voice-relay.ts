/**
 * Streamed voice turns (issue 16; part of `npm run bench`): the ConversationRelay path side by
 * side with the <Gather> path, in one run on one local stack.
 *
 * The local stack on a throw-away data dir; one user (enterprise subscription, ChatGPT on the
 * in-process fake OpenAI, one agent, the Twilio Voice integration set up against the fake Twilio).
 * The fake model streams its first token 300 ms after the request, then one word every 30 ms.
 * Calls are played by the call simulator as Twilio plays them: the incoming webhook, then for
 * streamed calls the signed WebSocket to the gateway's voice-relay API (setup, prompts, a barge-in)
 * and the <Connect action>; for <Gather> calls the signed gather webhooks. The mode is selected
 * with PUT /api/voice-settings between the two halves. Each call: a question, a long question the
 * caller interrupts after the first answer token, a thank-you.
 *
 * Measured at the caller's side (the simulator):
 *   streamed  prompt sent → first text token, minus the model's 300 ms = the app's overhead
 *             (target p95 ≤ 50 ms); interrupt sent → last token of that answer still arriving
 *             (target p95 ≤ 100 ms; 0 when none came after it);
 *   gather    end of speech (the gather POST) → the TwiML answer, with the model answering at once
 *             (for comparison: the caller then still waits for the whole answer to be spoken).
 * The call-summary consumer is paused (another Lambda in AWS).
 *
 *   --calls=N   measured calls per mode (default 20, after 3 warm-up calls each)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simulateCall, type ScriptTurn, type SimulatedCall } from '../local/fake-twilio/call-simulator.js';
import { startLocalStack } from '../local/stack.js';
import { arg, digits, percentile, table, voiceBenchUser } from './bench-common.js';

const CALLS = arg('calls', 20);
const WARMUP = 3;
const MODEL_FIRST_TOKEN_MS = 300;
const OVERHEAD_TARGET_MS = 50;
const INTERRUPT_TARGET_MS = 100;


const TURNS: ScriptTurn[] = [
  { speech: '¿A qué hora abrís el sábado?', confidence: 0.92 },
  {
    speech: 'Cuéntame con calma los horarios de la semana, los precios de cada servicio, las ofertas de este mes, cómo se reserva, qué pasa si llego tarde y dónde puedo aparcar',
    confidence: 0.9,
    interruptAfterTokens: 1,
  },
  { speech: 'Vale, gracias', confidence: 0.95 },
];

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bench-relay-'));
const stack = await startLocalStack({
  dataDir,
  quiet: true,
  // ERROR only: the relay logs a line per refused handshake or late frame.
  env: { LOG_LEVEL: 'ERROR' },
  openai: { streamDelays: { firstTokenMs: MODEL_FIRST_TOKEN_MS, tokenMs: 30 } },
});
try {
  console.log(`\nStreamed voice turns (ConversationRelay) vs <Gather> (${CALLS} calls each; the model's first token after ${MODEL_FIRST_TOKEN_MS} ms)\n`);
  const { number, account, setup, setMode } = await voiceBenchUser(stack, 'streaming');

  stack.dispatcher.stop();

  const play = (): Promise<SimulatedCall> =>
    simulateCall({
      voiceUrl: setup.webhookUrl,
      statusCallbackUrl: setup.statusCallbackUrl,
      accountSid: account.accountSid,
      authToken: account.authToken,
      from: `+346${digits(8)}`,
      to: number,
      turns: TURNS,
      twilioApiUrl: stack.twilioApiUrl ?? undefined,
      relay: { turnTimeoutMs: 15_000, interruptSettleMs: 500 },
    });

  let wrong = 0;
  const firstToken: number[] = [];
  const lastToken: number[] = [];
  const interruptToLast: number[] = [];
  const tokensAfterInterrupt: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const c = await play();
    const session = c.relaySessions[0];
    const turns = session?.turns ?? [];
    const ok = session?.handshakeStatus === 101 && turns.length === TURNS.length && turns.every((t) => !t.timedOut && t.tokens > 0) && turns[1]?.interrupted === true;
    if (!ok) {
      wrong++;
      continue;
    }
    if (i < WARMUP) continue;
    for (const t of turns) firstToken.push(t.firstTokenMs!);
    for (const t of turns) if (!t.interrupted) lastToken.push(t.lastTokenMs!);
    interruptToLast.push(turns[1]!.interruptToLastTokenMs!);
    tokensAfterInterrupt.push(turns[1]!.tokensAfterInterrupt);
  }

  const gatherAnswer: number[] = [];
  await setMode('gather');
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const c = await play();
    const gathers = c.requests.filter((r) => r.kind === 'gather');
    if (c.relaySessions.length > 0 || gathers.length !== TURNS.length || gathers.some((g) => g.status !== 200)) {
      wrong++;
      continue;
    }
    if (i >= WARMUP) gatherAnswer.push(...gathers.map((g) => g.durationMs));
  }

  if (firstToken.length === 0 || gatherAnswer.length === 0) throw new Error(`no measurable calls (${wrong} did not play as expected)`);
  const overhead = firstToken.map((ms) => ms - MODEL_FIRST_TOKEN_MS);
  let failures = wrong > 0 ? 1 : 0;
  const fmt = (ms: number) => ms.toFixed(1);
  const row = (name: string, times: number[], target?: number) => {
    const p95 = percentile(times, 95);
    const ok = target === undefined || p95 <= target;
    if (!ok) failures++;
    return [
      name,
      String(times.length),
      fmt(percentile(times, 50)),
      `${fmt(p95)}${target === undefined ? '' : ok ? ' ✓' : ' ✗'}`,
      fmt(Math.max(...times)),
      target === undefined ? '—' : `p95 ≤ ${target}`,
      target === undefined ? '' : ok ? 'pass' : 'FAIL',
    ];
  };
  console.log(
    table(
      ['path: measure', 'n', 'p50 ms', 'p95 ms', 'max ms', 'target', 'result'],
      [
        row(`streamed: prompt → first text token (model ${MODEL_FIRST_TOKEN_MS} ms)`, firstToken),
        row('streamed: app overhead (first token − model)', overhead, OVERHEAD_TARGET_MS),
        row('streamed: prompt → last text token', lastToken),
        row('streamed: interrupt → last token of that answer', interruptToLast, INTERRUPT_TARGET_MS),
        row('gather: end of speech → TwiML answer (model instant)', gatherAnswer),
      ],
    ),
  );
  const late = tokensAfterInterrupt.reduce((a, b) => a + b, 0);
  console.log(`\nTokens still arriving after an interrupt: ${late} in ${tokensAfterInterrupt.length} interrupted answers (max ${Math.max(...tokensAfterInterrupt)}).`);
  if (wrong > 0) console.log(`${wrong} call(s) did not play as expected.`);
  console.log(`\n${failures === 0 ? 'Streamed voice targets met.' : `Streamed voice targets missed (${failures}).`}`);
  if (failures > 0) process.exitCode = 1;
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
