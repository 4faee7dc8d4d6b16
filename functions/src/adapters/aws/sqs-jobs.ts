/**
 * The ingestion queues (file-ingest, url-scrape): JSON job bodies sent with SendMessageBatch
 * (10 per call, SQS's limit). A message SQS did not accept fails the whole call, so the caller
 * can mark its items failed instead of leaving them pending forever.
 */
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { KnowledgeJobs } from '../../domain/agents/repository.js';
import type { FileIngestJob, UrlScrapeJob } from '../../domain/knowledge/jobs.js';
import type { QueueName } from '../../routes.js';

const SQS_BATCH = 10;

export class SqsKnowledgeJobs implements KnowledgeJobs {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: (queue: QueueName) => string,
  ) {}

  ingestFiles(jobs: readonly FileIngestJob[]): Promise<void> {
    return this.send('file-ingest', jobs);
  }

  scrapeUrls(jobs: readonly UrlScrapeJob[]): Promise<void> {
    return this.send('url-scrape', jobs);
  }

  private async send(queue: QueueName, bodies: readonly object[]): Promise<void> {
    const QueueUrl = this.queueUrl(queue);
    if (!QueueUrl) throw new Error(`No queue URL configured for ${queue}`);
    for (let i = 0; i < bodies.length; i += SQS_BATCH) {
      const batch = bodies.slice(i, i + SQS_BATCH);
      const { Failed } = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl,
          Entries: batch.map((body, n) => ({ Id: String(n), MessageBody: JSON.stringify(body) })),
        }),
      );
      if (Failed && Failed.length > 0) {
        throw new Error(`SQS refused ${Failed.length} ${queue} message(s): ${Failed.map((f) => f.Code).join(', ')}`);
      }
    }
  }
}
