/**
 * Customers' opt-outs (issue 33): a WhatsApp message that is one of the account's stop words
 * (whole message, folded: case, accents, punctuation and emoji do not count) stops reminders,
 * confirmations and templates to that number; a start word restarts them. The owner may set or
 * clear it by hand (PUT /api/privacy/opt-out, e.g. asked on the phone). Free-form replies inside
 * WhatsApp's 24-hour window stay allowed: the customer may still ask something.
 */
import { foldKeyword, OPT_OUT_KEYWORD_MAX_LENGTH, privacyMessages, type OptOutSettings, type OptOutState, type PersonRefRequest } from '../../contract/privacy.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { OptOuts } from './ports.js';

export type OptOutWord = { action: 'stop' | 'start'; keyword: string };

/** The stop or start word a message is, or null (a longer message is never one: "dar me de baja" is not "DARME DE BAJA"). */
export function optOutWordOf(text: string | null | undefined, settings: OptOutSettings): OptOutWord | null {
  if (!text || text.length > OPT_OUT_KEYWORD_MAX_LENGTH * 2) return null;
  const folded = foldKeyword(text);
  if (!folded) return null;
  if (settings.stopKeywords.some((k) => foldKeyword(k) === folded)) return { action: 'stop', keyword: folded };
  if (settings.startKeywords.some((k) => foldKeyword(k) === folded)) return { action: 'start', keyword: folded };
  return null;
}

/** Whether a message may be a keyword at all (checked before the settings are read: most messages are not). */
export const mayBeOptOutWord = (text: string | null | undefined): boolean => !!text && foldKeyword(text).length > 0 && foldKeyword(text).length <= OPT_OUT_KEYWORD_MAX_LENGTH;

/** The 409 of a template (or any business-initiated message) to an opted-out number. */
export const optedOutError = (state: OptOutState) =>
  new ConflictError(state.keyword === OWNER_KEYWORD ? privacyMessages.optedOutByOwner : privacyMessages.optedOut(state.keyword), { optOut: state });

/** The keyword of an opt-out the owner set. */
export const OWNER_KEYWORD = 'owner';

export interface OptOutServiceDeps {
  optOuts: OptOuts;
  /** The contact's number (E.164, '' when none); null when there is no such contact. */
  contactPhone(accountId: string, contactId: string): Promise<string | null>;
  /** A typed number as E.164, read with the account's country; throws the 400 when it is not a number. */
  e164(accountId: string, typed: string): Promise<string>;
  now?: () => Date;
}

export function createOptOutService(deps: OptOutServiceDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    /** The owner marks (or clears) a customer's opt-out: by contact or by number ("612 34 56 78" = "+34612345678"). */
    async setByOwner(accountId: string, person: PersonRefRequest, optedOut: boolean): Promise<{ phoneNumber: string; optOut: OptOutState | null }> {
      let phoneNumber: string;
      if (person.contactId) {
        const phone = await deps.contactPhone(accountId, person.contactId);
        if (phone === null) throw new NotFoundError(privacyMessages.personNotFound);
        if (!phone) throw new ValidationError(privacyMessages.personRequired, 'contactId');
        phoneNumber = phone;
      } else {
        phoneNumber = await deps.e164(accountId, person.phoneNumber ?? '');
      }
      if (!optedOut) {
        await deps.optOuts.clear(accountId, phoneNumber);
        return { phoneNumber, optOut: null };
      }
      const state: OptOutState = { at: now().toISOString(), keyword: OWNER_KEYWORD };
      await deps.optOuts.set(accountId, phoneNumber, state);
      return { phoneNumber, optOut: state };
    },
  };
}

export type OptOutService = ReturnType<typeof createOptOutService>;
