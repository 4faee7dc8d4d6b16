/**
 * WhatsApp media (issue 31, part of `npm run bench`), on the local stack (a throw-away data dir)
 * with the fakes answering at once (no stream delays, no download delay):
 *
 * (a) A customer's 30-second voice note, from the signed Meta delivery posted to the webhook to
 *     the agent's reply recorded by the fake Graph API: webhook → queue → whatsapp-inbound worker
 *     → GET /{media-id} → download → our encrypted copy in S3 → transcription (fake OpenAI) → the
 *     agent (fake OpenAI) → send. Target: p95 ≤ 500 ms. The fakes' own work (a few ms on
 *     loopback) is counted against the app. Rows: a new customer's first message, a voice note in
 *     an open conversation, the same delivery redelivered (nothing fetched or transcribed twice),
 *     and the same words typed (the path without media, for calibration). Besides the times,
 *     figures the machine's load does not change (medians): DynamoDB, S3 and Graph requests
 *     (describe, download, send), how many of them ran one after another (the longest chain: a
 *     quiet machine's latency is about that many round trips, plus the two OpenAI calls), and the
 *     OpenAI calls; exactly 1 transcription per voice note (0 for a redelivery), or the run fails.
 *
 * (b) The whatsapp-inbound worker's peak memory while handling a 16 MB voice note (Meta's audio
 *     limit), ≤ 256 MB: the worker's Lambda bundle (esbuild settings of infra/lib/bundling.ts, as
 *     deployed) runs in a fresh `node` process, pointed at this stack, and handles one SQS record
 *     with the delivery; its peak resident set (process.resourceUsage().maxRSS, what Lambda
 *     reports as "Max Memory Used": the runtime and modules included) is compared with the
 *     budget. A text message in another fresh process is the baseline.
 *
 *   --runs=N   measured voice notes per row (default 30, after 3 warm-up ones)
 *   --trace    print the requests of one voice note (start, end, kind, operation or path)
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { esbuildOptions, functionsDir, repoRoot } from '../../infra/lib/bundling.js';
import { startLocalStack } from '../local/stack.js';
import { MEDIA_LIMITS } from '../src/contract/whatsapp-media.js';
import { workers } from '../src/routes.js';
import { createAnsweringAgent } from '../test/support/agents-api.js';
import { api, useOwnStack } from '../test/support/api.js';
import { paidUser } from '../test/support/billing.js';
import { registerFakeMedia, registerFakeTranscript, syntheticVoiceNote } from '../test/support/media-fakes.js';
import { connectWhatsApp, graphSends, mediaMessage, metaDelivery, postWebhook, signMetaBody, textMessage, waCustomer, type ConnectedWhatsApp, type InboundMessage } from '../test/support/whatsapp.js';
import { arg, longestChain, percentile, table } from './bench-common.js';

const RUNS = arg('runs', 30);
const WARMUP = 3;
const OVERHEAD_P95_MS = 500;
const PEAK_RSS_MB = 256;
const VOICE_SECONDS = 30;
const BIG_VOICE_BYTES = MEDIA_LIMITS.maxBytes.audio;
const TRANSCRIPT = 'Hola, buenas. Quería pedir cita con la Dra. Pérez para una limpieza, ¿tenéis hueco el jueves por la tarde? Gracias.';
const MB = 1024 * 1024;

// ---- counting: every fetch of this process (the gateway, the dispatcher and the worker run here)
type Count = 'dynamodb' | 's3' | 'sqs' | 'graphDescribe' | 'graphDownload' | 'graphSend' | 'graphOther';
let counts: Record<Count, number> | null = null;
/** The counted requests' [start, end] (end: the answer's headers), for the round trips in sequence. */
let spans: Array<[number, number]> = [];
let origins: { dynamodb: string; s3: string; sqs: string; graph: string } | null = null;
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  if (!counts || !origins) return realFetch(input, init);
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const kind = classify(url, method, origins);
  if (!kind) return realFetch(input, init);
  counts[kind]++;
  const started = performance.now();
  const own = spans;
  const res = await realFetch(input, init);
  own.push([started, performance.now()]);
  if (trace) {
    const target = new Headers(init?.headers).get('x-amz-target')?.split('.')[1];
    trace.lines.push(`${(started - trace.t0).toFixed(1).padStart(7)} ${(performance.now() - trace.t0).toFixed(1).padStart(7)}  ${kind.padEnd(13)} ${method.padEnd(6)} ${target ?? url.pathname.slice(0, 70)}`);
  }
  return res;
};
/** --trace: the requests of one voice note (ms from its delivery). */
let trace: { t0: number; lines: string[] } | null = null;

