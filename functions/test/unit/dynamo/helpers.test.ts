/**
 * The shared DynamoDB helpers over a scripted client: queryPages/queryItems follow
 * LastEvaluatedKey (and stop at a cap), batchGetItems retries UnprocessedKeys and gives up after
 * a bounded number of attempts, batchDeleteKeys retries UnprocessedItems, and the conditional
 * helpers tell a failed condition from any other error.
 */
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '../../../src/adapters/aws/dynamo-document.js';
import { describe, expect, it } from 'vitest';
import { BATCH_MAX_ATTEMPTS, batchDeleteKeys, batchGetItems, UnprocessedKeysError } from '../../../src/adapters/dynamo/batch.js';
import { conditionHolds, ignoreConditionFailure, isConditionFailure, unlessConditionFails } from '../../../src/adapters/dynamo/conditions.js';
import { itemCodec, num, optStr, str, strOrNull, withoutKeys } from '../../../src/adapters/dynamo/item-codec.js';
import { queryItems, queryPages } from '../../../src/adapters/dynamo/query-items.js';
import { conditionFailedAt } from '../../../src/adapters/dynamo/transact.js';

type Item = Record<string, unknown>;
/** What the tests read of a sent command's input (a Query, a BatchGetItem or a BatchWriteItem). */
interface Input {
  Limit?: number;
  ExclusiveStartKey?: Item;
  RequestItems: { t: { Keys: Item[]; ConsistentRead?: boolean } & Array<{ DeleteRequest: { Key: Item } }> };
}
interface Sent {
  name: string;
  input: Input;
}

/** A client that answers each send() with the next scripted reply, recording what was sent. */
function scripted(...replies: Array<(input: Input) => unknown>) {
  const sent: Sent[] = [];
  const db = {
    send: async (command: { constructor: { name: string }; input: Input }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      const reply = replies[sent.length - 1];
      if (!reply) throw new Error(`unexpected request #${sent.length}`);
      return reply(command.input);
    },
  } as unknown as DynamoDBDocumentClient;
  return { db, sent };
}

const items = (from: number, n: number): Item[] => Array.from({ length: n }, (_, i) => ({ pk: 'p', sk: `s${from + i}` }));
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

describe('queryPages / queryItems', () => {
  it('follows LastEvaluatedKey across pages and hands each page over', async () => {
    const { db, sent } = scripted(
      () => ({ Items: items(0, 2), LastEvaluatedKey: { pk: 'p', sk: 's1' } }),
      () => ({ Items: items(2, 2), LastEvaluatedKey: { pk: 'p', sk: 's3' } }),
      () => ({ Items: items(4, 1) }),
    );

    const pages: Item[][] = [];
    for await (const page of queryPages(db, { TableName: 't', KeyConditionExpression: 'pk = :pk' })) pages.push(page);

    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(sent.map((s) => s.input.ExclusiveStartKey)).toEqual([undefined, { pk: 'p', sk: 's1' }, { pk: 'p', sk: 's3' }]);
    expect(sent.every((s) => s.name === 'QueryCommand')).toBe(true);
  });

  it('stops at the cap, each page asking only for what is still missing', async () => {
    const { db, sent } = scripted(
      () => ({ Items: items(0, 3), LastEvaluatedKey: { pk: 'p', sk: 's2' } }),
      () => ({ Items: items(3, 2), LastEvaluatedKey: { pk: 'p', sk: 's4' } }),
    );

    const all = await queryItems(db, { TableName: 't' }, 5);

    expect(all.map((i) => i.sk)).toEqual(['s0', 's1', 's2', 's3', 's4']);
    expect(sent.map((s) => s.input.Limit)).toEqual([5, 2]);
  });

  it('caps one page at 1000 items unless told otherwise', async () => {
    const { db, sent } = scripted(
      () => ({ Items: [] }),
      () => ({ Items: [] }),
    );

    await queryItems(db, { TableName: 't' }, 5001);
    await queryItems(db, { TableName: 't' }, 5001, 5001);

    expect(sent.map((s) => s.input.Limit)).toEqual([1000, 5001]);
  });

  it('reads nothing for a cap of zero', async () => {
    const { db, sent } = scripted();

    expect(await queryItems(db, { TableName: 't' }, 0)).toEqual([]);
    expect(sent).toHaveLength(0);
  });
});

