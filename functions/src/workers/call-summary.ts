/**
 * call-summary consumer: one finished call per queue message ({userId, callId}, sent by the call
 * loop on the first final status callback). Asks the model for the structured analysis, stores
 * it, and delivers it (domain/voice/summary.ts, delivery.ts). Bad model output never fails the
 * record (the call is marked failed with the reason); only a transient model failure does, so
 * SQS retries it, and on the last receive it is stored as failed instead. A message with stage
 * 'handoff' (a streamed call being forwarded right now) tells the owner at once instead
 * (processHandoffNotice); the call's final summary still comes after it ends.
 */
import { logger } from '../adapters/logger.js';
import { callSummaryDeps } from '../composition/call-summary.js';
import { processCallSummaryJob } from '../domain/voice/summary.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker('call-summary', async (job, record, { receiveCount: receives, finalAttempt }) => {
  const outcome = await processCallSummaryJob(callSummaryDeps(), job, { finalAttempt });
  logger.info('call-summary processed', { messageId: record.messageId, userId: job.userId, callId: job.callId, stage: job.stage ?? 'final', receives, ...outcome });
});
