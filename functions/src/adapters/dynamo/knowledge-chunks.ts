/**
 * Knowledge chunks over the single table (ACCESS-PATTERNS.md, "Integrations, agents and knowledge"):
 *
 *   pk = USER#{userId}#KB#{agentId}      one partition per agent (tenant first, by construction)
 *   sk = {file|url}#{sourceId}#{00000}   chunk index, 5 digits (sources are capped at 2,000 chunks)
 *   sourceName, text, vector (Binary: little-endian float32, absent when stored without embedding)
 *
 * A 1,536-d vector is 6 KB, so an item is ≈ 7.5 KB: ~130 per 1 MB Query page. Loads use
 * ConsistentRead: the retriever caches what it loads under the knowledgeVersion it was asked for,
 * and ingestion bumps that version right after writing, so an eventually consistent read could
 * cache stale chunks under the new version.
 *
 * replaceSource writes the new chunks first (Put overwrites the same index) and only then deletes
 * the old indexes beyond the new count, so a concurrent retrieval sees the old or the new text of
 * each position, never an empty source. BatchWriteItem (25 per request, a few requests in flight)
 * resends UnprocessedItems with exponential backoff and jitter; still unprocessed after the last
 * try is an error (the queue retries the job; writes are idempotent).
 */
import { BatchWriteCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '../aws/dynamo-document.js';
import type { ChunkStore, KnowledgeChunk, KnowledgeSourceKind } from '../../domain/knowledge/ports.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';

export const chunkPk = (userId: string, agentId: string) => `${userPk(userId)}#KB#${agentId}`;
export const chunkSourcePrefix = (kind: KnowledgeSourceKind, sourceId: string) => `${kind}#${sourceId}#`;
export const chunkSk = (kind: KnowledgeSourceKind, sourceId: string, index: number) =>
  `${chunkSourcePrefix(kind, sourceId)}${String(index).padStart(INDEX_DIGITS, '0')}`;

const INDEX_DIGITS = 5;
const KINDS: readonly KnowledgeSourceKind[] = ['file', 'url', 'entry'];
const isKind = (kind: string | undefined): kind is KnowledgeSourceKind => (KINDS as readonly (string | undefined)[]).includes(kind);
const BATCH_SIZE = 25;
const PARALLEL_BATCHES = 4;
const MAX_ATTEMPTS = 8;
const BASE_DELAY_MS = 50;
const MAX_DELAY_MS = 2000;

type Item = Record<string, unknown>;
type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** float32 → little-endian bytes. */
export function encodeVector(vector: Float32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return bytes;
}

/** Little-endian bytes → a float32 array of its own (not a view into the response buffer). */
export function decodeVector(bytes: Uint8Array): Float32Array {
  const n = Math.floor(bytes.byteLength / 4);
  const out = new Float32Array(n);
  if (LITTLE_ENDIAN) {
    new Uint8Array(out.buffer).set(bytes.subarray(0, n * 4));
    return out;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class DynamoChunkStore implements ChunkStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async replaceSource(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string, chunks: readonly KnowledgeChunk[]): Promise<void> {
    const pk = chunkPk(userId, agentId);
    const existing = await this.sourceKeys(pk, kind, sourceId);
    const written = new Set<string>();
    const puts: WriteRequest[] = chunks.map((chunk, position) => {
      const sk = chunkSk(kind, sourceId, position);
      written.add(sk);
      const item: Item = { pk, sk, entity: 'kbchunk', sourceName: chunk.sourceName, text: chunk.text };
      if (chunk.page !== null) item.page = chunk.page;
      if (chunk.headings.length > 0) item.headings = chunk.headings;
      if (chunk.vector) item.vector = encodeVector(chunk.vector);
      return { PutRequest: { Item: item } };
    });
    await this.write(puts);
    await this.write(existing.filter((sk) => !written.has(sk)).map((sk) => ({ DeleteRequest: { Key: { pk, sk } } })));
  }

  async loadAgent(userId: string, agentId: string): Promise<KnowledgeChunk[]> {
    const pk = chunkPk(userId, agentId);
    // Files, URLs and entries are key ranges of their own: read them in parallel (each pages through ~1 MB Queries).
    const ranges = await Promise.all(
      KINDS.map((kind) =>
        this.queryAll({
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': pk, ':from': `${kind}#`, ':to': `${kind}#\uffff` },
          ProjectionExpression: 'sk, sourceName, #text, vector, page, headings',
          ExpressionAttributeNames: { '#text': 'text' },
          ConsistentRead: true,
        }),
      ),
    );
    const out: KnowledgeChunk[] = [];
    for (const item of ranges.flat()) {
      const [kind, sourceId, index] = String(item.sk).split('#');
      if (!isKind(kind) || !sourceId || index === undefined) continue;
      out.push({
        agentId,
        sourceKind: kind,
        sourceId,
        sourceName: typeof item.sourceName === 'string' ? item.sourceName : '',
        index: Number(index),
        text: typeof item.text === 'string' ? item.text : '',
        page: typeof item.page === 'number' ? item.page : null,
        headings: Array.isArray(item.headings) ? item.headings.filter((h): h is string => typeof h === 'string') : [],
        vector: item.vector instanceof Uint8Array && item.vector.byteLength > 0 ? decodeVector(item.vector) : null,
      });
    }
    return out;
  }

  async deleteSource(userId: string, agentId: string, kind: KnowledgeSourceKind, sourceId: string): Promise<void> {
    const pk = chunkPk(userId, agentId);
    const keys = await this.sourceKeys(pk, kind, sourceId);
    await this.write(keys.map((sk) => ({ DeleteRequest: { Key: { pk, sk } } })));
  }

  async deleteAgent(userId: string, agentId: string): Promise<void> {
    const pk = chunkPk(userId, agentId);
    const items = await this.queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ProjectionExpression: 'sk' });
    await this.write(items.map((item) => ({ DeleteRequest: { Key: { pk, sk: item.sk } } })));
  }

  /** Sort keys of one source's chunks (a key range, not begins_with: DynamoDB Local walks the partition for that). */
  private async sourceKeys(pk: string, kind: KnowledgeSourceKind, sourceId: string): Promise<string[]> {
    const prefix = chunkSourcePrefix(kind, sourceId);
    const items = await this.queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': prefix, ':to': `${prefix}\uffff` },
      ProjectionExpression: 'sk',
      ConsistentRead: true,
    });
    return items.map((i) => String(i.sk));
  }

  private queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
    return queryItems(this.db, { ...input, TableName: this.tableName });
  }

  /** BatchWriteItem in batches of 25, a few in flight, UnprocessedItems resent with backoff. */
  private async write(requests: readonly WriteRequest[]): Promise<void> {
    const batches: WriteRequest[][] = [];
    for (let i = 0; i < requests.length; i += BATCH_SIZE) batches.push(requests.slice(i, i + BATCH_SIZE));
    let next = 0;
    const lane = async () => {
      while (next < batches.length) await this.writeBatch(batches[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_BATCHES, batches.length) }, lane));
  }

  private async writeBatch(batch: WriteRequest[]): Promise<void> {
    let pending = batch;
    for (let attempt = 1; ; attempt++) {
      const { UnprocessedItems } = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
      pending = (UnprocessedItems?.[this.tableName] ?? []) as WriteRequest[];
      if (pending.length === 0) return;
      if (attempt >= MAX_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} chunk writes unprocessed after ${MAX_ATTEMPTS} attempts`);
      const cap = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
      await sleep(cap / 2 + Math.random() * (cap / 2));
    }
  }
}
