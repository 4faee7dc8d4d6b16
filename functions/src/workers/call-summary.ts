/**
 * call-summary consumer: one finished call per queue message ({userId, callId}, sent by the call
 * loop on the first final status callback). Asks the model for the structured analysis, stores
 * it, and delivers it (domain/voice/summary.ts, delivery.ts). Bad model output never fails the
 * record (the call is marked failed with the reason); only a transient model failure does, so
 * SQS retries it, and on the last receive it is stored as failed instead.
 */
import * as z from 'zod/mini';
import '../contract/zod-locale.js';
import { logger } from '../adapters/logger.js';
import { callSummaryDeps } from '../composition/call-summary.js';
import { processCallSummaryJob } from '../domain/voice/summary.js';
import { workers } from '../routes.js';
import { sqsWorker } from './sqs-worker.js';

const id = z.string().check(z.minLength(1), z.maxLength(200));
const message = z.object({ userId: id, callId: id });

export const handler = sqsWorker('call-summary', message, async (job, record) => {
  const receives = Number(record.attributes?.ApproximateReceiveCount ?? '1') || 1;
  const finalAttempt = receives >= workers['call-summary'].maxReceiveCount;
  const outcome = await processCallSummaryJob(callSummaryDeps(), job, { finalAttempt });
  logger.info('call-summary processed', { messageId: record.messageId, userId: job.userId, callId: job.callId, receives, ...outcome });
});
