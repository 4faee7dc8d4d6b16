/** Pure helpers of agent documents: object keys and upload checks. */
import { AGENT_FILE_TYPES, agentFileKind, rejectFileReason, type RejectedFileReason } from '../../contract/agents.js';

/** An object-key-safe version of a file name: ASCII letters, digits, '.', '-', '_' (at most 100 characters). */
export function sanitiseFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const ascii = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+/, '')
    // No empty or dot-only stem ('.pdf' from '日本語.pdf').
    .replace(/^\./, 'file.');
  if (ascii.length <= 100) return ascii || 'file';
  // Keep the extension when shortening.
  const ext = /\.[A-Za-z0-9]{1,10}$/.exec(ascii)?.[0] ?? '';
  return ascii.slice(0, 100 - ext.length) + ext;
}

/** Where agents' documents live in the uploads bucket (kept: no lifecycle rule covers it). */
export const AGENT_FILES_PREFIX = 'agents/';

/** uploads-bucket key of a document: under the user's and the agent's prefix, so a prefix delete would find them all. */
export const fileObjectKey = (userId: string, agentId: string, fileId: string, name: string) =>
  `${AGENT_FILES_PREFIX}${userId}/${agentId}/${fileId}/${sanitiseFileName(name)}`;

/**
 * Browser uploads land under this prefix and are copied to their own key when confirmed; the
 * bucket's lifecycle deletes what stays here a day (abandoned uploads, see EXPIRING_UPLOAD_PREFIXES).
 */
export const UPLOAD_STAGING_PREFIX = 'incoming/';
export const stagingKey = (key: string) => `${UPLOAD_STAGING_PREFIX}${key}`;

/** The stored MIME type of an accepted file: the canonical one of its kind (browsers send '' or octet-stream for .doc). */
export function canonicalMimeType(name: string, declared: string): string {
  const kind = agentFileKind(name, declared);
  return kind ? AGENT_FILE_TYPES[kind] : declared;
}

/** The files that cannot be uploaded, with the SPEC §5 reason of each. */
export function rejectedFiles(files: readonly { name: string; size: number; type: string }[]): { name: string; reason: RejectedFileReason }[] {
  const out: { name: string; reason: RejectedFileReason }[] = [];
  for (const file of files) {
    const reason = rejectFileReason(file);
    if (reason) out.push({ name: file.name, reason });
  }
  return out;
}
