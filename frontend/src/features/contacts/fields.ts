/** Form rules of the contact screens (SPEC §5 New contact, Contact edit). */

export interface CustomFieldRow {
  name: string;
  value: string;
}

/**
 * Custom fields count only when both name and value are non-empty after trimming; a repeated
 * name keeps the last value.
 */
export function collectCustomFields(rows: readonly CustomFieldRow[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const row of rows) {
    const name = row.name.trim();
    const value = row.value.trim();
    if (!name || !value) continue;
    delete fields[name];
    fields[name] = value;
  }
  return fields;
}

/** The rows an edit form starts from. */
export function customFieldRows(fields: Record<string, string> | undefined): CustomFieldRow[] {
  return Object.entries(fields ?? {}).map(([name, value]) => ({ name, value }));
}

/** A tag is added only if non-empty (trimmed) and not already present. */
export function addTag(tags: readonly string[], input: string): string[] {
  const tag = input.trim();
  if (!tag || tags.includes(tag)) return [...tags];
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
