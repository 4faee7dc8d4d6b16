import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { workers, type QueueName } from '../../../src/routes.js';
import { sqsWorker, type Delivery } from '../../../src/workers/sqs-worker.js';

const context = { functionName: 'test-worker', awsRequestId: 'req-1', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

function record(messageId: string, body: string, receiveCount = '1'): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: receiveCount,
      SentTimestamp: '0',
      SenderId: 'local',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:test',
    awsRegion: 'us-east-1',
  };
}

describe('sqsWorker', () => {
  it('reports exactly the malformed and failing records as batch item failures', async () => {
    const processed: string[] = [];
    const handler = sqsWorker('call-summary', async (job, rec) => {
      if (job.userId === 'boom') throw new Error('downstream failed');
      processed.push(rec.messageId);
    });
    const event: SQSEvent = {
      Records: [
        record('ok-1', JSON.stringify({ userId: 'u1', callId: 'c1' })),
        record('not-json', '{oops'),
        record('wrong-shape', JSON.stringify({ user: 'u2', callId: 'c2' })),
        record('throws', JSON.stringify({ userId: 'boom', callId: 'c3' })),
        record('ok-2', JSON.stringify({ userId: 'u3', callId: 'c4' })),
      ],
    };

    const result = await handler(event, context);

    expect(processed).toEqual(['ok-1', 'ok-2']);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['not-json', 'throws', 'wrong-shape']);
  });

  it('answers an empty failure list when every record succeeds', async () => {
    const handler = sqsWorker('call-summary', async () => undefined);
    const result = await handler({ Records: [record('a', JSON.stringify({ userId: 'u', callId: 'c' }))] }, context);
    expect(result.batchItemFailures).toEqual([]);
  });

  it('passes the receive count and whether this is the queue’s last delivery (its manifest maxReceiveCount)', async () => {
    const seen: Delivery[] = [];
    const handler = sqsWorker('call-summary', async (_job, _rec, delivery) => void seen.push(delivery));
    const job = JSON.stringify({ userId: 'u', callId: 'c' });
    const max = workers['call-summary'].maxReceiveCount;

    await handler({ Records: [record('first', job, '1'), record('last', job, String(max))] }, context);

    expect(seen).toEqual([
      { receiveCount: 1, finalAttempt: false },
      { receiveCount: max, finalAttempt: true },
    ]);
  });

  it('with a give-up delivery: the job’s last try is the one before it, and the last delivery only gives up, then fails the record', async () => {
    const seen: Delivery[] = [];
    const gaveUp: string[] = [];
    const handler = sqsWorker(
      'file-ingest',
      async (_job, _rec, delivery) => void seen.push(delivery),
      async (job, rec) => void gaveUp.push(`${job.fileId}:${rec.messageId}`),
    );
    const job = JSON.stringify({ userId: 'u', agentId: 'a', fileId: 'f' });
    const max = workers['file-ingest'].maxReceiveCount;

    const result = await handler({ Records: [record('first', job, '1'), record('last-try', job, String(max - 1)), record('give-up', job, String(max))] }, context);

    expect(seen).toEqual([
      { receiveCount: 1, finalAttempt: false },
      { receiveCount: max - 1, finalAttempt: true },
    ]);
    expect(gaveUp).toEqual(['f:give-up']);
    // Still a failure, so the message dead-letters (and the queue's alarm sees it).
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'give-up' }]);
  });
});

describe('sqsWorker validates with the job schema the manifest names for its queue', () => {
  const ok = { userId: 'u1', agentId: 'a1' };
  const cases: { queue: QueueName; valid: object; malformed: Record<string, unknown> }[] = [
    { queue: 'file-ingest', valid: { ...ok, fileId: 'f1' }, malformed: { 'no fileId': ok, 'empty userId': { ...ok, userId: '', fileId: 'f1' } } },
    { queue: 'url-scrape', valid: { ...ok, urlId: 'u1', refresh: true }, malformed: { 'refresh not a boolean': { ...ok, urlId: 'u1', refresh: 'yes' }, 'a JSON array': [ok] } },
    { queue: 'call-summary', valid: { userId: 'u1', callId: 'c1' }, malformed: { 'callId over 200 chars': { userId: 'u1', callId: 'c'.repeat(201) }, 'callId a number': { userId: 'u1', callId: 7 } } },
    {
      queue: 'whatsapp-inbound',
      valid: { userId: 'u1', integrationId: 'i1', receivedAt: '2026-05-01T10:00:00.000Z', bodyKey: 'tmp/whatsapp-inbound/u1/k' },
      malformed: {
        'body not a string': { userId: 'u1', integrationId: 'i1', receivedAt: 'x', body: { entry: [] } },
        'bodyKey outside the parking prefix': { userId: 'u1', integrationId: 'i1', receivedAt: 'x', bodyKey: 'uploads/u1/secret.pdf' },
        'the prefix not at the start': { userId: 'u1', integrationId: 'i1', receivedAt: 'x', bodyKey: 'uploads/tmp/whatsapp-inbound/k' },
      },
    },
    {
      queue: 'contacts-jobs',
      valid: { userId: 'u1', jobId: 'j1', kind: 'import', cursor: { offset: 1024, line: 40, row: 39 } },
      malformed: {
        'an unknown kind': { userId: 'u1', jobId: 'j1', kind: 'delete' },
        'no jobId': { userId: 'u1', kind: 'export' },
        'a cursor offset as text': { userId: 'u1', jobId: 'j1', kind: 'import', cursor: { offset: '1024', line: 40, row: 39 } },
      },
    },
  ];

  it('covers every queue of the manifest', () => {
    expect(cases.map((c) => c.queue).sort()).toEqual(Object.keys(workers).sort());
  });

  for (const { queue, valid, malformed } of cases) {
    it(`${queue}: a well-formed job reaches the worker, each malformed one is a batch item failure`, async () => {
      const processed: unknown[] = [];
      const handler = sqsWorker(queue, async (job) => void processed.push(job));
      const bad = Object.entries(malformed);

      const result = await handler({ Records: [record('valid', JSON.stringify(valid)), ...bad.map(([name, body]) => record(name, JSON.stringify(body)))] }, context);

      expect(processed).toEqual([valid]);
      expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(bad.map(([name]) => name).sort());
    });
  }
});
