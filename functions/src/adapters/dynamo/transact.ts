/**
 * TransactWriteItems, retried with jitter while it only collides with another transaction.
 *
 * DynamoDB cancels a transaction that touches an item another transaction is writing
 * (TransactionConflict), even when both would succeed one after the other: per-user counter
 * items (contacts directory, conversation stats, call totals, dashboard activity) make that
 * common under concurrency (two calls ringing at once, a contact import). A real condition
 * failure is thrown at once, with its reasons (see `cancellationReasons`).
 */
import { TransactWriteCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];
type Item = Record<string, unknown>;

/**
 * Reason codes of a cancelled transaction, by item index ('None' = that item was fine); null for
 * other errors. By error name, as in conditions.ts (no exception class import).
 */
export function cancellationReasons(error: unknown): { code: string; item?: Item }[] | null {
  const cancelled = error as { name?: string; CancellationReasons?: { Code?: string; Item?: unknown }[] } | null;
  if (cancelled?.name !== 'TransactionCanceledException') return null;
  return (cancelled.CancellationReasons ?? []).map((r) => ({ code: r.Code ?? 'None', item: r.Item as Item | undefined }));
}

/** A cancelled transaction whose item at `index` failed its condition. */
export const conditionFailedAt = (error: unknown, index: number): boolean =>
  cancellationReasons(error)?.[index]?.code === 'ConditionalCheckFailed';

const MAX_ATTEMPTS = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function transactWrite(db: DynamoDBDocumentClient, items: TransactItem[]): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const reasons = cancellationReasons(error);
      const onlyConflicts =
        reasons !== null && reasons.some((r) => r.code === 'TransactionConflict') && reasons.every((r) => r.code === 'TransactionConflict' || r.code === 'None');
      const conflictException = (error as { name?: string }).name === 'TransactionConflictException';
      if ((onlyConflicts || conflictException) && attempt < MAX_ATTEMPTS) {
        await sleep(Math.random() * 20 * 2 ** Math.min(attempt, 5));
        continue;
      }
      throw error;
    }
  }
}

/** transactWrite, answering the index of the first item whose condition failed (null: it went through); other errors throw. */
export async function transactOrFailedAt(db: DynamoDBDocumentClient, items: TransactItem[]): Promise<number | null> {
  try {
    await transactWrite(db, items);
    return null;
  } catch (error) {
    const index = cancellationReasons(error)?.findIndex((r) => r.code === 'ConditionalCheckFailed') ?? -1;
    if (index < 0) throw error;
    return index;
  }
}

/**
 * A per-user cap (API keys, saved replies, push devices): +1 on the count item inside the create
 * transaction, cancelled (ConditionalCheckFailed) once `max` are there.
 */
export function countUpTo(tableName: string, key: Record<string, string>, max: number, entity: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: 'ADD n :one SET entity = :entity',
      ConditionExpression: 'attribute_not_exists(n) OR n < :max',
      ExpressionAttributeValues: { ':one': 1, ':max': max, ':entity': entity },
    },
  };
}

/** Its −1 inside the delete transaction; never below 0. */
export function countDown(tableName: string, key: Record<string, string>): TransactItem {
  return {
    Update: { TableName: tableName, Key: key, UpdateExpression: 'ADD n :minus', ConditionExpression: 'n > :zero', ExpressionAttributeValues: { ':minus': -1, ':zero': 0 } },
  };
}
