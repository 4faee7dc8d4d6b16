/**
 * Contacts import and export as background jobs (issue 19). Browser-safe: no Node imports.
 *
 * Import: 1. POST /api/contacts/import-jobs/uploads {fileName, size} → a presigned form POST (the
 * browser sends `fields` then the file as `file`, multipart/form-data, to `url`) and an `uploadId`;
 * 2. POST /api/contacts/import-jobs/preview {uploadId, delimiter?, encoding?} → detected delimiter
 * and encoding, the header, the first rows and a suggested column mapping; 3. POST
 * /api/contacts/import-jobs {uploadId, columns, delimiter?, encoding?} → 202 with the job, which a
 * worker runs (GET /api/contacts/import-jobs/{id} shows its progress, and when done a link to the
 * error report); POST /api/contacts/import-jobs/{id}/undo deletes the contacts it created.
 * Export: POST /api/contacts/export-jobs {delimiter, search?, source?, tag?, field?, value?} → 202 job; GET /api/contacts/export-jobs/{id}
 * → its status and, when done, a download link (UTF-8 with a BOM, so Excel reads accents).
 *
 * Rows whose phone number a contact already has are skipped as duplicates (as the synchronous
 * import does): an import never changes an existing contact, so undo only removes what it created.
 */
import * as z from 'zod/mini';
import './zod-locale.js';
import { CONTACT_LIMITS, CONTACT_SOURCES, contactFilterParams, valueNeedsField, type ContactSource } from './contacts.js';

/** Largest file an import job takes (S3 refuses a bigger upload). */
export const CONTACT_JOB_MAX_BYTES = 20 * 1024 * 1024;
/** Most data rows (lines after the header) an import job takes; more fail the job with `too_many_rows`. */
export const CONTACT_JOB_MAX_ROWS = 50_000;
/** Rows the preview returns (after the header). */
export const CONTACT_JOB_PREVIEW_ROWS = 5;
/** Jobs per page of GET /api/contacts/import-jobs. */
export const CONTACT_JOB_PAGE_SIZE = 10;

