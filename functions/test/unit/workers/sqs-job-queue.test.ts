/**
 * The generic SQS job sender against the local runtime's SQS (the same endpoint and in-process
 * dispatcher `npm start` and the integration tests use), through the app's SQS calls (aws-json.ts;
 * test/unit/aws/aws-json.test.ts checks they are the SDK client's).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SqsDispatcher, type MessageInput } from '../../../local/sqs-dispatcher.js';
import { queueUrlFor, startSqsEndpoint } from '../../../local/sqs-endpoint.js';
import { freePort } from '../../../local/ports.js';
import { awsJsonService, type AwsJsonService } from '../../../src/adapters/aws/aws-json.js';
import { MAX_DELAY_SECONDS, packBatches, SqsJobQueue } from '../../../src/adapters/aws/sqs-jobs.js';
import { workers, type QueueName } from '../../../src/routes.js';

/** The local dispatcher, refusing (as SQS does under throttling) the sends `refuse` picks. */
class RefusingDispatcher extends SqsDispatcher {
  refuse: (body: string) => boolean = () => false;

  override send(queue: string, input: MessageInput) {
    if (this.refuse(input.body)) throw Object.assign(new Error('Request throttled'), { type: 'com.amazonaws.sqs#KmsThrottled' });
    return super.send(queue, input);
  }
}

let dispatcher: RefusingDispatcher;
let stopEndpoint: () => Promise<void>;
let endpoint: string;
/** Entries per SendMessageBatch call, in order. */
let calls: number[] = [];
let sqs: AwsJsonService;

beforeAll(async () => {
  dispatcher = new RefusingDispatcher({
    queues: workers,
    // Consumers accept everything: these tests read what was sent (dispatcher.sent).
    loadHandler: async () => async () => ({ batchItemFailures: [] }),
    batchWindowMs: 1,
    log: () => undefined,
  });
  const started = await startSqsEndpoint(dispatcher, await freePort());
  endpoint = started.endpoint;
  stopEndpoint = started.stop;
  const service = awsJsonService({
    service: 'sqs',
    targetPrefix: 'AmazonSQS',
    jsonVersion: '1.0',
    region: 'us-east-1',
    endpoint,
    headers: { 'x-amzn-query-mode': 'true' },
    credentials: async () => ({ accessKeyId: 'local', secretAccessKey: 'local' }),
  });
  sqs = {
    call: (operation, input) => {
      calls.push(((input as { Entries?: unknown[] }).Entries ?? []).length);
      return service.call(operation, input);
    },
  };
});

afterEach(async () => {
  calls = [];
  dispatcher.refuse = () => false;
  await dispatcher.drain();
});

afterAll(async () => {
  await stopEndpoint();
  dispatcher.stop();
});

const queue = () => new SqsJobQueue(sqs, (name: QueueName) => queueUrlFor(endpoint, name));
const sentBodies = (name: QueueName, since: number) => dispatcher.sent(name).slice(since).map((m) => JSON.parse(m.body) as unknown);

