/**
 * The one SQS sender of queue jobs. A job's type comes from its queue's schema in the manifest
 * (routes.ts `workers` → contract/jobs.ts); bodies are JSON, sent with SendMessageBatch packed in
 * order within SQS's request limits (10 entries, 256 KB of bodies). Entries SQS refuses are sent
 * again once; still refused, the send fails naming them, so the caller can act: mark its items
 * failed instead of leaving them pending (knowledge), or answer 500 so Meta redelivers (WhatsApp).
 * Splitting a delivery too big for one message is the WhatsApp webhook's job (domain/whatsapp/
 * webhook.ts), before it gets here. SendMessageBatch goes through aws-json.ts (fetch + Signature
 * V4), not the SDK's SQS client (issue 28); the request is the SDK's.
 */
import type { SendMessageBatchRequestEntry, SendMessageBatchResult } from '@aws-sdk/client-sqs';
import type { QueueJob, QueueName } from '../../routes.js';
import type { AwsJsonService } from './aws-json.js';

const MAX_BATCH_ENTRIES = 10;
const MAX_BATCH_BYTES = 256 * 1024;
/** SQS holds a message back 15 minutes at most. */
export const MAX_DELAY_SECONDS = 900;

/** Items packed in order into batches within SQS's entry and byte limits (an item over the byte limit goes alone). */
export function packBatches<T>(items: readonly T[], bytesOf: (item: T) => number): T[][] {
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

export class SqsJobQueue {
  constructor(
    private readonly sqs: AwsJsonService,
    private readonly queueUrl: (queue: QueueName) => string,
  ) {}

  /** Sends every job to `queue`, in order; resolves once SQS accepted them all. `delaySeconds`: held back that long (SQS: 0-900). */
  async send<Q extends QueueName>(queue: Q, jobs: readonly QueueJob<Q>[], delaySeconds?: number): Promise<void> {
    const QueueUrl = this.queueUrl(queue);
    if (!QueueUrl) throw new Error(`No queue URL configured for ${queue}`);
    const delay = delaySeconds === undefined ? {} : { DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))) };
    const entries: SendMessageBatchRequestEntry[] = jobs.map((job, i) => ({ Id: `m${i}`, MessageBody: JSON.stringify(job), ...delay }));
    for (const batch of packBatches(entries, (e) => Buffer.byteLength(e.MessageBody!, 'utf8'))) {
      let pending = batch;
      let codes: string[] = [];
      for (let attempt = 0; attempt < 2 && pending.length > 0; attempt++) {
        const { Failed = [] } = await this.sqs.call<SendMessageBatchResult>('SendMessageBatch', { QueueUrl, Entries: pending });
        const failed = new Set(Failed.map((f) => f.Id));
        codes = Failed.map((f) => f.Code ?? 'unknown');
        pending = pending.filter((e) => failed.has(e.Id));
      }
      if (pending.length > 0) throw new Error(`SQS refused ${pending.length} of ${batch.length} ${queue} message(s): ${codes.join(', ')}`);
    }
  }
}
