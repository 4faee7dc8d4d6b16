/**
 * Keeps a local service running (issue 34 item 7): when DynamoDB Local or cognito-local dies (its
 * process exits, a kill, an out-of-memory), or an in-process server (s3rver, the SES mailbox)
 * closes, while the stack is not stopping, it is started again on the same port with the same
 * data folder, and the console says so with the last lines it wrote. A service that keeps dying
 * (more than `maxRestarts` restarts within `windowMs`) or cannot start again is given up: the
 * stack is stopped with a message naming it (onGiveUp), never left running with a dead service.
 */

export interface Incarnation {
  /** The OS process, for a child (tests kill it; GET /_local/services shows it). */
  pid?: number;
  /** Settles when this incarnation is gone (the process exited, the server closed). */
  exited: Promise<unknown>;
  /** Its last output, to explain a death. */
  tail?(): string;
  stop(): Promise<void>;
}

export type ServiceState = 'running' | 'restarting' | 'failed' | 'stopped';

export interface ServiceStatus {
  name: string;
  state: ServiceState;
  restarts: number;
  pid?: number;
}

export interface SupervisorOptions {
  name: string;
  /** Starts one incarnation and resolves once it serves (rejects when it cannot). */
  start: () => Promise<Incarnation>;
  /** Restarts allowed within windowMs before giving up (default 3 in 10 minutes). */
  maxRestarts?: number;
  windowMs?: number;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** The service could not be kept running. */
  onGiveUp: (error: Error) => void;
}

export interface Supervised {
  status(): ServiceStatus;
  /** Stops it for good (no restart). */
  stop(): Promise<void>;
}

/** Starts the service (a failed first start rejects, as before) and restarts it whenever it dies. */
export async function supervise(options: SupervisorOptions): Promise<Supervised> {
  const { name, log } = options;
  const maxRestarts = options.maxRestarts ?? 3;
  const windowMs = options.windowMs ?? 10 * 60_000;
  let state: ServiceState = 'running';
  let restarts = 0;
  const restartTimes: number[] = [];
  let current = await options.start();
  let stopping = false;

  const giveUp = (message: string) => {
    state = 'failed';
    log('error', `[local] ${message}`);
    options.onGiveUp(new Error(message));
  };

  const watch = (incarnation: Incarnation) => {
    void incarnation.exited.then(async () => {
      if (stopping || incarnation !== current) return;
      const tail = incarnation.tail?.().trim();
      const output = tail ? `\n--- last output ---\n${tail}` : '';
      const now = Date.now();
      while (restartTimes.length > 0 && restartTimes[0]! < now - windowMs) restartTimes.shift();
      if (restartTimes.length >= maxRestarts) {
        giveUp(`${name} stopped again after ${maxRestarts} restarts in ${Math.round(windowMs / 60_000)} minutes; stopping the local stack.${output}`);
        return;
      }
      restartTimes.push(now);
      restarts += 1;
      state = 'restarting';
      log('warn', `[local] ${name} stopped unexpectedly; restarting it (${restartTimes.length} of ${maxRestarts})${output}`);
      try {
        const next = await options.start();
        if (stopping) {
          await next.stop();
          return;
        }
        current = next;
        state = 'running';
        log('info', `[local] ${name} is running again`);
        watch(next);
      } catch (error) {
        giveUp(`${name} stopped and could not be started again: ${error instanceof Error ? error.message : String(error)}; stopping the local stack.`);
      }
    });
  };
  watch(current);

  return {
    status: () => ({ name, state, restarts, ...(current.pid !== undefined && state === 'running' ? { pid: current.pid } : {}) }),
    async stop() {
      if (stopping) return;
      stopping = true;
      state = 'stopped';
      await current.stop();
    },
  };
}
