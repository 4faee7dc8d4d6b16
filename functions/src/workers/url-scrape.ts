/**
 * url-scrape consumer: fetches a web page through the outbound guard, extracts its readable text,
 * chunks, embeds and stores it (domain/knowledge/ingest.ts). `refresh: true` (the Refresh action)
 * replaces the chunks only when the text changed. Failures are reported per record.
 */
import * as z from 'zod/mini';
import '../contract/zod-locale.js';
import { urlIngestion } from '../composition/url-scrape.js';
import { workers } from '../routes.js';
import { isFinalDelivery } from './deliveries.js';
import { sqsWorker } from './sqs-worker.js';

const id = z.string().check(z.minLength(1));
const message = z.object({ userId: id, agentId: id, urlId: id, refresh: z.optional(z.boolean()) });

export const handler = sqsWorker('url-scrape', message, async (job, record) => {
  await urlIngestion().scrapeUrl(job, { finalAttempt: isFinalDelivery(record, workers['url-scrape'].maxReceiveCount) });
});
