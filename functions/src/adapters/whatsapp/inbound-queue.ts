/**
 * The whatsapp-inbound queue: one SQS message per job (QueuedInboundJob as JSON). A delivery
 * is one job unless it is too big for a message (the webhook then splits it, domain/whatsapp/
 * webhook.ts); the pieces go out with SendMessageBatch, packed within SQS's limits of 10 entries
 * and 256 KB per request. Entries SQS refuses are retried once; then the send fails (the webhook
 * answers 500 and Meta redelivers: stored messages are not stored twice).
 */
import { SendMessageBatchCommand, SendMessageCommand, type SendMessageBatchRequestEntry, type SQSClient } from '@aws-sdk/client-sqs';
import type { QueuedInboundJob } from '../../domain/whatsapp/ports.js';
import type { InboundJobQueue } from '../../domain/whatsapp/webhook.js';

const MAX_BATCH_ENTRIES = 10;
const MAX_BATCH_BYTES = 256 * 1024;

/** Entries packed in order into batches within the entry and byte limits. */
export function packBatches<T>(items: T[], bytesOf: (item: T) => number): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const bytes = bytesOf(item);
    if (current.length > 0 && (current.length === MAX_BATCH_ENTRIES || size + bytes > MAX_BATCH_BYTES)) {
      batches.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += bytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

export class SqsWhatsAppInboundQueue implements InboundJobQueue {
  constructor(
    private readonly sqs: SQSClient,
    private readonly queueUrl: string,
  ) {}

  private url(): string {
    if (!this.queueUrl) throw new Error('No queue URL configured for whatsapp-inbound');
    return this.queueUrl;
  }

  async enqueue(job: QueuedInboundJob): Promise<void> {
    await this.sqs.send(new SendMessageCommand({ QueueUrl: this.url(), MessageBody: JSON.stringify(job) }));
  }

  async enqueueAll(jobs: QueuedInboundJob[]): Promise<void> {
    const entries: SendMessageBatchRequestEntry[] = jobs.map((job, i) => ({ Id: `m${i}`, MessageBody: JSON.stringify(job) }));
    for (const batch of packBatches(entries, (e) => Buffer.byteLength(e.MessageBody ?? '', 'utf8'))) {
      let pending = batch;
      for (let attempt = 0; attempt < 2 && pending.length > 0; attempt++) {
        const { Failed = [] } = await this.sqs.send(new SendMessageBatchCommand({ QueueUrl: this.url(), Entries: pending }));
        const failed = new Set(Failed.map((f) => f.Id));
        pending = pending.filter((e) => failed.has(e.Id));
      }
      if (pending.length > 0) throw new Error(`whatsapp-inbound: SQS refused ${pending.length} of ${batch.length} batch entries`);
    }
  }
}
