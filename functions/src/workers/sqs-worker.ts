/**
 * Shared shape of every queue consumer: each record is processed on its own and a failure
 * is reported back as a batch item failure (ReportBatchItemFailures), so one bad record is
 * retried, and eventually dead-lettered, without redoing its neighbours. Each body is validated
 * with the job schema the manifest names for the queue (routes.ts `workers`, contract/jobs.ts).
 */
import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSEvent, SQSRecord, SQSBatchResponse } from 'aws-lambda';
import '../contract/zod-locale.js';
import { logger } from '../adapters/logger.js';
import { workers, type QueueJob, type QueueName } from '../routes.js';
import { isFinalDelivery, receiveCount } from './deliveries.js';

export interface Delivery {
  /** ApproximateReceiveCount (1 on the first delivery). */
  receiveCount: number;
  /** The queue's last delivery before the dead-letter queue (its manifest maxReceiveCount). */
  finalAttempt: boolean;
}

export function sqsWorker<Q extends QueueName>(name: Q, processMessage: (job: QueueJob<Q>, record: SQSRecord, delivery: Delivery) => Promise<void>) {
  const { job: schema, maxReceiveCount } = workers[name];
  const processor = new BatchProcessor(EventType.SQS);
  const recordHandler = async (record: SQSRecord): Promise<void> => {
    const parsed = schema.safeParse(parseJson(record.body));
    if (!parsed.success) {
      // A malformed message will never succeed: log and let it reach the dead-letter queue.
      logger.error('Malformed queue message', { worker: name, messageId: record.messageId });
      throw new Error(`Malformed ${name} message`);
    }
    await processMessage(parsed.data as QueueJob<Q>, record, { receiveCount: receiveCount(record), finalAttempt: isFinalDelivery(record, maxReceiveCount) });
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
