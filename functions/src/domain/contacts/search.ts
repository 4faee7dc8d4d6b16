/**
 * Word-prefix search over the token index and the phone guards (see ACCESS-PATTERNS.md, search):
 * one Query per term (per alternative of a phone term, united), in parallel, intersected; the
 * newest CONTACT_SEARCH_MAX_MATCHES ids, and whether that is all.
 */
import { CONTACT_SEARCH_MAX_MATCHES, type ContactSource } from '../../contract/contacts.js';
import type { ContactRepository, IdsByPrefix, StoredContact } from './ports.js';
import { searchTerms } from './text.js';

/** Terms read per search term before giving up on completeness (see ACCESS-PATTERNS.md, search). */
export const SEARCH_TERM_READ_CAP = 5 * CONTACT_SEARCH_MAX_MATCHES;

/**
 * The ids every term's set holds, newest first (ids begin with the zero-padded sequence). The
 * intersection is exact when at least one set is complete; `truncated` otherwise, or when more
 * than CONTACT_SEARCH_MAX_MATCHES matched.
 */
export function intersectMatches(sets: readonly IdsByPrefix[]): { ids: string[]; truncated: boolean } {
  if (sets.length === 0) return { ids: [], truncated: false };
  const ordered = [...sets].sort((a, b) => Number(b.complete) - Number(a.complete) || a.ids.length - b.ids.length);
  let ids = ordered[0]!.ids;
  for (const other of ordered.slice(1)) {
    const keep = new Set(other.ids);
    ids = ids.filter((id) => keep.has(id));
  }
  ids = [...new Set(ids)].sort().reverse();
  const truncated = !sets.some((s) => s.complete) || ids.length > CONTACT_SEARCH_MAX_MATCHES;
  return { ids: ids.slice(0, CONTACT_SEARCH_MAX_MATCHES), truncated };
}

/** The ids any of the sets holds; complete when every set is. */
export function unite(sets: readonly IdsByPrefix[]): IdsByPrefix {
  if (sets.length === 1) return sets[0]!;
  return { ids: [...new Set(sets.flatMap((s) => s.ids))], complete: sets.every((s) => s.complete) };
}

export async function searchContactIds(
  contacts: ContactRepository,
  defaultCountry: string,
  userId: string,
  search: string,
  source: ContactSource | undefined,
): Promise<{ ids: string[]; truncated: boolean }> {
  const terms = searchTerms(search, defaultCountry);
  const sets = await Promise.all(
    terms.map(async (term) =>
      unite(
        await Promise.all([
          ...term.tokens.map((t) => contacts.idsByTokenPrefix(userId, t, source, SEARCH_TERM_READ_CAP)),
          ...term.phones.map((p) => contacts.idsByPhonePrefix(userId, p, source, SEARCH_TERM_READ_CAP)),
        ]),
      ),
    ),
  );
  return intersectMatches(sets);
}

/** The contacts with these ids, in the ids' order (gone ones skipped). */
export async function contactsInOrder(contacts: ContactRepository, userId: string, ids: readonly string[]): Promise<StoredContact[]> {
  const byId = new Map((await contacts.getMany(userId, ids)).map((c) => [c.id, c]));
  return ids.map((id) => byId.get(id)).filter((c): c is StoredContact => c !== undefined);
}
