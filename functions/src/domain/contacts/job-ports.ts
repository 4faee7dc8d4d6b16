/** Ports of the contacts CSV jobs (issue 19): the job records, the files, the queue, the account's settings, bulk contact writes. */
import type {
  CsvDelimiter,
  CsvEncoding,
  ExportJobStatus,
  ImportColumnMapping,
  ImportJobProgress,
  ImportJobStatus,
  ImportSkipReason,
  JobFailure,
} from '../../contract/contact-jobs.js';
import type { ContactSource } from '../../contract/contacts.js';
import type { ContactsJob } from '../../contract/jobs.js';
import type { StoredContact } from './ports.js';

/**
 * Uploads-bucket prefix of every file of these jobs (uploaded files, error reports, exports): all
 * temporary, the bucket's lifecycle deletes them a day after they were written (EXPIRING_UPLOAD_PREFIXES).
 */
export const CONTACT_JOB_FILES_PREFIX = 'contact-jobs/';

/** A requested browser upload (kept a day, like the file under the staging prefix). */
export interface ContactUpload {
  id: string;
  fileName: string;
  size: number;
  createdAt: string;
}

export interface ImportCursor {
  /** Character offset of the next row in the decoded file. */
  offset: number;
  /** Its 1-based line. */
  line: number;
  /** Data rows done before it. */
  row: number;
}

export interface ImportJobRecord {
  id: string;
  kind: 'import';
  status: ImportJobStatus;
  uploadId: string;
  fileName: string;
  delimiter?: CsvDelimiter;
  encoding?: CsvEncoding;
  columns: ImportColumnMapping[];
  /** The file's header (set by the first slice; the error report repeats it). */
  header?: string[];
  /** Read from the account when the job was created: phone numbers without a prefix, the report's language. */
  country: string;
  language: 'en' | 'es';
  progress: ImportJobProgress;
  /** Where the next slice starts (moved with each committed batch). */
  cursor: ImportCursor;
  /** Batches committed (each has a batch item with its created ids and report rows). */
  batches: number;
  failure?: JobFailure;
  undone?: number;
  reportKey?: string;
  /** Skipped rows per reason, counted from the report when the job finishes. */
  skipped?: Partial<Record<ImportSkipReason, number>>;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

export interface ExportJobRecord {
  id: string;
  kind: 'export';
  status: ExportJobStatus;
  delimiter: CsvDelimiter;
  search: string;
  source?: ContactSource;
  /** The list's filters, when set. */
  tag?: string;
  field?: string;
  value?: string;
  rows: number;
  fileKey?: string;
  /** The account's language and time zone when the export was asked for (headers, file name); absent on older jobs: English, UTC. */
  language?: 'en' | 'es';
  timeZone?: string;
  failure?: JobFailure;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

/** A row the report lists: its line, its cells as read and why it was not imported (already in the report's language). */
export interface ReportRow {
  line: number;
  cells: string[];
  reason: string;
  /** The reason as a code (the history's per-reason counts); absent on rows of jobs before issue 29. */
  code?: ImportSkipReason;
}

/** What one committed batch of an import changed. */
export interface ImportBatch {
  cursor: ImportCursor;
  createdIds: string[];
  report: ReportRow[];
  progress: { rowsDone: number; created: number; duplicates: number; errors: number };
  rowsTotal: number;
}

export interface ContactJobStore {
  putUpload(userId: string, upload: ContactUpload): Promise<void>;
  getUpload(userId: string, uploadId: string): Promise<ContactUpload | null>;
  createImport(userId: string, job: ImportJobRecord): Promise<void>;
  createExport(userId: string, job: ExportJobRecord): Promise<void>;
  getImport(userId: string, id: string): Promise<ImportJobRecord | null>;
  getExport(userId: string, id: string): Promise<ExportJobRecord | null>;
  /** Import jobs newest first, `limit` per page, after the job id `cursor`. */
  listImports(userId: string, limit: number, cursor?: string): Promise<{ items: ImportJobRecord[]; next?: string }>;
  /** Sets fields of an import job when its status is one of `from` (false when it is not). */
  updateImport(userId: string, id: string, from: readonly ImportJobStatus[], changes: Partial<ImportJobRecord>): Promise<boolean>;
  updateExport(userId: string, id: string, changes: Partial<ExportJobRecord>): Promise<void>;
  /**
   * Records a batch (its created ids and report rows in a batch item) and moves the job's cursor and
   * counters, only if the cursor is still at `expectedOffset` (a redelivered slice cannot count twice).
   */
  commitBatch(userId: string, id: string, expectedOffset: number, batch: ImportBatch): Promise<boolean>;
  /** Notes the ids a batch is about to create (before writing them), for undo. */
  notePlannedIds(userId: string, id: string, batch: number, ids: readonly string[]): Promise<void>;
  /** The job's batch items in order (committed batches with their report rows, and the planned ids noted before each write). */
  batches(userId: string, id: string): AsyncIterable<{ createdIds: string[]; report: ReportRow[] }>;
  /** Adds to the job's `undone` count. */
  addUndone(userId: string, id: string, count: number): Promise<void>;
}

/** The account settings a job needs (profile). */
export interface JobAccountSettings {
  settings(userId: string): Promise<{ language?: string; country?: string; timeZone?: string }>;
}

/** A browser form upload (S3 POST). */
export interface UploadForm {
  url: string;
  fields: Record<string, string>;
  expiresAt: string;
}

export interface ContactFiles {
  uploadForm(key: string, contentType: string, maxBytes: number): Promise<UploadForm>;
  /** The object's bytes (the first `maxBytes` when given), or null when there is none. */
  read(key: string, maxBytes?: number): Promise<Uint8Array | null>;
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** A link that downloads the object as an attachment named `fileName`. */
  downloadUrl(key: string, fileName: string, contentType: string): Promise<string>;
}

export interface ContactJobQueue {
  enqueue(job: ContactsJob): Promise<void>;
}

/** Many contacts at once (an import and its undo): as the single writes do, in fewer requests. */
export interface ContactBulkWriter {
  /** Writes the new contacts with their phone guards, tokens and counters; ones whose phone another contact has are returned as duplicates. */
  insertMany(userId: string, contacts: readonly StoredContact[]): Promise<{ created: StoredContact[]; duplicates: { contact: StoredContact; existingContactId: string }[] }>;
  /** Deletes these contacts (with their guards, tokens, counters); returns how many were deleted (missing ones are skipped). */
  removeMany(userId: string, contacts: readonly StoredContact[]): Promise<number>;
}
