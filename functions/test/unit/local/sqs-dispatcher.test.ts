import { describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { SqsDispatcher, type SqsHandler } from '../../../local/sqs-dispatcher.js';

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
    retryBaseMs: 5,
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
