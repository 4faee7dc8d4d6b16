/**
 * The list's tag and custom-field filters and their choices (the facets). Matching is on the
 * whole text, case- and accent-insensitive ("vip" = "VIP", "Peña" = "pena"); a field filter
 * without a value keeps every contact that has the field. Pure (unit-tested).
 */
import type { ContactFacets, ContactTagFacet } from '../../contract/contacts-bulk.js';
import type { ContactFilterRow } from './ports.js';
import { fold } from './text.js';

export interface ContactFilter {
  tag: string;
  field: string;
  value: string;
}

/** At most this many tags in the facets (the most used). */
export const MAX_TAG_FACETS = 200;

const key = (text: string) => fold(text.trim());

export const hasContactFilter = (filter: ContactFilter): boolean => filter.tag !== '' || filter.field !== '';

/** Does the contact pass the filter? */
export function matchesFilter(row: Pick<ContactFilterRow, 'tags' | 'customFields'>, filter: ContactFilter): boolean {
  if (filter.tag) {
    const tag = key(filter.tag);
    if (!row.tags.some((t) => key(t) === tag)) return false;
  }
  if (filter.field) {
    const name = key(filter.field);
    const entry = Object.entries(row.customFields).find(([k]) => key(k) === name);
    if (!entry) return false;
    if (filter.value && key(entry[1]) !== key(filter.value)) return false;
  }
  return true;
}

/**
 * The tags in use (spelled as on the newest contact carrying them, most used first) and the custom
 * field names in use (alphabetical), over the given rows.
 */
export function facetsOf(rows: readonly ContactFilterRow[], complete: boolean): ContactFacets {
  const tags = new Map<string, ContactTagFacet>();
  const fields = new Map<string, string>();
  for (const row of rows) {
    for (const tag of row.tags) {
      const k = key(tag);
      if (!k) continue;
      const facet = tags.get(k);
      if (facet) facet.count++;
      else tags.set(k, { tag: tag.trim(), count: 1 });
    }
    for (const name of Object.keys(row.customFields)) {
      const k = key(name);
      if (k && !fields.has(k)) fields.set(k, name.trim());
    }
  }
  const collator = new Intl.Collator('es', { sensitivity: 'base' });
  return {
    tags: [...tags.values()].sort((a, b) => b.count - a.count || collator.compare(a.tag, b.tag)).slice(0, MAX_TAG_FACETS),
    fields: [...fields.values()].sort(collator.compare),
    truncated: !complete,
  };
}
