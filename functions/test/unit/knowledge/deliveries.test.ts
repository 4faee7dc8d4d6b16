import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { workers } from '../../../src/routes.js';
import { isFinalDelivery } from '../../../src/workers/deliveries.js';

const delivery = (count: string | undefined) => ({ attributes: { ApproximateReceiveCount: count } }) as unknown as SQSRecord;

describe('isFinalDelivery', () => {
  it('is true from the queue’s maxReceiveCount on (no retry after it)', () => {
    const max = workers['file-ingest'].maxReceiveCount;
    expect(isFinalDelivery(delivery('1'), max)).toBe(false);
    expect(isFinalDelivery(delivery(String(max - 1)), max)).toBe(false);
    expect(isFinalDelivery(delivery(String(max)), max)).toBe(true);
    expect(isFinalDelivery(delivery(String(max + 2)), max)).toBe(true);
  });

  it('treats a record without the attribute as a first delivery', () => {
    expect(isFinalDelivery(delivery(undefined), 3)).toBe(false);
    expect(isFinalDelivery(delivery('garbage'), 3)).toBe(false);
  });
});
