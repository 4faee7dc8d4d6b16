/**
 * transactWrite: a transaction cancelled only because another transaction held one of its items
 * (per-user counters under concurrency) is retried; a real condition failure is not.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '../../../src/adapters/aws/dynamo-document.js';
import { describe, expect, it } from 'vitest';
import { cancellationReasons, transactWrite } from '../../../src/adapters/dynamo/transact.js';

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/** A client whose send() fails with the given errors in turn, then succeeds. */
function clientFailing(...errors: Error[]) {
  let calls = 0;
  const db = {
    send: async () => {
      const error = errors[calls++];
      if (error) throw error;
      return {};
    },
  } as unknown as DynamoDBDocumentClient;
  return { db, calls: () => calls };
}

const items = [{ Put: { TableName: 't', Item: { pk: 'a', sk: 'b' } } }];

describe('transactWrite', () => {
  it('retries while the transaction only collided with another one, then succeeds', async () => {
    const { db, calls } = clientFailing(cancelled('None', 'TransactionConflict'), cancelled('TransactionConflict', 'None'));

    await transactWrite(db, items);

    expect(calls()).toBe(3);
  });

  it('throws a condition failure at once, with its reasons by item', async () => {
    const { db, calls } = clientFailing(cancelled('None', 'ConditionalCheckFailed', 'TransactionConflict'));

    const error = await transactWrite(db, items).catch((e: unknown) => e);

    expect(calls()).toBe(1);
    expect(cancellationReasons(error)?.map((r) => r.code)).toEqual(['None', 'ConditionalCheckFailed', 'TransactionConflict']);
  });

  it('gives up after ten retries of endless conflicts', async () => {
    const { db, calls } = clientFailing(...Array.from({ length: 20 }, () => cancelled('TransactionConflict')));

    await expect(transactWrite(db, items)).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(calls()).toBe(11);
  }, 15_000);
});
