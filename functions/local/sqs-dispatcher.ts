/**
 * The local stand-in for SQS + the Lambda event source mapping: messages sent to a queue are
 * handed to that queue's worker in SQSEvent-shaped batches (up to its batchSize). Like Lambda
 * with ReportBatchItemFailures, only the ids the worker reports as failed are retried (a thrown
 * error or a timeout fails the whole batch); a message that has been delivered maxReceiveCount
 * times without success moves to a dead-letter list you can inspect and redrive.
 *
 * Timing is SQS's (issue 34): a failed message is visible again when its worker said
 * (ChangeMessageVisibility through the SQS endpoint: the retry schedule of src/domain/retry.ts),
 * else after the queue's visibility timeout counted from its receive (6 × the function timeout,
 * as in AWS). Every one of these durations, and DelaySeconds, is multiplied by `timeScale`
 * (RETRY_TIME_SCALE: 1 for `npm start`, tiny in the integration tests).
 *
 * Invocations: Lambda gives each concurrent invocation its own container, and a container runs
 * one invocation at a time. Here up to `concurrency` batches of a queue run at once in this one
 * process (so races between concurrent invocations stay visible, as in AWS), and each gets its
 * own event, Lambda context and receipt handles; the worker wrapper keeps everything about a batch
 * in the invocation (workers/sqs-worker.ts creates its batch processor per call). What they do
 * share is module state meant for a container's lifetime (clients, caches), and the Powertools
 * logger's Lambda-context keys, which only label log lines.
 *
 * Durability (journalFile, `npm start`): every accepted message is in the journal before
 * SendMessage answers, a delivery is recorded before the worker gets it and its outcome right
 * after (sqs-journal.ts). After a crash, pending and dead messages come back; a message that
 * was in a worker's hands is delivered again once, its receive count kept; a processed one is
 * never run again.
 *
 * Differences from AWS, on purpose: FIFO ordering/deduplication are not modelled, and a
 * message's own error is kept with it in the dead-letter list (in AWS it is in the logs).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';
import { queueVisibilityTimeoutSeconds, MAX_VISIBILITY_SECONDS } from '../src/domain/retry.js';
import { RECORD_ERRORS, type RecordError } from '../src/workers/deliveries.js';
import { QueueJournal, type JournalEntry } from './sqs-journal.js';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface QueueSettings {
  batchSize: number;
  /** Seconds the worker may run before the batch counts as failed. */
  timeout: number;
  maxReceiveCount: number;
  /** Seconds a received message stays invisible unless its worker sets otherwise; default 6 × timeout (as infra/lib/workers.ts). */
  visibilityTimeout?: number;
}

export interface DispatcherOptions {
  queues: Record<string, QueueSettings>;
  /** Loads the worker for a queue (lazily: imported on first message). */
  loadHandler: (queue: string) => Promise<SqsHandler>;
  region?: string;
  accountId?: string;
  /** Multiplies every SQS duration (visibility timeouts, ChangeMessageVisibility, DelaySeconds); default 1 = as in AWS. */
  timeScale?: number;
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
  /** This message's own last error, as text ("TransientError: openai: unavailable (HTTP 503)"). */
  lastError: string;
  /** The same, as the worker reported it for this record (kind, provider, code, reason); absent when the whole invocation failed. */
  error?: RecordError;
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
  error?: RecordError;
  messageGroupId?: string;
  messageDeduplicationId?: string;
}

