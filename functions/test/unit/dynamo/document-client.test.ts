/**
 * The app's DynamoDB document client (src/adapters/aws/dynamo-document.ts, fetch + Signature V4,
 * issue 28) sends what the AWS SDK's document client sends and reads answers as it does: each
 * command goes through both against one loopback server, which records the requests (target,
 * content type, JSON body) and gives both the same answer. Errors keep the SDK's names and
 * fields, and throttling / 5xx answers are retried like the SDK's standard strategy.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import * as sdk from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as app from '../../../src/adapters/aws/dynamo-document.js';
import { AwsServiceError } from '../../../src/adapters/aws/aws-json.js';

interface Seen {
  target: string;
  contentType: string;
  authorization: string;
  body: unknown;
}

let server: Server;
let endpoint: string;
const seen: Seen[] = [];
/** The next answers, in turn: [status, body]; empty = 200 with `answer`. */
let script: Array<[number, unknown]> = [];
let answer: unknown = {};

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      seen.push({
        target: String(req.headers['x-amz-target']),
        contentType: String(req.headers['content-type']),
        authorization: String(req.headers.authorization),
        body: JSON.parse(body) as unknown,
      });
      const [status, reply] = script.shift() ?? [200, answer];
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'req-1' });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  script = [];
  answer = {};
});

const credentials = { accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' };
const marshallOptions = { removeUndefinedValues: true, convertClassInstanceToMap: false };
const sdkClient = () =>
  sdk.DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint, region: 'eu-west-1', credentials, maxAttempts: 1 }), { marshallOptions });
const appClient = () => app.createDocumentClient({ endpoint, region: 'eu-west-1', credentials: async () => credentials, marshallOptions });

/** Sends the SDK's command, then the app's, with the same answer; returns both requests and both outputs. */
async function both<O>(viaSdk: () => Promise<O>, viaApp: () => Promise<O>, reply: unknown = {}) {
  answer = reply;
  const sdkOut = await viaSdk();
  const appOut = await viaApp();
  expect(seen).toHaveLength(2);
  const strip = (o: O) => ({ ...(o as object), $metadata: undefined });
  return { sdkSeen: seen[0]!, appSeen: seen[1]!, sdkOut: strip(sdkOut), appOut: strip(appOut) };
}

const T = 'table';
const vector = new Uint8Array(new Float32Array([0.25, -1, 3.5]).buffer);
const item = {
  pk: 'USER#1',
  sk: 'CONTACT#a',
  name: 'Lucía',
  tags: ['vip'],
  count: 3,
  flags: new Set(['a', 'b']),
  nested: { at: null, ok: true, gone: undefined, bytes: Buffer.from('hi') },
  vector,
  skip: undefined,
};
const wireItem = {
  pk: { S: 'USER#1' },
  sk: { S: 'CONTACT#a' },
  n: { N: '12' },
  list: { L: [{ S: 'x' }, { N: '1' }, { B: 'AAEC' }] },
  map: { M: { a: { BOOL: true }, raw: { B: Buffer.from(vector).toString('base64') } } },
  set: { SS: ['a'] },
  vector: { B: Buffer.from(vector).toString('base64') },
  blobs: { BS: ['AQ==', 'Ag=='] },
};

