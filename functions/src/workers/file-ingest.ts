/**
 * file-ingest consumer: one uploaded document per message (batch size 1: a 50 MB PDF is enough
 * work for one invocation). Extracts, chunks, embeds and stores it (domain/knowledge/ingest.ts);
 * a failure is reported per record (ReportBatchItemFailures) so the queue retries only it.
 */
import * as z from 'zod/mini';
import '../contract/zod-locale.js';
import { fileIngestion } from '../composition/file-ingest.js';
import { workers } from '../routes.js';
import { isFinalDelivery } from './deliveries.js';
import { sqsWorker } from './sqs-worker.js';

const id = z.string().check(z.minLength(1));
const message = z.object({ userId: id, agentId: id, fileId: id });

export const handler = sqsWorker('file-ingest', message, async (job, record) => {
  await fileIngestion().ingestFile(job, { finalAttempt: isFinalDelivery(record, workers['file-ingest'].maxReceiveCount) });
});