/** A message in a worker's hands: its receipt handle, and when the worker asked it to be visible again. */
interface Received {
  message: Message;
  receiptHandle: string;
  receivedAt: number;
  visibleAt?: number;
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

/** An SQS API error the endpoint answers with its code (ReceiptHandleIsInvalid, MessageNotInflight…). */
export class QueueOperationError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The reason a message that was in a worker's hands when the runtime died carries. */
export const INTERRUPTED = 'The local runtime stopped while this message was being processed';

export const md5 = (text: string | Buffer): string => createHash('md5').update(text).digest('hex');

export class SqsDispatcher {
  private readonly queues = new Map<string, QueueState>();
  private readonly dead: DeadLetter[] = [];
  private readonly recent: SentMessage[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly handlers = new Map<string, Promise<SqsHandler>>();
  /** Every message not in a running batch and not dead-lettered, by id. */
  private readonly waiting = new Map<string, Message>();
  /** Messages in a running batch, by id. */
  private readonly received = new Map<string, Received>();
  private idleWaiters: (() => void)[] = [];
  private stopped = false;
  private journal: QueueJournal | undefined;
  private readonly region: string;
  private readonly accountId: string;
  private timeScale: number;
  private readonly batchWindowMs: number;
  private readonly concurrency: number;
  private readonly log: NonNullable<DispatcherOptions['log']>;

  constructor(private readonly options: DispatcherOptions) {
    this.region = options.region ?? 'us-east-1';
    this.accountId = options.accountId ?? '000000000000';
    this.timeScale = options.timeScale ?? 1;
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

  /** The multiplier of every SQS duration (the local stack sets RETRY_TIME_SCALE once its environment is read). */
  setTimeScale(scale: number): void {
    if (!(scale > 0) || !Number.isFinite(scale)) throw new Error(`The time scale must be a positive number, got ${scale}`);
    this.timeScale = scale;
  }

  /**
   * Makes the queues durable: replays `file` (what a previous run left: pending, in flight, dead),
   * delivers what is live again, and journals everything from now on (sqs-journal.ts).
   */
  open(file: string): { restored: number; interrupted: number } {
    if (this.journal) throw new Error('The dispatcher journal is already open');
    const { journal, state } = QueueJournal.open<DeadLetter>(file);
    this.journal = journal;
    this.dead.push(...state.deadLetters.filter((d) => this.queues.has(d.queue)));
    let restored = 0;
    for (const m of state.messages as Message[]) {
      if (!this.queues.has(m.queue)) continue;
      restored += 1;
      // In a worker's hands when the runtime died: delivered again now, its receive count kept.
      if (state.inFlight.has(m.messageId)) this.enqueue({ ...m, visibleAt: Date.now(), lastError: INTERRUPTED, error: undefined });
      else this.enqueue(m);
    }
    return { restored, interrupted: state.inFlight.size };
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
      visibleAt: now + this.scaled(input.delaySeconds ?? 0),
      lastError: '',
      messageGroupId: input.messageGroupId,
      messageDeduplicationId: input.messageDeduplicationId,
    };
    // On disk before the sender hears it was accepted.
    this.record([{ t: 'sent', m: message }], { required: true });
    state.stats.sent += 1;
    this.recent.push({ queue, messageId: message.messageId, body: message.body, sentAt: new Date(now).toISOString() });
    if (this.recent.length > RECENT_SENT) this.recent.splice(0, this.recent.length - RECENT_SENT);
    this.enqueue(message);
    return { messageId: message.messageId, md5OfBody: message.md5OfBody };
  }

  /**
   * ChangeMessageVisibility: the message behind `receiptHandle`, in a worker's hands now, becomes
   * visible `seconds` (scaled) from now instead of after the visibility timeout.
   */
  changeVisibility(queue: string, receiptHandle: string, seconds: number): void {
    this.state(queue);
    if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_VISIBILITY_SECONDS) {
      throw new QueueOperationError('InvalidParameterValue', `Value ${seconds} for parameter VisibilityTimeout is invalid. Reason: Must be between 0 and ${MAX_VISIBILITY_SECONDS}.`);
    }
    const messageId = messageIdOf(receiptHandle);
    const held = messageId ? this.received.get(messageId) : undefined;
    if (held && held.receiptHandle === receiptHandle && held.message.queue === queue) {
      held.visibleAt = Date.now() + this.scaled(seconds);
      return;
    }
    if (messageId && (this.waiting.get(messageId)?.queue === queue || held)) {
      throw new QueueOperationError('MessageNotInflight', 'The message referred to is not in flight.');
    }
    throw new QueueOperationError('ReceiptHandleIsInvalid', `The input receipt handle "${receiptHandle}" is not a valid receipt handle.`);
  }

  /** The last messages sent (at most RECENT_SENT), oldest first: tests check what a handler enqueued. */
  sent(queue?: string): SentMessage[] {
    return this.recent.filter((m) => !queue || m.queue === queue).map((m) => ({ ...m }));
  }

  deadLetters(queue?: string): DeadLetter[] {
    return this.dead.filter((d) => !queue || d.queue === queue).map((d) => ({ ...d }));
  }

