/** The contacts API shapes, from the shared contract (SPEC §3 Contact, Contact stats, Pagination). */
export {
  CONTACT_SOURCES,
  type Contact,
  type ContactImportPreview as ImportPreview,
  type ContactImportResult as ImportResult,
  type ContactImportRow as ImportRow,
  type ContactListResponse,
  type ContactPagination,
  type ContactSource,
  type ContactStats,
  type CreateContactInput,
  type UpdateContactInput,
} from '@agentdesk/functions/contract';