function classify(url: URL, method: string, o: NonNullable<typeof origins>): Count | undefined {
  if (url.origin === o.dynamodb) return 'dynamodb';
  if (url.origin === o.s3) return 's3';
  if (url.origin === o.sqs) return 'sqs';
  if (url.origin !== o.graph) return undefined;
  const p = url.pathname.replace(/^\/v\d+\.\d+(?=\/)/, '');
  if (method === 'POST' && /^\/\d+\/messages$/.test(p)) return 'graphSend';
  // GET /{media-id}?phone_number_id=…: the media's description (GET /{phone-id} alone is the number's).
  if (method === 'GET' && /^\/\d+$/.test(p) && url.searchParams.has('phone_number_id')) return 'graphDescribe';
  if (method === 'GET') return 'graphDownload';
  return 'graphOther';
}
const zero = (): Record<Count, number> => ({ dynamodb: 0, s3: 0, sqs: 0, graphDescribe: 0, graphDownload: 0, graphSend: 0, graphOther: 0 });

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bench-media-'));
const stack = await startLocalStack({ dataDir, quiet: true });
const failures: string[] = [];
try {
  useOwnStack(stack);
  if (!stack.whatsappGraphUrl || !stack.openaiUrl) throw new Error('the bench needs the fake Graph API and the fake OpenAI');
  origins = {
    dynamodb: new URL(stack.appEndpoints.dynamodb).origin,
    s3: new URL(stack.appEndpoints.s3).origin,
    sqs: new URL(stack.appEndpoints.sqs).origin,
    graph: new URL(stack.whatsappGraphUrl).origin,
  };
  const openaiUrl = stack.openaiUrl;

  // ---- one Spanish clinic: paid plan, ChatGPT (the fake), an answering agent, WhatsApp connected
  const { token, userId } = await paidUser({ plan: 'enterprise' });
  const key = `sk-bench-${randomUUID()}`;
  const chatgpt = await api('POST', '/api/integrations/chatgpt/setup', { token, body: { apiKey: key, model: 'gpt-4o' } });
  if (chatgpt.status !== 200) throw new Error(`ChatGPT setup: ${chatgpt.status} ${chatgpt.body.message}`);
  await createAnsweringAgent(token, 'Sonia');
  const wa = await connectWhatsApp(token);
  // Provider delays zero: the model's stream paced by nothing (also the fake's default).
  await realFetch(`${openaiUrl}/_test/stream-delays`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ firstTokenMs: 0, tokenMs: 0, key }) });

  const openaiCalls = async () => {
    const res = await realFetch(`${openaiUrl}/_test/requests?key=${encodeURIComponent(key)}`);
    const { requests } = (await res.json()) as { requests: { path: string; body: unknown }[] };
    return requests;
  };
  const by = (requests: { path: string }[], part: string) => requests.filter((r) => r.path.includes(part)).length;

  const voice = syntheticVoiceNote({ seconds: VOICE_SECONDS });
  await registerFakeTranscript(openaiUrl, voice, { text: TRANSCRIPT, language: 'es' });

  interface Run {
    ms: number;
    counts: Record<Count, number>;
    /** DynamoDB, S3, SQS and Graph requests one after another (OpenAI's calls, over node:http, not seen). */
    sequential: number;
    transcriptions: number;
    chats: number;
  }

  /** Posts one signed delivery, waits for the queue to be idle, and reads what it cost. */
  async function deliver(wa: ConnectedWhatsApp, message: InboundMessage, raw?: string): Promise<Run & { raw: string; reply: boolean; message: InboundMessage }> {
    // `raw`: a delivery posted before, again (Meta redelivers the same bytes).
    const body = raw ?? metaDelivery(wa, { messages: [message] });
    const signature = signMetaBody(body, wa.appSecret);
    const openaiBefore = await openaiCalls();
    const sentBefore = (await graphSends(wa.phoneId)).length;
    counts = zero();
    spans = [];
    const t0 = Date.now();
    const res = await postWebhook(wa.integrationId, body, signature);
    if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${res.text}`);
    await stack.dispatcher.drain();
    const done = Date.now();
    const measured = counts;
    counts = null;
    const sequential = longestChain(spans);
    const replies = (await graphSends(wa.phoneId)).slice(sentBefore).filter((s) => s.to === message.customer.waId && s.status === 200);
    const openai = (await openaiCalls()).slice(openaiBefore.length);
    return {
      raw: body,
      message,
      reply: replies.length > 0,
      // The reply's moment as the fake Graph recorded it (ms); a redelivery sends nothing: until idle.
      ms: replies[0] ? Date.parse(replies[0].at) - t0 : done - t0,
      counts: measured,
      sequential,
      transcriptions: by(openai, '/audio/transcriptions'),
      chats: by(openai, '/chat/completions'),
    };
  }

  async function voiceNote(customer = waCustomer('Lucía Pérez')) {
    const media = await registerFakeMedia(stack.whatsappGraphUrl!, voice, { mimeType: 'audio/ogg; codecs=opus' });
    return deliver(wa, mediaMessage(customer, 'audio', { mediaId: media.id, sha256: media.sha256, voice: true, mimeType: 'audio/ogg; codecs=opus' }));
  }

  // Warm-up (module loads, connections, JIT); the first also proves the transcript reached the agent.
  for (let i = 0; i < WARMUP; i++) {
    const run = await voiceNote();
    if (!run.reply) throw new Error('no reply to the warm-up voice note');
    if (i === 0) {
      const chat = (await openaiCalls()).filter((r) => r.path.includes('/chat/completions')).at(-1);
      if (!JSON.stringify(chat?.body ?? '').includes('Dra. P')) failures.push('the transcript did not reach the model');
    }
  }

  if (process.argv.includes('--trace')) {
    trace = { t0: performance.now(), lines: [] };
    await voiceNote();
    console.log(`\nRequests of a voice note in a new conversation (start, end in ms; OpenAI's calls not seen):\n${trace.lines.join('\n')}\n`);
    trace = null;
  }

  const first: Run[] = [];
  const followUp: Run[] = [];
  const redelivered: Run[] = [];
  const customers = Array.from({ length: RUNS }, (_, i) => waCustomer(`Cliente ${i + 1}`));
  const sent: { message: InboundMessage; raw: string }[] = [];
  for (const customer of customers) {
    const run = await voiceNote(customer);
    if (!run.reply) failures.push(`no reply to ${customer.name}'s voice note`);
    first.push(run);
    sent.push({ message: run.message, raw: run.raw });
  }
  for (const customer of customers) {
    const run = await voiceNote(customer);
    if (!run.reply) failures.push(`no reply to ${customer.name}'s second voice note`);
    followUp.push(run);
  }
  for (const { message, raw } of sent) redelivered.push(await deliver(wa, message, raw));
  // Calibration: a text in an open conversation takes the same path without the media (webhook, queue, agent, send).
  const texts: Run[] = [];
  for (const customer of customers) texts.push(await deliver(wa, textMessage(customer, 'Quería pedir cita con la Dra. Pérez para una limpieza, ¿tenéis hueco el jueves por la tarde?')));

  for (const run of [...first, ...followUp]) if (run.transcriptions !== 1) failures.push(`a voice note made ${run.transcriptions} transcription calls (must be 1)`);
  for (const run of redelivered) if (run.transcriptions !== 0 || run.counts.graphDownload !== 0) failures.push('a redelivered voice note was fetched or transcribed again');

  const median = (runs: Run[], pick: (r: Run) => number) => String(percentile(runs.map(pick), 50));
  const row = (name: string, runs: Run[], judged: boolean) => {
    const p95 = percentile(runs.map((r) => r.ms), 95);
    if (judged && p95 > OVERHEAD_P95_MS) failures.push(`${name}: p95 ${p95} ms > ${OVERHEAD_P95_MS} ms`);
    return [
      name,
      String(runs.length),
      String(percentile(runs.map((r) => r.ms), 50)),
      String(p95),
      judged ? `≤ ${OVERHEAD_P95_MS} ${p95 <= OVERHEAD_P95_MS ? '✓' : '✗'}` : '—',
      median(runs, (r) => r.counts.dynamodb),
      median(runs, (r) => r.counts.s3),
      median(runs, (r) => r.sequential),
      `${median(runs, (r) => r.counts.graphDescribe)} + ${median(runs, (r) => r.counts.graphDownload)} + ${median(runs, (r) => r.counts.graphSend)}`,
      `${Math.min(...runs.map((r) => r.transcriptions))}-${Math.max(...runs.map((r) => r.transcriptions))}`,
      median(runs, (r) => r.chats),
    ];
  };
  const load = os.loadavg()[0]!;
  console.log(`\nWhatsApp voice note (${VOICE_SECONDS} s Ogg Opus, ${(voice.length / 1024).toFixed(0)} KB) → reply sent, fakes answering at once, local stack (${RUNS} per row, ms)`);
  console.log(`Machine: ${os.cpus().length} CPU(s), load average ${load.toFixed(1)}${load > os.cpus().length ? ' (busy: times are inflated; the request counts are not)' : ''}\n`);
  console.log('"in sequence": DynamoDB, S3, SQS and Graph requests one after another (the transcription and the model call, over node:http, come on top).\n');
  console.log(
    table(
      ['voice note', 'n', 'p50', 'p95', 'target p95', 'DynamoDB req.', 'S3 req.', 'in sequence', 'Graph describe + download + send', 'transcriptions', 'chat calls'],
      [
        row("a new customer's first message (contact + conversation created)", first, true),
        row('in an open conversation', followUp, true),
        row('the same delivery again (already answered: until the queue is idle)', redelivered, false),
        row('calibration: the same words typed (a text in an open conversation)', texts, false),
      ],
    ),
  );

  // ---- (b) peak memory of the worker, in a process of its own
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bench-media-worker-'));
  try {
    const entry = path.join(functionsDir, workers['whatsapp-inbound'].entry);
    const bundle = path.join(outDir, 'index.mjs');
    await esbuild.build({ ...esbuildOptions(entry, bundle), absWorkingDir: repoRoot, logLevel: 'silent' });

    const big = syntheticVoiceNote({ bytes: BIG_VOICE_BYTES });
    await registerFakeTranscript(openaiUrl, big, { text: TRANSCRIPT, language: 'es' });
    const runWorker = async (label: string, message: InboundMessage) => {
      const job = { userId, integrationId: wa.integrationId, receivedAt: new Date().toISOString(), body: metaDelivery(wa, { messages: [message] }) };
      const openaiBefore = (await openaiCalls()).length;
      const sentBefore = (await graphSends(wa.phoneId)).length;
      const measured = await workerPeak(bundle, path.join(outDir, `${label}.json`), job);
      await stack.dispatcher.drain();
      const transcriptions = by((await openaiCalls()).slice(openaiBefore), '/audio/transcriptions');
      const replied = (await graphSends(wa.phoneId)).slice(sentBefore).some((s) => s.to === message.customer.waId && s.status === 200);
      return { ...measured, transcriptions, replied };
    };
    const text = await runWorker('text', textMessage(waCustomer('Ana Gómez'), 'Hola, ¿a qué hora abrís el sábado?'));
    const bigMedia = await registerFakeMedia(stack.whatsappGraphUrl, big, { mimeType: 'audio/ogg; codecs=opus' });
    const bigRun = await runWorker(
      'voice',
      mediaMessage(waCustomer('Marta Ruiz'), 'audio', { mediaId: bigMedia.id, sha256: bigMedia.sha256, voice: true, mimeType: 'audio/ogg; codecs=opus' }),
    );
    if (bigRun.failed) failures.push(`the worker failed the 16 MB voice note: ${bigRun.failed}`);
    if (!bigRun.replied) failures.push('no reply to the 16 MB voice note');
    if (bigRun.transcriptions !== 1) failures.push(`the 16 MB voice note made ${bigRun.transcriptions} transcription calls (must be 1)`);
    if (bigRun.peakMb > PEAK_RSS_MB) failures.push(`16 MB voice note: peak ${bigRun.peakMb.toFixed(0)} MB > ${PEAK_RSS_MB} MB`);
    const mem = (name: string, r: typeof text, judged: boolean) => [
      name,
      r.loadedMb.toFixed(0),
      r.peakMb.toFixed(0),
      (r.peakMb - r.loadedMb).toFixed(0),
      judged ? `≤ ${PEAK_RSS_MB} ${!r.failed && r.peakMb <= PEAK_RSS_MB ? '✓' : '✗'}` : '—',
      r.ms.toFixed(0),
      r.failed ? `failed: ${r.failed}` : r.replied ? 'answered' : 'no reply',
    ];
    console.log(`\nwhatsapp-inbound worker's memory (Lambda bundle in a fresh node ${process.version} process; RSS in MB, maxRSS as Lambda's "Max Memory Used")\n`);
    console.log(
      table(
        ['message handled', 'modules loaded', 'peak', 'peak − loaded', 'target peak', 'ms', 'outcome'],
        [mem('a text message (baseline)', text, false), mem(`a ${(big.length / MB).toFixed(0)} MB voice note (Meta's audio limit)`, bigRun, true)],
      ),
    );
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }

  if (failures.length) {
    console.log(`\nTargets missed:\n${failures.map((f) => `- ${f}`).join('\n')}`);
    process.exitCode = 1;
  }
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * One SQS record with `job` handled by the worker's bundle in a fresh node process (this stack's
 * handler environment, as the dispatcher gives it): resident set once the modules are loaded, and
 * the process's peak (maxRSS: the runtime and modules included, sampled every 5 ms besides).
 */
