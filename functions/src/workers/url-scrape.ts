/**
 * url-scrape consumer. The queue, its dead-letter queue and this wiring are in place;
 * the processing itself lands with its feature issue, until then it only logs.
 */
import * as z from 'zod/mini';
import '../contract/zod-locale.js';
import { logger } from '../adapters/logger.js';
import { sqsWorker } from './sqs-worker.js';

const message = z.looseObject({ userId: z.string() });

export const handler = sqsWorker('url-scrape', message, async (msg, record) => {
  logger.info('url-scrape message received (processing not implemented yet)', {
    messageId: record.messageId,
    userId: msg.userId,
  });
});
