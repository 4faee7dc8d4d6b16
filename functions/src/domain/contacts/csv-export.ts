/**
 * CSV export: every contact the list's filters select (search, source, tag, custom field; the same
 * matching as GET /api/contacts), as name, phone, email, tags, then one column per custom field.
 */
import type { ContactSource, ExportContactsQuery } from '../../contract/contacts.js';
import type { ContactContext } from './context.js';
import { csvCell, csvDocument } from './csv.js';
import { hasContactFilter, matchesFilter, type ContactFilter } from './list-filters.js';
import type { StoredContact } from './ports.js';
import { contactsInOrder, searchContactIds } from './search.js';

/** Rows read per page. */
const EXPORT_PAGE = 500;

/** The export's cells of one contact under these custom-field columns (phone numbers are not formula-escaped: E.164 starts with +). */
export function contactCsvCells(c: StoredContact, customNames: readonly string[]): string[] {
  return [
    csvCell(c.name),
    csvCell(c.phoneNumber, { formulaSafe: false }),
    csvCell(c.email),
    csvCell(c.tags.join('|')),
    ...customNames.map((n) => csvCell(c.customFields[n] ?? '')),
  ];
}

export const contactCsvHeader = (customNames: readonly string[]) => ['name', 'phone', 'email', 'tags', ...customNames].map((h) => csvCell(h));

/**
 * The CSV text of these contacts: a UTF-8 BOM first (issue 19: without it Excel reads "Muñoz" as
 * "MuÃ±oz"), the given delimiter (Spanish Excel expects ';'), CRLF line ends.
 */
export function contactsCsv(contacts: readonly StoredContact[], delimiter = ','): string {
  const customNames = [...new Set(contacts.flatMap((c) => Object.keys(c.customFields)))];
  return csvDocument([contactCsvHeader(customNames), ...contacts.map((c) => contactCsvCells(c, customNames))], delimiter);
}

/** The list's filters without its paging: what an export (direct or as a job) selects. */
export interface ContactExportFilters extends ContactFilter {
  search: string;
  source?: ContactSource;
}

/**
 * The user's contacts the filters select, newest first (search order with a search). Unlike the
 * list's page, tag and field filters scan the whole directory: an export is every match.
 */
export async function contactsToExport(ctx: ContactContext, userId: string, filters: ContactExportFilters): Promise<StoredContact[]> {
  const filter: ContactFilter = { tag: filters.tag, field: filters.field, value: filters.value };
  const keep = hasContactFilter(filter) ? (c: StoredContact) => matchesFilter(c, filter) : () => true;
  const contacts: StoredContact[] = [];
  if (filters.search) {
    const { ids } = await searchContactIds(ctx.contacts, await ctx.accountCountry(userId), userId, filters.search, filters.source);
    for (let i = 0; i < ids.length; i += EXPORT_PAGE) {
      contacts.push(...(await contactsInOrder(ctx.contacts, userId, ids.slice(i, i + EXPORT_PAGE))).filter(keep));
    }
  } else {
    for await (const page of ctx.contacts.pages(userId, filters.source, EXPORT_PAGE)) contacts.push(...page.filter(keep));
  }
  return contacts;
}

export function contactCsvExport(ctx: ContactContext) {
  return {
    async exportCsv(userId: string, query: ExportContactsQuery): Promise<string> {
      return contactsCsv(await contactsToExport(ctx, userId, query), query.delimiter);
    },
  };
}
