/**
 * url-scrape consumer: fetches a web page through the outbound guard, extracts its readable text,
 * chunks, embeds and stores it (domain/knowledge/ingest.ts). `refresh: true` (the Refresh action)
 * replaces the chunks only when the text changed. Failures are reported per record; after three
 * failed tries the queue's give-up delivery marks a still-pending URL failed.
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
