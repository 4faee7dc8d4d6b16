/**
 * whatsapp-inbound consumer: one verified Meta webhook delivery (or one piece of an oversized
 * one, possibly parked in the uploads bucket) per queue message (queued by the webhook after the
 * signature check). Stores the messages, lets the agent answer, applies the
 * delivery statuses (domain/whatsapp/inbound.ts). A failure is reported for its record only
 * (partial batch failures); the retry resumes: stored messages are not stored twice, a reply this
 * queue message had claimed is taken over by its own retry (owner = the SQS message id).
 */
import * as z from 'zod/mini';
import '../contract/zod-locale.js';
import { logger } from '../adapters/logger.js';
import { inboundBodies, inboundPipeline } from '../composition/whatsapp-inbound.js';
import { INBOUND_BODY_PREFIX } from '../domain/whatsapp/ports.js';
import { sqsWorker } from './sqs-worker.js';

const id = z.string().check(z.minLength(1));
// The delivery itself, or a pointer to a piece parked in the uploads bucket (too big for SQS).
const message = z.object({ userId: id, integrationId: id, receivedAt: z.string(), body: z.optional(z.string()), bodyKey: z.optional(z.string().check(z.startsWith(INBOUND_BODY_PREFIX))) });

export const handler = sqsWorker('whatsapp-inbound', message, async (job, record) => {
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
