/**
 * Child processes of the local stack (DynamoDB Local, cognito-local): output goes to a log
 * file under the data dir, the last lines of stderr are kept to explain a failed start, and
 * every child is killed when this process exits, so Ctrl-C leaves no orphans.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ManagedChild {
  name: string;
  process: ChildProcess;
  /** Last lines the child wrote (stderr and stdout), for error messages. */
  tail(): string;
  /** Resolves with the exit code once the child has exited. */
  exited: Promise<number | null>;
  hasExited(): boolean;
  stop(): Promise<void>;
}

const living = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort (crash, process.exit): 'exit' handlers must be synchronous, so SIGKILL.
  process.on('exit', () => {
    for (const child of living) child.kill('SIGKILL');
  });
}

export function spawnChild(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions & { logFile: string },
): ManagedChild {
  installExitHook();
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const lines: string[] = [];
  const remember = (chunk: Buffer) => {
    log.write(chunk);
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };

  const proc = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  living.add(proc);
  proc.stdout?.on('data', remember);
  proc.stderr?.on('data', remember);
  let done = false;
  const exited = new Promise<number | null>((resolve) => {
    const finish = (code: number | null) => {
      if (done) return;
      done = true;
      living.delete(proc);
      log.end();
      resolve(code);
    };
    proc.once('exit', (code) => finish(code));
    proc.once('error', (error) => {
      lines.push(String(error));
      finish(null);
    });
  });

  return {
    name,
    process: proc,
    exited,
    tail: () => lines.join('\n'),
    hasExited: () => done,
    async stop() {
      if (done) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Poll `check` until it returns true. Fails early if the child exits and, on timeout, with
 * the child's last output so the cause is visible.
 */
export async function waitUntilReady(
  what: string,
  check: () => Promise<boolean>,
  { timeoutMs = 60_000, child }: { timeoutMs?: number; child?: ManagedChild } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child?.hasExited()) {
      throw new Error(`${what} exited during startup.\n--- last output ---\n${child.tail()}`);
    }
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) {
      const tail = child ? `\n--- last output ---\n${child.tail()}` : '';
      throw new Error(`${what} was not ready after ${Math.round(timeoutMs / 1000)} s.${tail}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
