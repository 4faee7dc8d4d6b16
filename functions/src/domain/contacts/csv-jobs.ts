/**
 * Contacts import and export as background jobs (issue 19), the API half: requests the browser
 * upload, previews the file (encoding, delimiter, header, first rows, suggested mapping), creates
 * the jobs and queues them, shows their progress, asks for an undo. The work itself (row checks,
 * phone numbers, bulk writes, reports, the export file) is the worker's (csv-job-worker.ts), so the
 * contact-jobs API function does not carry it.
 */
import { randomBytes } from 'node:crypto';
import {
  CONTACT_JOB_MAX_BYTES,
  CONTACT_JOB_PAGE_SIZE,
  CONTACT_JOB_PREVIEW_ROWS,
  contactJobMessages,
  mappingProblem,
  type ContactExportJob,
  type ContactImportJob,
  type CreateExportJobRequest,
  type CreateImportJobRequest,
  type ImportPreview,
  type ImportPreviewRequest,
  type ImportUploadRequest,
  type ImportUploadTicket,
} from '../../contract/contact-jobs.js';
import { newId, isId } from '../../lib/ids.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { languageOf } from '../i18n/messages.js';
import { decodeFile, detectDelimiter, looksBinary, suggestColumns } from './csv-detect.js';
import { exportFileName } from './export-texts.js';
import { CSV_TYPE, uploadKey } from './csv-job-files.js';
import { csvRecords, type CsvRecordAt } from './csv.js';
import type { ContactFiles, ContactJobQueue, ContactJobStore, ExportJobRecord, ImportJobRecord, JobAccountSettings } from './job-ports.js';

export interface ContactJobApiDeps {
  jobs: ContactJobStore;
  files: ContactFiles;
  queue: ContactJobQueue;
  account: JobAccountSettings;
  /** ISO country of an import when the account has none (config CONTACTS_DEFAULT_COUNTRY). */
  defaultCountry: string;
  now?: () => Date;
}

/** Bytes the preview reads (header and first rows; detection of the encoding on this sample). */
const PREVIEW_BYTES = 256 * 1024;
/** Report links are offered while the report exists (the staging prefix keeps objects a day). */
const REPORT_TTL_MS = 23 * 3600 * 1000;

