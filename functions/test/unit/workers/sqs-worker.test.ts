import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { statusError } from '../../../src/adapters/openai/fetch-model.js';
import { JOB_TRIES, LastingError, QUEUE_MAX_RECEIVES, TransientError } from '../../../src/domain/retry.js';
import { workers, type QueueName } from '../../../src/routes.js';
import { RECORD_ERRORS, type RecordError } from '../../../src/workers/deliveries.js';
import { sqsWorker, type Delivery, type RecordVisibility, type WorkerOptions } from '../../../src/workers/sqs-worker.js';

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

/** Records each ChangeMessageVisibility the worker asks for (what SQS would be told), by message id. */
function visibilityLog() {
  const set: Record<string, number> = {};
  const visibility: RecordVisibility = async (rec, seconds) => void (set[rec.messageId] = seconds);
  return { set, visibility };
}

/** sqsWorker with a recorded visibility (unit tests reach no SQS). */
function worker<Q extends QueueName>(name: Q, process: Parameters<typeof sqsWorker<Q>>[1], options: Omit<WorkerOptions<Q>, 'visibility'> = {}) {
  const log = visibilityLog();
  return { handler: sqsWorker(name, process, { ...options, visibility: log.visibility }), visibilitySet: log.set };
}

describe('sqsWorker', () => {
  it('reports exactly the malformed and failing records as batch item failures', async () => {
    const processed: string[] = [];
    const { handler } = worker('call-summary', async (job, rec) => {
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
    const { handler } = worker('call-summary', async () => undefined);
    const result = await handler({ Records: [record('a', JSON.stringify({ userId: 'u', callId: 'c' }))] }, context);
    expect(result.batchItemFailures).toEqual([]);
  });

  it('passes the receive count and whether this is the job’s last try (the delivery before the give-up delivery)', async () => {
    const seen: Delivery[] = [];
    const { handler } = worker('call-summary', async (_job, _rec, delivery) => void seen.push(delivery));
    const job = JSON.stringify({ userId: 'u', callId: 'c' });

    await handler({ Records: [record('first', job, '1'), record('last', job, String(JOB_TRIES))] }, context);

    expect(seen).toEqual([
      { receiveCount: 1, finalAttempt: false },
      { receiveCount: JOB_TRIES, finalAttempt: true },
    ]);
  });

  it('every queue keeps a give-up delivery: the last delivery only gives up, then fails the record', async () => {
    for (const def of Object.values(workers)) expect(def.maxReceiveCount).toBe(QUEUE_MAX_RECEIVES);
    const seen: Delivery[] = [];
    const gaveUp: string[] = [];
    const { handler, visibilitySet } = worker('file-ingest', async (_job, _rec, delivery) => void seen.push(delivery), {
      giveUp: async (job, rec) => void gaveUp.push(`${job.fileId}:${rec.messageId}`),
    });
    const job = JSON.stringify({ userId: 'u', agentId: 'a', fileId: 'f' });
    const max = workers['file-ingest'].maxReceiveCount;

    const result = await handler({ Records: [record('first', job, '1'), record('last-try', job, String(max - 1)), record('give-up', job, String(max))] }, context);

    expect(seen).toEqual([
      { receiveCount: 1, finalAttempt: false },
      { receiveCount: max - 1, finalAttempt: true },
    ]);
    expect(gaveUp).toEqual(['f:give-up']);
    // Still a failure, so the message dead-letters (and the queue's alarm sees it), at once.
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'give-up' }]);
    expect(visibilitySet).toEqual({ 'give-up': 0 });
  });
});

