/**
 * Contacts CSV jobs over the single table (ACCESS-PATTERNS.md, "Contacts CSV jobs"), all in the
 * user's partition:
 * - sk=CUPLOAD#{uploadId}: a requested upload (file name, size), TTL a day;
 * - sk=CJOB#I#{jobId} / CJOB#E#{jobId}: an import / export job (ids sort by creation time);
 * - sk=CJOBB#{jobId}#{batch}: one committed batch of an import: the ids it created (undo) and its
 *   report rows (the error report), written in the same transaction that moves the job's cursor.
 */
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { ContactJobStore, ContactUpload, ExportJobRecord, ImportBatch, ImportJobRecord, ReportRow } from '../../domain/contacts/job-ports.js';
import type { ImportJobStatus } from '../../contract/contact-jobs.js';
import { isConditionFailure } from './conditions.js';
import { userPk } from './keys.js';
import { queryItems, queryPages } from './query-items.js';
import { transactWrite } from './transact.js';

const uploadSk = (id: string) => `CUPLOAD#${id}`;
const importSk = (id: string) => `CJOB#I#${id}`;
const exportSk = (id: string) => `CJOB#E#${id}`;
const batchPrefix = (jobId: string) => `CJOBB#${jobId}#`;
const batchSk = (jobId: string, n: number) => `${batchPrefix(jobId)}${String(n).padStart(6, '0')}`;
const DAY_SECONDS = 86_400;

type Item = Record<string, unknown>;
const KEYS = ['pk', 'sk', 'entity', 'expiresAt'];
const strip = <T>(item: Item): T => Object.fromEntries(Object.entries(item).filter(([k]) => !KEYS.includes(k))) as T;

