/**
 * Saved replies (issue 17): short answers the owner keeps (a title and a text) and inserts into the
 * reply box by typing `/` and part of the title. No separate shortcut field: the title is what the
 * `/` search matches, so there is one name to remember. Browser-safe: no Node imports.
 */
import * as z from 'zod/mini';
import './zod-locale.js';
import { nameKey } from './name-key.js';

export const SAVED_REPLY_LIMITS = {
  title: 60,
  /** Below the human reply's 4,096 (humanReplyRequest), so an inserted reply can always be sent. */
  text: 1000,
  /** Saved replies per user. */
  perUser: 100,
} as const;

export const savedReplyMessages = {
  titleRequired: 'Title is required',
  titleTooLong: `Title must be ${SAVED_REPLY_LIMITS.title} characters or less`,
  textRequired: 'Text is required',
  textTooLong: `Text must be ${SAVED_REPLY_LIMITS.text} characters or less`,
  unknownField: (name: string) => `Unknown field: ${name.length > 40 ? `${name.slice(0, 40)}…` : name}`,
  notObject: 'Send a JSON object with a title and a text',
  duplicateTitle: 'A saved reply with this title already exists',
  tooMany: `You can have at most ${SAVED_REPLY_LIMITS.perUser} saved replies`,
  notFound: 'Saved reply not found',
  changedMeanwhile: 'This saved reply was changed at the same time: try again',
  created: 'Saved reply created',
  updated: 'Saved reply updated',
  deleted: 'Saved reply deleted',
} as const;

export interface SavedReply {
  _id: string;
  title: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

/** POST /api/saved-replies and PUT /api/saved-replies/{id} (the whole reply): strict, unknown keys refused. */
export const savedReplyRequest = z.strictObject(
  {
    title: z
      .string({ error: savedReplyMessages.titleRequired })
      .check(z.trim(), z.minLength(1, savedReplyMessages.titleRequired), z.maxLength(SAVED_REPLY_LIMITS.title, savedReplyMessages.titleTooLong)),
    text: z
      .string({ error: savedReplyMessages.textRequired })
      .check(z.trim(), z.minLength(1, savedReplyMessages.textRequired), z.maxLength(SAVED_REPLY_LIMITS.text, savedReplyMessages.textTooLong)),
  },
  {
    error: (issue: { code?: string; keys?: string[] }) => {
      if (issue.code === 'unrecognized_keys') return savedReplyMessages.unknownField(issue.keys?.[0] ?? '');
      if (issue.code === 'invalid_type') return savedReplyMessages.notObject;
      return undefined;
    },
  },
);
export type SavedReplyInput = z.infer<typeof savedReplyRequest>;

/**
 * The uniqueness key of a title: case-insensitive ("Cita" = "cita"), accents kept ("Cita médica"
 * and "Cita medica" are two titles), Unicode-normalised so composed and decomposed forms agree.
 */
export const savedReplyTitleKey: (title: string) => string = nameKey;
