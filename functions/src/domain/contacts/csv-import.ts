/**
 * CSV import: the header's column roles, each row checked as the API would check it, duplicates
 * inside the file and against the directory (the preview), then the new rows created through
 * the one create path (the run).
 */
import {
  CONTACT_IMPORT_MAX_ROWS,
  contactMessages,
  createContactRequest,
  joinName,
  nameParts,
  normaliseTags,
  type ContactImportPreview,
  type ContactImportResult,
  type ContactImportRow,
} from '../../contract/contacts.js';
import { ValidationError } from '../errors.js';
import type { ContactContext } from './context.js';
import { createContacts } from './create-path.js';
import { parseCsv } from './csv.js';
import { fieldOfHeader, isIgnoredHeader } from './csv-detect.js';
import type { ContactDraft } from './records.js';
import { toE164 } from './text.js';

export interface ImportColumns {
  /** The whole name, or the first name when `lastName` is a column too. */
  name?: number;
  lastName?: number;
  phone?: number;
  email?: number;
  tags?: number;
  custom: { name: string; index: number }[];
}

/**
 * Header → column roles, with the import jobs' Spanish and English synonyms (issue 29: "Apellidos"
 * or "Last name" is the last name, so an export imports back): name, last name, phone, email,
 * tags; our export's origin and created columns are left out; any other named column (notes too)
 * is a custom field.
 */
export function importColumns(header: string[]): ImportColumns {
  const columns: ImportColumns = { custom: [] };
  header.forEach((raw, index) => {
    const title = raw.trim();
    if (isIgnoredHeader(title)) return;
    const field = fieldOfHeader(title);
    const role = field === 'notes' ? undefined : field;
    if (role && columns[role] === undefined) columns[role] = index;
    else if (title) columns.custom.push({ name: title, index });
  });
  if (columns.phone === undefined) throw new ValidationError(contactMessages.csvNoPhoneColumn, 'csv');
  return columns;
}

/** A checked row, and the draft to create when it is new and valid. */
export interface CheckedRow {
  row: ContactImportRow;
  draft?: ContactDraft;
}

/** Tags of one cell: several split on ',', ';' or '|' ("vip, dental" or "vip;dental"). */
export const splitTags = (cell: string) => normaliseTags(cell.split(/[,;|]/));

/** One CSV record checked with the API's rules: the first failing rule of each field, the phone in E.164, tags split on , ; or |. */
export function checkImportRow(record: { line: number; fields: string[] }, columns: ImportColumns, defaultCountry: string): CheckedRow {
  const cell = (i: number | undefined) => (i === undefined ? '' : (record.fields[i] ?? '').trim());
  const rawPhone = cell(columns.phone);
  const customFields = Object.fromEntries(
    columns.custom.map(({ name, index }) => [name, cell(index)] as const).filter(([, v]) => v !== ''),
  );
  const names = columns.lastName === undefined ? { name: cell(columns.name) } : { firstName: cell(columns.name), lastName: cell(columns.lastName) };
  const parsed = createContactRequest.safeParse({ ...names, phoneNumber: rawPhone, email: cell(columns.email), customFields });
  const firstByField = new Map<string, string>();
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = String(issue.path[0]);
    if (!firstByField.has(field)) firstByField.set(field, issue.message);
  }
  const errors = [...new Set(firstByField.values())];
  const e164 = rawPhone ? toE164(rawPhone, defaultCountry) : null;
  if (rawPhone && !e164 && !errors.includes(contactMessages.phoneInvalid)) errors.push(contactMessages.phoneInvalid);
  const tags = splitTags(cell(columns.tags));
  if (tags.length > 50) errors.push(contactMessages.tooManyTags);
  if (tags.some((t) => t.length > 50)) errors.push(contactMessages.tagTooLong);
  const data = parsed.success ? parsed.data : undefined;
  const parts = data ? nameParts(data) : undefined;
  const row: ContactImportRow = {
    line: record.line,
    name: parts?.name ?? joinName(cell(columns.name), cell(columns.lastName)),
    phoneNumber: e164 ?? rawPhone,
    email: data?.email ?? cell(columns.email),
    tags,
    customFields: data?.customFields ?? customFields,
    status: errors.length ? 'error' : 'new',
    errors,
  };
  if (errors.length || !data || !e164 || !parts) return { row };
  return {
    row,
    draft: {
      ...(columns.lastName === undefined ? { name: parts.name } : parts),
      phoneNumber: e164,
      email: data.email,
      customFields: data.customFields,
      tags,
      notes: '',
      source: 'manual',
      isWAContact: false,
    },
  };
}

