/**
 * Bulk actions on the contacts list: delete and tag many contacts in one call. Each contact goes
 * through the same one-contact write as the single actions (its own transaction: tokens, phone
 * guard and counters stay right), a few in parallel. Ids that are not the caller's contacts are
 * counted as `notFound`, never acted on.
 */
import type { BulkDeleteContactsResult, BulkTagContactsRequest, BulkTagContactsResult } from '../../contract/contacts-bulk.js';
import { CONTACT_LIMITS } from '../../contract/contacts.js';
import { serverErrorMessages } from '../../contract/server-texts.js';
import { mapLimit } from '../../lib/map-limit.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { ContactContext } from './context.js';
import { isContactId } from './contact-id.js';
import { ContactChangedError, type StoredContact } from './ports.js';

type RemoveOne = (userId: string, id: string) => Promise<void>;

/** The tags after adding `add` (new ones at the end) and removing `remove`, compared case-insensitively. */
export function retag(tags: readonly string[], add: readonly string[], remove: readonly string[]): string[] {
  const lower = (t: string) => t.toLocaleLowerCase();
  const removed = new Set(remove.map(lower));
  const out = tags.filter((t) => !removed.has(lower(t)));
  const have = new Set(out.map(lower));
  for (const tag of add) {
    if (removed.has(lower(tag)) || have.has(lower(tag))) continue;
    have.add(lower(tag));
    out.push(tag);
  }
  return out;
}

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

export function contactBulk(ctx: ContactContext, removeOne: RemoveOne) {
  return {
    async bulkDelete(userId: string, ids: readonly string[]): Promise<BulkDeleteContactsResult> {
      const outcomes = await mapLimit(ids, ctx.importConcurrency, async (id) => {
        try {
          await removeOne(userId, id);
          return 'deleted' as const;
        } catch (error) {
          // Not the caller's, or deleted meanwhile: nothing to delete.
          if (error instanceof NotFoundError) return 'notFound' as const;
          throw error;
        }
      });
      const deleted = outcomes.filter((o) => o === 'deleted').length;
      return { deleted, notFound: outcomes.length - deleted };
    },

    async bulkTag(userId: string, input: BulkTagContactsRequest): Promise<BulkTagContactsResult> {
      const tagOne = async (id: string): Promise<keyof BulkTagContactsResult> => {
        for (let attempt = 0; ; attempt++) {
          const before = isContactId(id) ? await ctx.contacts.get(userId, id) : null;
          if (!before) return 'notFound';
          const tags = retag(before.tags, input.add, input.remove);
          if (sameTags(tags, before.tags)) return 'unchanged';
          if (tags.length > CONTACT_LIMITS.tags) return 'tooManyTags';
          const after: StoredContact = { ...before, tags, updatedAt: ctx.now().toISOString() };
          try {
            await ctx.contacts.replace(userId, before, after);
            return 'updated';
          } catch (error) {
            if (error instanceof ContactChangedError && attempt < 2) continue;
            if (error instanceof ContactChangedError) {
              // Deleted meanwhile, or edited three times during our write.
              if (!(await ctx.contacts.get(userId, id))) return 'notFound';
              throw new ConflictError(serverErrorMessages.contactChanged);
            }
            throw error;
          }
        }
      };
      const result: BulkTagContactsResult = { updated: 0, unchanged: 0, notFound: 0, tooManyTags: 0 };
      for (const outcome of await mapLimit(input.ids, ctx.importConcurrency, tagOne)) result[outcome]++;
      return result;
    },
  };
}
