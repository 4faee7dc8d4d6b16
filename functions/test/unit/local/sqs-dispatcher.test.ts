import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { SqsDispatcher, type SqsHandler } from '../../../local/sqs-dispatcher.js';
import { LastingError, QUEUE_MAX_RECEIVES, TransientError } from '../../../src/domain/retry.js';
import { sqsWorker } from '../../../src/workers/sqs-worker.js';

/** A fake worker that records every batch and fails the records `fails` picks. */
function fakeWorker(fails: (body: string, receiveCount: number) => boolean | 'throw') {
  const batches: SQSEvent[] = [];
  const handler: SqsHandler = async (event) => {
    batches.push(event);
    const verdicts = event.Records.map((r) => fails(r.body, Number(r.attributes.ApproximateReceiveCount)));
    if (verdicts.includes('throw')) throw new Error('worker crashed');
    return {
      batchItemFailures: event.Records.filter((_, i) => verdicts[i] === true).map((r) => ({ itemIdentifier: r.messageId })),
    };
  };
  return { handler, batches, deliveriesOf: (body: string) => batches.flatMap((b) => b.Records).filter((r) => r.body === body) };
}

function dispatcherWith(handler: SqsHandler, settings = { batchSize: 5, timeout: 5, maxReceiveCount: 3 }) {
  return new SqsDispatcher({
    queues: { jobs: settings },
    loadHandler: async () => handler,
    // The visibility timeout (6 × 5 s) in 6 ms.
    timeScale: 0.0002,
    batchWindowMs: 5,
    log: () => undefined,
  });
}

describe('SqsDispatcher', () => {
  it('delivers messages as SQSEvent batches of up to batchSize with Lambda record fields', async () => {
    const worker = fakeWorker(() => false);
    const dispatcher = dispatcherWith(worker.handler, { batchSize: 2, timeout: 5, maxReceiveCount: 3 });

    for (const body of ['a', 'b', 'c']) dispatcher.send('jobs', { body });
    await dispatcher.drain();

    expect(worker.batches.map((b) => b.Records.length)).toEqual([2, 1]);
    const record = worker.batches[0]!.Records[0]!;
    expect(record).toMatchObject({
      body: 'a',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:jobs',
      awsRegion: 'us-east-1',
      attributes: { ApproximateReceiveCount: '1' },
    });
    expect(record.receiptHandle).toBeTruthy();
    expect(record.md5OfBody).toBe('0cc175b9c0f1b6a831c399e269772661'); // md5("a")
  });

  it('retries only the records reported in batchItemFailures', async () => {
    const worker = fakeWorker((body, receiveCount) => body === 'flaky' && receiveCount === 1);
    const dispatcher = dispatcherWith(worker.handler);

    dispatcher.send('jobs', { body: 'ok' });
    dispatcher.send('jobs', { body: 'flaky' });
    await dispatcher.drain();

    expect(worker.deliveriesOf('ok')).toHaveLength(1);
    expect(worker.deliveriesOf('flaky').map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['1', '2']);
    expect(dispatcher.deadLetters()).toEqual([]);
    expect(dispatcher.stats().jobs).toMatchObject({ succeeded: 2, failedDeliveries: 1, pending: 0 });
  });

  it('drains without waiting for a message its sender held back (DelaySeconds), and delivers it when its time comes', async () => {
    const worker = fakeWorker(() => false);
    const dispatcher = dispatcherWith(worker.handler);

    // 300 s scaled to 60 ms: drain() is not held by it, but waits for the message sent now.
    dispatcher.send('jobs', { body: 'later', delaySeconds: 300 });
    dispatcher.send('jobs', { body: 'now' });
    await dispatcher.drain();
    expect(worker.deliveriesOf('now')).toHaveLength(1);
    expect(worker.deliveriesOf('later')).toHaveLength(0);
    expect(dispatcher.stats().jobs).toMatchObject({ pending: 1 });

    await new Promise((resolve) => setTimeout(resolve, 120));
    await dispatcher.drain();
    expect(worker.deliveriesOf('later')).toHaveLength(1);
    expect(dispatcher.stats().jobs).toMatchObject({ pending: 0 });
  });

  it('moves a poison message to the dead-letter list after maxReceiveCount deliveries', async () => {
    const worker = fakeWorker((body) => body === 'poison');
    const dispatcher = dispatcherWith(worker.handler);

    const { messageId } = dispatcher.send('jobs', { body: 'poison' });
    dispatcher.send('jobs', { body: 'fine' });
    await dispatcher.drain();

    expect(worker.deliveriesOf('poison')).toHaveLength(3);
    expect(worker.deliveriesOf('fine')).toHaveLength(1);
    expect(dispatcher.deadLetters('jobs')).toEqual([
      expect.objectContaining({ queue: 'jobs', messageId, body: 'poison', receiveCount: 3 }),
    ]);
  });

  it('fails the whole batch when the worker throws, like Lambda', async () => {
    const worker = fakeWorker((body, receiveCount) => (body === 'boom' && receiveCount === 1 ? 'throw' : false));
    const dispatcher = dispatcherWith(worker.handler);

    dispatcher.send('jobs', { body: 'boom' });
    dispatcher.send('jobs', { body: 'bystander' });
    await dispatcher.drain();

    expect(worker.deliveriesOf('bystander')).toHaveLength(2);
    expect(worker.deliveriesOf('boom')).toHaveLength(2);
    expect(dispatcher.deadLetters()).toEqual([]);
  });

  it('treats an unknown itemIdentifier as a failure of the whole batch', async () => {
    let calls = 0;
    const dispatcher = dispatcherWith(async () => {
      calls += 1;
      return { batchItemFailures: calls === 1 ? [{ itemIdentifier: 'not-a-message-id' }] : [] };
    });

    dispatcher.send('jobs', { body: 'x' });
    await dispatcher.drain();

    expect(calls).toBe(2);
    expect(dispatcher.stats().jobs).toMatchObject({ succeeded: 1, failedDeliveries: 1 });
  });

  it('keeps pending messages and dead letters across a snapshot/restore (a restart)', async () => {
    const first = dispatcherWith(fakeWorker((body) => body === 'poison').handler);
    first.send('jobs', { body: 'poison' });
    await first.drain();
    first.send('jobs', { body: 'unprocessed' });
    first.stop(); // stopped before the new message was delivered

    const worker = fakeWorker(() => false);
    const second = dispatcherWith(worker.handler);
    second.restore(first.snapshot());
    await second.drain();

    expect(second.deadLetters('jobs').map((d) => d.body)).toEqual(['poison']);
    expect(worker.deliveriesOf('unprocessed')).toHaveLength(1);
  });
});

