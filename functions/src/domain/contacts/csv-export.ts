/**
 * CSV export: every contact the list's filters select (search, source, tag, custom field; the same
 * matching as GET /api/contacts), every field in the account's language (issue 29): first name,
 * last name, phone, email, tags, notes, origin, created, then one column per custom field. The
 * headers are the ones the import recognises, so an export imports again as it is.
 */
import type { ContactSource, ExportContactsQuery } from '../../contract/contacts.js';
import { languageOf, type Language } from '../i18n/messages.js';
import type { ContactContext } from './context.js';
import { csvCell, csvDocument } from './csv.js';
import { hasContactFilter, matchesFilter, type ContactFilter } from './list-filters.js';
import type { StoredContact } from './ports.js';
import { namePartsOf, originOf } from './records.js';
import { contactsInOrder, searchContactIds } from './search.js';
import { dayIn, exportFileName, exportTexts } from './export-texts.js';
import { phoneForSheet } from './text.js';

/** Rows read per page. */
const EXPORT_PAGE = 500;

export interface ExportLocale {
  language: Language;
  timeZone?: string;
}

/**
 * The export's cells of one contact under these custom-field columns. The phone is written
 * "+34 612345678": a bare "+34612345678" is read by Excel as the number 34612345678.
 */
export function contactCsvCells(c: StoredContact, customNames: readonly string[], locale: ExportLocale = { language: 'en' }): string[] {
  const { firstName, lastName } = namePartsOf(c);
  return [
    csvCell(firstName),
    csvCell(lastName),
    csvCell(phoneForSheet(c.phoneNumber), { formulaSafe: false }),
    csvCell(c.email),
    csvCell(c.tags.join(', ')),
    csvCell(c.notes ?? ''),
    csvCell(exportTexts(locale.language).origin[originOf(c)]),
    csvCell(dayIn(c.createdAt, locale.timeZone)),
    ...customNames.map((n) => csvCell(c.customFields[n] ?? '')),
  ];
}

export const contactCsvHeader = (customNames: readonly string[], language: unknown = 'en') =>
  [...exportTexts(language).header, ...customNames].map((h) => csvCell(h));

/**
 * The CSV text of these contacts: a UTF-8 BOM first (issue 19: without it Excel reads "Muñoz" as
 * "MuÃ±oz"), the given delimiter (Spanish Excel expects ';'), CRLF line ends, headers and origins
 * in the account's language.
 */
export function contactsCsv(contacts: readonly StoredContact[], delimiter = ',', language: unknown = 'en', timeZone?: string): string {
  const locale: ExportLocale = { language: languageOf(language), ...(timeZone ? { timeZone } : {}) };
  const customNames = [...new Set(contacts.flatMap((c) => Object.keys(c.customFields)))];
  return csvDocument([contactCsvHeader(customNames, locale.language), ...contacts.map((c) => contactCsvCells(c, customNames, locale))], delimiter);
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
    /** The CSV in the account's language and its dated file name (contactos-2026-11-28.csv). */
    async exportCsv(userId: string, query: ExportContactsQuery): Promise<{ csv: string; fileName: string }> {
      const [contacts, locale] = await Promise.all([contactsToExport(ctx, userId, query), ctx.accountLocale(userId)]);
      return {
        csv: contactsCsv(contacts, query.delimiter, locale.language, locale.timeZone),
        fileName: exportFileName(locale.language, ctx.now(), locale.timeZone),
      };
    },
  };
}
