/**
 * The fault matrix's world (issue 34): the providers' fakes (OpenAI, WhatsApp Graph, Twilio) in
 * this process, and the runtime — startLocalStack with its fault proxies — in a process of its own
 * (stack-process.ts), pointed at those fakes. A row can then take a service down (the proxies),
 * make a provider fail (the fakes' switches), or crash the whole runtime and start it again on the
 * same data folder and ports, while the fakes keep what they saw. The test support helpers
 * (api.ts `provided`) are pointed at it with useOwnStack, so rows use the usual helpers.
 *
 * Used by integration/fault-matrix.test.ts and scripts/bench-fault-matrix.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeOpenAi, type FakeOpenAi } from '../../../local/fake-openai/server.js';
import { startFakeTwilio, type FakeTwilio } from '../../../local/fake-twilio/server.js';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../local/fake-whatsapp/server.js';
import { freePort } from '../../../local/ports.js';
import { useOwnStack } from '../api.js';

export const READY_PREFIX = '@@matrix-stack-ready@@';

/**
 * The local queue's clock in the matrix (RETRY_TIME_SCALE): the retry schedule's 45.5 minutes in
 * about 27 s (first retry after 0.3 s), so a 20-second outage is ridden out by the schedule, as a
 * 30-minute one is in AWS, and a row still ends in seconds.
 */
export const MATRIX_RETRY_TIME_SCALE = 0.01;

export interface MatrixStackConfig {
  dataDir: string;
  ports: Record<'gateway' | 'dynamodb' | 'cognito' | 's3' | 'ses' | 'sqs' | 'stripe', number>;
  env: Record<string, string>;
}

/** What the runtime process reports once its stack is up. */
export interface MatrixStackReady {
  apiUrl: string;
  mailboxUrl: string;
  deadLettersUrl: string;
  faultsUrl: string;
  endpoints: { dynamodb: string; s3: string; ses: string; sqs: string; cognito: string };
  tableName: string;
  uploadsBucket: string;
  queueUrls: Record<string, string>;
  stripeApiUrl: string;
}

export interface MatrixStack {
  ready: MatrixStackReady;
  fakes: { openai: FakeOpenAi; whatsapp: FakeWhatsApp; twilio: FakeTwilio };
  dataDir: string;
  /** SIGKILL of the runtime's process group (the stack, DynamoDB Local, cognito-local): a power cut. */
  crash(): Promise<void>;
  /** Starts the runtime again on the same data folder and ports. */
  start(): Promise<void>;
  /** Stops the runtime cleanly and the fakes; removes the data folder it made. */
  stop(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..', '..', '..');
const functionsDir = join(repoRoot, 'functions');
/** The runtime process's environment: the machine's basics only, never the handler environment of the process that starts it. */
const KEPT_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TEMP', 'TMP', 'TZ', 'JAVA_HOME'];

export async function startMatrixStack(options: { startTimeoutMs?: number } = {}): Promise<MatrixStack> {
  const quiet = () => undefined;
  const [openai, whatsapp, twilio] = await Promise.all([startFakeOpenAi({ log: quiet }), startFakeWhatsApp({ log: quiet }), startFakeTwilio({ log: quiet })]);
  const dataDir = join(functionsDir, '.test-data', `fault-matrix-${randomUUID()}`);
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, 'runtime.log');
  const names = ['gateway', 'dynamodb', 'cognito', 's3', 'ses', 'sqs', 'stripe'] as const;
  const ports = {} as MatrixStackConfig['ports'];
  for (const name of names) {
    let port = await freePort();
    while (Object.values(ports).includes(port)) port = await freePort();
    ports[name] = port;
  }
  const config: MatrixStackConfig = {
    dataDir,
    ports,
    env: {
      OPENAI_BASE_URL: openai.baseUrl,
      WHATSAPP_GRAPH_URL: whatsapp.graphUrl,
      TWILIO_API_URL: twilio.url,
      OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${openai.port},localhost:${openai.port}`,
      WHATSAPP_USER_IDS: '',
      RETRY_TIME_SCALE: String(MATRIX_RETRY_TIME_SCALE),
      SUMMARY_RETRY_BASE_MS: '50',
      TOOL_TIMEOUT_MS: '2000',
    },
  };

  let child: ChildProcess | null = null;
  let ready: MatrixStackReady | null = null;
  // The whole group, even once its leader has exited (a service it started may still be there).
  const killGroup = () => {
    if (child?.pid) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  process.on('exit', killGroup);

  async function start(): Promise<void> {
    const env: Record<string, string> = { MATRIX_STACK_CONFIG: JSON.stringify(config) };
    for (const key of KEPT_ENV) if (process.env[key]) env[key] = process.env[key]!;
    const proc = spawn(process.execPath, ['--import', 'tsx', join(here, 'stack-process.ts')], {
      cwd: repoRoot,
      env,
      // Its own process group: a crash takes its services with it, and nothing else.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    const tail: string[] = [];
    let buffered = '';
    ready = await new Promise<MatrixStackReady>((resolve, reject) => {
      const timer = setTimeout(() => {
        killGroup();
        reject(new Error(`the matrix runtime was not up after ${options.startTimeoutMs ?? 120_000} ms\n${tail.join('\n')}`));
      }, options.startTimeoutMs ?? 120_000);
      const onData = (chunk: Buffer) => {
        appendFileSync(logFile, chunk);
        buffered += chunk.toString('utf8');
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          tail.push(line);
          if (tail.length > 40) tail.shift();
          if (line.startsWith(READY_PREFIX)) {
            clearTimeout(timer);
            resolve(JSON.parse(line.slice(READY_PREFIX.length)) as MatrixStackReady);
          }
        }
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', (chunk: Buffer) => {
        appendFileSync(logFile, chunk);
        tail.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        if (tail.length > 40) tail.splice(0, tail.length - 40);
      });
      proc.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the matrix runtime exited (${code ?? signal}) before it was up\n${tail.join('\n')}`));
      });
    });
    useOwnStack({
      ...ready,
      openaiUrl: openai.url,
      whatsappGraphUrl: whatsapp.url,
      twilioApiUrl: twilio.url,
    });
  }

  const exited = (proc: ChildProcess) =>
    proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => proc.once('exit', () => resolve()));

  async function crash(): Promise<void> {
    const proc = child;
    if (!proc) return;
    killGroup();
    await exited(proc);
    // Its services were in the group: give the kernel a moment to free their ports.
    await new Promise((r) => setTimeout(r, 200));
  }

  async function stop(): Promise<void> {
    const proc = child;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const timer = setTimeout(killGroup, 15_000);
      await exited(proc);
      clearTimeout(timer);
      // Anything of the group still there (a service the stack could not stop).
      killGroup();
    }
    process.off('exit', killGroup);
    await Promise.all([openai.close(), whatsapp.close(), twilio.close()]);
    await rm(dataDir, { recursive: true, force: true });
  }

  try {
    await start();
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    get ready() {
      return ready!;
    },
    fakes: { openai, whatsapp, twilio },
    dataDir,
    crash,
    start,
    stop,
  };
}