  /**
   * Puts dead letters (of `queue`, or all; only `messageIds` when given) back on their queue, like
   * SQS's redrive (start-message-move-task): same message id and body, receive count from zero,
   * so the job gets all its tries again. Answers how many moved.
   */
  redrive(queue?: string, messageIds?: readonly string[]): number {
    if (queue !== undefined) this.state(queue);
    const moving = this.dead.filter((d) => (!queue || d.queue === queue) && (!messageIds || messageIds.includes(d.messageId)));
    if (moving.length === 0) return 0;
    const now = Date.now();
    const messages = moving.map(
      (d): Message => ({
        queue: d.queue,
        messageId: d.messageId,
        body: d.body,
        md5OfBody: md5(d.body),
        messageAttributes: d.messageAttributes,
        sentTimestamp: Date.parse(d.sentAt) || now,
        receiveCount: 0,
        visibleAt: now,
        lastError: '',
      }),
    );
    this.record(messages.map((m): JournalEntry => ({ t: 'sent', m })));
    for (const d of moving) this.dead.splice(this.dead.indexOf(d), 1);
    for (const m of messages) this.enqueue(m);
    this.log('info', `[sqs] redrove ${messages.length} dead letter(s)${queue ? ` of ${queue}` : ''}`);
    return messages.length;
  }

  stats(): Record<string, QueueStats> {
    const out: Record<string, QueueStats> = {};
    for (const [name, state] of this.queues) {
      out[name] = { ...state.stats, pending: this.pendingCount(name), inFlight: state.inFlight, deadLettered: this.deadLetters(name).length };
    }
    return out;
  }