describe('SqsDispatcher: issue 34', () => {
  const job = (callId: string, userId = 'u1') => JSON.stringify({ userId, callId });
  const quiet = () => undefined;

  /** The real call-summary worker wrapper over `process`, its visibility settings going to the dispatcher (as through the SQS endpoint). */
  function realWorker(process: Parameters<typeof sqsWorker<'call-summary'>>[1], options: { timeScale?: number; batchSize?: number; concurrency?: number } = {}) {
    const batches: string[][] = [];
    const handler = sqsWorker('call-summary', process, { visibility: async (record, seconds) => dispatcher.changeVisibility('call-summary', record.receiptHandle, seconds) });
    const dispatcher = new SqsDispatcher({
      queues: { 'call-summary': { batchSize: options.batchSize ?? 2, timeout: 5, maxReceiveCount: QUEUE_MAX_RECEIVES } },
      loadHandler: async () => (async (event, context) => {
        batches.push(event.Records.map((r) => JSON.parse(r.body).callId as string));
        return handler(event, context);
      }) as SqsHandler,
      timeScale: options.timeScale ?? 0.0002,
      batchWindowMs: 5,
      concurrency: options.concurrency ?? 2,
      log: quiet,
    });
    return { dispatcher, batches };
  }

  it('runs two batches of a queue at once, and each retries exactly its own failing record', async () => {
    const runs: Record<string, number> = {};
    const { dispatcher, batches } = realWorker(async (j) => {
      runs[j.callId] = (runs[j.callId] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, j.callId.startsWith('slow') ? 40 : 10));
      if (j.callId === 'fails-once' && runs[j.callId] === 1) throw new TransientError({ provider: 'openai', code: 'unavailable', status: 503 });
    });

    for (const callId of ['slow-1', 'fails-once', 'ok-1', 'slow-2']) dispatcher.send('call-summary', { body: job(callId) });
    await dispatcher.drain();

    // The first two batches overlapped (concurrency 2).
    expect(batches.slice(0, 2)).toEqual([['slow-1', 'fails-once'], ['ok-1', 'slow-2']]);
    expect(runs).toEqual({ 'slow-1': 1, 'fails-once': 2, 'ok-1': 1, 'slow-2': 1 });
    expect(dispatcher.stats()['call-summary']).toMatchObject({ succeeded: 4, failedDeliveries: 1 });
  });

  it('honours ChangeMessageVisibility: a transient failure comes back after the schedule’s delay, scaled', async () => {
    const at: number[] = [];
    // Scale 0.002: the first retry (30-36 s) after 60-72 ms.
    const { dispatcher } = realWorker(
      async () => {
        at.push(Date.now());
        if (at.length === 1) throw new TransientError({ provider: 'ses', code: 'unavailable', status: 503 });
      },
      { timeScale: 0.002 },
    );

    dispatcher.send('call-summary', { body: job('c') });
    await dispatcher.drain();

    expect(at).toHaveLength(2);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(55);
    expect(at[1]! - at[0]!).toBeLessThan(400);
  });

  it('answers ChangeMessageVisibility for a handle that is not in flight as SQS does', async () => {
    let handle = '';
    const dispatcher = dispatcherWith(async (event) => {
      handle = event.Records[0]!.receiptHandle;
      expect(() => dispatcher.changeVisibility('jobs', handle, 43_201)).toThrow(expect.objectContaining({ code: 'InvalidParameterValue' }));
      return { batchItemFailures: [] };
    });
    dispatcher.send('jobs', { body: 'x' });
    await dispatcher.drain();

    expect(() => dispatcher.changeVisibility('jobs', handle, 10)).toThrow(expect.objectContaining({ code: 'ReceiptHandleIsInvalid' }));
    expect(() => dispatcher.changeVisibility('jobs', 'bm9wZQ==', 10)).toThrow(expect.objectContaining({ code: 'ReceiptHandleIsInvalid' }));
    expect(() => dispatcher.changeVisibility('nope', handle, 10)).toThrow('Unknown queue: nope');
  });

  it('keeps each dead letter’s own error, not the batch’s, and redrives them with all their tries', async () => {
    let healthy = false;
    const { dispatcher } = realWorker(async (j) => {
      if (healthy) return;
      if (j.callId === 'revoked') throw new LastingError({ provider: 'whatsapp', code: 190, reason: 'credentials', message: 'Error validating access token' });
      throw new TransientError({ provider: 'openai', code: 'timeout', message: 'The model call timed out' });
    });

    const revoked = dispatcher.send('call-summary', { body: job('revoked') });
    const slow = dispatcher.send('call-summary', { body: job('slow') });
    await dispatcher.drain();

    const dead = Object.fromEntries(dispatcher.deadLetters('call-summary').map((d) => [d.messageId, d]));
    expect(dead[revoked.messageId]).toMatchObject({
      receiveCount: QUEUE_MAX_RECEIVES,
      lastError: 'LastingError: Error validating access token',
      error: { kind: 'lasting', provider: 'whatsapp', code: '190', reason: 'credentials' },
    });
    expect(dead[slow.messageId]).toMatchObject({ lastError: 'TransientError: The model call timed out', error: { kind: 'transient', provider: 'openai', code: 'timeout' } });

    healthy = true;
    expect(dispatcher.redrive('call-summary')).toBe(2);
    await dispatcher.drain();
    expect(dispatcher.deadLetters()).toEqual([]);
    expect(dispatcher.stats()['call-summary']).toMatchObject({ succeeded: 2 });
  });
});

