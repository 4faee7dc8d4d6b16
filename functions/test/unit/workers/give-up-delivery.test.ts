/**
 * Issue 28: a knowledge job whose every try dies (a crash, a timeout, out of memory: no catch
 * runs) leaves no source pending. Through the local queue (the dispatcher that `npm start` runs,
 * with the retry schedule and the dead-letter list) and the real file-ingest worker wrapper over the real
 * ingestion, with in-memory storage: after the tries, the give-up delivery marks the file failed
 * with the reason and the message dead-letters.
 */
import { describe, expect, it } from 'vitest';
import { SqsDispatcher, type SqsHandler } from '../../../local/sqs-dispatcher.js';
import { knowledgeMessages } from '../../../src/contract/server-texts.js';
import { createKnowledgeIngestion, UNEXPECTED_FAILURE } from '../../../src/domain/knowledge/ingest.js';
import type { StructuredDocument } from '../../../src/domain/knowledge/ports.js';
import { JOB_TRIES } from '../../../src/domain/retry.js';
import { workers } from '../../../src/routes.js';
import { sqsWorker } from '../../../src/workers/sqs-worker.js';
import { connector, MemoryChunkStore, MemorySources } from '../knowledge/fakes.js';

const U = 'user-1';
const A = 'agent-1';
const FILE = 'file-1';
const def = workers['file-ingest'];

/** The file-ingest worker as workers/file-ingest.ts wires it, over `extract`; each call of it is one try. */
function localQueue(extract: (tryNumber: number) => Promise<StructuredDocument>, timeoutSeconds = 0.2) {
  const sources = new MemorySources();
  sources.add(U, A, { kind: 'file', sourceId: FILE, name: 'manual.txt', s3Key: 'agents/k/manual.txt', mimeType: 'text/plain', size: 20, status: 'pending' });
  let tries = 0;
  const ingestion = createKnowledgeIngestion({
    sources,
    chunks: new MemoryChunkStore(),
    ai: connector(null),
    files: { read: async () => new TextEncoder().encode('Opening hours: 9 to 17.'), extract: () => extract(++tries) },
    log: { info: () => undefined, warn: () => undefined },
  });
  const handler = sqsWorker(
    'file-ingest',
    async (job, _record, { finalAttempt }) => void (await ingestion.ingestFile(job, { finalAttempt })),
    {
      giveUp: async (job) => void (await ingestion.giveUpFile(job)),
      // The retry schedule reaches the dispatcher as ChangeMessageVisibility does through its SQS endpoint.
      visibility: async (record, seconds): Promise<void> => dispatcher.changeVisibility('file-ingest', record.receiptHandle, seconds),
    },
  );
  const dispatcher: SqsDispatcher = new SqsDispatcher({
    // The manifest's settings, but a short timeout: a try that hangs past it has died.
    queues: { 'file-ingest': { batchSize: def.batchSize, timeout: timeoutSeconds, maxReceiveCount: def.maxReceiveCount } },
    loadHandler: async () => handler as unknown as SqsHandler,
    // The whole retry schedule (45.5 min) in about half a second.
    timeScale: 0.0002,
    batchWindowMs: 5,
    log: () => undefined,
  });
  const send = () => dispatcher.send('file-ingest', { body: JSON.stringify({ userId: U, agentId: A, fileId: FILE }) });
  const file = async () => sources.records.get(sources.key(U, A, 'file', FILE));
  return { dispatcher, send, file, tries: () => tries };
}

const never = () => new Promise<StructuredDocument>(() => undefined);

describe('the give-up delivery of the knowledge queues', () => {
  it('keeps one delivery past the tries: file-ingest and url-scrape try JOB_TRIES times, then give up', () => {
    expect(workers['file-ingest']).toMatchObject({ maxReceiveCount: JOB_TRIES + 1 });
    expect(workers['url-scrape']).toMatchObject({ maxReceiveCount: JOB_TRIES + 1 });
  });

  it('a job that dies on every try (it hangs past the timeout, no catch runs) ends failed with the reason, then dead-letters', async () => {
    const queue = localQueue(never);

    const { messageId } = queue.send();
    await queue.dispatcher.drain();

    expect(queue.tries()).toBe(JOB_TRIES);
    expect(await queue.file()).toMatchObject({ status: 'failed', error: knowledgeMessages.gaveUp });
    expect(queue.dispatcher.deadLetters('file-ingest')).toEqual([
      expect.objectContaining({ messageId, receiveCount: JOB_TRIES + 1 }),
    ]);
  });

  it('a job that throws on every try keeps the reason its last try wrote; the give-up delivery changes nothing and dead-letters', async () => {
    const queue = localQueue(async () => {
      throw new Error('DynamoDB is down');
    });

    const { messageId } = queue.send();
    await queue.dispatcher.drain();

    expect(queue.tries()).toBe(JOB_TRIES);
    expect(await queue.file()).toMatchObject({ status: 'failed', error: UNEXPECTED_FAILURE });
    expect(queue.dispatcher.deadLetters('file-ingest').map((d) => d.messageId)).toEqual([messageId]);
  });

  it('a job that dies twice and then completes is not given up', async () => {
    const queue = localQueue((n) => (n < 3 ? never() : Promise.resolve({ blocks: [{ kind: 'paragraph', text: 'Opening hours: 9 to 17.' }] })));

    queue.send();
    await queue.dispatcher.drain();

    expect(queue.tries()).toBe(3);
    expect(await queue.file()).toMatchObject({ status: 'completed', chunkCount: 1 });
    expect(queue.dispatcher.deadLetters('file-ingest')).toEqual([]);
  });
});
