/**
 * Contacts import and export as background jobs (issue 19), the worker half (the contacts-jobs
 * queue; the API half is csv-jobs.ts). An import runs in slices — batches of rows checked as the
 * synchronous import checks them, written in bulk, the job's cursor and counters moved with each
 * batch — and queues the next slice before the function's time is up; then writes the error
 * report. Undo deletes what the import created (the batch items list the ids); export writes the
 * contacts the list's filters select to a CSV file (UTF-8 BOM, the chosen delimiter).
 */
import {
  CONTACT_JOB_MAX_ROWS,
  contactJobMessages,
  type CreateImportJobRequest,
  type ImportSkipReason,
  type JobFailure,
  type JobFailureCode,
} from '../../contract/contact-jobs.js';
import { CONTACT_LIMITS } from '../../contract/contacts.js';
import type { ContactsJob } from '../../contract/jobs.js';
import { LimitExceededError, PaymentRequiredError } from '../errors.js';
import type { ContactContext } from './context.js';
import { contactsCsv, contactsToExport } from './csv-export.js';
import { decodeFile, detectDelimiter, looksBinary } from './csv-detect.js';
import { checkImportRow, type ImportColumns } from './csv-import.js';
import { CSV_TYPE, jobFileKey, uploadKey } from './csv-job-files.js';
import { csvCell, csvDocument, csvRecords, type CsvRecordAt } from './csv.js';
import { importReasons, reasonText, skipReasonOf } from './import-report.js';
import type { ContactBulkWriter, ContactFiles, ContactJobQueue, ContactJobStore, ImportCursor, ImportJobRecord, ReportRow } from './job-ports.js';
import type { StoredContact } from './ports.js';
import { buildStoredContact, type ContactDraft } from './records.js';

export interface ContactJobWorkerDeps {
  jobs: ContactJobStore;
  files: ContactFiles;
  queue: ContactJobQueue;
  bulk: ContactBulkWriter;
  /** Milliseconds of import work per invocation before the rest is queued (the function's timeout minus a margin). */
  sliceMs: number;
  /** Rows per committed batch. */
  batchRows?: number;
}

/** Rows of an import's first batch. */
const FIRST_BATCH_ROWS = 20;
/** A report row keeps at most this many characters of the row's cells (the batch item stays small). */
const REPORT_CELLS_MAX = 1000;

/** The mapping as the row checks take it (column indexes by field). */
export function columnsOf(mapping: CreateImportJobRequest['columns']): ImportColumns & { notes?: number } {
  const columns: ImportColumns & { notes?: number } = { custom: [] };
  mapping.forEach((m, index) => {
    if (m.field === 'custom') columns.custom.push({ name: (m.name ?? '').trim(), index });
    else if (m.field !== 'ignore') columns[m.field] = index;
  });
  return columns;
}

class JobFailed extends Error {
  constructor(readonly failure: JobFailure) {
    super(failure.message);
  }
}
const fail = (code: JobFailureCode, message: string) => new JobFailed({ code, message });

