/** Form rules of the contact screens (SPEC §5 New contact, Contact edit). */
import { normaliseCustomFields, type Contact, type ContactOrigin } from '@agentdesk/functions/contract';

export interface CustomFieldRow {
  name: string;
  value: string;
}

/**
 * Custom fields count only when both name and value are non-empty after trimming; a repeated
 * name keeps the last value (the contract's rule, shared with the server).
 */
export function collectCustomFields(rows: readonly CustomFieldRow[]): Record<string, string> {
  return normaliseCustomFields([...rows]);
}

/** The rows an edit form starts from. */
export function customFieldRows(fields: Record<string, string> | undefined): CustomFieldRow[] {
  return Object.entries(fields ?? {}).map(([name, value]) => ({ name, value }));
}

/**
 * A tag is added only if non-empty (trimmed) and not already present; like the server, 'VIP'
 * and 'vip' are the same tag.
 */
export function addTag(tags: readonly string[], input: string): string[] {
  const tag = input.trim();
  const key = tag.toLocaleLowerCase();
  if (!tag || tags.some((t) => t.toLocaleLowerCase() === key)) return [...tags];
  return [...tags, tag];
}

export function removeTag(tags: readonly string[], tag: string): string[] {
  return tags.filter((t) => t !== tag);
}

/** The name to show for a contact: name, else short name, else its phone number. */
export function displayName(contact: { name?: string; shortName?: string; phoneNumber?: string }): string {
  return contact.name?.trim() || contact.shortName?.trim() || contact.phoneNumber?.trim() || '';
}

/**
 * Where the contact came from (issue 29): the server's `origin`, or for an answer without it the
 * same mapping of the stored source (an import time on a manual contact means a CSV import).
 */
export function contactOrigin(contact: Pick<Contact, 'source'> & { origin?: ContactOrigin; metadata?: { importedAt?: string } }): ContactOrigin {
  if (contact.origin) return contact.origin;
  if (contact.source === 'whatsapp_import') return 'whatsapp';
  if (contact.source === 'api') return 'api';
  return contact.metadata?.importedAt ? 'csv' : 'manual';
}
