/**
 * The one create path (single create, CSV import, WhatsApp): reserve the plan's usage BEFORE
 * writing (402 without a subscription; rows beyond the limit are refused), allocate sequence
 * numbers, write each contact in its own transaction, and give the reservation back when a
 * write fails.
 */
import { contactMessages } from '../../contract/contacts.js';
import { mapLimit } from '../../lib/map-limit.js';
import { ConflictError, LimitExceededError } from '../errors.js';
import type { ContactContext } from './context.js';
import { DuplicatePhoneError, type StoredContact } from './ports.js';
import { buildStoredContact, type ContactDraft } from './records.js';

export type CreateOutcome =
  | { kind: 'created'; contact: StoredContact }
  | { kind: 'duplicate'; existingContactId: string }
  | { kind: 'error'; message: string };

/** The 409 of a phone number another contact holds, naming that contact. */
export async function duplicateError(ctx: ContactContext, userId: string, existingContactId: string, phone: string): Promise<ConflictError> {
  const existing = await ctx.contacts.get(userId, existingContactId);
  const label = existing?.name || existing?.phoneNumber || phone;
  return new ConflictError(contactMessages.duplicate(label), { existingContactId });
}

/**
 * Creates the drafts, one outcome each (in order). `strict`: a single create throws its failure;
 * an import reports it per row, and takes rows one by one when the plan has no room for all.
 */
export async function createContacts(
  ctx: ContactContext,
  userId: string,
  drafts: readonly ContactDraft[],
  strict: boolean,
): Promise<CreateOutcome[]> {
  if (drafts.length === 0) return [];
  try {
    await ctx.usage.reserve(userId, 'contacts', drafts.length);
  } catch (error) {
    if (strict || !(error instanceof LimitExceededError)) throw error;
    const { reserved, refusal } = await reserveOneByOne(ctx, userId, drafts.length);
    const refused = (): CreateOutcome => ({ kind: 'error', message: (refusal ?? error).message });
    if (reserved === 0) return drafts.map(refused);
    const head = await writeReserved(ctx, userId, drafts.slice(0, reserved), strict);
    return [...head, ...drafts.slice(reserved).map(refused)];
  }
  return writeReserved(ctx, userId, drafts, strict);
}

/** Not room for all: reserve the rows one by one until the plan's limit refuses. */
async function reserveOneByOne(ctx: ContactContext, userId: string, wanted: number) {
  let reserved = 0;
  let refusal: LimitExceededError | undefined;
  for (let i = 0; i < wanted && !refusal; i++) {
    try {
      await ctx.usage.reserve(userId, 'contacts', 1);
      reserved++;
    } catch (one) {
      if (!(one instanceof LimitExceededError)) {
        if (reserved > 0) await ctx.usage.release(userId, 'contacts', reserved);
        throw one;
      }
      refusal = one;
    }
  }
  return { reserved, refusal };
}

async function writeReserved(ctx: ContactContext, userId: string, drafts: readonly ContactDraft[], strict: boolean): Promise<CreateOutcome[]> {
  let first: number;
  try {
    first = await ctx.contacts.allocateSeq(userId, drafts.length);
  } catch (error) {
    await ctx.usage.release(userId, 'contacts', drafts.length);
    throw error;
  }
  const at = ctx.now().toISOString();
  return mapLimit(drafts, ctx.importConcurrency, async (draft, i): Promise<CreateOutcome> => {
    const stored = buildStoredContact(draft, first + i, at, ctx.randomSuffix());
    try {
      await ctx.contacts.insert(userId, stored);
      return { kind: 'created', contact: stored };
    } catch (error) {
      await ctx.usage.release(userId, 'contacts', 1);
      if (strict) {
        if (error instanceof DuplicatePhoneError) throw await duplicateError(ctx, userId, error.existingContactId, draft.phoneNumber);
        throw error;
      }
      if (error instanceof DuplicatePhoneError) return { kind: 'duplicate', existingContactId: error.existingContactId };
      ctx.onError('contact import write failed', error);
      return { kind: 'error', message: 'This contact could not be saved. Please try again.' };
    }
  });
}
