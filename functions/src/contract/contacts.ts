/**
 * Contacts contract (SPEC §2 Contacts + Contact detail, §3 Contact/Contact stats/Pagination,
 * §5 new contact + contact edit, §7 Contacts, §9). Used by the handlers (validation), the
 * frontend (types, form validation) and the tests. Browser-safe: no Node imports.
 *
 * The schemas check the shape and the spec's rules that need no phone metadata; the server
 * additionally normalises phone numbers to E.164 (a number without a country prefix gets the
 * configured default country) and answers 'Please enter a valid phone number' when that fails.
 */
import * as z from 'zod/mini';
import './zod-locale.js';
import { looksLikePhone } from './phone.js';
import type { OptOutState } from './privacy.js';

export const CONTACT_SOURCES = ['manual', 'whatsapp_import', 'api'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

/**
 * Where a contact came from, in the owner's words (issue 29): derived when a contact is read, so
 * contacts stored before it say it too. A CSV import and a call's "save as contact" are stored as
 * source 'manual' (the list's source filter and counters keep their three sources).
 */
export const CONTACT_ORIGINS = ['manual', 'csv', 'whatsapp', 'call', 'api'] as const;
export type ContactOrigin = (typeof CONTACT_ORIGINS)[number];

/** Page size choices (SPEC §9). */
export const CONTACT_PAGE_SIZES = [5, 10, 25, 50] as const;
export type ContactPageSize = (typeof CONTACT_PAGE_SIZES)[number];
export const DEFAULT_CONTACT_PAGE_SIZE = 10;

/** A search looks at this many matching contacts at most (newest first); see `searchTruncated`. */
export const CONTACT_SEARCH_MAX_MATCHES = 1000;

/** CSV import bounds: more rows or bytes than this answer 400. */
export const CONTACT_IMPORT_MAX_ROWS = 5000;
export const CONTACT_IMPORT_MAX_BYTES = 2 * 1024 * 1024;

/** Bounds the spec does not show (SPEC §5: "no other bound shown"); chosen to keep items small. */
export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  notes: 2000,
  tags: 50,
  tag: 50,
  customFields: 50,
  customFieldName: 50,
  customFieldValue: 500,
  search: 100,
} as const;

export interface ContactMetadata {
  notes: string;
  tags: string[];
  /** ISO time the contact was created by a CSV import. */
  importedAt?: string;
  /** The import job that created the contact (issue 19): undoing that import deletes it. */
  importJobId?: string;
  clientId?: string;
}

export interface Contact {
  _id: string;
  /** The whole name as shown and searched: first name and last name joined (issue 29). */
  name: string;
  /** A contact stored before issue 29 (one `name`) reads as that name with no last name. */
  firstName: string;
  /** Surname(s) ("López García"); '' when none. */
  lastName: string;
  /** First word of the name for manual contacts; the WhatsApp short name for imported ones. */
  shortName: string;
  /** E.164 (+14155550123), or '' when the contact has no number. */
  phoneNumber: string;
  email: string;
  customFields: Record<string, string>;
  source: ContactSource;
  /** `source` in the owner's words (see CONTACT_ORIGINS). */
  origin: ContactOrigin;
  isWAContact: boolean;
  metadata: ContactMetadata;
  createdAt: string;
  updatedAt: string;
  /**
   * Issue 33: the customer asked for no reminders, confirmations or templates (a stop word such as
   * BAJA, or the owner marked it); null = they receive them. On the list and the detail.
   */
  optOut?: OptOutState | null;
}

export interface ContactPagination {
  currentPage: number;
  totalPages: number;
  limit: number;
  totalContacts: number;
  hasPrevPage: boolean;
  hasNextPage: boolean;
}

/** GET /api/contacts: `pagination` (and `searchTruncated` when a search hit the match cap) sit beside `data`. */
export interface ContactListResponse {
  success: boolean;
  data: Contact[];
  pagination: ContactPagination;
  /** Present and true when a search matched more than CONTACT_SEARCH_MAX_MATCHES contacts: only the newest are listed. */
  searchTruncated?: boolean;
  /** Present and true when a tag or custom-field filter looked at only the newest CONTACT_FILTER_MAX_SCANNED contacts. */
  filterTruncated?: boolean;
}

export interface ContactStats {
  total: number;
  withPhone: number;
  /** Contacts with isWAContact. */
  waContacts: number;
  /** Contacts with source 'manual'. */
  myContacts: number;
}