export function contactCsvJobWorker(ctx: ContactContext, deps: ContactJobWorkerDeps) {
  const { jobs, files, queue, bulk } = deps;
  const batchRows = deps.batchRows ?? 250;
  const nowIso = () => ctx.now().toISOString();

  /** The whole uploaded file as text, or the job's failure. */
  async function fileText(userId: string, job: ImportJobRecord) {
    const bytes = await files.read(uploadKey(userId, job.uploadId));
    if (!bytes) throw fail('upload_missing', contactJobMessages.uploadMissing);
    if (bytes.length === 0) throw fail('not_csv', contactJobMessages.fileEmpty);
    const decoded = decodeFile(bytes, job.encoding);
    if (looksBinary(decoded.text)) throw fail('not_csv', contactJobMessages.notCsv);
    return { text: decoded.text, encoding: decoded.encoding, delimiter: job.delimiter ?? detectDelimiter(decoded.text) };
  }

  /** Data rows of the file (counted once, on the first slice, so the progress can show a total). */
  function countRows(text: string, delimiter: string, from: ImportCursor): number {
    let n = 0;
    for (const _ of csvRecords(text, delimiter, from)) {
      if (++n > CONTACT_JOB_MAX_ROWS) break;
    }
    return n;
  }

  const reportRow = (line: number, fields: string[], reason: string, code: ImportSkipReason): ReportRow => {
    let budget = REPORT_CELLS_MAX;
    const cells = fields.map((f) => {
      const cell = f.slice(0, Math.max(budget, 0));
      budget -= cell.length;
      return cell;
    });
    return { line, cells, reason, code };
  };

  /** One batch of records: checked, deduplicated (in the batch, and against the directory), written. */
  async function importBatch(userId: string, job: ImportJobRecord, batchIndex: number, records: CsvRecordAt[], seen: Map<string, number>) {
    const columns = columnsOf(job.columns);
    const texts = importReasons(job.language);
    const report: ReportRow[] = [];
    const pending: { record: CsvRecordAt; draft: ContactDraft }[] = [];
    let errors = 0;
    let duplicates = 0;
    const importedAt = nowIso();
    for (const record of records) {
      const { row, draft } = checkImportRow(record, columns, job.country);
      const notes = columns.notes === undefined ? '' : (record.fields[columns.notes] ?? '').trim();
      if (notes.length > CONTACT_LIMITS.notes) row.errors.push(texts.notesTooLong);
      if (!draft || row.errors.length) {
        errors++;
        report.push(reportRow(record.line, record.fields, row.errors.map((e) => reasonText(e, job.language)).join('; '), skipReasonOf(row.errors[0] ?? '')));
        continue;
      }
      const earlier = seen.get(draft.phoneNumber);
      if (earlier !== undefined) {
        duplicates++;
        report.push(reportRow(record.line, record.fields, texts.duplicateLine(earlier), 'duplicate_in_file'));
        continue;
      }
      seen.set(draft.phoneNumber, record.line);
      pending.push({ record, draft: { ...draft, notes, importedAt, importJobId: job.id } });
    }
    // Numbers a contact already has (also one an earlier slice of this file created): skipped.
    const owners = await ctx.contacts.phoneOwners(userId, pending.map((p) => p.draft.phoneNumber));
    const owned = owners.size ? new Map((await ctx.contacts.getMany(userId, [...new Set(owners.values())])).map((c) => [c.id, c])) : new Map<string, StoredContact>();
    const toWrite: typeof pending = [];
    for (const p of pending) {
      const ownerId = owners.get(p.draft.phoneNumber);
      if (!ownerId) toWrite.push(p);
      else {
        duplicates++;
        const owner = owned.get(ownerId);
        report.push(reportRow(p.record.line, p.record.fields, texts.duplicateContact(owner?.name || owner?.phoneNumber || p.draft.phoneNumber), 'duplicate'));
      }
    }
    const outcome = await writeDrafts(userId, job, batchIndex, toWrite);
    const createdIds = outcome.created;
    duplicates += outcome.duplicates;
    errors += outcome.errors;
    report.push(...outcome.report);
    return { createdIds, report, progress: { rowsDone: records.length, created: createdIds.length, duplicates, errors } };
  }

  /** Reserves the plan's room, writes, gives back what was not written; rows past the limit are report rows. */
  async function writeDrafts(userId: string, job: ImportJobRecord, batchIndex: number, rows: { record: CsvRecordAt; draft: ContactDraft }[]) {
    const texts = importReasons(job.language);
    const result = { created: [] as string[], duplicates: 0, errors: 0, report: [] as ReportRow[] };
    if (rows.length === 0) return result;
    let room = rows.length;
    try {
      await ctx.usage.reserve(userId, 'contacts', rows.length);
    } catch (error) {
      if (error instanceof PaymentRequiredError) throw fail('no_subscription', contactJobMessages.noSubscription);
      if (!(error instanceof LimitExceededError)) throw error;
      room = 0;
      for (; room < rows.length; room++) {
        try {
          await ctx.usage.reserve(userId, 'contacts', 1);
        } catch (one) {
          if (one instanceof LimitExceededError) break;
          if (room > 0) await ctx.usage.release(userId, 'contacts', room);
          throw one;
        }
      }
    }
    for (const r of rows.slice(room)) {
      result.errors++;
      result.report.push(reportRow(r.record.line, r.record.fields, texts.planLimit, 'plan_limit'));
    }
    const writable = rows.slice(0, room);
    if (writable.length === 0) return result;
    let first: number;
    try {
      first = await ctx.contacts.allocateSeq(userId, writable.length);
    } catch (error) {
      await ctx.usage.release(userId, 'contacts', writable.length);
      throw error;
    }
    const at = nowIso();
    const stored = writable.map((r, i) => buildStoredContact(r.draft, first + i, at, ctx.randomSuffix()));
    let written;
    try {
      // Ids noted before the write: an undo finds them even if this run stops before its batch is committed.
      await jobs.notePlannedIds(userId, job.id, batchIndex, stored.map((c) => c.id));
      written = await bulk.insertMany(userId, stored);
    } catch (error) {
      await ctx.usage.release(userId, 'contacts', writable.length);
      throw error;
    }
    if (written.duplicates.length) await ctx.usage.release(userId, 'contacts', written.duplicates.length);
    result.created = written.created.map((c) => c.id);
    const recordOf = new Map(stored.map((c, i) => [c, writable[i]!.record]));
    for (const d of written.duplicates) {
      result.duplicates++;
      const record = recordOf.get(d.contact)!;
      result.report.push(reportRow(record.line, record.fields, texts.duplicateContact(d.contact.phoneNumber), 'duplicate'));
    }
    return result;
  }

  /** One slice of an import: batches until the time is up, then the rest is queued; the end writes the report. */
  async function runImport(message: ContactsJob, startedAt: number): Promise<void> {
    const { userId, jobId } = message;
    let job = await jobs.getImport(userId, jobId);
    if (!job || (job.status !== 'queued' && job.status !== 'running')) return;
    if (job.status === 'queued') {
      await jobs.updateImport(userId, jobId, ['queued'], { status: 'running' });
      job = { ...job, status: 'running' };
    }
    try {
      const file = await fileText(userId, job);
      const columns = columnsOf(job.columns);
      let cursor = job.cursor;
      let rowsTotal = job.progress.rowsTotal;
      if (cursor.offset === 0) {
        // The header is skipped, and the file's shape checked, on the first slice only.
        const header = csvRecords(file.text, file.delimiter).next();
        if (header.done) throw fail('not_csv', contactJobMessages.fileEmpty);
        if ((columns.phone ?? Infinity) >= header.value.fields.length) throw fail('no_phone_column', contactJobMessages.phoneColumnRequired);
        cursor = { ...header.value.next, row: 0 };
        rowsTotal = countRows(file.text, file.delimiter, cursor);
        if (rowsTotal === 0) throw fail('no_rows', contactJobMessages.noRows);
        if (rowsTotal > CONTACT_JOB_MAX_ROWS) throw fail('too_many_rows', contactJobMessages.tooManyRows);
        job.header = header.value.fields.map((h) => h.trim());
        await jobs.updateImport(userId, jobId, ['running'], {
          header: job.header,
          delimiter: file.delimiter,
          encoding: file.encoding,
          cursor,
          progress: { ...job.progress, rowsTotal },
        });
      }
      // Phones of this slice's earlier rows; rows of earlier slices are found through the directory.
      const seen = new Map<string, number>();
      let batches = job.batches;
      const records = csvRecords(file.text, file.delimiter, cursor);
      for (;;) {
        const batch: CsvRecordAt[] = [];
        // A small first batch: the page shows progress within moments of the upload.
        const size = batches === 0 ? Math.min(FIRST_BATCH_ROWS, batchRows) : batchRows;
        while (batch.length < size) {
          const r = records.next();
          if (r.done) break;
          batch.push(r.value);
        }
        if (batch.length === 0) break;
        const result = await importBatch(userId, job, batches, batch, seen);
        const last = batch[batch.length - 1]!;
        cursor = { ...last.next, row: cursor.row + batch.length };
        const committed = await jobs.commitBatch(userId, jobId, batches, { cursor, rowsTotal: rowsTotal ?? 0, ...result });
        // Another delivery moved the job on (a redelivered message): leave it to that one.
        if (!committed) return;
        batches++;
        if (Date.now() - startedAt > deps.sliceMs) {
          await queue.enqueue({ userId, jobId, kind: 'import', cursor });
          return;
        }
      }
      await finishImport(userId, jobId);
    } catch (error) {
      const failure = error instanceof JobFailed ? error.failure : { code: 'internal' as const, message: contactJobMessages.internal };
      if (!(error instanceof JobFailed)) ctx.onError('contact import job failed', error);
      await jobs.updateImport(userId, jobId, ['queued', 'running'], { status: 'failed', failure, finishedAt: nowIso() });
      if (!(error instanceof JobFailed)) throw error;
    }
  }

  /** The error report (rows with errors and duplicates, in the user's language), then done. */
  async function finishImport(userId: string, jobId: string): Promise<void> {
    const job = await jobs.getImport(userId, jobId);
    if (!job || job.status !== 'running') return;
    const texts = importReasons(job.language);
    // Line, the file's own columns, then the reason: the owner can fix the rows and import the report's middle again.
    const width = job.header?.length ?? 0;
    const rows: string[][] = [];
    const skipped: Partial<Record<ImportSkipReason, number>> = {};
    for await (const batch of jobs.batches(userId, jobId)) {
      for (const r of batch.report) {
        // A report row written before issue 29 has no code: a duplicate's reason names a contact or a line, else it was an error.
        const code = r.code ?? 'not_saved';
        skipped[code] = (skipped[code] ?? 0) + 1;
        const cells = Array.from({ length: Math.max(width, r.cells.length) }, (_, i) => csvCell(r.cells[i] ?? ''));
        rows.push([csvCell(String(r.line)), ...cells, csvCell(r.reason)]);
      }
    }
    let reportKey: string | undefined;
    if (rows.length > 0) {
      reportKey = jobFileKey(userId, jobId, 'errors.csv');
      const header = [texts.header.line, ...(job.header ?? []), texts.header.reason].map((h) => csvCell(h));
      await files.put(reportKey, new TextEncoder().encode(csvDocument([header, ...rows], job.delimiter ?? ',')), `${CSV_TYPE}; charset=utf-8`);
    }
    await jobs.updateImport(userId, jobId, ['running'], { status: 'done', finishedAt: nowIso(), skipped, ...(reportKey ? { reportKey } : {}) });
  }

  async function runUndo(message: ContactsJob, startedAt: number): Promise<void> {
    const { userId, jobId } = message;
    const job = await jobs.getImport(userId, jobId);
    if (!job || job.status !== 'undoing') return;
    for await (const batch of jobs.batches(userId, jobId)) {
      const contacts = (await ctx.contacts.getMany(userId, batch.createdIds)).filter((c) => c.importJobId === jobId);
      if (contacts.length === 0) continue;
      const removed = await bulk.removeMany(userId, contacts);
      if (removed > 0) {
        await ctx.usage.release(userId, 'contacts', removed);
        await jobs.addUndone(userId, jobId, removed);
      }
      if (Date.now() - startedAt > deps.sliceMs) {
        // Batches already undone find no contacts of the job: the next run skips through them.
        await queue.enqueue({ userId, jobId, kind: 'undo' });
        return;
      }
    }
    await jobs.updateImport(userId, jobId, ['undoing'], { status: 'undone', finishedAt: nowIso() });
  }

  async function runExport(message: ContactsJob): Promise<void> {
    const { userId, jobId } = message;
    const job = await jobs.getExport(userId, jobId);
    if (!job || job.status === 'done' || job.status === 'failed') return;
    await jobs.updateExport(userId, jobId, { status: 'running' });
    try {
      const contacts = await contactsToExport(ctx, userId, {
        search: job.search,
        source: job.source,
        tag: job.tag ?? '',
        field: job.field ?? '',
        value: job.value ?? '',
      });
      const fileKey = jobFileKey(userId, jobId, 'contacts.csv');
      await files.put(fileKey, new TextEncoder().encode(contactsCsv(contacts, job.delimiter, job.language ?? 'en', job.timeZone)), `${CSV_TYPE}; charset=utf-8`);
      await jobs.updateExport(userId, jobId, { status: 'done', rows: contacts.length, fileKey, finishedAt: nowIso() });
    } catch (error) {
      ctx.onError('contact export job failed', error);
      await jobs.updateExport(userId, jobId, { status: 'failed', failure: { code: 'internal', message: contactJobMessages.exportInternal }, finishedAt: nowIso() });
      throw error;
    }
  }

  return {
    /** One queue message. `startedAt`: when the invocation began (Date.now()). */
    async run(message: ContactsJob, startedAt = Date.now()): Promise<void> {
      if (message.kind === 'import') return runImport(message, startedAt);
      if (message.kind === 'undo') return runUndo(message, startedAt);
      return runExport(message);
    },
  };
}

export type ContactCsvJobWorker = ReturnType<typeof contactCsvJobWorker>;
