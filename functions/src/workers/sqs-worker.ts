/**
 * Shared shape of every queue consumer. Each record is processed on its own and a failure is
 * reported back as a batch item failure (ReportBatchItemFailures), so one bad record is retried,
 * and eventually dead-lettered, without redoing its neighbours. Each body is validated with the
 * job schema the manifest names for the queue (routes.ts `workers`, contract/jobs.ts).
 *
 * Retries (issue 34, the schedule and its table: domain/retry.ts). What processMessage throws is
 * classified (classifyProviderFailure):
 * - a TransientError, or anything unrecognised: the record fails and its message comes back on the
 *   schedule (ChangeMessageVisibility: 30 s, 1, 2, 4, 8, 15, 15 min, never before Retry-After), for
 *   JOB_TRIES tries in all; `Delivery.finalAttempt` tells the job its last try;
 * - a LastingError: not retried. With `onLastingFailure` the worker records it (the job failed, the
 *   reason) and the record is acknowledged; without it the message goes to the dead-letter queue at
 *   once (no waiting: each remaining delivery comes straight away).
 * Every queue's last delivery (maxReceiveCount = JOB_TRIES + 1) is the give-up delivery: it comes
 * only when every try failed, including by dying (a crash, a timeout, out of memory: no catch runs
 * then, and the queue's visibility timeout paces that receive). It runs `giveUp` (mark the job
 * failed for good, visibly) and still fails, so the message dead-letters and the alarm sees it.
 *
 * Per invocation: the batch processor and everything about the batch live in one call of the
 * handler (the local dispatcher runs concurrent invocations in one process; Lambda would give
 * each its own container). Each failed record's own error is logged with its message id (in AWS,
 * the dead letter's story is in the logs: SQS keeps the message id in the dead-letter queue) and
 * handed to the local dispatcher under RECORD_ERRORS (a symbol: Lambda never serialises it).
 */
import middy from '@middy/core';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context, SQSEvent, SQSRecord, SQSBatchResponse } from 'aws-lambda';
import '../contract/zod-locale.js';
import { recordVisibility } from '../adapters/aws/sqs.js';
import { logger } from '../adapters/logger.js';
import { classifyProviderFailure, LastingError, retryDelaySeconds, type ProviderFailure } from '../domain/retry.js';
import { workers, type QueueJob, type QueueName, type WorkerDef } from '../routes.js';
import { isFinalDelivery, RECORD_ERRORS, receiveCount, type RecordError } from './deliveries.js';

export interface Delivery {
  /** ApproximateReceiveCount (1 on the first delivery). */
  receiveCount: number;
  /** The job's last try (receive JOB_TRIES): the next delivery only gives up. Record a failure for good now rather than throw. */
  finalAttempt: boolean;
}

/** Thrown after giveUp ran, so the give-up delivery still ends in the dead-letter queue. */
export class GaveUpError extends Error {
  constructor(queue: string, deliveries: number) {
    super(`${queue}: the job failed on every one of ${deliveries - 1} tries; given up`);
    this.name = 'GaveUpError';
  }
}

/** Sets when a failed record comes back: SQS ChangeMessageVisibility on its receipt handle. */
export type RecordVisibility = (record: SQSRecord, seconds: number) => Promise<void>;

export interface WorkerOptions<Q extends QueueName> {
  /** The give-up delivery: every try failed (or died). Mark the job failed for good, visibly; the message then dead-letters. */
  giveUp?: (job: QueueJob<Q>, record: SQSRecord) => Promise<void>;
  /**
   * processMessage threw a LastingError (credentials, permission, not found, invalid request):
   * record the job's failure with `error.reason`; the record is then acknowledged, not retried.
   * If this throws, the record is retried like a transient failure.
   */
  onLastingFailure?: (job: QueueJob<Q>, error: LastingError, record: SQSRecord) => Promise<void>;
  /** Where a failed record's next visibility is set (tests); default SQS ChangeMessageVisibility on the record's queue. */
  visibility?: RecordVisibility;
}

type GiveUp<Q extends QueueName> = NonNullable<WorkerOptions<Q>['giveUp']>;

