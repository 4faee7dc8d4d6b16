import type { SQSRecord } from 'aws-lambda';

/** This delivery is the queue's last before the dead-letter queue (ApproximateReceiveCount reached maxReceiveCount). */
export function isFinalDelivery(record: SQSRecord, maxReceiveCount: number): boolean {
  const count = Number(record.attributes?.ApproximateReceiveCount ?? 1);
  return Number.isFinite(count) && count >= maxReceiveCount;
}
