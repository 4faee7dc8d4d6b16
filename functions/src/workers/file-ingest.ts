/**
 * file-ingest consumer: one uploaded document per message (batch size 1: a 50 MB PDF is enough
 * work for one invocation). Extracts, chunks, embeds and stores it (domain/knowledge/ingest.ts);
 * a failure is reported per record (ReportBatchItemFailures) so the queue retries only it, on the
 * retry schedule (domain/retry.ts): storage and network outages are ridden out, lasting problems
 * fail the file at once with the reason. After every try failed the queue's give-up delivery marks
 * a file still pending in the job's round failed (reprocessable from the Files tab).
 */
import { fileIngestion } from '../composition/file-ingest.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker(
  'file-ingest',
  async (job, _record, { finalAttempt }) => {
    await fileIngestion().ingestFile(job, { finalAttempt });
  },
  async (job) => {
    await fileIngestion().giveUpFile(job);
  },
);