/** SET a = :a, … for the given fields (top level). */
function setExpression(changes: Item) {
  const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
  return {
    UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
    ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:f${i}`, v])),
  };
}

export class DynamoContactJobStore implements ContactJobStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  async putUpload(userId: string, upload: ContactUpload): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...upload, pk: userPk(userId), sk: uploadSk(upload.id), entity: 'contactUpload', expiresAt: Math.floor(this.now() / 1000) + DAY_SECONDS },
      }),
    );
  }

  async getUpload(userId: string, uploadId: string): Promise<ContactUpload | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: uploadSk(uploadId) }, ConsistentRead: true }));
    // TTL deletion is lazy (and DynamoDB Local never deletes): an expired item is absent.
    if (!Item || Number(Item.expiresAt) * 1000 < this.now()) return null;
    return strip<ContactUpload>(Item);
  }

  private async create(userId: string, sk: string, entity: string, record: Item): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { ...record, pk: userPk(userId), sk, entity }, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
  }

  createImport(userId: string, job: ImportJobRecord): Promise<void> {
    return this.create(userId, importSk(job.id), 'contactImportJob', job as unknown as Item);
  }

  createExport(userId: string, job: ExportJobRecord): Promise<void> {
    return this.create(userId, exportSk(job.id), 'contactExportJob', job as unknown as Item);
  }

  private async get<T>(userId: string, sk: string): Promise<T | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk }, ConsistentRead: true }));
    return Item ? strip<T>(Item) : null;
  }

  getImport(userId: string, id: string): Promise<ImportJobRecord | null> {
    return this.get(userId, importSk(id));
  }

  getExport(userId: string, id: string): Promise<ExportJobRecord | null> {
    return this.get(userId, exportSk(id));
  }

  async listImports(userId: string, limit: number, cursor?: string) {
    const items = await queryItems(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': userPk(userId), ':from': importSk(''), ':to': cursor ? importSk(cursor) : `${importSk('')}~` },
        ScanIndexForward: false,
        ConsistentRead: true,
      },
      limit + 2,
    );
    const jobs = items.map((i) => strip<ImportJobRecord>(i)).filter((j) => j.id !== cursor);
    const page = jobs.slice(0, limit);
    return { items: page, ...(jobs.length > limit ? { next: page[page.length - 1]!.id } : {}) };
  }

  async updateImport(userId: string, id: string, from: readonly ImportJobStatus[], changes: Partial<ImportJobRecord>): Promise<boolean> {
    const set = setExpression({ ...changes, updatedAt: changes.updatedAt ?? new Date(this.now()).toISOString() });
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: importSk(id) },
          ...set,
          ConditionExpression: `attribute_exists(pk) AND #status IN (${from.map((_, i) => `:s${i}`).join(', ')})`,
          ExpressionAttributeNames: { ...set.ExpressionAttributeNames, '#status': 'status' },
          ExpressionAttributeValues: { ...set.ExpressionAttributeValues, ...Object.fromEntries(from.map((s, i) => [`:s${i}`, s])) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async updateExport(userId: string, id: string, changes: Partial<ExportJobRecord>): Promise<void> {
    const set = setExpression({ ...changes, updatedAt: changes.updatedAt ?? new Date(this.now()).toISOString() });
    await this.db.send(
      new UpdateCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: exportSk(id) }, ...set, ConditionExpression: 'attribute_exists(pk)' }),
    );
  }

  async commitBatch(userId: string, id: string, expectedBatches: number, batch: ImportBatch): Promise<boolean> {
    const p = batch.progress;
    try {
      await transactWrite(this.db, [
        {
          Put: {
            TableName: this.tableName,
            Item: { pk: userPk(userId), sk: batchSk(id, expectedBatches), entity: 'contactImportBatch', createdIds: batch.createdIds, report: batch.report },
          },
        },
        {
          Update: {
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: importSk(id) },
            UpdateExpression:
              'SET #cursor = :cursor, #batches = :next, #progress.#rowsTotal = :total, #progress.#rowsDone = #progress.#rowsDone + :rd, ' +
              '#progress.#created = #progress.#created + :cr, #progress.#duplicates = #progress.#duplicates + :du, #progress.#errors = #progress.#errors + :er, #updatedAt = :at',
            ConditionExpression: '#batches = :n AND #status = :running',
            ExpressionAttributeNames: {
              '#cursor': 'cursor',
              '#batches': 'batches',
              '#progress': 'progress',
              '#rowsTotal': 'rowsTotal',
              '#rowsDone': 'rowsDone',
              '#created': 'created',
              '#duplicates': 'duplicates',
              '#errors': 'errors',
              '#updatedAt': 'updatedAt',
              '#status': 'status',
            },
            ExpressionAttributeValues: {
              ':cursor': batch.cursor,
              ':next': expectedBatches + 1,
              ':n': expectedBatches,
              ':total': batch.rowsTotal,
              ':rd': p.rowsDone,
              ':cr': p.created,
              ':du': p.duplicates,
              ':er': p.errors,
              ':at': new Date(this.now()).toISOString(),
              ':running': 'running',
            },
          },
        },
      ]);
      return true;
    } catch (error) {
      if ((error as { name?: string }).name === 'TransactionCanceledException') return false;
      throw error;
    }
  }

  async notePlannedIds(userId: string, id: string, batch: number, ids: readonly string[]): Promise<void> {
    // One item per attempt (a redone batch plans new ids; the old ones may have been written).
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: userPk(userId), sk: `${batchSk(id, batch)}#p${this.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`, entity: 'contactImportPlan', createdIds: ids },
      }),
    );
  }

  async *batches(userId: string, id: string): AsyncIterable<{ createdIds: string[]; report: ReportRow[] }> {
    for await (const page of queryPages(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':from': batchPrefix(id), ':to': `${batchPrefix(id)}~` },
      ConsistentRead: true,
    })) {
      for (const item of page) {
        yield { createdIds: Array.isArray(item.createdIds) ? (item.createdIds as string[]) : [], report: Array.isArray(item.report) ? (item.report as ReportRow[]) : [] };
      }
    }
  }

  async addUndone(userId: string, id: string, count: number): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: importSk(id) },
        UpdateExpression: 'ADD undone :n SET updatedAt = :at',
        ExpressionAttributeValues: { ':n': count, ':at': new Date(this.now()).toISOString() },
      }),
    );
  }
}

/** The profile's language, country (H1: `country`) and time zone, projected from the profile item. */
export class DynamoJobAccountSettings {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async settings(userId: string): Promise<{ language?: string; country?: string; timeZone?: string }> {
    const { Item } = await this.db.send(
      new GetCommand({
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: 'PROFILE' },
        ProjectionExpression: '#l, #c, #t',
        ExpressionAttributeNames: { '#l': 'language', '#c': 'country', '#t': 'timeZone' },
      }),
    );
    return {
      ...(typeof Item?.language === 'string' ? { language: Item.language } : {}),
      ...(typeof Item?.country === 'string' ? { country: Item.country } : {}),
      ...(typeof Item?.timeZone === 'string' && Item.timeZone ? { timeZone: Item.timeZone } : {}),
    };
  }
}
