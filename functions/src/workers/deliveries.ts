import type { SQSRecord } from 'aws-lambda';

/** How many times SQS has handed out this record (ApproximateReceiveCount; 1 when absent or unreadable). */
export function receiveCount(record: SQSRecord): number {
  const count = Number(record.attributes?.ApproximateReceiveCount ?? 1);
  return Number.isFinite(count) && count >= 1 ? count : 1;
}

/** This delivery is the queue's last before the dead-letter queue (ApproximateReceiveCount reached maxReceiveCount). */
export function isFinalDelivery(record: SQSRecord, maxReceiveCount: number): boolean {
  return receiveCount(record) >= maxReceiveCount;
}