export function contactCsvJobs(deps: ContactJobApiDeps) {
  const { jobs, files, queue, account } = deps;
  const now = deps.now ?? (() => new Date());
  const nowIso = () => now().toISOString();

  async function loadImport(userId: string, id: string): Promise<ImportJobRecord> {
    const job = isId(id) ? await jobs.getImport(userId, id) : null;
    if (!job) throw new NotFoundError(contactJobMessages.importNotFound);
    return job;
  }

  async function importView(userId: string, job: ImportJobRecord, withLinks: boolean): Promise<ContactImportJob> {
    const reportFresh = job.reportKey && job.finishedAt && now().getTime() - Date.parse(job.finishedAt) < REPORT_TTL_MS;
    return {
      _id: job.id,
      status: job.status,
      fileName: job.fileName,
      delimiter: job.delimiter ?? ',',
      encoding: job.encoding ?? 'utf-8',
      columns: job.columns,
      progress: job.progress,
      ...(job.failure ? { failure: job.failure } : {}),
      ...(job.undone !== undefined ? { undone: job.undone } : {}),
      ...(job.skipped ? { skipped: job.skipped } : {}),
      hasErrorReport: Boolean(reportFresh),
      ...(withLinks && reportFresh ? { errorReportUrl: await files.downloadUrl(job.reportKey!, reportName(job), CSV_TYPE) } : {}),
      createdAt: job.createdAt,
      updatedAt: job.updatedAt,
      ...(job.finishedAt ? { finishedAt: job.finishedAt } : {}),
    };
  }

  const reportName = (job: ImportJobRecord) =>
    `${job.language === 'es' ? 'errores' : 'errors'}-${job.fileName.replace(/\.[^.]*$/, '')}.csv`;

  async function exportView(job: ExportJobRecord): Promise<ContactExportJob> {
    const fileName = exportFileName(job.language, job.createdAt, job.timeZone);
    return {
      _id: job.id,
      status: job.status,
      delimiter: job.delimiter,
      search: job.search,
      ...(job.source ? { source: job.source } : {}),
      ...(job.tag ? { tag: job.tag } : {}),
      ...(job.field ? { field: job.field } : {}),
      ...(job.value ? { value: job.value } : {}),
      rows: job.rows,
      fileName,
      ...(job.failure ? { failure: job.failure } : {}),
      ...(job.status === 'done' && job.fileKey ? { downloadUrl: await files.downloadUrl(job.fileKey, fileName, CSV_TYPE) } : {}),
      createdAt: job.createdAt,
      updatedAt: job.updatedAt,
      ...(job.finishedAt ? { finishedAt: job.finishedAt } : {}),
    };
  }

  /** The uploaded file's bytes (the first `maxBytes`), or 400 when it is not there. */
  async function uploadedBytes(userId: string, uploadId: string, maxBytes?: number) {
    const upload = await jobs.getUpload(userId, uploadId);
    const bytes = upload ? await files.read(uploadKey(userId, uploadId), maxBytes) : null;
    if (!upload || !bytes) throw new ValidationError(contactJobMessages.uploadMissing, 'uploadId');
    if (bytes.length === 0) throw new ValidationError(contactJobMessages.fileEmpty, 'uploadId');
    return { upload, bytes };
  }

  async function requestUpload(userId: string, input: ImportUploadRequest): Promise<ImportUploadTicket> {
    const id = randomBytes(16).toString('hex');
    await jobs.putUpload(userId, { id, fileName: input.fileName, size: input.size, createdAt: nowIso() });
    const form = await files.uploadForm(uploadKey(userId, id), CSV_TYPE, CONTACT_JOB_MAX_BYTES);
    return { uploadId: id, ...form, contentType: CSV_TYPE, maxBytes: CONTACT_JOB_MAX_BYTES };
  }

  async function preview(userId: string, input: ImportPreviewRequest): Promise<ImportPreview> {
    const { upload, bytes } = await uploadedBytes(userId, input.uploadId, PREVIEW_BYTES);
    const complete = bytes.length < PREVIEW_BYTES;
    const decoded = decodeFile(bytes, input.encoding, complete);
    if (looksBinary(decoded.text)) throw new ValidationError(contactJobMessages.notCsv, 'uploadId');
    // A cut sample may end mid-row: only whole lines are previewed.
    const text = complete ? decoded.text : decoded.text.slice(0, Math.max(decoded.text.lastIndexOf('\n'), 0));
    const delimiter = input.delimiter ?? detectDelimiter(text);
    const records: CsvRecordAt[] = [];
    for (const record of csvRecords(text, delimiter)) {
      records.push(record);
      if (records.length > CONTACT_JOB_PREVIEW_ROWS) break;
    }
    const [header, ...rows] = records;
    if (!header) throw new ValidationError(contactJobMessages.fileEmpty, 'uploadId');
    if (rows.length === 0) throw new ValidationError(contactJobMessages.noRows, 'uploadId');
    const width = header.fields.length;
    return {
      uploadId: upload.id,
      fileName: upload.fileName,
      size: upload.size,
      delimiter,
      encoding: decoded.encoding,
      bom: decoded.bom,
      header: header.fields.map((h) => h.trim()),
      rows: rows.map((r) => Array.from({ length: width }, (_, i) => r.fields[i] ?? '')),
      suggestedColumns: suggestColumns(header.fields),
    };
  }

  async function createImport(userId: string, input: CreateImportJobRequest): Promise<ContactImportJob> {
    const upload = await jobs.getUpload(userId, input.uploadId);
    if (!upload) throw new ValidationError(contactJobMessages.uploadMissing, 'uploadId');
    const problem = mappingProblem(input.columns);
    if (problem) throw new ValidationError(problem, 'columns');
    const settings = await account.settings(userId);
    const at = nowIso();
    const job: ImportJobRecord = {
      id: newId(now().getTime()),
      kind: 'import',
      status: 'queued',
      uploadId: upload.id,
      fileName: upload.fileName,
      ...(input.delimiter ? { delimiter: input.delimiter } : {}),
      ...(input.encoding ? { encoding: input.encoding } : {}),
      columns: input.columns.map((c) => (c.field === 'custom' ? { field: c.field, name: (c.name ?? '').trim() } : { field: c.field })),
      country: settings.country || deps.defaultCountry,
      language: languageOf(settings.language),
      progress: { rowsDone: 0, created: 0, duplicates: 0, errors: 0 },
      cursor: { offset: 0, line: 1, row: 0 },
      batches: 0,
      createdAt: at,
      updatedAt: at,
    };
    await jobs.createImport(userId, job);
    await queue.enqueue({ userId, jobId: job.id, kind: 'import' });
    return importView(userId, job, false);
  }

  async function undoImport(userId: string, id: string): Promise<ContactImportJob> {
    const job = await loadImport(userId, id);
    if (job.status === 'undoing' || job.status === 'undone') return importView(userId, job, false);
    if (job.status === 'queued' || job.status === 'running') throw new ConflictError(contactJobMessages.stillRunning);
    if (job.status === 'failed' && job.progress.created === 0) throw new ConflictError(contactJobMessages.cannotUndoFailed);
    // Only one caller moves it to undoing (and queues the work); a repeat sees undoing above.
    if (await jobs.updateImport(userId, id, ['done', 'failed'], { status: 'undoing', undone: 0 })) {
      await queue.enqueue({ userId, jobId: id, kind: 'undo' });
    }
    return importView(userId, await loadImport(userId, id), false);
  }

  async function createExport(userId: string, input: CreateExportJobRequest): Promise<ContactExportJob> {
    // Headers, origins and the file's name in the account's language; its dates in its time zone.
    const settings = await account.settings(userId);
    const at = nowIso();
    const job: ExportJobRecord = {
      id: newId(now().getTime()),
      kind: 'export',
      status: 'queued',
      delimiter: input.delimiter,
      search: input.search,
      ...(input.source ? { source: input.source } : {}),
      ...(input.tag ? { tag: input.tag } : {}),
      ...(input.field ? { field: input.field, ...(input.value ? { value: input.value } : {}) } : {}),
      rows: 0,
      language: languageOf(settings.language),
      ...(settings.timeZone ? { timeZone: settings.timeZone } : {}),
      createdAt: at,
      updatedAt: at,
    };
    await jobs.createExport(userId, job);
    await queue.enqueue({ userId, jobId: job.id, kind: 'export' });
    return exportView(job);
  }

  return {
    requestUpload,
    preview,
    createImport,
    async getImport(userId: string, id: string): Promise<ContactImportJob> {
      return importView(userId, await loadImport(userId, id), true);
    },
    async listImports(userId: string, cursor?: string) {
      const page = await jobs.listImports(userId, CONTACT_JOB_PAGE_SIZE, cursor);
      return { items: await Promise.all(page.items.map((j) => importView(userId, j, false))), ...(page.next ? { nextCursor: page.next } : {}) };
    },
    undoImport,
    createExport,
    async getExport(userId: string, id: string): Promise<ContactExportJob> {
      const job = isId(id) ? await jobs.getExport(userId, id) : null;
      if (!job) throw new NotFoundError(contactJobMessages.exportNotFound);
      return exportView(job);
    },
  };
}

export type ContactCsvJobs = ReturnType<typeof contactCsvJobs>;