export const CSV_DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];
/** 'utf-8' covers files with and without a BOM; 'windows-1252' is what Excel on Windows saves as "CSV". */
export const CSV_ENCODINGS = ['utf-8', 'windows-1252'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/**
 * What a column of the file becomes: a contact field, a custom field named `name`, or nothing.
 * 'name' is the first name when another column is the 'lastName' (Apellidos), else the whole name.
 */
export const IMPORT_FIELDS = ['name', 'lastName', 'phone', 'email', 'tags', 'notes', 'custom', 'ignore'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const contactJobMessages = {
  importNotFound: 'Import not found',
  exportNotFound: 'Export not found',
  uploadIdInvalid: 'uploadId must be the id returned when the upload was requested',
  uploadMissing: 'The file has not been uploaded yet (or the upload expired): upload it again',
  fileNameRequired: 'File name is required',
  fileNameTooLong: 'File name must be 255 characters or less',
  fileTooLarge: `The file must be ${CONTACT_JOB_MAX_BYTES / (1024 * 1024)} MB or less`,
  fileEmpty: 'The file is empty',
  notCsv: 'The file is not a CSV text file',
  noRows: 'The file has a header but no rows',
  tooManyRows: `An import can have at most ${CONTACT_JOB_MAX_ROWS.toLocaleString('en-US')} rows`,
  delimiterInvalid: 'Delimiter must be one of , ; or tab',
  encodingInvalid: 'Encoding must be utf-8 or windows-1252',
  columnsRequired: 'Map the file’s columns first',
  tooManyColumns: 'The file has at most 200 columns',
  fieldInvalid: 'Each column must be one of name, lastName, phone, email, tags, notes, custom, ignore',
  phoneColumnRequired: 'Choose the column with the phone number',
  fieldTwice: 'Each of name, last name, phone, email, tags and notes can be chosen for one column only',
  customNameRequired: 'Give each custom-field column a name',
  customNameTooLong: `Custom field names must be ${CONTACT_LIMITS.customFieldName} characters or less`,
  customNameTwice: 'Two custom-field columns have the same name',
  columnsMismatch: 'The mapping has more columns than the file',
  noSubscription: 'Contacts can be imported with an active subscription',
  stillRunning: 'The import is still running: undo it once it has finished',
  cannotUndoFailed: 'This import failed before creating contacts: there is nothing to undo',
  importStarted: 'Import started',
  undoStarted: 'Undoing the import',
  exportStarted: 'Export started',
  cursorInvalid: 'cursor must be the nextCursor of the previous page',
  notObject: 'The request body must be a JSON object',
  unknownField: (name: string) => `Unknown field: ${name}`,
  /** The job failed for a reason the user cannot fix (logged on the server). */
  internal: 'The import could not be completed. Please try again.',
  exportInternal: 'The export could not be completed. Please try again.',
} as const;

const strictError = (issue: { code?: string; keys?: string[] }) => {
  if (issue.code === 'unrecognized_keys') return contactJobMessages.unknownField(issue.keys?.[0] ?? '');
  if (issue.code === 'invalid_type') return contactJobMessages.notObject;
  return undefined;
};

/** Server-made upload id: 32 lowercase hex characters (the object key is built from it and the caller's id). */
export const UPLOAD_ID_RE = /^[0-9a-f]{32}$/;
const uploadId = z.string({ error: contactJobMessages.uploadIdInvalid }).check(z.regex(UPLOAD_ID_RE, contactJobMessages.uploadIdInvalid));
const delimiter = z.enum(CSV_DELIMITERS, { error: contactJobMessages.delimiterInvalid });
const encoding = z.enum(CSV_ENCODINGS, { error: contactJobMessages.encodingInvalid });

/** POST /api/contacts/import-jobs/uploads. */
export const importUploadRequest = z.strictObject(
  {
    fileName: z
      .string({ error: contactJobMessages.fileNameRequired })
      .check(z.trim(), z.minLength(1, contactJobMessages.fileNameRequired), z.maxLength(255, contactJobMessages.fileNameTooLong)),
    size: z
      .number({ error: contactJobMessages.fileEmpty })
      .check(z.int(), z.minimum(1, contactJobMessages.fileEmpty), z.maximum(CONTACT_JOB_MAX_BYTES, contactJobMessages.fileTooLarge)),
  },
  { error: strictError },
);
export type ImportUploadRequest = z.output<typeof importUploadRequest>;

/** POST /api/contacts/import-jobs/uploads: data. Send `fields` (in order) then the file as `file`. */
export interface ImportUploadTicket {
  uploadId: string;
  url: string;
  fields: Record<string, string>;
  /** The Content-Type the form carries (also in `fields`). */
  contentType: string;
  maxBytes: number;
  expiresAt: string;
}

/** POST /api/contacts/import-jobs/preview: `delimiter`/`encoding` override the detected ones. */
export const importPreviewRequest = z.strictObject(
  { uploadId, delimiter: z.optional(delimiter), encoding: z.optional(encoding) },
  { error: strictError },
);
export type ImportPreviewRequest = z.output<typeof importPreviewRequest>;

/** One column of the file (by position): what it becomes. `name` only for 'custom'. */
export interface ImportColumnMapping {
  field: ImportField;
  name?: string;
}

/** POST /api/contacts/import-jobs/preview: data. */
export interface ImportPreview {
  uploadId: string;
  fileName: string;
  size: number;
  delimiter: CsvDelimiter;
  encoding: CsvEncoding;
  /** The file starts with a UTF-8 byte order mark. */
  bom: boolean;
  header: string[];
  /** The first CONTACT_JOB_PREVIEW_ROWS rows after the header, as written (one cell per header column). */
  rows: string[][];
  /** One entry per header column, from Spanish and English header synonyms (unknown headers → custom fields). */
  suggestedColumns: ImportColumnMapping[];
}

const mappingEntry = z.strictObject(
  {
    field: z.enum(IMPORT_FIELDS, { error: contactJobMessages.fieldInvalid }),
    name: z.optional(z.string().check(z.trim(), z.maxLength(CONTACT_LIMITS.customFieldName, contactJobMessages.customNameTooLong))),
  },
  { error: strictError },
);

/** The column mapping's rules: one phone column, the other fields once each, custom columns named uniquely. */
export function mappingProblem(columns: readonly ImportColumnMapping[]): string | undefined {
  const counts = new Map<ImportField, number>();
  const customNames = new Set<string>();
  for (const c of columns) {
    counts.set(c.field, (counts.get(c.field) ?? 0) + 1);
    if (c.field === 'custom') {
      const name = (c.name ?? '').trim();
      if (!name) return contactJobMessages.customNameRequired;
      if (customNames.has(name.toLowerCase())) return contactJobMessages.customNameTwice;
      customNames.add(name.toLowerCase());
    }
  }
  if (!counts.get('phone')) return contactJobMessages.phoneColumnRequired;
  if ((['name', 'lastName', 'phone', 'email', 'tags', 'notes'] as const).some((f) => (counts.get(f) ?? 0) > 1)) return contactJobMessages.fieldTwice;
  return undefined;
}

/** POST /api/contacts/import-jobs. `columns`: one entry per column of the file, in order (missing trailing columns are ignored). */
export const createImportJobRequest = z
  .strictObject(
    {
      uploadId,
      columns: z
        .array(mappingEntry, { error: contactJobMessages.columnsRequired })
        .check(z.minLength(1, contactJobMessages.columnsRequired), z.maxLength(200, contactJobMessages.tooManyColumns)),
      delimiter: z.optional(delimiter),
      encoding: z.optional(encoding),
    },
    { error: strictError },
  )
  .check(
    z.superRefine((v, ctx) => {
      const problem = mappingProblem(v.columns);
      if (problem) ctx.issues.push({ code: 'custom', message: problem, input: v.columns, path: ['columns'] });
    }),
  );
export type CreateImportJobInput = z.input<typeof createImportJobRequest>;
export type CreateImportJobRequest = z.output<typeof createImportJobRequest>;

/** GET /api/contacts/import-jobs?cursor= (newest first, CONTACT_JOB_PAGE_SIZE per page). */
export const listImportJobsQuery = z.object({
  cursor: z.optional(z.string().check(z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, contactJobMessages.cursorInvalid))),
});
export type ListImportJobsQuery = z.output<typeof listImportJobsQuery>;

/**
 * queued → running → done | failed; done → undoing → undone. A job that failed part-way keeps
 * the contacts it created (and can be undone).
 */
export const IMPORT_JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'undoing', 'undone'] as const;
export type ImportJobStatus = (typeof IMPORT_JOB_STATUSES)[number];