describe('batchGetItems', () => {
  it('asks again for the keys DynamoDB left unprocessed until every one is read', async () => {
    const keys = items(0, 3);
    const { db, sent } = scripted(
      () => ({ Responses: { t: [keys[0]] }, UnprocessedKeys: { t: { Keys: [keys[1], keys[2]] } } }),
      () => ({ Responses: { t: [keys[1]] }, UnprocessedKeys: { t: { Keys: [keys[2]] } } }),
      () => ({ Responses: { t: [keys[2]] }, UnprocessedKeys: {} }),
    );

    const read = await batchGetItems(db, 't', keys, { consistentRead: true });

    expect(read).toEqual(keys);
    expect(sent.map((s) => s.input.RequestItems.t.Keys.length)).toEqual([3, 2, 1]);
    expect(sent.every((s) => s.input.RequestItems.t.ConsistentRead === true)).toBe(true);
  });

  it('sends at most 100 keys a request', async () => {
    const keys = items(0, 250);
    const { db, sent } = scripted(
      (input) => ({ Responses: { t: input.RequestItems.t.Keys } }),
      (input) => ({ Responses: { t: input.RequestItems.t.Keys } }),
      (input) => ({ Responses: { t: input.RequestItems.t.Keys } }),
    );

    const read = await batchGetItems(db, 't', keys, { projection: { ProjectionExpression: '#a', ExpressionAttributeNames: { '#a': 'sk' } } });

    expect(read).toHaveLength(250);
    expect(sent.map((s) => s.input.RequestItems.t.Keys.length).sort()).toEqual([100, 100, 50]);
    expect(sent[0]!.input.RequestItems.t).toMatchObject({ ProjectionExpression: '#a' });
    expect(sent[0]!.input.RequestItems.t).not.toHaveProperty('ConsistentRead');
  });

  it('gives up with an error after a bounded number of attempts rather than reading keys as missing', async () => {
    const keys = items(0, 2);
    const { db, sent } = scripted(...Array.from({ length: 20 }, () => () => ({ Responses: { t: [] }, UnprocessedKeys: { t: { Keys: keys } } })));

    const error = await batchGetItems(db, 't', keys).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UnprocessedKeysError);
    expect(sent).toHaveLength(BATCH_MAX_ATTEMPTS);
  });

  it('sends nothing for no keys', async () => {
    const { db, sent } = scripted();

    expect(await batchGetItems(db, 't', [])).toEqual([]);
    expect(sent).toHaveLength(0);
  });
});

describe('batchDeleteKeys', () => {
  it('deletes 25 keys a request and retries the unprocessed ones', async () => {
    const keys = items(0, 30);
    const { db, sent } = scripted(
      (input) => ({ UnprocessedItems: { t: input.RequestItems.t.slice(0, 2) } }),
      () => ({ UnprocessedItems: {} }),
      () => ({}),
    );

    await batchDeleteKeys(db, 't', keys);

    expect(sent.map((s) => s.input.RequestItems.t.length)).toEqual([25, 2, 5]);
    expect(sent[1]!.input.RequestItems.t).toEqual([{ DeleteRequest: { Key: keys[0] } }, { DeleteRequest: { Key: keys[1] } }]);
  });
});

describe('conditional writes', () => {
  it('answers null / false for a failed condition and the output / true otherwise', async () => {
    expect(await unlessConditionFails(Promise.reject(conditionFailed()))).toBeNull();
    expect(await unlessConditionFails(Promise.resolve({ Attributes: { a: 1 } }))).toEqual({ Attributes: { a: 1 } });
    expect(await conditionHolds(Promise.reject(conditionFailed()))).toBe(false);
    expect(await conditionHolds(Promise.resolve({}))).toBe(true);
  });

  it('throws any other error', async () => {
    const throttled = Object.assign(new Error('slow down'), { name: 'ProvisionedThroughputExceededException' });

    await expect(unlessConditionFails(Promise.reject(throttled))).rejects.toBe(throttled);
    await expect(conditionHolds(Promise.reject(throttled))).rejects.toBe(throttled);
    expect(() => ignoreConditionFailure(throttled)).toThrow(throttled);
    expect(() => ignoreConditionFailure(conditionFailed())).not.toThrow();
    expect(isConditionFailure(null)).toBe(false);
  });

  it('tells which item of a cancelled transaction failed its condition', () => {
    const cancelled = new TransactionCanceledException({
      message: 'Transaction cancelled',
      $metadata: {},
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
    });

    expect(conditionFailedAt(cancelled, 1)).toBe(true);
    expect(conditionFailedAt(cancelled, 0)).toBe(false);
    expect(conditionFailedAt(conditionFailed(), 0)).toBe(false);
  });
});

describe('item codecs', () => {
  const toThing = itemCodec<{ name: string; count: number; note?: string; when: string | null }>({
    name: str,
    count: num,
    note: optStr,
    when: strOrNull,
  });

  it('reads each field with its reader and leaves absent optional fields out', () => {
    const thing = toThing({ pk: 'USER#u', sk: 'THING#1', name: 'a', count: '3', note: '' });

    expect(thing).toStrictEqual({ name: 'a', count: 3, when: null });
  });

  it('gives back a record written as { keys, entity, ...record } without those', () => {
    const record = withoutKeys({ pk: 'p', sk: 's', gsi1pk: 'g', gsi1sk: 'h', entity: 'e', mid: 'm', a: 1 }, ['mid']);

    expect(record).toStrictEqual({ a: 1 });
  });
});