describe('SqsJobQueue', () => {
  it('sends the jobs in order as JSON, 10 per SendMessageBatch call, to the named queue only', async () => {
    const jobs = Array.from({ length: 23 }, (_, i) => ({ userId: 'u1', agentId: 'a1', fileId: `f${i}` }));
    const before = { file: dispatcher.sent('file-ingest').length, url: dispatcher.sent('url-scrape').length };

    await queue().send('file-ingest', jobs);

    expect(calls).toEqual([10, 10, 3]);
    expect(sentBodies('file-ingest', before.file)).toEqual(jobs);
    expect(dispatcher.sent('url-scrape')).toHaveLength(before.url);
  });

  it('keeps each request within SQS’s 256 KB of bodies (the local endpoint refuses more, as SQS does)', async () => {
    const body = 'x'.repeat(100 * 1024);
    const jobs = Array.from({ length: 5 }, (_, i) => ({ userId: 'u1', integrationId: 'i1', receivedAt: `2026-05-01T10:00:0${i}.000Z`, body }));
    const before = dispatcher.sent('whatsapp-inbound').length;

    await queue().send('whatsapp-inbound', jobs);

    expect(calls).toEqual([2, 2, 1]);
    expect(sentBodies('whatsapp-inbound', before)).toEqual(jobs);
  });

  it('sends one job (call-summary) as a one-entry batch', async () => {
    const before = dispatcher.sent('call-summary').length;

    await queue().send('call-summary', [{ userId: 'u1', callId: 'CA1' }]);

    expect(calls).toEqual([1]);
    expect(sentBodies('call-summary', before)).toEqual([{ userId: 'u1', callId: 'CA1' }]);
  });

  it('sends the entries SQS refused once more, and only those', async () => {
    let refusals = 0;
    dispatcher.refuse = (body) => body.includes('"fileId":"flaky"') && refusals++ === 0;
    const jobs = ['f0', 'flaky', 'f2'].map((fileId) => ({ userId: 'u1', agentId: 'a1', fileId }));
    const before = dispatcher.sent('file-ingest').length;

    await queue().send('file-ingest', jobs);

    expect(calls).toEqual([3, 1]);
    expect(sentBodies('file-ingest', before)).toEqual([jobs[0], jobs[2], jobs[1]]);
  });

  it('fails naming the queue, the refused count and SQS’s code when an entry is refused twice; the others are sent', async () => {
    dispatcher.refuse = (body) => body.includes('"urlId":"bad"');
    const jobs = ['ok', 'bad'].map((urlId) => ({ userId: 'u1', agentId: 'a1', urlId }));
    const before = dispatcher.sent('url-scrape').length;

    await expect(queue().send('url-scrape', jobs)).rejects.toThrow('SQS refused 1 of 2 url-scrape message(s): KmsThrottled');

    expect(calls).toEqual([2, 1]);
    expect(sentBodies('url-scrape', before)).toEqual([jobs[0]]);
  });

  it('holds jobs back when asked, within SQS’s 15 minutes (a resume check, issue 29)', async () => {
    const entries: Array<{ DelaySeconds?: number }> = [];
    const spy: AwsJsonService = { call: (operation, input) => (entries.push(...((input as { Entries: typeof entries }).Entries ?? [])), sqs.call(operation, input)) };
    const delayed = new SqsJobQueue(spy, (name: QueueName) => queueUrlFor(endpoint, name));
    const job = { userId: 'u1', resumeCheck: { conversationId: 'c1', wroteAt: '2026-05-01T10:00:00.000Z' } };
    const before = dispatcher.sent('whatsapp-inbound').length;

    // The local queue's clock sped up, so the held messages are out before the drain after each test.
    dispatcher.setTimeScale(0.0001);
    try {
      await delayed.send('whatsapp-inbound', [job], 4.2);
      await delayed.send('whatsapp-inbound', [job], 12 * 3600);
      await delayed.send('whatsapp-inbound', [job]);
      await dispatcher.drain();
    } finally {
      dispatcher.setTimeScale(1);
    }

    expect(entries.map((e) => e.DelaySeconds)).toEqual([5, MAX_DELAY_SECONDS, undefined]);
    expect(sentBodies('whatsapp-inbound', before)).toEqual([job, job, job]);
  });

  it('refuses to send without a queue URL (a missing QUEUE_URL_* setting), before calling SQS', async () => {
    const unconfigured = new SqsJobQueue(sqs, () => '');

    await expect(unconfigured.send('url-scrape', [{ userId: 'u1', agentId: 'a1', urlId: 'x' }])).rejects.toThrow('No queue URL configured for url-scrape');
    expect(calls).toEqual([]);
  });
});

describe('packBatches', () => {
  it('packs batch entries within 10 entries and 256 KB a request', () => {
    const sizes = [100, 200_000, 70_000, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 262_144];

    const batches = packBatches(sizes, (n) => n);

    expect(batches).toEqual([[100, 200_000], [70_000, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 1], [262_144]]);
  });
});