async function workerPeak(bundle: string, eventFile: string, job: unknown): Promise<{ loadedMb: number; peakMb: number; ms: number; failed?: string }> {
  const messageId = randomUUID();
  const now = String(Date.now());
  const event = {
    Records: [
      {
        messageId,
        receiptHandle: Buffer.from(`${messageId}:1:${randomUUID()}`).toString('base64'),
        body: JSON.stringify(job),
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: now, SenderId: 'AIDALOCAL000000000000', ApproximateFirstReceiveTimestamp: now },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:whatsapp-inbound',
        awsRegion: 'us-east-1',
      },
    ],
  };
  writeFileSync(eventFile, JSON.stringify(event));
  const code = `
    import { readFileSync } from 'node:fs';
    const { handler } = await import(${JSON.stringify(pathToFileURL(bundle).href)});
    const loaded = process.memoryUsage().rss;
    let peak = loaded;
    const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
    const event = JSON.parse(readFileSync(${JSON.stringify(eventFile)}, 'utf8'));
    const deadline = Date.now() + 60000;
    const context = { functionName: 'agentdesk-whatsapp-inbound', functionVersion: '$LATEST', invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:agentdesk-whatsapp-inbound', memoryLimitInMB: '512', awsRequestId: '${messageId}', logGroupName: '/aws/lambda/bench', logStreamName: 'bench', callbackWaitsForEmptyEventLoop: true, getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()), done() {}, fail() {}, succeed() {} };
    const t = performance.now();
    const result = await handler(event, context);
    const ms = performance.now() - t;
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
    console.log('@@bench-media@@' + JSON.stringify({ loaded, peak, ms, failures: result?.batchItemFailures?.length ?? 0 }));
    process.exit(0);
  `;
  // Not spawnSync: the worker talks to this process's fakes, s3rver and queue endpoint.
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    // The stack's handler environment (applied to this process) and Lambda's source maps.
    env: { ...process.env, NODE_OPTIONS: '--enable-source-maps', LOG_LEVEL: 'ERROR' },
    cwd: path.dirname(bundle),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4000)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const exit = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  const out = { stdout, stderr: `${stderr}${exit ? ` (exit ${exit})` : ''}` };
  const line = out.stdout.split('\n').find((l) => l.startsWith('@@bench-media@@'));
  if (!line) return { loadedMb: 0, peakMb: 0, ms: 0, failed: (out.stderr || out.stdout).trim().split('\n').slice(-3).join(' | ') };
  const r = JSON.parse(line.slice('@@bench-media@@'.length)) as { loaded: number; peak: number; ms: number; failures: number };
  return { loadedMb: r.loaded / MB, peakMb: r.peak / MB, ms: r.ms, ...(r.failures ? { failed: 'the record was reported as a batch item failure' } : {}) };
}
