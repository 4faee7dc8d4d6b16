/** CSV export: every contact matching the filter (name, phone, email, tags, then one column per custom field). */
import type { ExportContactsQuery } from '../../contract/contacts.js';
import type { ContactContext } from './context.js';
import { csvCell, csvDocument } from './csv.js';
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

export function contactCsvExport(ctx: ContactContext) {
  return {
    async exportCsv(userId: string, query: ExportContactsQuery): Promise<string> {
      const contacts: StoredContact[] = [];
      if (query.search) {
        const { ids } = await searchContactIds(ctx.contacts, await ctx.accountCountry(userId), userId, query.search, query.source);
        for (let i = 0; i < ids.length; i += EXPORT_PAGE) contacts.push(...(await contactsInOrder(ctx.contacts, userId, ids.slice(i, i + EXPORT_PAGE))));
      } else {
        for await (const page of ctx.contacts.pages(userId, query.source, EXPORT_PAGE)) contacts.push(...page);
      }
      return contactsCsv(contacts, query.delimiter);
    },
  };
}