export function sqsWorker<Q extends QueueName>(
  name: Q,
  processMessage: (job: QueueJob<Q>, record: SQSRecord, delivery: Delivery) => Promise<void>,
  /** The options, or (as before) the giveUp function alone. */
  options: WorkerOptions<Q> | GiveUp<Q> = {},
) {
  const { giveUp, onLastingFailure, visibility } = typeof options === 'function' ? { giveUp: options, onLastingFailure: undefined, visibility: undefined } : options;
  const def: WorkerDef = workers[name];
  const { job: schema, maxReceiveCount } = def;
  // The last delivery is the give-up delivery; the ones before it are the job's tries.
  const tries = maxReceiveCount - 1;

  /** Fails the record: its next visibility set to `seconds` (a failed setting leaves the queue's visibility timeout in charge). */
  const fail = async (record: SQSRecord, errors: Map<string, RecordError>, error: unknown, failure: ProviderFailure | 'given_up' | undefined, seconds: number): Promise<never> => {
    const own = describe(error, failure);
    errors.set(record.messageId, own);
    logger.warn('Queue job failed', { worker: name, messageId: record.messageId, receiveCount: receiveCount(record), retryInSeconds: seconds, ...own });
    await (visibility ?? recordVisibility())(record, seconds).catch((visibilityError: unknown) =>
      logger.warn('Could not set when the failed record comes back; the queue visibility timeout applies', { worker: name, messageId: record.messageId, error: visibilityError as Error }),
    );
    throw error;
  };

  const handleRecord = async (record: SQSRecord, errors: Map<string, RecordError>): Promise<void> => {
    const parsed = schema.safeParse(parseJson(record.body));
    if (!parsed.success) {
      // A malformed message will never succeed: straight on to the dead-letter queue.
      logger.error('Malformed queue message', { worker: name, messageId: record.messageId });
      return fail(record, errors, new Error(`Malformed ${name} message`), undefined, 0);
    }
    const job = parsed.data as QueueJob<Q>;
    const count = receiveCount(record);
    if (count > tries) {
      logger.error('Queue job given up: it failed on every try', { worker: name, messageId: record.messageId, receiveCount: count });
      try {
        await giveUp?.(job, record);
      } catch (error) {
        return fail(record, errors, error, classifyProviderFailure(error), 0);
      }
      return fail(record, errors, new GaveUpError(name, count), 'given_up', 0);
    }
    const finalAttempt = isFinalDelivery(record, tries);
    try {
      await processMessage(job, record, { receiveCount: count, finalAttempt });
      return;
    } catch (error) {
      let thrown = error;
      let failure = classifyProviderFailure(error);
      if (failure instanceof LastingError) {
        if (!onLastingFailure) return fail(record, errors, thrown, failure, 0);
        try {
          await onLastingFailure(job, failure, record);
          logger.warn('Queue job failed for good (not retried)', { worker: name, messageId: record.messageId, receiveCount: count, ...describe(error, failure) });
          return;
        } catch (hookError) {
          thrown = hookError;
          failure = classifyProviderFailure(hookError);
        }
      }
      // After the last try the give-up delivery comes at once; before it, the schedule.
      return fail(record, errors, thrown, failure, finalAttempt ? 0 : retryDelaySeconds(count + 1, failure instanceof LastingError ? undefined : failure?.retryAfterSeconds));
    }
  };

  const handler = async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    // Per invocation: a processor shared by two concurrent batches mixes their records and failures.
    const processor = new BatchProcessor(EventType.SQS);
    const errors = new Map<string, RecordError>();
    // A batch whose every record failed is reported like any other (not thrown): the same retries
    // for Lambda, and each record keeps its own error and visibility.
    const { batchItemFailures } = await processPartialResponse(event, (record: SQSRecord) => handleRecord(record, errors), processor, { context, throwOnFullBatchFailure: false });
    return Object.defineProperty({ batchItemFailures: [...batchItemFailures] }, RECORD_ERRORS, { value: Object.fromEntries(errors), enumerable: false });
  };
  return middy(handler).use(injectLambdaContext(logger, { resetKeys: true }));
}

/** A record's own error, for the logs and the local dead-letter list (no stack, no body). */
function describe(error: unknown, failure: ProviderFailure | 'given_up' | undefined): RecordError {
  const base = error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };
  if (!failure || failure === 'given_up') return { kind: failure ?? 'unexpected', ...base };
  return {
    kind: failure instanceof LastingError ? 'lasting' : 'transient',
    ...base,
    provider: failure.provider,
    code: String(failure.code),
    ...(failure instanceof LastingError ? { reason: failure.reason } : failure.retryAfterSeconds !== undefined ? { retryAfterSeconds: failure.retryAfterSeconds } : {}),
  };
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
