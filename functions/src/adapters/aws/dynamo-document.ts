/**
 * The DynamoDB document client every repository uses: the commands of @aws-sdk/lib-dynamodb
 * (same names, same inputs and outputs, same marshalling of native values with
 * @aws-sdk/util-dynamodb), sent as DynamoDB JSON-protocol calls with `fetch` (aws-json.ts)
 * instead of through the SDK's DynamoDB client (issue 28: the client and its protocol stack were
 * ~180 KB of every Lambda bundle). Errors keep the SDK's names and fields (a
 * TransactionCanceledException's CancellationReasons, raw like the SDK's: exceptions are not
 * unmarshalled), so callers are unchanged but for this module's import.
 *
 * Which parts of an input are marshalled and which parts of an output are unmarshalled is
 * lib-dynamodb's own table (its commands' inputKeyNodes/outputKeyNodes) for the operations we
 * use; test/unit/aws/dynamo-document.test.ts compares each command's request with the SDK's.
 */
import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  ScanCommandOutput,
  TransactGetCommandInput,
  TransactGetCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { marshall, unmarshall, type marshallOptions } from '@aws-sdk/util-dynamodb';
import type { AwsCredentials } from './sigv4.js';
import { awsJsonService, type AwsJsonService } from './aws-json.js';

