/**
 * whatsapp-inbound consumer: one verified Meta webhook delivery (or one piece of an oversized
 * one, possibly parked in the uploads bucket) per queue message (queued by the webhook after the
 * signature check). Stores the messages, lets the agent answer, applies the
 * delivery statuses (domain/whatsapp/inbound.ts). A failure is reported for its record only
 * (partial batch failures); the retry resumes: stored messages are not stored twice, a reply this
 * queue message had claimed is taken over by its own retry (owner = the SQS message id).
 */
import { logger } from '../adapters/logger.js';
import { inboundBodies, inboundPipeline } from '../composition/whatsapp-inbound.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker('whatsapp-inbound', async (job, record) => {
  if (job.body === undefined && job.bodyKey === undefined) throw new Error('whatsapp-inbound message without body or bodyKey');
  const body = job.body ?? (await inboundBodies().get(job.bodyKey!));
  const outcome = await inboundPipeline().process({ userId: job.userId, integrationId: job.integrationId, receivedAt: job.receivedAt, body }, record.messageId);
  // Processed (wamids claimed): the parked body is no longer needed; the bucket's lifecycle is the fallback.
  if (job.bodyKey) await inboundBodies().delete(job.bodyKey).catch((error: unknown) => logger.warn('Parked inbound body not deleted', { error: error as Error, key: job.bodyKey }));
  logger.info('whatsapp-inbound delivery processed', {
    messageId: record.messageId,
    userId: job.userId,
    messages: outcome.messages.map((m) => m.outcome),
    statuses: outcome.statuses.map((s) => s.result),
  });
});
