/**
 * Shared shape of every queue consumer: each record is processed on its own and a failure
 * is reported back as a batch item failure (ReportBatchItemFailures), so one bad record is
 * retried, and eventually dead-lettered, without redoing its neighbours. Each body is validated
 * with the job schema the manifest names for the queue (routes.ts `workers`, contract/jobs.ts).
 *
 * A queue with `giveUpDelivery` keeps its last delivery for `giveUp`: when the job failed on
 * every try, including by dying (a crash, a timeout, out of memory: no catch runs then), that
 * delivery records the failure and the message still dead-letters, so the alarm sees it.
 */
import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSEvent, SQSRecord, SQSBatchResponse } from 'aws-lambda';
import '../contract/zod-locale.js';
import { logger } from '../adapters/logger.js';
import { workers, type QueueJob, type QueueName, type WorkerDef } from '../routes.js';
import { isFinalDelivery, receiveCount } from './deliveries.js';

export interface Delivery {
  /** ApproximateReceiveCount (1 on the first delivery). */
  receiveCount: number;
  /** The job's last try: the queue's last delivery before the dead-letter queue (its manifest maxReceiveCount), or the one before it with `giveUpDelivery`. */
  finalAttempt: boolean;
}

/** Thrown after giveUp ran, so the give-up delivery still ends in the dead-letter queue. */
export class GaveUpError extends Error {
  constructor(queue: string, deliveries: number) {
    super(`${queue}: the job failed on every one of ${deliveries - 1} tries; given up`);
    this.name = 'GaveUpError';
  }
}

export function sqsWorker<Q extends QueueName>(
  name: Q,
  processMessage: (job: QueueJob<Q>, record: SQSRecord, delivery: Delivery) => Promise<void>,
  giveUp?: (job: QueueJob<Q>, record: SQSRecord) => Promise<void>,
) {
  const def: WorkerDef = workers[name];
  const { job: schema, maxReceiveCount } = def;
  const tries = def.giveUpDelivery ? maxReceiveCount - 1 : maxReceiveCount;
  const processor = new BatchProcessor(EventType.SQS);
  const recordHandler = async (record: SQSRecord): Promise<void> => {
    const parsed = schema.safeParse(parseJson(record.body));
    if (!parsed.success) {
      // A malformed message will never succeed: log and let it reach the dead-letter queue.
      logger.error('Malformed queue message', { worker: name, messageId: record.messageId });
      throw new Error(`Malformed ${name} message`);
    }
    const job = parsed.data as QueueJob<Q>;
    const count = receiveCount(record);
    if (count > tries) {
      logger.error('Queue job given up: it failed on every try', { worker: name, messageId: record.messageId, receiveCount: count });
      await giveUp?.(job, record);
      throw new GaveUpError(name, count);
    }
    await processMessage(job, record, { receiveCount: count, finalAttempt: isFinalDelivery(record, tries) });
  };
  const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, recordHandler, processor, { context });
  return middy(handler).use(injectLambdaContext(logger, { resetKeys: true }));
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
