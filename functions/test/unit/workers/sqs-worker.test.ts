import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { sqsWorker } from '../../../src/workers/sqs-worker.js';

const context = { functionName: 'test-worker', awsRequestId: 'req-1', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

function record(messageId: string, body: string): SQSRecord {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
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
    const handler = sqsWorker('test', z.object({ userId: z.string() }), async (message, rec) => {
      if (message.userId === 'boom') throw new Error('downstream failed');
      processed.push(rec.messageId);
    });
    const event: SQSEvent = {
      Records: [
        record('ok-1', JSON.stringify({ userId: 'u1' })),
        record('not-json', '{oops'),
        record('wrong-shape', JSON.stringify({ user: 'u2' })),
        record('throws', JSON.stringify({ userId: 'boom' })),
        record('ok-2', JSON.stringify({ userId: 'u3' })),
      ],
    };

    const result = await handler(event, context);

    expect(processed).toEqual(['ok-1', 'ok-2']);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['not-json', 'throws', 'wrong-shape']);
  });

  it('answers an empty failure list when every record succeeds', async () => {
    const handler = sqsWorker('test', z.object({ userId: z.string() }), async () => undefined);
    const result = await handler({ Records: [record('a', JSON.stringify({ userId: 'u' }))] }, context);
    expect(result.batchItemFailures).toEqual([]);
  });
});
