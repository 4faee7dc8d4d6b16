/**
 * Prefixes of the uploads bucket that hold only temporary objects: the bucket's lifecycle
 * (infra/lib/data.ts) deletes what is under them a day after it was written. Add a prefix here
 * for any other temporary object; never list one that holds kept data (agent documents live
 * under agents/, outside every prefix here).
 */
import { UPLOAD_STAGING_PREFIX } from '../domain/agents/files.js';
import { CONTACT_JOB_FILES_PREFIX } from '../domain/contacts/job-ports.js';
import { INBOUND_BODY_PREFIX } from '../domain/whatsapp/ports.js';

export const EXPIRING_UPLOAD_PREFIXES: readonly string[] = [
  // Browser uploads not (yet) confirmed: a confirmed one is copied to its own key first.
  UPLOAD_STAGING_PREFIX,
  // WhatsApp inbound bodies too big for a queue message; the worker deletes each once read.
  INBOUND_BODY_PREFIX,
  // Contacts CSV jobs (issue 19): uploaded files, error reports and exports, each used within the day.
  CONTACT_JOB_FILES_PREFIX,
];
