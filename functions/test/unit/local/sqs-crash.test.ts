/**
 * Issue 34 item 7: queued and in-flight jobs survive a crash of the local runtime. A real child
 * process runs the dispatcher with its journal behind the SQS endpoint (fixtures/
 * sqs-crash-child.ts); jobs are sent with the SDK's SQS client, the process is killed with
 * SIGKILL while some are done, some in a worker's hands and the rest queued, and a new process on
 * the same journal finishes them: every job completes exactly once, the interrupted ones come
 * back with their receive count kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const childScript = join(here, 'fixtures', 'sqs-crash-child.ts');
/** tsx as a loader of this very process (its CLI would run the script in a grandchild that SIGKILL would miss). */
const tsxLoader = ['--import', 'tsx'];

interface Child {
  process: ChildProcess;
  /** Resolves with the first stdout line that starts with `prefix`. */
  line(prefix: string): Promise<string>;
  /** Resolves once `n` lines starting with `prefix` were printed. */
  count(prefix: string, n: number): Promise<void>;
}

function startChild(journal: string, runs: string): Child {
  const proc = spawn(process.execPath, [...tsxLoader, childScript, journal, runs], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let rest = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop()!;
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  const until = <T>(check: () => T | undefined): Promise<T> =>
    new Promise((resolve, reject) => {
      const test = () => {
        const found = check();
        if (found !== undefined) return resolve(found);
        if (proc.exitCode !== null || proc.signalCode !== null) return reject(new Error(`child exited (${proc.exitCode ?? proc.signalCode}); output: ${lines.join(' | ')}`));
        waiters.push(test);
      };
      proc.once('exit', () => waiters.splice(0).forEach((wake) => wake()));
      test();
    });
  return {
    process: proc,
    line: (prefix) => until(() => lines.find((l) => l.startsWith(prefix))),
    count: (prefix, n) => until(() => (lines.filter((l) => l.startsWith(prefix)).length >= n ? true : undefined)).then(() => undefined),
  };
}

const children: ChildProcess[] = [];
let dir: string | undefined;
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function kill9(child: Child): Promise<void> {
  return new Promise((resolve) => {
    child.process.once('exit', () => resolve());
    child.process.kill('SIGKILL');
  });
}

describe('the local queue after kill -9', () => {
  it('runs every accepted job exactly once: the done ones not again, the interrupted ones once more, the queued ones once', { timeout: 60_000 }, async () => {
    dir = mkdtempSync(join(tmpdir(), 'sqs-crash-'));
    const journal = join(dir, 'sqs', 'journal.ndjson');
    const runs = join(dir, 'runs.log');
    const jobs = Array.from({ length: 8 }, (_, i) => `job-${i}`);

    const first = startChild(journal, runs);
    children.push(first.process);
    const endpoint = (await first.line('ready ')).slice('ready '.length);
    const sqs = new SQSClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 });
    // Accepted = answered: from here on the jobs must not be lost.
    await sqs.send(new SendMessageBatchCommand({ QueueUrl: `${endpoint}/000000000000/jobs`, Entries: jobs.map((body, i) => ({ Id: `e${i}`, MessageBody: body })) }));
    sqs.destroy();
    // Two jobs at a time, 400 ms each: after two are done, two more are in the worker's hands.
    await first.count('done ', 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await kill9(first);

    const before = readFileSync(runs, 'utf8').trim().split('\n');
    const doneBefore = before.filter((l) => l.startsWith('done ')).map((l) => l.split(' ')[1]);
    const interrupted = before.filter((l) => l.startsWith('start ')).map((l) => l.split(' ')[1]!).filter((job) => !doneBefore.includes(job));
    expect(doneBefore.length).toBeGreaterThanOrEqual(2);
    expect(interrupted.length).toBeGreaterThanOrEqual(1);

    const second = startChild(journal, runs);
    children.push(second.process);
    await second.line('idle');
    second.process.kill('SIGKILL');

    const all = readFileSync(runs, 'utf8').trim().split('\n');
    const after = all.slice(before.length);
    const done = all.filter((l) => l.startsWith('done ')).map((l) => l.split(' ')[1]);
    // Every job completed, each exactly once.
    expect([...done].sort()).toEqual([...jobs].sort());
    // What was done before the crash did not run again; what was interrupted came back once, its receive count kept.
    for (const job of doneBefore) expect(after.filter((l) => l.startsWith(`start ${job} `))).toEqual([]);
    for (const job of interrupted) expect(after.filter((l) => l.startsWith(`start ${job} `))).toEqual([`start ${job} 2`]);
    const queued = jobs.filter((job) => !doneBefore.includes(job) && !interrupted.includes(job));
    for (const job of queued) expect(after.filter((l) => l.startsWith(`start ${job} `))).toEqual([`start ${job} 1`]);
  });
});