export type {
  BatchGetCommandInput,
  BatchWriteCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  QueryCommandOutput,
  ScanCommandInput,
  TransactWriteCommandInput,
  UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** lib-dynamodb's key nodes: {} = every value of this map, '*' = every member, null = this value. */
type KeyNodes = { [key: string]: KeyNodes } | null;
const ALL: KeyNodes = {};
const EACH = (nodes: KeyNodes): KeyNodes => ({ '*': nodes });

/** One command: the DynamoDB operation, its input, and which parts are native values. */
export abstract class DocumentCommand<I, O> {
  abstract readonly operation: string;
  abstract readonly inputNodes: Record<string, KeyNodes>;
  abstract readonly outputNodes: Record<string, KeyNodes>;
  /** The input member the SDK fills with a fresh UUID when it is unset (an idempotency token). */
  readonly idempotencyToken?: string;
  /** Carries the output type only. */
  declare readonly __output?: O;
  constructor(readonly input: I) {}
}

const ITEM_METRICS = { ItemCollectionMetrics: { ItemCollectionKey: ALL } };
const EXPECTED = EACH({ Value: null, AttributeValueList: ALL });

export class GetCommand extends DocumentCommand<GetCommandInput, GetCommandOutput> {
  readonly operation = 'GetItem';
  readonly inputNodes = { Key: ALL };
  readonly outputNodes = { Item: ALL };
}
export class PutCommand extends DocumentCommand<PutCommandInput, PutCommandOutput> {
  readonly operation = 'PutItem';
  readonly inputNodes = { Item: ALL, Expected: EXPECTED, ExpressionAttributeValues: ALL };
  readonly outputNodes = { Attributes: ALL, ...ITEM_METRICS };
}
export class UpdateCommand extends DocumentCommand<UpdateCommandInput, UpdateCommandOutput> {
  readonly operation = 'UpdateItem';
  readonly inputNodes = { Key: ALL, AttributeUpdates: EACH({ Value: null }), Expected: EXPECTED, ExpressionAttributeValues: ALL };
  readonly outputNodes = { Attributes: ALL, ...ITEM_METRICS };
}
export class DeleteCommand extends DocumentCommand<DeleteCommandInput, DeleteCommandOutput> {
  readonly operation = 'DeleteItem';
  readonly inputNodes = { Key: ALL, Expected: EXPECTED, ExpressionAttributeValues: ALL };
  readonly outputNodes = { Attributes: ALL, ...ITEM_METRICS };
}
const CONDITIONS = EACH({ AttributeValueList: ALL });
export class QueryCommand extends DocumentCommand<QueryCommandInput, QueryCommandOutput> {
  readonly operation = 'Query';
  readonly inputNodes = { KeyConditions: CONDITIONS, QueryFilter: CONDITIONS, ExclusiveStartKey: ALL, ExpressionAttributeValues: ALL };
  readonly outputNodes = { Items: EACH(ALL), LastEvaluatedKey: ALL };
}
export class ScanCommand extends DocumentCommand<ScanCommandInput, ScanCommandOutput> {
  readonly operation = 'Scan';
  readonly inputNodes = { ScanFilter: CONDITIONS, ExclusiveStartKey: ALL, ExpressionAttributeValues: ALL };
  readonly outputNodes = { Items: EACH(ALL), LastEvaluatedKey: ALL };
}
export class TransactWriteCommand extends DocumentCommand<TransactWriteCommandInput, TransactWriteCommandOutput> {
  readonly operation = 'TransactWriteItems';
  /** Makes a retried transaction (same token, within 10 minutes) apply once, as with the SDK. */
  override readonly idempotencyToken = 'ClientRequestToken';
  readonly inputNodes = {
    TransactItems: EACH({
      ConditionCheck: { Key: ALL, ExpressionAttributeValues: ALL },
      Put: { Item: ALL, ExpressionAttributeValues: ALL },
      Delete: { Key: ALL, ExpressionAttributeValues: ALL },
      Update: { Key: ALL, ExpressionAttributeValues: ALL },
    }),
  };
  readonly outputNodes = { ItemCollectionMetrics: EACH(EACH({ ItemCollectionKey: ALL })) };
}
export class TransactGetCommand extends DocumentCommand<TransactGetCommandInput, TransactGetCommandOutput> {
  readonly operation = 'TransactGetItems';
  readonly inputNodes = { TransactItems: EACH({ Get: { Key: ALL } }) };
  readonly outputNodes = { Responses: EACH({ Item: ALL }) };
}
export class BatchGetCommand extends DocumentCommand<BatchGetCommandInput, BatchGetCommandOutput> {
  readonly operation = 'BatchGetItem';
  readonly inputNodes = { RequestItems: EACH({ Keys: EACH(ALL) }) };
  readonly outputNodes = { Responses: EACH(EACH(ALL)), UnprocessedKeys: EACH({ Keys: EACH(ALL) }) };
}
const WRITE_REQUESTS = EACH(EACH({ PutRequest: { Item: ALL }, DeleteRequest: { Key: ALL } }));
export class BatchWriteCommand extends DocumentCommand<BatchWriteCommandInput, BatchWriteCommandOutput> {
  readonly operation = 'BatchWriteItem';
  readonly inputNodes = { RequestItems: WRITE_REQUESTS };
  readonly outputNodes = { UnprocessedItems: WRITE_REQUESTS, ItemCollectionMetrics: EACH(EACH({ ItemCollectionKey: ALL })) };
}

export type AnyDocumentCommand = DocumentCommand<unknown, unknown>;

/** What the repositories hold: send() of the commands above, typed by command. */
export interface DynamoDBDocumentClient {
  send<I, O>(command: DocumentCommand<I, O>): Promise<O>;
}

export interface DocumentClientOptions {
  region: string;
  /** DYNAMODB_ENDPOINT (DynamoDB Local); unset = the region's public endpoint. */
  endpoint?: string;
  credentials?: () => Promise<AwsCredentials>;
  fetch?: typeof fetch;
  /** The repositories' options: undefined attributes are dropped, class instances are refused. */
  marshallOptions?: marshallOptions;
}

export function createDocumentClient(options: DocumentClientOptions): DynamoDBDocumentClient {
  const dynamo: AwsJsonService = awsJsonService({
    service: 'dynamodb',
    targetPrefix: 'DynamoDB_20120810',
    jsonVersion: '1.0',
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // As DynamoDBDocumentClient sets them: a top-level map or list is marshalled as M/L, outputs
  // unwrapped; binary values (B, BS) travel as base64 in JSON, as the SDK's protocol sends them.
  const toWire = (value: unknown) => binaryToBase64(marshall(value as Record<string, unknown>, { ...options.marshallOptions, convertTopLevelContainer: true }));
  const fromWire = (value: unknown) => unmarshall(base64ToBinary(value) as Record<string, never>, { convertWithoutMapWrapper: true });
  return {
    async send<I, O>(command: DocumentCommand<I, O>): Promise<O> {
      const request = processKeysInObj(command.input as object, toWire, command.inputNodes) as Record<string, unknown>;
      if (command.idempotencyToken && request[command.idempotencyToken] === undefined) request[command.idempotencyToken] = randomUUID();
      // Serialised once: a retry resends the same body (and token).
      const answer = await dynamo.call(command.operation, request);
      return { ...(processKeysInObj(answer, fromWire, command.outputNodes) as object), $metadata: {} } as O;
    },
  };
}

type Wire = Record<string, unknown>;
const base64 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
/** As the SDK decodes a blob: a Uint8Array over the decoded bytes. */
const bytesOf = (text: unknown) => {
  const buffer = Buffer.from(String(text), 'base64');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
};

/** An AttributeValue with its binary members (B, BS, inside M and L too) as base64 strings. */
function binaryToBase64(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const av = value as Wire;
  if (av.B instanceof Uint8Array) return { B: base64(av.B) };
  if (Array.isArray(av.BS)) return { BS: (av.BS as Uint8Array[]).map(base64) };
  if (Array.isArray(av.L)) return { L: av.L.map(binaryToBase64) };
  if (av.M && typeof av.M === 'object') return { M: mapValues(av.M as Wire, binaryToBase64) };
  return value;
}

/** The inverse for an answer's AttributeValue: B and BS decoded to bytes. */
function base64ToBinary(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const av = value as Wire;
  if (typeof av.B === 'string') return { B: bytesOf(av.B) };
  if (Array.isArray(av.BS)) return { BS: av.BS.map(bytesOf) };
  if (Array.isArray(av.L)) return { L: av.L.map(base64ToBinary) };
  if (av.M && typeof av.M === 'object') return { M: mapValues(av.M as Wire, base64ToBinary) };
  return value;
}

const mapValues = (map: Wire, fn: (v: unknown) => unknown) => Object.fromEntries(Object.entries(map).map(([k, v]) => [k, fn(v)]));

// lib-dynamodb's commands/utils.js walk, as it is (functions are dropped, undefined results too).
type Process = (value: unknown) => unknown;

function processObj(obj: unknown, fn: Process, nodes: KeyNodes | undefined): unknown {
  if (obj === undefined) return undefined;
  if (nodes == null) return fn(obj);
  const keys = Object.keys(nodes);
  const nextLevel = keys.length === 1 && keys[0] === '*';
  if (keys.length >= 1 && !nextLevel) return processKeysInObj(obj as object, fn, nodes);
  if (keys.length === 0) return processAllKeysInObj(obj as object, fn);
  const out: Record<string, unknown> | unknown[] = Array.isArray(obj) ? [] : {};
  for (const [k, v] of Object.entries(obj ?? {})) if (typeof v !== 'function') (out as Record<string, unknown>)[k] = processObj(v, fn, nodes['*']);
  return out;
}

function processKeysInObj(obj: object, fn: Process, nodes: Record<string, KeyNodes>): unknown {
  const source = obj as Record<string, unknown>;
  const out: Record<string, unknown> | unknown[] = Array.isArray(obj)
    ? obj.filter((item) => typeof item !== 'function')
    : Object.fromEntries(Object.entries(source).filter(([, v]) => typeof v !== 'function'));
  for (const [key, child] of Object.entries(nodes)) {
    if (typeof source[key] === 'function') continue;
    const processed = processObj(source[key], fn, child);
    if (processed !== undefined && typeof processed !== 'function') (out as Record<string, unknown>)[key] = processed;
  }
  return out;
}

function processAllKeysInObj(obj: object, fn: Process): unknown {
  if (Array.isArray(obj)) return obj.filter((item) => typeof item !== 'function').map((item) => processObj(item, fn, null));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (typeof value === 'function') continue;
    const processed = processObj(value, fn, null);
    if (processed !== undefined && typeof processed !== 'function') out[key] = processed;
  }
  return out;
}