/** 409 body of a duplicate phone number. */
export interface DuplicateContactError {
  success: false;
  message: string;
  existingContactId: string;
}

export type ContactImportRowStatus = 'new' | 'duplicate' | 'error';

export interface ContactImportRow {
  /** 1-based line of the CSV file (the header is line 1). */
  line: number;
  name: string;
  /** E.164 when it could be normalised, else the text as written. */
  phoneNumber: string;
  email: string;
  tags: string[];
  customFields: Record<string, string>;
  status: ContactImportRowStatus;
  /** Why the row is an error (or which contact/line it duplicates). */
  errors: string[];
  existingContactId?: string;
}

export interface ContactImportSummary {
  total: number;
  new: number;
  duplicates: number;
  errors: number;
}

/** POST /api/contacts/import/preview: data. */
export interface ContactImportPreview {
  rows: ContactImportRow[];
  summary: ContactImportSummary;
}

/** POST /api/contacts/import: data. Rows refused at write time (e.g. the plan limit) become 'error'. */
export interface ContactImportResult {
  created: number;
  duplicates: number;
  errors: number;
  rows: ContactImportRow[];
}

export const contactMessages = {
  phoneRequired: 'Phone number is required',
  phoneInvalid: 'Please enter a valid phone number',
  emailInvalid: 'Invalid email address',
  limitInvalid: 'Limit must be one of 5, 10, 25, 50',
  pageInvalid: 'Page must be a positive whole number',
  sourceInvalid: 'Source must be one of manual, whatsapp_import, api',
  notFound: 'Contact not found',
  added: 'Contact added successfully',
  updated: 'Contact updated successfully',
  deleted: 'Contact deleted successfully',
  /** 409; `{label}` is the existing contact's name, or its phone number when it has no name. */
  duplicate: (label: string) => `A contact with this phone number already exists: ${label}`,
  nameTooLong: `Name must be ${CONTACT_LIMITS.name} characters or less`,
  emailTooLong: `Email must be ${CONTACT_LIMITS.email} characters or less`,
  notesTooLong: `Notes must be ${CONTACT_LIMITS.notes} characters or less`,
  tooManyTags: `A contact can have at most ${CONTACT_LIMITS.tags} tags`,
  tagTooLong: `Tags must be ${CONTACT_LIMITS.tag} characters or less`,
  tooManyCustomFields: `A contact can have at most ${CONTACT_LIMITS.customFields} custom fields`,
  customFieldNameTooLong: `Custom field names must be ${CONTACT_LIMITS.customFieldName} characters or less`,
  customFieldValueTooLong: `Custom field values must be ${CONTACT_LIMITS.customFieldValue} characters or less`,
  customFieldsInvalid: 'Custom fields must be a list of {name, value} or an object of text values',
  searchTooLong: `Search must be ${CONTACT_LIMITS.search} characters or less`,
  valueWithoutField: 'Choose a custom field to filter by its value',
  csvRequired: 'CSV file is required',
  csvTooLarge: 'CSV file must be 2 MB or less',
  csvTooManyRows: `A CSV import can have at most ${CONTACT_IMPORT_MAX_ROWS} rows`,
  csvNoPhoneColumn: 'The CSV header must have a phone (or phoneNumber) column',
} as const;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// The shape of a typed phone number lives in phone.ts (zod-free: the integrations' forms use it too).
export { PHONE_INPUT_RE, looksLikePhone } from './phone.js';

/** Trimmed; '' allowed (no name). Also each of first name and last name. */
export const contactName = z
  .string()
  .check(z.trim(), z.maxLength(CONTACT_LIMITS.name, contactMessages.nameTooLong));

/** The whole name of a first name and a last name (either may be ''). */
export const joinName = (firstName: string, lastName: string) => [firstName.trim(), lastName.trim()].filter(Boolean).join(' ');

/**
 * A request's name as parts: `firstName`/`lastName` when either is sent, else the one `name` of
 * older clients as the first name. Undefined when the request sends none of them (an edit keeps the name).
 */
export function nameParts(input: { name?: string; firstName?: string; lastName?: string }): { firstName: string; lastName: string; name: string } | undefined {
  if (input.firstName !== undefined || input.lastName !== undefined) {
    const firstName = input.firstName ?? '';
    const lastName = input.lastName ?? '';
    return { firstName, lastName, name: joinName(firstName, lastName) };
  }
  if (input.name !== undefined) return { firstName: input.name, lastName: '', name: input.name };
  return undefined;
}

