/** Form rules of the contact screens (SPEC §5 New contact, Contact edit). */
import { normaliseCustomFields } from '@agentdesk/functions/contract';

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

/** 'whatsapp_import' → 'whatsapp import' (SPEC §2 Contact detail: underscores as spaces). */
export function sourceLabel(source: string): string {
  return source.replace(/_/g, ' ');
}