/** Why a job failed: a code the UI translates, with the English text beside it. */
export const JOB_FAILURE_CODES = ['upload_missing', 'not_csv', 'no_rows', 'too_many_rows', 'no_phone_column', 'no_subscription', 'internal'] as const;
export type JobFailureCode = (typeof JOB_FAILURE_CODES)[number];

export interface JobFailure {
  code: JobFailureCode;
  message: string;
}

/**
 * Why a row was skipped (issue 29: the history says how many and why). A row with several
 * problems counts under the first; the error report gives each row's every reason in words.
 */
export const IMPORT_SKIP_REASONS = ['phone_missing', 'phone_invalid', 'email_invalid', 'too_long', 'duplicate', 'duplicate_in_file', 'plan_limit', 'not_saved'] as const;
export type ImportSkipReason = (typeof IMPORT_SKIP_REASONS)[number];

export interface ImportJobProgress {
  /** Data rows in the file (known once the worker has read it). */
  rowsTotal?: number;
  /** Rows handled so far (created + duplicates + errors). */
  rowsDone: number;
  created: number;
  /** Rows whose phone number a contact (or an earlier row) already has: skipped. */
  duplicates: number;
  errors: number;
}

/** An import job (GET /api/contacts/import-jobs/{id}, the list, and the create/undo answers). */
export interface ContactImportJob {
  _id: string;
  status: ImportJobStatus;
  fileName: string;
  delimiter: CsvDelimiter;
  encoding: CsvEncoding;
  columns: ImportColumnMapping[];
  progress: ImportJobProgress;
  failure?: JobFailure;
  /** Contacts the undo removed so far (status undoing/undone). */
  undone?: number;
  /** When the import is done: the skipped rows (duplicates and errors) per reason; reasons with none are absent. */
  skipped?: Partial<Record<ImportSkipReason, number>>;
  /** True when the job has an error report that can still be downloaded (GET the job for its link). */
  hasErrorReport: boolean;
  /** Rows with errors or duplicates: a CSV (line, the row, the reason in the user's language). GET of one job only, when there is one. */
  errorReportUrl?: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}

/** GET /api/contacts/import-jobs: data, with `nextCursor` beside it when there are older jobs. */
export interface ContactImportJobList {
  success: boolean;
  data: ContactImportJob[];
  nextCursor?: string;
}

/** POST /api/contacts/export-jobs (and GET /api/contacts/export?delimiter=): the list's filters, as GET /api/contacts takes them. */
export const createExportJobRequest = z
  .strictObject(
    {
      delimiter: z._default(delimiter, ','),
      source: z.optional(z.enum(CONTACT_SOURCES)),
      ...contactFilterParams,
    },
    { error: strictError },
  )
  .check(valueNeedsField);
export type CreateExportJobInput = z.input<typeof createExportJobRequest>;
export type CreateExportJobRequest = z.output<typeof createExportJobRequest>;

export const EXPORT_JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportJobStatus = (typeof EXPORT_JOB_STATUSES)[number];

/** An export job (POST /api/contacts/export-jobs, GET /api/contacts/export-jobs/{id}). */
export interface ContactExportJob {
  _id: string;
  status: ExportJobStatus;
  delimiter: CsvDelimiter;
  search: string;
  source?: ContactSource;
  /** The list's tag and custom-field filters the export was asked with (absent: none). */
  tag?: string;
  field?: string;
  value?: string;
  /** Contacts written so far. */
  rows: number;
  failure?: JobFailure;
  /** The file's name in the account's language, dated (contactos-2026-11-28.csv, contacts-2026-11-28.csv). */
  fileName: string;
  /** When done: a link that downloads the file as `fileName` (valid a few minutes; GET the job again for a fresh one). */
  downloadUrl?: string;
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
}