/** Required, trimmed, plausibly a phone number (the server also checks it against the numbering plan). */
export const contactPhone = z
  .string({ error: contactMessages.phoneRequired })
  .check(
    z.trim(),
    z.minLength(1, contactMessages.phoneRequired),
    z.refine(looksLikePhone, contactMessages.phoneInvalid),
  );

/** Optional; '' means none. */
export const contactEmail = z
  .string({ error: contactMessages.emailInvalid })
  .check(
    z.trim(),
    z.maxLength(CONTACT_LIMITS.email, contactMessages.emailTooLong),
    z.refine((v) => v === '' || EMAIL_RE.test(v), contactMessages.emailInvalid),
  );

/**
 * Custom fields as the form sends them ({name, value}[]) or as stored (an object). A field
 * counts only when name and value are non-empty after trimming; a repeated name keeps the
 * last value (SPEC §5).
 */
export function normaliseCustomFields(
  input: Record<string, unknown> | { name?: unknown; value?: unknown }[] | undefined | null,
): Record<string, string> {
  const entries: [unknown, unknown][] = Array.isArray(input)
    ? input.map((f) => [f?.name, f?.value])
    : Object.entries(input ?? {});
  const out = new Map<string, string>();
  for (const [rawName, rawValue] of entries) {
    const name = typeof rawName === 'string' ? rawName.trim() : '';
    const value = typeof rawValue === 'string' ? rawValue.trim() : typeof rawValue === 'number' ? String(rawValue) : '';
    if (!name || !value) continue;
    out.delete(name); // the last occurrence wins and takes the last position
    out.set(name, value);
  }
  return Object.fromEntries(out);
}

const customFieldsInput = z.union(
  [
    z.array(z.object({ name: z.optional(z.nullable(z.string())), value: z.optional(z.nullable(z.string())) })),
    z.record(z.string(), z.nullable(z.union([z.string(), z.number()]))),
  ],
  { error: contactMessages.customFieldsInvalid },
);

export const contactCustomFields = z.pipe(
  z.pipe(
    customFieldsInput,
    z.transform((v) => normaliseCustomFields(v as Parameters<typeof normaliseCustomFields>[0])),
  ),
  z.record(z.string(), z.string()).check(
    z.refine((o) => Object.keys(o).length <= CONTACT_LIMITS.customFields, contactMessages.tooManyCustomFields),
    z.refine(
      (o) => Object.keys(o).every((k) => k.length <= CONTACT_LIMITS.customFieldName),
      contactMessages.customFieldNameTooLong,
    ),
    z.refine(
      (o) => Object.values(o).every((v) => v.length <= CONTACT_LIMITS.customFieldValue),
      contactMessages.customFieldValueTooLong,
    ),
  ),
);