/** A later row with a phone number an earlier row has becomes a duplicate of that line; returns the first line of each phone. */
export function markDuplicatesInFile(checked: CheckedRow[]): Map<string, number> {
  const firstLineByPhone = new Map<string, number>();
  for (const entry of checked) {
    if (!entry.draft) continue;
    const seen = firstLineByPhone.get(entry.draft.phoneNumber);
    if (seen !== undefined) {
      entry.row.status = 'duplicate';
      entry.row.errors = [`Same phone number as line ${seen}`];
      entry.draft = undefined;
    } else firstLineByPhone.set(entry.draft.phoneNumber, entry.row.line);
  }
  return firstLineByPhone;
}

const markDuplicate = (row: ContactImportRow, existingContactId: string, label: string) => {
  row.status = 'duplicate';
  row.existingContactId = existingContactId;
  row.errors = [contactMessages.duplicate(label)];
};

export const summariseImport = (rows: ContactImportRow[]) => ({
  total: rows.length,
  new: rows.filter((r) => r.status === 'new').length,
  duplicates: rows.filter((r) => r.status === 'duplicate').length,
  errors: rows.filter((r) => r.status === 'error').length,
});

export function contactCsvImport(ctx: ContactContext) {
  /** Parses and checks an import: per-row errors, duplicates inside the file and against existing contacts. */
  async function analyse(userId: string, csv: string): Promise<CheckedRow[]> {
    const records = parseCsv(csv);
    const header = records.shift();
    if (!header) throw new ValidationError(contactMessages.csvRequired, 'csv');
    if (records.length > CONTACT_IMPORT_MAX_ROWS) throw new ValidationError(contactMessages.csvTooManyRows, 'csv');
    const columns = importColumns(header.fields);
    const country = await ctx.accountCountry(userId);
    const checked = records.map((r) => checkImportRow(r, columns, country));
    const firstLineByPhone = markDuplicatesInFile(checked);
    const owners = await ctx.contacts.phoneOwners(userId, [...firstLineByPhone.keys()]);
    if (owners.size > 0) {
      const existing = new Map((await ctx.contacts.getMany(userId, [...new Set(owners.values())])).map((c) => [c.id, c]));
      for (const entry of checked) {
        const owner = entry.draft && owners.get(entry.draft.phoneNumber);
        if (!owner || !entry.draft) continue;
        markDuplicate(entry.row, owner, existing.get(owner)?.name || entry.draft.phoneNumber);
        entry.draft = undefined;
      }
    }
    return checked;
  }

  return {
    async previewImport(userId: string, csv: string): Promise<ContactImportPreview> {
      const rows = (await analyse(userId, csv)).map((c) => c.row);
      return { rows, summary: summariseImport(rows) };
    },

    async runImport(userId: string, csv: string): Promise<ContactImportResult> {
      const checked = await analyse(userId, csv);
      const importedAt = ctx.now().toISOString();
      const pending = checked.filter((c) => c.draft);
      const outcomes = await createContacts(
        ctx,
        userId,
        pending.map((c) => ({ ...c.draft!, importedAt })),
        false,
      );
      pending.forEach((entry, i) => {
        const outcome = outcomes[i]!;
        if (outcome.kind === 'duplicate') markDuplicate(entry.row, outcome.existingContactId, entry.draft!.phoneNumber);
        else if (outcome.kind === 'error') {
          entry.row.status = 'error';
          entry.row.errors = [outcome.message];
        }
      });
      const rows = checked.map((c) => c.row);
      const summary = summariseImport(rows);
      return { created: summary.new, duplicates: summary.duplicates, errors: summary.errors, rows };
    },
  };
}
