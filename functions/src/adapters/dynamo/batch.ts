/**
 * The batch operations of the adapters, each in chunks of the API's bound, retrying what DynamoDB
 * left unprocessed (under throttling, or past 16 MB) with exponential backoff and jitter, a
 * bounded number of times; whatever is still unprocessed then throws, rather than reading as
 * missing items or staying undeleted.
 * - batchGetItems: BatchGetItem, 100 keys a request, the chunks in parallel.
 * - batchDeleteKeys: BatchWriteItem of DeleteRequests, 25 a request, one chunk after another (or
 *   `parallel` chunks at a time: a person's erasure, issue 33).
 */
import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { mapLimit } from '../../lib/map-limit.js';

type Item = Record<string, unknown>;

export interface BatchGetOptions {
  consistentRead?: boolean;
  projection?: { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> };
}

export const BATCH_GET_MAX_KEYS = 100;
export const BATCH_WRITE_MAX_ITEMS = 25;
/** Requests per chunk (the first and its retries) before giving up. */
export const BATCH_MAX_ATTEMPTS = 8;
const BACKOFF_BASE_MS = 10;
const BACKOFF_MAX_MS = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class UnprocessedKeysError extends Error {
  constructor(readonly unprocessed: number) {
    super(`DynamoDB left ${unprocessed} keys unprocessed after ${BATCH_MAX_ATTEMPTS} attempts`);
    this.name = 'UnprocessedKeysError';
  }
}

/** Runs `request` over `pending` until nothing is left, with backoff between attempts; bounded. */
async function untilProcessed<K>(pending: K[], request: (pending: K[]) => Promise<K[]>): Promise<void> {
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt === BATCH_MAX_ATTEMPTS) throw new UnprocessedKeysError(pending.length);
    if (attempt > 0) await sleep(Math.random() * Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt));
    pending = await request(pending);
  }
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** The items of `keys` that exist, in no particular order. Keys must be unique (DynamoDB refuses repeats). */
export async function batchGetItems(
  db: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Item[],
  options: BatchGetOptions = {},
): Promise<Item[]> {
  const read = { ...(options.consistentRead ? { ConsistentRead: true } : {}), ...options.projection };
  const results = await Promise.all(
    chunked(keys, BATCH_GET_MAX_KEYS).map(async (chunk) => {
      const out: Item[] = [];
      await untilProcessed(chunk, async (pending) => {
        const { Responses, UnprocessedKeys } = await db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ...read } } }));
        out.push(...((Responses?.[tableName] ?? []) as Item[]));
        return (UnprocessedKeys?.[tableName]?.Keys as Item[] | undefined) ?? [];
      });
      return out;
    }),
  );
  return results.flat();
}

/** Deletes the items with these keys (missing ones are fine), `parallel` requests at a time. */
export async function batchDeleteKeys(db: DynamoDBDocumentClient, tableName: string, keys: readonly Item[], parallel = 1): Promise<void> {
  await batchWrite(db, tableName, keys.map((Key) => ({ DeleteRequest: { Key } })), parallel);
}

/** Deletes and Puts (no key twice), 25 a request, `parallel` requests at a time. */
export async function batchWrite(
  db: DynamoDBDocumentClient,
  tableName: string,
  requests: readonly ({ DeleteRequest: { Key: Item } } | { PutRequest: { Item: Item } })[],
  parallel = 1,
): Promise<void> {
  await mapLimit(chunked(requests, BATCH_WRITE_MAX_ITEMS), parallel, (chunk) =>
    untilProcessed(
      [...chunk],
      async (pending) => {
        const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        return (UnprocessedItems?.[tableName] ?? []) as typeof pending;
      },
    ),
  );
}
