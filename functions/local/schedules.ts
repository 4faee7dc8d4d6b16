/**
 * The local stand-in for EventBridge schedule rules: each entry of the manifest's `schedules` is
 * run in this process with a ScheduledEvent, on its rate when the stack is started with
 * `schedules: true` (npm start), and on demand through POST /_local/schedules/{name}/run (tests
 * use that instead of waiting: their stack does not run the intervals). Runs of one schedule
 * never overlap; a failed run is logged and the next one comes on time.
 */
import { randomUUID } from 'node:crypto';
import { schedules, type ScheduleName } from '../src/routes.js';
import { HandlerNotFoundError, loadEntry } from './handlers.js';
import { lambdaContext } from './sqs-dispatcher.js';

export interface ScheduleRunner {
  names(): string[];
  /**
   * Runs the schedule now (or joins the run in progress) and resolves with the handler's result.
   * `time`: the event's scheduled time instead of now (issue 30: a reminder due later, run today);
   * such a run is its own invocation, never joined, so tests can overlap two runs.
   */
  run(name: string, time?: string): Promise<unknown>;
  stop(): void;
}

const isSchedule = (name: string): name is ScheduleName => Object.hasOwn(schedules, name);

export function scheduleRunner(options: {
  interval: boolean;
  region?: string;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
}): ScheduleRunner {
  const running = new Map<string, Promise<unknown>>();
  const timers: NodeJS.Timeout[] = [];

  async function invoke(name: ScheduleName, at?: string): Promise<unknown> {
    const def = schedules[name];
    const handler = await loadEntry(def.entry);
    const time = at ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const event = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      account: '000000000000',
      time,
      region: options.region ?? 'us-east-1',
      resources: [`arn:aws:events:${options.region ?? 'us-east-1'}:000000000000:rule/agentdesk-${name}`],
      detail: {},
    };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Task timed out after ${def.timeout} seconds`)), def.timeout * 1000);
    });
    try {
      return await Promise.race([handler(event, lambdaContext(`agentdesk-${name}`, def.timeout)), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  function run(name: string, time?: string): Promise<unknown> {
    if (!isSchedule(name)) return Promise.reject(new HandlerNotFoundError(`Schedule ${name} is not in the manifest`));
    if (time !== undefined) {
      if (Number.isNaN(Date.parse(time))) return Promise.reject(new RangeError(`time must be an ISO date-time, got ${time}`));
      return invoke(name, new Date(time).toISOString());
    }
    let current = running.get(name);
    if (!current) {
      current = invoke(name).finally(() => running.delete(name));
      running.set(name, current);
    }
    return current;
  }

  if (options.interval) {
    for (const [name, def] of Object.entries(schedules)) {
      const timer = setInterval(() => {
        run(name).catch((error: unknown) => options.log('error', `[schedule] ${name} failed: ${(error as Error)?.stack ?? String(error)}`));
      }, def.rateMinutes * 60_000);
      timer.unref();
      timers.push(timer);
    }
  }

  return {
    names: () => Object.keys(schedules),
    run,
    stop: () => {
      for (const timer of timers) clearInterval(timer);
      timers.length = 0;
    },
  };
}
