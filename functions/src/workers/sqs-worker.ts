/**
 * Shared shape of every queue consumer: each record is processed on its own and a failure
 * is reported back as a batch item failure (ReportBatchItemFailures), so one bad record is
 * retried, and eventually dead-lettered, without redoing its neighbours.
 */
import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSEvent, SQSRecord, SQSBatchResponse } from 'aws-lambda';
import type * as z from 'zod/mini';
import { logger } from '../adapters/logger.js';

export function sqsWorker<S extends z.ZodMiniType>(
  name: string,
  schema: S,
  processMessage: (message: z.infer<S>, record: SQSRecord) => Promise<void>,
) {
  const processor = new BatchProcessor(EventType.SQS);
  const recordHandler = async (record: SQSRecord): Promise<void> => {
    const parsed = schema.safeParse(parseJson(record.body));
    if (!parsed.success) {
      // A malformed message will never succeed: log and let it reach the dead-letter queue.
      logger.error('Malformed queue message', { worker: name, messageId: record.messageId });
      throw new Error(`Malformed ${name} message`);
    }
    await processMessage(parsed.data, record);
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
