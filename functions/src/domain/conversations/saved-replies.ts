/**
 * Saved replies of the signed-in user (issue 17): list (by title), read, create, replace, delete.
 * At most SAVED_REPLY_LIMITS.perUser per user and titles unique per user case-insensitively; the
 * repository enforces both atomically (a count item and a title item written in the reply's
 * transaction), so two concurrent creates cannot pass either rule.
 */
import {
  SAVED_REPLY_LIMITS,
  savedReplyMessages,
  savedReplyTitleKey,
  type SavedReply,
  type SavedReplyInput,
} from '../../contract/saved-replies.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { isId, newId } from '../../lib/ids.js';

export interface StoredSavedReply {
  id: string;
  userId: string;
  title: string;
  /** savedReplyTitleKey(title): what the title item is keyed by. */
  titleKey: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

export type SavedReplyWriteOutcome = 'ok' | 'tooMany' | 'duplicateTitle' | 'changed';

/** Port (adapters/dynamo/saved-replies.ts). */
export interface SavedReplyRepository {
  list(userId: string): Promise<StoredSavedReply[]>;
  get(userId: string, id: string): Promise<StoredSavedReply | null>;
  /** Reply + title item + count in one transaction: 'tooMany' at `max`, 'duplicateTitle' when the title key is taken. */
  create(reply: StoredSavedReply, max: number): Promise<SavedReplyWriteOutcome>;
  /** Replaces title/text if the reply still has `before`'s title key ('changed' otherwise); moves the title item when the key changes. */
  replace(before: StoredSavedReply, next: StoredSavedReply): Promise<SavedReplyWriteOutcome>;
  /** Reply + title item + count in one transaction; false when the reply is gone or changed meanwhile. */
  remove(reply: StoredSavedReply): Promise<boolean>;
}

export interface SavedReplyServiceDeps {
  replies: SavedReplyRepository;
  now?: () => number;
}

export const toSavedReply = (r: StoredSavedReply): SavedReply => ({
  _id: r.id,
  title: r.title,
  text: r.text,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

const byTitle = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

function refuse(outcome: SavedReplyWriteOutcome): never {
  if (outcome === 'tooMany') throw new ValidationError(savedReplyMessages.tooMany);
  if (outcome === 'duplicateTitle') throw new ConflictError(savedReplyMessages.duplicateTitle);
  throw new NotFoundError(savedReplyMessages.notFound);
}

export function createSavedReplyService(deps: SavedReplyServiceDeps) {
  const now = deps.now ?? Date.now;

  async function load(userId: string, id: string): Promise<StoredSavedReply> {
    // An id that cannot be ours never reaches a key (a 5,000-character id would be refused by DynamoDB).
    const reply = isId(id) ? await deps.replies.get(userId, id) : null;
    if (!reply) throw new NotFoundError(savedReplyMessages.notFound);
    return reply;
  }

  return {
    async list(userId: string): Promise<SavedReply[]> {
      const replies = await deps.replies.list(userId);
      return replies.sort((a, b) => byTitle.compare(a.title, b.title)).map(toSavedReply);
    },

    async get(userId: string, id: string): Promise<SavedReply> {
      return toSavedReply(await load(userId, id));
    },

    async create(userId: string, input: SavedReplyInput): Promise<SavedReply> {
      const at = now();
      const stamp = new Date(at).toISOString();
      const reply: StoredSavedReply = {
        id: newId(at),
        userId,
        title: input.title,
        titleKey: savedReplyTitleKey(input.title),
        text: input.text,
        createdAt: stamp,
        updatedAt: stamp,
      };
      const outcome = await deps.replies.create(reply, SAVED_REPLY_LIMITS.perUser);
      if (outcome !== 'ok') refuse(outcome);
      return toSavedReply(reply);
    },

    async update(userId: string, id: string, input: SavedReplyInput): Promise<SavedReply> {
      // A concurrent rename can move the title item between our read and write: read again then.
      for (let attempt = 0; attempt < 3; attempt++) {
        const before = await load(userId, id);
        const next: StoredSavedReply = {
          ...before,
          title: input.title,
          titleKey: savedReplyTitleKey(input.title),
          text: input.text,
          updatedAt: new Date(now()).toISOString(),
        };
        const outcome = await deps.replies.replace(before, next);
        if (outcome === 'ok') return toSavedReply(next);
        if (outcome !== 'changed') refuse(outcome);
      }
      throw new ConflictError(savedReplyMessages.changedMeanwhile);
    },

    async remove(userId: string, id: string): Promise<void> {
      for (let attempt = 0; attempt < 3; attempt++) {
        const before = await load(userId, id);
        if (await deps.replies.remove(before)) return;
      }
      throw new NotFoundError(savedReplyMessages.notFound);
    },
  };
}

export type SavedReplyService = ReturnType<typeof createSavedReplyService>;
