/**
 * whatsapp-inbound consumer: one verified Meta webhook delivery per queue message (queued by the
 * webhook after the signature check). Stores the messages, lets the agent answer, applies the
 * delivery statuses (domain/whatsapp/inbound.ts). A failure is reported for its record only
 * (partial batch failures); the retry resumes: stored messages are not stored twice, a reply this
 * queue message had claimed is taken over by its own retry (owner = the SQS message id).
 */
import * as z from 'zod/mini';
import '../contract/zod-locale.js';
import { logger } from '../adapters/logger.js';
import { inboundPipeline } from '../composition/whatsapp-inbound.js';
import { sqsWorker } from './sqs-worker.js';

const id = z.string().check(z.minLength(1));
const message = z.object({ userId: id, integrationId: id, receivedAt: z.string(), body: z.string() });

export const handler = sqsWorker('whatsapp-inbound', message, async (job, record) => {
  const outcome = await inboundPipeline().process(job, record.messageId);
  logger.info('whatsapp-inbound delivery processed', {
    messageId: record.messageId,
    userId: job.userId,
    messages: outcome.messages.map((m) => m.outcome),
    statuses: outcome.statuses.map((s) => s.result),
  });
});