  /**
   * Resolves once no message is waiting, scheduled for retry or being processed. A message its
   * sender held back (DelaySeconds, never received yet) counts only once it is visible: the
   * WhatsApp resume checks (issue 29) re-queue themselves every 15 minutes (scaled) until a
   * person's pause ends, hours later, and would otherwise keep every drain waiting.
   */
  drain(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Pending messages (in a running batch too: not finished) and dead letters. */
  snapshot(): DispatcherSnapshot {
    return {
      pending: [...this.waiting.values(), ...[...this.received.values()].map((r) => r.message)].map((m) => ({ ...m })),
      deadLetters: this.deadLetters(),
    };
  }

  restore(snapshot: DispatcherSnapshot): void {
    const dead = snapshot.deadLetters.filter((d) => this.queues.has(d.queue));
    const pending = snapshot.pending.filter((m) => this.queues.has(m.queue)).map((m) => ({ ...m, visibleAt: Date.now() }));
    this.record([...dead.map((d): JournalEntry => ({ t: 'dead', d })), ...pending.map((m): JournalEntry => ({ t: 'sent', m }))]);
    this.dead.push(...dead);
    for (const message of pending) this.enqueue(message);
  }

  /** Stop delivering; messages not yet processed stay in snapshot() (and in the journal). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.resolveIdle(true);
  }

  /** Stops and closes the journal, compacted: what is still live (batches still running included) is what the next open() restores. */
  close(): void {
    this.stop();
    if (!this.journal) return;
    try {
      this.journal.rewrite(this.journalState());
    } finally {
      this.journal.close();
      this.journal = undefined;
    }
  }

  // ------------------------------------------------------------------ internals

  private scaled(seconds: number): number {
    return seconds * 1000 * this.timeScale;
  }

  /**
   * Journals `entries` (when open). A failed write (a full disk) fails a send, so its sender hears
   * it was not accepted; anywhere else it is logged and the queue goes on (that step is then not
   * durable: a crash would deliver the message once more, never lose it).
   */
  private record(entries: JournalEntry[], { required = false } = {}): void {
    if (!this.journal) return;
    try {
      this.journal.write(entries);
      if (this.journal.wantsCompaction(this.waiting.size + this.received.size)) this.journal.rewrite(this.journalState());
    } catch (error) {
      if (required) throw error;
      this.log('error', `[sqs] could not write the queue journal: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private journalState() {
    const inFlight = [...this.received.values()].map((r) => r.message);
    return { messages: [...this.waiting.values(), ...inFlight], inFlight: new Set(inFlight.map((m) => m.messageId)), deadLetters: this.dead };
  }

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
      if (this.waiting.get(message.messageId) !== message) return;
      const state = this.state(message.queue);
      // Restored after dying during its last delivery: it has had all its receives.
      if (message.receiveCount >= state.settings.maxReceiveCount) {
        this.waiting.delete(message.messageId);
        this.record([{ t: 'dead', d: this.deadLetter(message) }]);
        this.resolveIdle();
        return;
      }
      state.ready.push(message);
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

  /** One invocation: its own event, context and receipt handles (see the header on containers). */
  private async deliver(queue: string, state: QueueState, batch: Message[]): Promise<void> {
    const now = Date.now();
    const held: Received[] = batch.map((m) => {
      m.receiveCount += 1;
      m.firstReceiveTimestamp ??= now;
      const receipt: Received = { message: m, receiptHandle: receiptHandleFor(m), receivedAt: now };
      this.received.set(m.messageId, receipt);
      return receipt;
    });
    // Recorded before the worker sees them: after a crash they count as delivered once more.
    this.record([{ t: 'received', at: now, ids: batch.map((m) => m.messageId), counts: batch.map((m) => m.receiveCount) }]);
    const event: SQSEvent = { Records: held.map((r) => this.toRecord(r)) };
    let failedIds: Set<string>;
    let reason = '';
    let ownErrors: Record<string, RecordError> = {};
    try {
      const handler = await this.handler(queue);
      const result = await withTimeout(handler(event, lambdaContext(`agentdesk-${queue}-worker`, state.settings.timeout)), state.settings.timeout * 1000);
      const failures = result?.batchItemFailures ?? [];
      const known = new Set(batch.map((m) => m.messageId));
      ownErrors = (result as { [RECORD_ERRORS]?: Record<string, RecordError> } | undefined)?.[RECORD_ERRORS] ?? {};
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
    const outcome: JournalEntry[] = [];
    const done: string[] = [];
    for (const receipt of held) {
      const m = receipt.message;
      this.received.delete(m.messageId);
      if (!failedIds.has(m.messageId)) {
        state.stats.succeeded += 1;
        done.push(m.messageId);
        continue;
      }
      state.stats.failedDeliveries += 1;
      const own = ownErrors[m.messageId];
      // The give-up delivery's own error says only that it gave up: the last try's error is the story.
      if (own?.kind !== 'given_up' || !m.lastError) {
        m.error = own;
        m.lastError = own ? `${own.name}: ${own.message}` : reason;
      }
      if (m.receiveCount >= state.settings.maxReceiveCount) {
        outcome.push({ t: 'dead', d: this.deadLetter(m) });
        continue;
      }
      // When the worker said (its retry schedule), else the visibility timeout from the receive.
      const visibilityTimeout = state.settings.visibilityTimeout ?? queueVisibilityTimeoutSeconds(state.settings.timeout);
      m.visibleAt = receipt.visibleAt ?? receipt.receivedAt + this.scaled(visibilityTimeout);
      outcome.push({ t: 'failed', id: m.messageId, visibleAt: m.visibleAt, lastError: m.lastError, ...(own ? { error: own } : {}) });
      this.enqueue(m);
    }
    if (done.length > 0) outcome.unshift({ t: 'done', ids: done });
    this.record(outcome);
  }

  private deadLetter(m: Message): DeadLetter {
    const letter: DeadLetter = {
      queue: m.queue,
      messageId: m.messageId,
      body: m.body,
      messageAttributes: m.messageAttributes,
      receiveCount: m.receiveCount,
      sentAt: new Date(m.sentTimestamp).toISOString(),
      deadLetteredAt: new Date().toISOString(),
      lastError: m.lastError,
      ...(m.error ? { error: m.error } : {}),
    };
    this.dead.push(letter);
    this.log('warn', `[sqs] ${m.queue}: message ${m.messageId} moved to the dead-letter list after ${m.receiveCount} deliveries (${m.lastError})`);
    return letter;
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

  private toRecord({ message: m, receiptHandle }: Received): SQSRecord {
    return {
      messageId: m.messageId,
      receiptHandle,
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
    const now = Date.now();
    for (const m of this.waiting.values()) if (m.receiveCount > 0 || m.visibleAt <= now) return false;
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

/** A receipt handle names its message and its receive, as SQS's do (opaque to the worker). */
function receiptHandleFor(m: Message): string {
  return Buffer.from(`${m.messageId}:${m.receiveCount}:${randomUUID()}`).toString('base64');
}

function messageIdOf(receiptHandle: string): string | undefined {
  const [id] = Buffer.from(receiptHandle, 'base64').toString('utf8').split(':');
  return id || undefined;
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
