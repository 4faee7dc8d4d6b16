/**
 * whatsapp-inbound consumer: one verified Meta webhook delivery (or one piece of an oversized
 * one, possibly parked in the uploads bucket) per queue message (queued by the webhook after the
 * signature check). Stores the messages, lets the agent answer, applies the
 * delivery statuses (domain/whatsapp/inbound.ts). A failure is reported for its record only
 * (partial batch failures); the retry resumes: stored messages are not stored twice, a reply this
 * queue message had claimed is taken over by its own retry (owner = the SQS message id). The
 * other jobs of the queue answer a conversation's waiting messages (issue 34, inbound.ts answerWaiting)
 * and check whether a person's pause has ended (issue 29, conversations/waiting.ts resumeCheck).
 */
import { logger } from '../adapters/logger.js';
import { waitingAnswers } from '../composition/conversation-api.js';
import { inboundBodies, inboundPipeline } from '../composition/whatsapp-inbound.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker('whatsapp-inbound', async (job, record, delivery) => {
  if ('answerWaiting' in job) {
    // "Answer waiting messages" for one conversation (issue 34).
    const answered = await inboundPipeline().answerWaiting(job.userId, job.answerWaiting.conversationId, record.messageId, delivery);
    logger.info('whatsapp-inbound waiting messages answered', { messageId: record.messageId, userId: job.userId, messages: answered.map((m) => m.outcome) });
    // Stopped behind a message another job holds: tried again after the visibility timeout, for
    // whatever that job did not reach (it read the list before). On the last try they stay waiting, visibly.
    if (answered.some((m) => m.outcome === 'busy') && !delivery.finalAttempt) throw new Error('waiting message held by another job');
    return;
  }
  if ('resumeCheck' in job) {
    // A message written during a person's pause: answered once the pause has ended (issue 29).
    const outcome = await waitingAnswers().resumeCheck(job.userId, job.resumeCheck.conversationId, job.resumeCheck.wroteAt);
    // 'later' is the usual hop of a pause still running: not worth a line each time.
    (outcome === 'later' ? logger.debug : logger.info).call(logger, 'whatsapp-inbound resume check', { messageId: record.messageId, userId: job.userId, outcome });
    return;
  }
  if (job.body === undefined && job.bodyKey === undefined) throw new Error('whatsapp-inbound message without body or bodyKey');
  const body = job.body ?? (await inboundBodies().get(job.bodyKey!));
  // On the job's last try a model still failing leaves its message waiting, visibly (issue 34), instead of failing the job.
  const outcome = await inboundPipeline().process({ userId: job.userId, integrationId: job.integrationId, receivedAt: job.receivedAt, body }, record.messageId, delivery);
  // Processed (wamids claimed): the parked body is no longer needed; the bucket's lifecycle is the fallback.
  if (job.bodyKey) await inboundBodies().delete(job.bodyKey).catch((error: unknown) => logger.warn('Parked inbound body not deleted', { error: error as Error, key: job.bodyKey }));
  logger.info('whatsapp-inbound delivery processed', {
    messageId: record.messageId,
    userId: job.userId,
    messages: outcome.messages.map((m) => m.outcome),
    statuses: outcome.statuses.map((s) => s.result),
  });
});