describe('sqsWorker retries on the schedule (issue 34)', () => {
  const job = (callId: string) => JSON.stringify({ userId: 'u1', callId });
  const errorsOf = (response: object) => (response as Record<typeof RECORD_ERRORS, Record<string, RecordError>>)[RECORD_ERRORS];

  it('a transient failure comes back after the schedule’s delay for its next receive; Retry-After is honoured', async () => {
    const { handler, visibilitySet } = worker('call-summary', async (j) => {
      if (j.callId === 'down') throw new TransientError({ provider: 'ses', code: 'unavailable', status: 503 });
      if (j.callId === 'limited') throw statusError(429, '600');
      if (j.callId === 'bug') throw new TypeError('x is undefined');
    });

    const result = await handler({ Records: [record('down', job('down'), '1'), record('limited', job('limited'), '1'), record('bug', job('bug'), '3'), record('ok', job('ok'))] }, context);

    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['bug', 'down', 'limited']);
    // Receive 2 after 30 s (+ up to 20 % jitter); receive 4 after 2 min; a 429's Retry-After of 10 min wins.
    expect(visibilitySet.down).toBeGreaterThanOrEqual(30);
    expect(visibilitySet.down).toBeLessThanOrEqual(36);
    expect(visibilitySet.bug).toBeGreaterThanOrEqual(120);
    expect(visibilitySet.bug).toBeLessThanOrEqual(144);
    expect(visibilitySet.limited).toBe(600);
    expect(visibilitySet.ok).toBeUndefined();
  });

  it('a failed last try brings the give-up delivery at once', async () => {
    const { handler, visibilitySet } = worker('call-summary', async () => {
      throw new TransientError({ provider: 'openai', code: 'timeout' });
    });
    await handler({ Records: [record('last', job('c'), String(JOB_TRIES))] }, context);
    expect(visibilitySet).toEqual({ last: 0 });
  });

  it('a lasting failure is not retried: onLastingFailure records it with the reason and the record is acknowledged', async () => {
    const recorded: string[] = [];
    const { handler, visibilitySet } = worker(
      'call-summary',
      async () => {
        throw statusError(401);
      },
      { onLastingFailure: async (j, error) => void recorded.push(`${j.callId}:${error.provider}:${error.reason}`) },
    );

    const result = await handler({ Records: [record('m1', job('c1'))] }, context);

    expect(recorded).toEqual(['c1:openai:credentials']);
    expect(result.batchItemFailures).toEqual([]);
    expect(visibilitySet).toEqual({});
  });

  it('without onLastingFailure a lasting failure heads for the dead-letter queue at once; a failing hook retries on the schedule', async () => {
    const lasting = new LastingError({ provider: 'whatsapp', code: 190, reason: 'credentials' });
    const bare = worker('call-summary', async () => {
      throw lasting;
    });
    const hookDown = worker(
      'call-summary',
      async () => {
        throw lasting;
      },
      {
        onLastingFailure: async () => {
          throw new TransientError({ provider: 'aws', code: 'unavailable', status: 500 });
        },
      },
    );

    expect((await bare.handler({ Records: [record('m', job('c'))] }, context)).batchItemFailures).toEqual([{ itemIdentifier: 'm' }]);
    expect(bare.visibilitySet).toEqual({ m: 0 });
    expect((await hookDown.handler({ Records: [record('m', job('c'))] }, context)).batchItemFailures).toEqual([{ itemIdentifier: 'm' }]);
    expect(hookDown.visibilitySet.m).toBeGreaterThanOrEqual(30);
  });

  it('each failed record carries its own error for the local dead-letter list, outside what Lambda serialises', async () => {
    const { handler } = worker('call-summary', async (j) => {
      if (j.callId === 'a') throw new LastingError({ provider: 'whatsapp', code: 131047, reason: 'invalid_request', message: 'window closed' });
      if (j.callId === 'b') throw new TransientError({ provider: 's3', code: 'rate_limited', status: 429, retryAfterSeconds: 5 });
      throw new Error('boom');
    });

    const result = await handler({ Records: [record('a', job('a')), record('b', job('b')), record('c', job('c')), record('bad', '{')] }, context);

    expect(errorsOf(result)).toEqual({
      a: { kind: 'lasting', name: 'LastingError', message: 'window closed', provider: 'whatsapp', code: '131047', reason: 'invalid_request' },
      b: expect.objectContaining({ kind: 'transient', provider: 's3', code: 'rate_limited', retryAfterSeconds: 5 }),
      c: { kind: 'unexpected', name: 'Error', message: 'boom' },
      bad: { kind: 'unexpected', name: 'Error', message: 'Malformed call-summary message' },
    });
    expect(JSON.parse(JSON.stringify(result))).toEqual({ batchItemFailures: expect.any(Array) });
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
    {
      // Issue 34: ids only, never an address, a text or a secret.
      queue: 'outbound-email',
      valid: { userId: 'u1', kind: 'call-summary', subjectId: 'c1', sendId: 's1' },
      malformed: {
        'an unknown kind': { userId: 'u1', kind: 'newsletter', subjectId: 'c1', sendId: 's1' },
        'no sendId': { userId: 'u1', kind: 'notification', subjectId: 'n1' },
        'an empty subjectId': { userId: 'u1', kind: 'call-handoff', subjectId: '', sendId: 's1' },
        'an address carried along': { userId: 'u1', kind: 'notification', subjectId: 'n1', sendId: 's1', to: 'someone@example.com' },
      },
    },
    {
      // Issue 29: ids only; the device's subscription and the text are read when the push is sent.
      queue: 'web-push',
      valid: { userId: 'u1', notificationId: 'n1', deviceId: 'd1' },
      malformed: {
        'neither a notification nor a test': { userId: 'u1', deviceId: 'd1' },
        'a test without a device': { userId: 'u1', test: true },
        'an endpoint carried along': { userId: 'u1', notificationId: 'n1', endpoint: 'https://push.example/x' },
        'an empty userId': { userId: '', notificationId: 'n1' },
      },
    },
    {
      // Issue 30: a booking's stored change for its listeners (the booking travels as reported), or a due reminder.
      queue: 'booking-events',
      valid: {
        userId: 'u1',
        change: {
          kind: 'moved',
          booking: { _id: 'b1', start: '2026-12-03T09:30:00.000Z', status: 'confirmed', updatedAt: '2026-12-01T08:00:00.000Z', serviceName: 'Limpieza dental' },
          before: { _id: 'b1', start: '2026-12-02T09:30:00.000Z', status: 'confirmed', updatedAt: '2026-11-30T08:00:00.000Z' },
          actor: { by: 'owner', channel: 'dashboard' },
        },
      },
      malformed: {
        'an unknown change kind': { userId: 'u1', change: { kind: 'deleted', booking: { _id: 'b1', start: 's', status: 'confirmed', updatedAt: 'u' }, actor: { by: 'owner', channel: 'dashboard' } } },
        'a change without its booking id': { userId: 'u1', change: { kind: 'created', booking: { start: 's', status: 'confirmed', updatedAt: 'u' }, actor: { by: 'agent', channel: 'whatsapp' } } },
        'a reminder without its start': { userId: 'u1', reminder: { bookingId: 'b1' } },
        'neither a change nor a reminder': { userId: 'u1' },
      },
    },
    {
      // Issue 33: a person's erasure or export, the account's deletion (and its sweep), a retention re-dating.
      queue: 'privacy-jobs',
      valid: { kind: 'person', accountId: 'a1', jobId: '01JDZ8Q5K3M4N5P6Q7R8S9T0VW', resume: 1 },
      malformed: {
        'an unknown kind': { kind: 'erase', accountId: 'a1', jobId: 'j1' },
        'a person job without its job id': { kind: 'person', accountId: 'a1' },
        'an account deletion without its account': { kind: 'accountDeletion', sweep: true },
        'a retention job at an unknown stage': { kind: 'retention', accountId: 'a1', cursor: { stage: 'everything' } },
        'no kind at all': { accountId: 'a1', jobId: 'j1' },
      },
    },
  ];

  it('covers every queue of the manifest', () => {
    expect(cases.map((c) => c.queue).sort()).toEqual(Object.keys(workers).sort());
  });

  for (const { queue, valid, malformed } of cases) {
    it(`${queue}: a well-formed job reaches the worker, each malformed one is a batch item failure`, async () => {
      const processed: unknown[] = [];
      const { handler } = worker(queue, async (job) => void processed.push(job));
      const bad = Object.entries(malformed);

      const result = await handler({ Records: [record('valid', JSON.stringify(valid)), ...bad.map(([name, body]) => record(name, JSON.stringify(body)))] }, context);

      expect(processed).toEqual([valid]);
      expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(bad.map(([name]) => name).sort());
    });
  }
});

describe('sqsWorker: one batch at a time per processor (issue 34)', () => {
  it('two batches of one worker running at once each report exactly their own failing record', async () => {
    // Lambda runs concurrent invocations on separate containers; the local dispatcher runs them in one
    // process, so nothing of one invocation may be shared with another.
    const { handler } = worker('call-summary', async (job) => {
      await new Promise((resolve) => setTimeout(resolve, job.callId.endsWith('slow') ? 30 : 5));
      if (job.userId === 'boom') throw new Error('downstream failed');
    });
    const body = (userId: string, callId: string) => JSON.stringify({ userId, callId });
    const first = handler({ Records: [record('a-ok', body('u1', 'c-slow')), record('a-fails', body('boom', 'c2'))] }, context);
    const second = handler({ Records: [record('b-ok-1', body('u3', 'c3')), record('b-ok-2', body('u4', 'c4-slow'))] }, context);

    const [a, b] = await Promise.all([first, second]);

    expect(a.batchItemFailures).toEqual([{ itemIdentifier: 'a-fails' }]);
    expect(b.batchItemFailures).toEqual([]);
  });
});
