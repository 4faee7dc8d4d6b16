/** CSV export: every contact matching the filter (name, phone, email, tags, then one column per custom field). */
import type { ExportContactsQuery } from '../../contract/contacts.js';
import type { ContactContext } from './context.js';
import { csvCell, csvLine } from './csv.js';
import type { StoredContact } from './ports.js';
import { contactsInOrder, searchContactIds } from './search.js';

/** Rows read per page. */
const EXPORT_PAGE = 500;

/** The CSV text of these contacts (CRLF line ends; phone numbers are not formula-escaped: E.164 starts with +). */
export function contactsCsv(contacts: readonly StoredContact[]): string {
  const customNames = [...new Set(contacts.flatMap((c) => Object.keys(c.customFields)))];
  const lines = [
    csvLine(['name', 'phone', 'email', 'tags', ...customNames].map((h) => csvCell(h))),
    ...contacts.map((c) =>
      csvLine([
        csvCell(c.name),
        csvCell(c.phoneNumber, { formulaSafe: false }),
        csvCell(c.email),
        csvCell(c.tags.join('|')),
        ...customNames.map((n) => csvCell(c.customFields[n] ?? '')),
      ]),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

export function contactCsvExport(ctx: ContactContext) {
  return {
    async exportCsv(userId: string, query: ExportContactsQuery): Promise<string> {
      const contacts: StoredContact[] = [];
      if (query.search) {
        const { ids } = await searchContactIds(ctx.contacts, ctx.defaultCountry, userId, query.search, query.source);
        for (let i = 0; i < ids.length; i += EXPORT_PAGE) contacts.push(...(await contactsInOrder(ctx.contacts, userId, ids.slice(i, i + EXPORT_PAGE))));
      } else {
        for await (const page of ctx.contacts.pages(userId, query.source, EXPORT_PAGE)) contacts.push(...page);
      }
      return contactsCsv(contacts);
    },
  };
}
