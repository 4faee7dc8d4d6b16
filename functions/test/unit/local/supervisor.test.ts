/**
 * Issue 34 item 7: a local service that dies is restarted and serves again, or, when it keeps
 * dying, the stack is told to stop with a message naming it; never left dead in silence. Real
 * child processes: a small HTTP server, and cognito-local and DynamoDB Local as the stack starts
 * them (services.ts), each killed with SIGKILL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnChild, waitUntilReady } from '../../../local/child.js';
import { freePort } from '../../../local/ports.js';
import { dynamoClient, ensureTable, startCognito, startDynamo, type RunningService } from '../../../local/services.js';
import { supervise, type Incarnation, type Supervised } from '../../../local/supervisor.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'supervisor-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const quiet = { lines: [] as string[] };
const log = (_level: string, message: string) => void quiet.lines.push(message);

/** A node HTTP server on `port` answering 'ok' (or exiting at once with `crash`). */
async function httpChild(dir: string, port: number, crash = false): Promise<Incarnation> {
  const script = crash ? 'console.error("cannot start"); process.exit(3)' : `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`;
  const child = spawnChild('test server', process.execPath, ['-e', script], { logFile: join(dir, 'child.log') });
  try {
    await waitUntilReady('test server', async () => (await fetch(`http://127.0.0.1:${port}/`)).ok, { child, timeoutMs: 10_000 });
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { pid: child.process.pid, exited: child.exited, tail: () => child.tail(), stop: () => child.stop() };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function killed(pid: number | undefined): void {
  expect(pid).toBeGreaterThan(0);
  process.kill(pid!, 'SIGKILL');
}

describe('supervise', () => {
  it('restarts a child killed with SIGKILL on its port, and it serves again', async () => {
    const dir = tempDir();
    const port = await freePort();
    const gaveUp: Error[] = [];
    const service: Supervised = await supervise({ name: 'test server', start: () => httpChild(dir, port), log, onGiveUp: (e) => void gaveUp.push(e) });
    cleanups.push(() => service.stop());
    const first = service.status().pid;

    killed(first);
    await until(() => service.status().state === 'running' && service.status().pid !== first);

    expect(service.status()).toMatchObject({ name: 'test server', state: 'running', restarts: 1 });
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
    expect(quiet.lines.some((l) => l.includes('test server stopped unexpectedly; restarting it (1 of 3)'))).toBe(true);
    expect(gaveUp).toEqual([]);
  });

  it('gives up, naming the service, when it cannot be started again', async () => {
    const dir = tempDir();
    const port = await freePort();
    let starts = 0;
    const gaveUp: Error[] = [];
    const service = await supervise({
      name: 'test server',
      start: () => httpChild(dir, port, ++starts > 1),
      log,
      onGiveUp: (e) => void gaveUp.push(e),
    });
    cleanups.push(() => service.stop());

    killed(service.status().pid);
    await until(() => gaveUp.length > 0);

    expect(gaveUp[0]!.message).toMatch(/^test server stopped and could not be started again: test server exited during startup\.[\s\S]*cannot start[\s\S]*stopping the local stack\.$/);
    expect(service.status()).toMatchObject({ state: 'failed', restarts: 1 });
  });

  it('gives up when it keeps dying: more than maxRestarts in the window', async () => {
    const dir = tempDir();
    const port = await freePort();
    const gaveUp: Error[] = [];
    const service = await supervise({ name: 'test server', start: () => httpChild(dir, port), maxRestarts: 1, log, onGiveUp: (e) => void gaveUp.push(e) });
    cleanups.push(() => service.stop());

    killed(service.status().pid);
    await until(() => service.status().state === 'running' && service.status().restarts === 1);
    killed(service.status().pid);
    await until(() => gaveUp.length > 0);

    expect(gaveUp[0]!.message).toMatch(/^test server stopped again after 1 restarts in 10 minutes; stopping the local stack\./);
  });

  it('a stopped service is not restarted', async () => {
    const dir = tempDir();
    const port = await freePort();
    let starts = 0;
    const service = await supervise({ name: 'test server', start: () => (starts++, httpChild(dir, port)), log, onGiveUp: () => undefined });
    await service.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(starts).toBe(1);
    expect(service.status().state).toBe('stopped');
  });
});

describe('the stack’s services under supervision', () => {
  const supervision = { log, onGiveUp: () => undefined };

  it('cognito-local killed: restarted on its port with its data, and serving', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const port = await freePort();
    const cognito: RunningService = await startCognito(dir, port, supervision);
    cleanups.push(() => cognito.stop());
    const first = cognito.status!().pid;

    killed(first);
    await until(() => cognito.status!().state === 'running' && cognito.status!().pid !== first);

    expect((await fetch(`${cognito.endpoint}/health`)).ok).toBe(true);
  });

  it('DynamoDB Local killed: restarted on its port with its data, and serving', { timeout: 90_000 }, async () => {
    const dir = tempDir();
    const port = await freePort();
    const dynamo: RunningService = await startDynamo(dir, port, supervision);
    cleanups.push(() => dynamo.stop());
    await ensureTable(dynamo.endpoint, 'kept');
    const first = dynamo.status!().pid;

    killed(first);
    await until(() => dynamo.status!().state === 'running' && dynamo.status!().pid !== first, 60_000);

    const client = dynamoClient(dynamo.endpoint);
    cleanups.push(() => client.destroy());
    await expect(client.send(new ListTablesCommand({}))).resolves.toMatchObject({ TableNames: ['kept'] });
  });
});
