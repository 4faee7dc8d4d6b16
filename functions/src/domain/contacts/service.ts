/**
 * The contacts domain, composed from its parts (plain functions over ports):
 * - directory.ts: list (page jumps in O(1) requests, word-prefix search), get, create (plan
 *   limit reserved first, E.164, one phone number per contact), update, delete, stats;
 * - csv-import.ts / csv-export.ts: CSV import (preview, then the new rows through the same create
 *   path) and export;
 * - whatsapp-import.ts: contacts from WhatsApp customers;
 * - create-path.ts (the one create path), search.ts (the token index), records.ts (ids, view).
 */
import { contactBulk } from './bulk.js';
import { contactContext, type ContactDeps } from './context.js';
import { contactCsvExport } from './csv-export.js';
import { contactCsvImport } from './csv-import.js';
import { contactDirectory } from './directory.js';
import { contactWhatsAppImport } from './whatsapp-import.js';

export type { ContactDeps } from './context.js';

export function createContactService(deps: ContactDeps) {
  const ctx = contactContext(deps);
  const directory = contactDirectory(ctx);
  return {
    ...directory,
    ...contactBulk(ctx, directory.remove),
    ...contactCsvImport(ctx),
    ...contactCsvExport(ctx),
    ...contactWhatsAppImport(ctx),
  };
}

export type ContactService = ReturnType<typeof createContactService>;