describe('the app’s document client sends the SDK’s requests', () => {
  const cases: Array<[string, () => sdk.GetCommand | object, () => app.DocumentCommand<unknown, unknown>]> = [
    ['GetItem', () => new sdk.GetCommand({ TableName: T, Key: { pk: 'a', sk: 'b' }, ConsistentRead: true, ProjectionExpression: '#n' }), () => new app.GetCommand({ TableName: T, Key: { pk: 'a', sk: 'b' }, ConsistentRead: true, ProjectionExpression: '#n' })],
    ['PutItem', () => new sdk.PutCommand({ TableName: T, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }), () => new app.PutCommand({ TableName: T, Item: item, ConditionExpression: 'attribute_not_exists(pk)' })],
    [
      'UpdateItem',
      () => new sdk.UpdateCommand({ TableName: T, Key: { pk: 'a', sk: 'b' }, UpdateExpression: 'SET #n = :n ADD c :one', ExpressionAttributeNames: { '#n': 'name' }, ExpressionAttributeValues: { ':n': { deep: [1, 'x'] }, ':one': 1, ':u': undefined }, ReturnValues: 'ALL_NEW' }),
      () => new app.UpdateCommand({ TableName: T, Key: { pk: 'a', sk: 'b' }, UpdateExpression: 'SET #n = :n ADD c :one', ExpressionAttributeNames: { '#n': 'name' }, ExpressionAttributeValues: { ':n': { deep: [1, 'x'] }, ':one': 1, ':u': undefined }, ReturnValues: 'ALL_NEW' }),
    ],
    ['DeleteItem', () => new sdk.DeleteCommand({ TableName: T, Key: { pk: 'a', sk: 'b' }, ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': 2 } }), () => new app.DeleteCommand({ TableName: T, Key: { pk: 'a', sk: 'b' }, ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': 2 } })],
    [
      'Query',
      () => new sdk.QueryCommand({ TableName: T, IndexName: 'gsi1', KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': 'USER#1', ':p': 'C#' }, ExclusiveStartKey: { pk: 'USER#1', sk: 'C#9' }, Limit: 25, ScanIndexForward: false }),
      () => new app.QueryCommand({ TableName: T, IndexName: 'gsi1', KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': 'USER#1', ':p': 'C#' }, ExclusiveStartKey: { pk: 'USER#1', sk: 'C#9' }, Limit: 25, ScanIndexForward: false }),
    ],
    [
      'TransactWriteItems',
      () => new sdk.TransactWriteCommand({ TransactItems: [{ Put: { TableName: T, Item: item } }, { Update: { TableName: T, Key: { pk: 'a', sk: 'b' }, UpdateExpression: 'ADD n :d', ExpressionAttributeValues: { ':d': -1 } } }, { Delete: { TableName: T, Key: { pk: 'a', sk: 'c' } } }, { ConditionCheck: { TableName: T, Key: { pk: 'a', sk: 'd' }, ConditionExpression: 'attribute_exists(pk)' } }] }),
      () => new app.TransactWriteCommand({ TransactItems: [{ Put: { TableName: T, Item: item } }, { Update: { TableName: T, Key: { pk: 'a', sk: 'b' }, UpdateExpression: 'ADD n :d', ExpressionAttributeValues: { ':d': -1 } } }, { Delete: { TableName: T, Key: { pk: 'a', sk: 'c' } } }, { ConditionCheck: { TableName: T, Key: { pk: 'a', sk: 'd' }, ConditionExpression: 'attribute_exists(pk)' } }] }),
    ],
    ['BatchGetItem', () => new sdk.BatchGetCommand({ RequestItems: { [T]: { Keys: [{ pk: 'a', sk: 'b' }, { pk: 'a', sk: 'c' }], ProjectionExpression: 'pk' } } }), () => new app.BatchGetCommand({ RequestItems: { [T]: { Keys: [{ pk: 'a', sk: 'b' }, { pk: 'a', sk: 'c' }], ProjectionExpression: 'pk' } } })],
    ['BatchWriteItem', () => new sdk.BatchWriteCommand({ RequestItems: { [T]: [{ PutRequest: { Item: item } }, { DeleteRequest: { Key: { pk: 'a', sk: 'b' } } }] } }), () => new app.BatchWriteCommand({ RequestItems: { [T]: [{ PutRequest: { Item: item } }, { DeleteRequest: { Key: { pk: 'a', sk: 'b' } } }] } })],
  ];

  it.each(cases)('%s: same target, content type, body and signing scope', async (operation, sdkCommand, appCommand) => {
    const { sdkSeen, appSeen } = await both(
      () => sdkClient().send(sdkCommand() as never),
      () => appClient().send(appCommand()),
    );

    expect(appSeen.target).toBe(`DynamoDB_20120810.${operation}`);
    expect(appSeen.target).toBe(sdkSeen.target);
    expect(appSeen.contentType).toBe(sdkSeen.contentType);
    // The transaction's idempotency token is a fresh UUID on both sides.
    const token = (body: unknown) => (body as { ClientRequestToken?: string }).ClientRequestToken;
    expect(token(appSeen.body) === undefined).toBe(token(sdkSeen.body) === undefined);
    if (token(appSeen.body)) expect(token(appSeen.body)).toMatch(/^[0-9a-f-]{36}$/);
    const withoutToken = (body: unknown) => ({ ...(body as object), ClientRequestToken: undefined });
    expect(withoutToken(appSeen.body)).toEqual(withoutToken(sdkSeen.body));
    const scope = (auth: string) => /Credential=([^,]+)/.exec(auth)?.[1]?.split('/').slice(2).join('/');
    expect(scope(appSeen.authorization)).toBe('eu-west-1/dynamodb/aws4_request');
    expect(scope(appSeen.authorization)).toBe(scope(sdkSeen.authorization));
  });
});

describe('the app’s document client reads the SDK’s answers', () => {
  it('GetItem, UpdateItem (Attributes), Query (Items, LastEvaluatedKey), BatchGetItem (Responses, UnprocessedKeys), BatchWriteItem (UnprocessedItems)', async () => {
    const get = await both(() => sdkClient().send(new sdk.GetCommand({ TableName: T, Key: { pk: 'a' } })), () => appClient().send(new app.GetCommand({ TableName: T, Key: { pk: 'a' } })), { Item: wireItem });
    expect(get.appOut).toEqual(get.sdkOut);
    expect(get.appOut).toMatchObject({ Item: { pk: 'USER#1', n: 12, map: { a: true }, set: new Set(['a']) } });
    // Binary attributes come back as bytes (a stored vector reads as the floats written).
    const read = (get.appOut as unknown as { Item: { vector: Uint8Array } }).Item.vector;
    expect(read).toBeInstanceOf(Uint8Array);
    expect([...new Float32Array(read.slice().buffer)]).toEqual([0.25, -1, 3.5]);

    seen.length = 0;
    const update = await both(
      () => sdkClient().send(new sdk.UpdateCommand({ TableName: T, Key: { pk: 'a' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } })),
      () => appClient().send(new app.UpdateCommand({ TableName: T, Key: { pk: 'a' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } })),
      { Attributes: { n: { N: '13' } } },
    );
    expect(update.appOut).toEqual(update.sdkOut);

    seen.length = 0;
    const query = await both(
      () => sdkClient().send(new sdk.QueryCommand({ TableName: T, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'a' } })),
      () => appClient().send(new app.QueryCommand({ TableName: T, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'a' } })),
      { Items: [wireItem, { pk: { S: 'p2' } }], Count: 2, ScannedCount: 2, LastEvaluatedKey: { pk: { S: 'p2' }, sk: { S: 's' } } },
    );
    expect(query.appOut).toEqual(query.sdkOut);
    expect(query.appOut).toMatchObject({ Count: 2, LastEvaluatedKey: { pk: 'p2', sk: 's' } });

    seen.length = 0;
    const batchGet = await both(
      () => sdkClient().send(new sdk.BatchGetCommand({ RequestItems: { [T]: { Keys: [{ pk: 'a' }] } } })),
      () => appClient().send(new app.BatchGetCommand({ RequestItems: { [T]: { Keys: [{ pk: 'a' }] } } })),
      { Responses: { [T]: [wireItem] }, UnprocessedKeys: { [T]: { Keys: [{ pk: { S: 'b' } }] } } },
    );
    expect(batchGet.appOut).toEqual(batchGet.sdkOut);

    seen.length = 0;
    const batchWrite = await both(
      () => sdkClient().send(new sdk.BatchWriteCommand({ RequestItems: { [T]: [{ DeleteRequest: { Key: { pk: 'a' } } }] } })),
      () => appClient().send(new app.BatchWriteCommand({ RequestItems: { [T]: [{ DeleteRequest: { Key: { pk: 'a' } } }] } })),
      { UnprocessedItems: { [T]: [{ PutRequest: { Item: { pk: { S: 'x' }, n: { N: '1' } } } }, { DeleteRequest: { Key: { pk: { S: 'y' } } } }] } },
    );
    expect(batchWrite.appOut).toEqual(batchWrite.sdkOut);
  });
});

describe('errors and retries', () => {
  const failWith = async (status: number, body: unknown) => {
    script = [[status, body]];
    const viaSdk = await sdkClient()
      .send(new sdk.PutCommand({ TableName: T, Item: { pk: 'a' } }))
      .catch((e: unknown) => e as Record<string, unknown>);
    script = [[status, body]];
    const viaApp = await appClient()
      .send(new app.PutCommand({ TableName: T, Item: { pk: 'a' } }))
      .catch((e: unknown) => e as Record<string, unknown>);
    return { viaSdk: viaSdk as Record<string, unknown>, viaApp: viaApp as Record<string, unknown> };
  };

  it('a failed condition and a cancelled transaction keep the SDK’s name, message and reasons (items left raw)', async () => {
    const condition = await failWith(400, { __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', message: 'The conditional request failed', Item: { pk: { S: 'a' } } });
    expect(condition.viaApp).toBeInstanceOf(AwsServiceError);
    expect(condition.viaApp.name).toBe('ConditionalCheckFailedException');
    expect(condition.viaApp.name).toBe(condition.viaSdk.name);
    expect(condition.viaApp.message).toBe(condition.viaSdk.message);
    expect(condition.viaApp.Item).toEqual(condition.viaSdk.Item);

    const reasons = [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Item: { contactId: { S: 'c1' } }, Message: 'The conditional request failed' }];
    const cancelled = await failWith(400, { __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException', Message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]', CancellationReasons: reasons });
    expect(cancelled.viaApp.name).toBe('TransactionCanceledException');
    expect(cancelled.viaApp.name).toBe(cancelled.viaSdk.name);
    expect(cancelled.viaApp.message).toBe(cancelled.viaSdk.message);
    expect(cancelled.viaApp.CancellationReasons).toEqual(cancelled.viaSdk.CancellationReasons);
    expect((cancelled.viaApp.$metadata as { httpStatusCode: number }).httpStatusCode).toBe(400);
  });

  it('retries throttling and 5xx answers up to three attempts, never a client error', async () => {
    const retrying = app.createDocumentClient({ endpoint, region: 'eu-west-1', credentials: async () => credentials });
    script = [
      [400, { __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', message: 'slow down' }],
      [500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'oops' }],
      [200, { Item: { pk: { S: 'a' } } }],
    ];
    await expect(retrying.send(new app.GetCommand({ TableName: T, Key: { pk: 'a' } }))).resolves.toMatchObject({ Item: { pk: 'a' } });
    expect(seen).toHaveLength(3);

    seen.length = 0;
    script = Array.from({ length: 4 }, (): [number, unknown] => [503, { __type: 'ServiceUnavailable', message: 'down' }]);
    await expect(retrying.send(new app.GetCommand({ TableName: T, Key: { pk: 'a' } }))).rejects.toMatchObject({ name: 'ServiceUnavailable', $fault: 'server' });
    expect(seen).toHaveLength(3);

    seen.length = 0;
    script = [[400, { __type: 'com.amazon.coral.validate#ValidationException', message: 'bad key' }]];
    await expect(retrying.send(new app.GetCommand({ TableName: T, Key: { pk: 'a' } }))).rejects.toMatchObject({ name: 'ValidationException', message: 'bad key' });
    expect(seen).toHaveLength(1);
  });
});
