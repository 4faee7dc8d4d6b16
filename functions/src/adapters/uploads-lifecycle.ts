/**
 * Prefixes of the uploads bucket that hold only temporary objects: the bucket's lifecycle
 * (infra/lib/data.ts) deletes what is under them a day after it was written. Add a prefix here
 * for any other temporary object; never list one that holds kept data (agent documents live
 * under agents/, outside every prefix here).
 */
import { UPLOAD_STAGING_PREFIX } from '../domain/agents/files.js';
import { CONTACT_JOB_FILES_PREFIX } from '../domain/contacts/job-ports.js';
import { PRIVACY_EXPORTS_PREFIX } from '../domain/privacy/jobs.js';
import { INBOUND_BODY_PREFIX } from '../domain/whatsapp/ports.js';

export const EXPIRING_UPLOAD_PREFIXES: readonly string[] = [
  // Browser uploads not (yet) confirmed: a confirmed one is copied to its own key first. Owners'
  // attachments staged for a reply (ATTACHMENT_STAGING_PREFIX, issue 31) are under it too (infra test).
  UPLOAD_STAGING_PREFIX,
  // WhatsApp inbound bodies too big for a queue message; the worker deletes each once read.
  INBOUND_BODY_PREFIX,
  // Contacts CSV jobs (issue 19): uploaded files, error reports and exports, each used within the day.
  CONTACT_JOB_FILES_PREFIX,
  // A person's export (issue 33): the ZIP is downloadable for EXPORT_KEEP_HOURS, then the lifecycle deletes it.
  PRIVACY_EXPORTS_PREFIX,
];

/**
 * Customers' WhatsApp media, and the copies of what owners attached (issue 31), live under
 * WHATSAPP_MEDIA_PREFIX (contract/whatsapp-media.ts), each object tagged `retention=<value>` when written (adapters/s3-media.ts).
 * The bucket's lifecycle deletes an object this many days after it was written, by its tag:
 * `default` (what every object gets until an account chooses) keeps a year; the others are the
 * choices an account's retention setting may tag its media with (issue 33).
 */
export const MEDIA_RETENTION_TAG_KEY = 'retention';
export const MEDIA_RETENTION_DAYS = { default: 365, '30d': 30, '90d': 90, '180d': 180, '365d': 365, '730d': 730 } as const;
export type MediaRetention = keyof typeof MEDIA_RETENTION_DAYS;

/**
 * An object under the prefix with no known retention tag (never written by s3-media.ts) goes
 * after the longest retention: no customer's media outlives every choice. S3 honours the
 * shortest expiration of the rules an object matches, so the tagged rules still apply first.
 */
export const MEDIA_RETENTION_MAX_DAYS = Math.max(...Object.values(MEDIA_RETENTION_DAYS));