/** Tags trimmed, empty ones dropped, duplicates dropped case-insensitively (the first spelling is kept). */
export function normaliseTags(tags: readonly unknown[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = typeof raw === 'string' ? raw.trim() : '';
    const key = tag.toLocaleLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

export const contactTags = z.pipe(
  z.pipe(z.array(z.nullable(z.string())), z.transform((v) => normaliseTags(v))),
  z.array(z.string()).check(
    z.maxLength(CONTACT_LIMITS.tags, contactMessages.tooManyTags),
    z.refine((tags) => tags.every((t) => t.length <= CONTACT_LIMITS.tag), contactMessages.tagTooLong),
  ),
);

export const contactNotes = z
  .string()
  .check(z.trim(), z.maxLength(CONTACT_LIMITS.notes, contactMessages.notesTooLong));

/** POST /api/contacts. */
export const createContactRequest = z.object({
  name: z._default(contactName, ''),
  /** With `lastName`, the name in parts (the whole `name` is then their join). */
  firstName: z.optional(contactName),
  lastName: z.optional(contactName),
  phoneNumber: contactPhone,
  email: z._default(contactEmail, ''),
  customFields: z._default(contactCustomFields, {}),
});
export type CreateContactInput = z.input<typeof createContactRequest>;
export type CreateContactRequest = z.output<typeof createContactRequest>;

/**
 * PUT /api/contacts/{id}. The edit screen sends every field; a field left out keeps its value.
 * `customFields` and `metadata.tags` replace the stored ones when sent.
 */
export const updateContactRequest = z.object({
  name: z.optional(contactName),
  firstName: z.optional(contactName),
  lastName: z.optional(contactName),
  phoneNumber: contactPhone,
  email: z.optional(contactEmail),
  customFields: z.optional(contactCustomFields),
  metadata: z.optional(
    z.object({
      notes: z.optional(contactNotes),
      tags: z.optional(contactTags),
    }),
  ),
});
export type UpdateContactInput = z.input<typeof updateContactRequest>;
export type UpdateContactRequest = z.output<typeof updateContactRequest>;

const pageParam = z.pipe(
  z._default(z.string().check(z.trim(), z.regex(/^0*[1-9]\d{0,8}$/, contactMessages.pageInvalid)), '1'),
  z.transform((v) => Number(v)),
);
const limitParam = z.pipe(
  z._default(
    z.string().check(
      z.trim(),
      z.refine((v) => (CONTACT_PAGE_SIZES as readonly number[]).includes(Number(v)) && /^\d+$/.test(v), contactMessages.limitInvalid),
    ),
    String(DEFAULT_CONTACT_PAGE_SIZE),
  ),
  z.transform((v) => Number(v) as ContactPageSize),
);
const searchParam = z._default(
  z.string().check(z.trim(), z.maxLength(CONTACT_LIMITS.search, contactMessages.searchTooLong)),
  '',
);
/** '' (or absent) means every source. */
const sourceParam = z.pipe(
  z._default(
    z.string().check(
      z.trim(),
      z.refine((v) => v === '' || (CONTACT_SOURCES as readonly string[]).includes(v), contactMessages.sourceInvalid),
    ),
    '',
  ),
  z.transform((v) => (v === '' ? undefined : (v as ContactSource))),
);

/** Filter params: trimmed, '' (or absent) means no filter. */
const tagParam = z._default(z.string().check(z.trim(), z.maxLength(CONTACT_LIMITS.tag, contactMessages.tagTooLong)), '');
const fieldParam = z._default(z.string().check(z.trim(), z.maxLength(CONTACT_LIMITS.customFieldName, contactMessages.customFieldNameTooLong)), '');
const valueParam = z._default(z.string().check(z.trim(), z.maxLength(CONTACT_LIMITS.customFieldValue, contactMessages.customFieldValueTooLong)), '');

/** The list's filters besides source (GET /api/contacts), also what an export selects (GET /api/contacts/export, POST /api/contacts/export-jobs). */
export const contactFilterParams = { search: searchParam, tag: tagParam, field: fieldParam, value: valueParam };
/** A `value` without a `field` is a 400. */
export const valueNeedsField = z.refine<{ field: string; value: string }>((q) => q.value === '' || q.field !== '', {
  message: contactMessages.valueWithoutField,
  path: ['value'],
});

/**
 * GET /api/contacts query string. `tag` keeps contacts carrying that tag; `field` those having
 * that custom field, and with `value` only where it has that value (all case- and
 * accent-insensitive, whole text). A `value` without a `field` is a 400.
 */
export const listContactsQuery = z
  .object({ page: pageParam, limit: limitParam, search: searchParam, source: sourceParam, tag: tagParam, field: fieldParam, value: valueParam })
  .check(valueNeedsField);
export type ListContactsQuery = z.output<typeof listContactsQuery>;

/** ',' (default) or ';' (Spanish Excel); a tab as %09. */
const delimiterParam = z._default(z.enum([',', ';', '\t'], { error: 'Delimiter must be one of , ; or tab' }), ',');
/** GET /api/contacts/export query string: the list's filters (every matching row; no paging). */
export const exportContactsQuery = z.object({ source: sourceParam, ...contactFilterParams, delimiter: delimiterParam }).check(valueNeedsField);
export type ExportContactsQuery = z.output<typeof exportContactsQuery>;

/** POST /api/contacts/import/preview and /api/contacts/import. */
export const importContactsRequest = z.object({
  csv: z
    .string({ error: contactMessages.csvRequired })
    .check(
      z.refine((v) => v.trim().length > 0, contactMessages.csvRequired),
      z.refine((v) => new TextEncoder().encode(v).length <= CONTACT_IMPORT_MAX_BYTES, contactMessages.csvTooLarge),
    ),
});
export type ImportContactsRequest = z.output<typeof importContactsRequest>;

/** Columns of the CSV export (and the recognised import columns); any other import column is a custom field. */
export const CONTACT_CSV_COLUMNS = ['firstName', 'lastName', 'phone', 'email', 'tags', 'notes', 'origin', 'createdAt'] as const;
