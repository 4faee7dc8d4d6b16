/**
 * The local stand-in for SQS + the Lambda event source mapping: messages sent to a queue are
 * handed to that queue's worker in SQSEvent-shaped batches (up to its batchSize). Like Lambda
 * with ReportBatchItemFailures, only the ids the worker reports as failed are retried (a thrown
 * error or a timeout fails the whole batch); a message that has been delivered
 * maxReceiveCount times without success moves to a dead-letter list you can inspect.
 *
 * Differences from AWS, on purpose: retries come after a short backoff instead of the
 * visibility timeout (minutes), and FIFO ordering/deduplication are not modelled.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface QueueSettings {
  batchSize: number;
  /** Seconds the worker may run before the batch counts as failed. */
  timeout: number;
  maxReceiveCount: number;
}

export interface DispatcherOptions {
  queues: Record<string, QueueSettings>;
  /** Loads the worker for a queue (lazily: imported on first message). */
  loadHandler: (queue: string) => Promise<SqsHandler>;
  region?: string;
  accountId?: string;
  /** First retry delay; doubles per delivery (default 1000 ms). */
  retryBaseMs?: number;
  /** Upper bound of the retry delay (default 10 s). */
  retryMaxMs?: number;
  /** How long to wait for more messages before delivering a partial batch (default 20 ms). */
  batchWindowMs?: number;
  /** Concurrent batches per queue, like Lambda concurrency (default 2). */
  concurrency?: number;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface MessageInput {
  body: string;
  messageAttributes?: SQSMessageAttributes;
  delaySeconds?: number;
  messageGroupId?: string;
  messageDeduplicationId?: string;
}

export interface DeadLetter {
  queue: string;
  messageId: string;
  body: string;
  messageAttributes: SQSMessageAttributes;
  receiveCount: number;
  sentAt: string;
  deadLetteredAt: string;
  lastError: string;
}

export interface SentMessage {
  queue: string;
  messageId: string;
  body: string;
  sentAt: string;
}

const RECENT_SENT = 2000;

export interface QueueStats {
  pending: number;
  inFlight: number;
  sent: number;
  succeeded: number;
  failedDeliveries: number;
  deadLettered: number;
}

interface Message {
  queue: string;
  messageId: string;
  body: string;
  md5OfBody: string;
  messageAttributes: SQSMessageAttributes;
  sentTimestamp: number;
  firstReceiveTimestamp?: number;
  receiveCount: number;
  visibleAt: number;
  lastError: string;
  messageGroupId?: string;
  messageDeduplicationId?: string;
}

/** What survives a restart (pending messages and the dead-letter list). */
export interface DispatcherSnapshot {
  pending: Message[];
  deadLetters: DeadLetter[];
}

interface QueueState {
  settings: QueueSettings;
  ready: Message[];
  inFlight: number;
  windowPending: boolean;
  windowElapsed: boolean;
  stats: QueueStats;
}

export const md5 = (text: string | Buffer): string => createHash('md5').update(text).digest('hex');

export class SqsDispatcher {
  private readonly queues = new Map<string, QueueState>();
  private readonly dead: DeadLetter[] = [];
  private readonly recent: SentMessage[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly handlers = new Map<string, Promise<SqsHandler>>();
  private idleWaiters: (() => void)[] = [];
  private stopped = false;
  private readonly region: string;
  private readonly accountId: string;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly batchWindowMs: number;
  private readonly concurrency: number;
  private readonly log: NonNullable<DispatcherOptions['log']>;

  constructor(private readonly options: DispatcherOptions) {
    this.region = options.region ?? 'us-east-1';
    this.accountId = options.accountId ?? '000000000000';
    this.retryBaseMs = options.retryBaseMs ?? 1000;
    this.retryMaxMs = options.retryMaxMs ?? 10_000;
    this.batchWindowMs = options.batchWindowMs ?? 20;
    this.concurrency = options.concurrency ?? 2;
    this.log = options.log ?? ((level, message) => console[level](message));
    for (const [name, settings] of Object.entries(options.queues)) {
      this.queues.set(name, {
        settings,
        ready: [],
        inFlight: 0,
        windowPending: false,
        windowElapsed: false,
        stats: { pending: 0, inFlight: 0, sent: 0, succeeded: 0, failedDeliveries: 0, deadLettered: 0 },
      });
    }
  }

  hasQueue(queue: string): boolean {
    return this.queues.has(queue);
  }

  queueNames(): string[] {
    return [...this.queues.keys()];
  }

  send(queue: string, input: MessageInput): { messageId: string; md5OfBody: string } {
    const state = this.state(queue);
    const now = Date.now();
    const message: Message = {
      queue,
      messageId: randomUUID(),
      body: input.body,
      md5OfBody: md5(input.body),
      messageAttributes: input.messageAttributes ?? {},
      sentTimestamp: now,
      receiveCount: 0,
      visibleAt: now + (input.delaySeconds ?? 0) * 1000,
      lastError: '',
      messageGroupId: input.messageGroupId,
      messageDeduplicationId: input.messageDeduplicationId,
    };
    state.stats.sent += 1;
    this.recent.push({ queue, messageId: message.messageId, body: message.body, sentAt: new Date(now).toISOString() });
    if (this.recent.length > RECENT_SENT) this.recent.splice(0, this.recent.length - RECENT_SENT);
    this.enqueue(message);
    return { messageId: message.messageId, md5OfBody: message.md5OfBody };
  }

  /** The last messages sent (at most RECENT_SENT), oldest first: tests check what a handler enqueued. */
  sent(queue?: string): SentMessage[] {
    return this.recent.filter((m) => !queue || m.queue === queue).map((m) => ({ ...m }));
  }

  deadLetters(queue?: string): DeadLetter[] {
    return this.dead.filter((d) => !queue || d.queue === queue).map((d) => ({ ...d }));
  }

  stats(): Record<string, QueueStats> {
    const out: Record<string, QueueStats> = {};
    for (const [name, state] of this.queues) {
      out[name] = { ...state.stats, pending: this.pendingCount(name), inFlight: state.inFlight, deadLettered: this.deadLetters(name).length };
    }
    return out;
  }

  /** Resolves once no message is waiting, scheduled for retry or being processed. */
  drain(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  snapshot(): DispatcherSnapshot {
    return { pending: [...this.waiting.values()].map((m) => ({ ...m })), deadLetters: this.deadLetters() };
  }

  restore(snapshot: DispatcherSnapshot): void {
    this.dead.push(...snapshot.deadLetters.filter((d) => this.queues.has(d.queue)));
    for (const message of snapshot.pending) {
      if (this.queues.has(message.queue)) this.enqueue({ ...message, visibleAt: Date.now() });
    }
  }

  /** Stop delivering; messages not yet processed stay in snapshot(). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.resolveIdle(true);
  }

  // ------------------------------------------------------------------ internals

  /** Every message not in a running batch and not dead-lettered, by id. */
  private readonly waiting = new Map<string, Message>();

  private state(queue: string): QueueState {
    const state = this.queues.get(queue);
    if (!state) throw new Error(`Unknown queue: ${queue}`);
    return state;
  }

  private pendingCount(queue: string): number {
    let n = 0;
    for (const m of this.waiting.values()) if (m.queue === queue) n += 1;
    return n;
  }

  private enqueue(message: Message): void {
    this.waiting.set(message.messageId, message);
    const delay = Math.max(0, message.visibleAt - Date.now());
    this.later(() => {
      this.state(message.queue).ready.push(message);
      this.pump(message.queue);
    }, delay);
  }

  private later(fn: () => void, ms: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  private pump(queue: string): void {
    const state = this.state(queue);
    while (!this.stopped && state.ready.length > 0 && state.inFlight < this.concurrency) {
      // Like an event source mapping's batching window: a partial batch waits a moment for more.
      if (state.ready.length < state.settings.batchSize && !state.windowElapsed) {
        if (!state.windowPending) {
          state.windowPending = true;
          this.later(() => {
            state.windowPending = false;
            state.windowElapsed = true;
            this.pump(queue);
          }, this.batchWindowMs);
        }
        return;
      }
      state.windowElapsed = false;
      const batch = state.ready.splice(0, state.settings.batchSize);
      for (const m of batch) this.waiting.delete(m.messageId);
      state.inFlight += 1;
      void this.deliver(queue, state, batch).finally(() => {
        state.inFlight -= 1;
        this.pump(queue);
        this.resolveIdle();
      });
    }
  }

  private async deliver(queue: string, state: QueueState, batch: Message[]): Promise<void> {
    const now = Date.now();
    for (const m of batch) {
      m.receiveCount += 1;
      m.firstReceiveTimestamp ??= now;
    }
    const event: SQSEvent = { Records: batch.map((m) => this.toRecord(m)) };
    let failedIds: Set<string>;
    let reason = '';
    try {
      const handler = await this.handler(queue);
      const result = await withTimeout(handler(event, lambdaContext(`agentdesk-${queue}-worker`, state.settings.timeout)), state.settings.timeout * 1000);
      const failures = result?.batchItemFailures ?? [];
      const known = new Set(batch.map((m) => m.messageId));
      // Lambda treats an empty or unknown itemIdentifier as a failure of the whole batch.
      if (failures.some((f) => !f.itemIdentifier || !known.has(f.itemIdentifier))) {
        failedIds = known;
        reason = 'batchItemFailures named an unknown message id';
      } else {
        failedIds = new Set(failures.map((f) => f.itemIdentifier));
        reason = 'reported in batchItemFailures';
      }
    } catch (error) {
      failedIds = new Set(batch.map((m) => m.messageId));
      reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      this.log('error', `[sqs] ${queue}: batch of ${batch.length} failed: ${reason}`);
    }
    for (const m of batch) {
      if (!failedIds.has(m.messageId)) {
        state.stats.succeeded += 1;
        continue;
      }
      state.stats.failedDeliveries += 1;
      m.lastError = reason;
      if (m.receiveCount >= state.settings.maxReceiveCount) {
        this.deadLetter(m);
      } else {
        m.visibleAt = Date.now() + Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** (m.receiveCount - 1));
        this.enqueue(m);
      }
    }
  }

  private deadLetter(m: Message): void {
    this.dead.push({
      queue: m.queue,
      messageId: m.messageId,
      body: m.body,
      messageAttributes: m.messageAttributes,
      receiveCount: m.receiveCount,
      sentAt: new Date(m.sentTimestamp).toISOString(),
      deadLetteredAt: new Date().toISOString(),
      lastError: m.lastError,
    });
    this.log(
      'warn',
      `[sqs] ${m.queue}: message ${m.messageId} moved to the dead-letter list after ${m.receiveCount} deliveries (${m.lastError})`,
    );
  }

  private handler(queue: string): Promise<SqsHandler> {
    let loaded = this.handlers.get(queue);
    if (!loaded) {
      loaded = this.options.loadHandler(queue);
      // Do not cache a failed import: the module may be fixed while the stack runs.
      loaded.catch(() => this.handlers.delete(queue));
      this.handlers.set(queue, loaded);
    }
    return loaded;
  }

  private toRecord(m: Message): SQSRecord {
    return {
      messageId: m.messageId,
      receiptHandle: Buffer.from(`${m.messageId}:${m.receiveCount}:${randomUUID()}`).toString('base64'),
      body: m.body,
      attributes: {
        ApproximateReceiveCount: String(m.receiveCount),
        SentTimestamp: String(m.sentTimestamp),
        SenderId: 'AIDALOCAL000000000000',
        ApproximateFirstReceiveTimestamp: String(m.firstReceiveTimestamp ?? m.sentTimestamp),
        ...(m.messageGroupId ? { MessageGroupId: m.messageGroupId } : {}),
        ...(m.messageDeduplicationId ? { MessageDeduplicationId: m.messageDeduplicationId } : {}),
      },
      messageAttributes: m.messageAttributes,
      md5OfBody: m.md5OfBody,
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${this.region}:${this.accountId}:${m.queue}`,
      awsRegion: this.region,
    };
  }

  private isIdle(): boolean {
    if (this.stopped) return true;
    if (this.waiting.size > 0) return false;
    for (const state of this.queues.values()) if (state.inFlight > 0 || state.ready.length > 0) return false;
    return true;
  }

  private resolveIdle(force = false): void {
    if (!force && !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Task timed out after ${ms / 1000} seconds`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A Lambda-like context object: enough for Powertools and handlers that read it. */
export function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const awsRequestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/${awsRequestId}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
