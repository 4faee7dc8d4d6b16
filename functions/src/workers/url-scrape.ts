/**
 * url-scrape consumer: fetches a web page through the outbound guard, extracts its readable text,
 * chunks, embeds and stores it (domain/knowledge/ingest.ts). `refresh: true` (the Refresh action
 * and Reprocess) replaces the chunks only when the text changed. Failures are reported per record
 * and retried on the schedule (domain/retry.ts); after every try failed the queue's give-up
 * delivery marks a URL still pending in the job's round failed.
 */
import { urlIngestion } from '../composition/url-scrape.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker(
  'url-scrape',
  async (job, _record, { finalAttempt }) => {
    await urlIngestion().scrapeUrl(job, { finalAttempt });
  },
  async (job) => {
    await urlIngestion().giveUpUrl(job);
  },
);
