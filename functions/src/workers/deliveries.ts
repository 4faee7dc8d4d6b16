import type { SQSRecord } from 'aws-lambda';

/** How many times SQS has handed out this record (ApproximateReceiveCount; 1 when absent or unreadable). */
export function receiveCount(record: SQSRecord): number {
  const count = Number(record.attributes?.ApproximateReceiveCount ?? 1);
  return Number.isFinite(count) && count >= 1 ? count : 1;
}

/** This delivery is the job's last try (ApproximateReceiveCount reached `tries`). */
export function isFinalDelivery(record: SQSRecord, tries: number): boolean {
  return receiveCount(record) >= tries;
}

/**
 * A failed record's own error (issue 34: a dead letter keeps its record's error, not the batch's).
 * `kind`: transient / lasting (domain/retry.ts), unexpected (anything else, retried like
 * transient), given_up (the give-up delivery: the error worth keeping is the last try's).
 */
export interface RecordError {
  kind: 'transient' | 'lasting' | 'unexpected' | 'given_up';
  name: string;
  message: string;
  provider?: string;
  code?: string;
  reason?: string;
  retryAfterSeconds?: number;
}

/**
 * Where a worker's batch response carries each failed record's RecordError, by message id, for the
 * local dispatcher (functions/local/sqs-dispatcher.ts). A registered symbol, not a field: Lambda
 * serialises the response with JSON.stringify, which leaves symbol keys out, so AWS sees exactly
 * { batchItemFailures }.
 */
export const RECORD_ERRORS: unique symbol = Symbol.for('agentdesk.sqs.recordErrors');