describe('SqsDispatcher journal (npm start survives a crash)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sqs-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('restores pending messages and dead letters; a processed message is never run again', async () => {
    const file = join(dir, 'journal.ndjson');
    const first = dispatcherWith(fakeWorker((body) => body === 'poison').handler);
    first.open(file);
    first.send('jobs', { body: 'done-before' });
    first.send('jobs', { body: 'poison' });
    await first.drain();
    first.send('jobs', { body: 'unprocessed' });
    first.stop(); // dies before delivering it: no close(), the journal is as a crash left it

    const worker = fakeWorker(() => false);
    const second = dispatcherWith(worker.handler);
    expect(second.open(file)).toEqual({ restored: 1, interrupted: 0 });
    await second.drain();

    expect(worker.batches.flatMap((b) => b.Records.map((r) => r.body))).toEqual(['unprocessed']);
    expect(second.deadLetters('jobs').map((d) => d.body)).toEqual(['poison']);
    second.close();
  });

  it('delivers a message that was in a worker’s hands when the runtime died once more, its receive count kept', async () => {
    const file = join(dir, 'journal.ndjson');
    const first = dispatcherWith(() => new Promise(() => undefined), { batchSize: 1, timeout: 60, maxReceiveCount: 3 });
    first.open(file);
    first.send('jobs', { body: 'in-flight' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.stop();

    const worker = fakeWorker(() => false);
    const second = dispatcherWith(worker.handler);
    expect(second.open(file)).toEqual({ restored: 1, interrupted: 1 });
    await second.drain();

    expect(worker.deliveriesOf('in-flight').map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['2']);
    second.close();
  });
});
