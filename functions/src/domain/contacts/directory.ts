/**
 * The contact directory: list (page jumps in O(1) requests, or a search), get, create (through
 * the one create path), update (optimistic, retried on a concurrent edit), delete (unlinking
 * conversations and calls) and the stats counters.
 */
import type { OptOutState } from '../../contract/privacy.js';
import {
  contactMessages,
  nameParts,
  type Contact,
  type ContactListResponse,
  type ContactSource,
  type ContactStats,
  type CreateContactRequest,
  type ListContactsQuery,
  type UpdateContactRequest,
} from '../../contract/contacts.js';
import { CONTACT_FILTER_MAX_SCANNED, type ContactFacets } from '../../contract/contacts-bulk.js';
import { serverErrorMessages } from '../../contract/server-texts.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { ContactContext } from './context.js';
import { createContacts, duplicateError } from './create-path.js';
import { ContactChangedError, DuplicatePhoneError, type StoredContact } from './ports.js';
import { isContactId } from './contact-id.js';
import { namePartsOf, shortNameOf, toContact, type ContactDraft } from './records.js';
import { contactsInOrder, searchContactIds } from './search.js';
import { facetsOf, hasContactFilter, matchesFilter, type ContactFilter } from './list-filters.js';
import { contactTokens, phoneInvalidFor, toE164 } from './text.js';

/**
 * The parts of a whole name written over a contact (a call's "save to contact" and its undo): the
 * contact's last name is kept when the new name still ends with it, else the whole name is the first name.
 */
export function partsOfWholeName(name: string, stored: Pick<StoredContact, 'name' | 'firstName' | 'lastName'>): { firstName: string; lastName: string } {
  const { lastName } = namePartsOf(stored);
  if (lastName && name.endsWith(` ${lastName}`)) return { firstName: name.slice(0, -lastName.length - 1).trim(), lastName };
  return { firstName: name, lastName: '' };
}

/** E.164 of a phone number typed in the account's `country`, or the 400 'Please enter a valid phone number, e.g. …'. */
export function e164OrThrow(input: string, country: string): string {
  const e164 = toE164(input, country);
  if (!e164) throw new ValidationError(phoneInvalidFor(country), 'phoneNumber');
  return e164;
}

/** Fields a patch writes (validated by the caller; a phone number is normalised here, '' = none); absent = kept. */
export interface ContactPatch {
  name?: string;
  email?: string;
  phoneNumber?: string;
  customFields?: Record<string, string>;
}

export function contactDirectory(ctx: ContactContext) {
  /** Issue 33: a number's opt-out, started now and awaited with the answer (never an unhandled rejection meanwhile). */
  function optOutOf(userId: string, phoneNumber: string): Promise<OptOutState | null> | null {
    if (!ctx.optOuts) return null;
    const read = ctx.optOuts.get(userId, phoneNumber);
    read.catch(() => undefined);
    return read;
  }
  const withOptOut = async (contact: Contact, read: Promise<OptOutState | null> | null): Promise<Contact> => (read ? { ...contact, optOut: await read } : contact);

  async function load(userId: string, id: string): Promise<StoredContact> {
    const found = isContactId(id) ? await ctx.contacts.get(userId, id) : null;
    if (!found) throw new NotFoundError(contactMessages.notFound);
    return found;
  }

  return {
    async list(userId: string, query: ListContactsQuery): Promise<Omit<ContactListResponse, 'success'>> {
      const { page, limit, source } = query;
      const offset = (page - 1) * limit;
      let items: StoredContact[];
      let total: number;
      let searchTruncated = false;
      let filterTruncated = false;
      const filter: ContactFilter = { tag: query.tag, field: query.field, value: query.value };
      if (query.search) {
        const found = await searchContactIds(ctx.contacts, await ctx.accountCountry(userId), userId, query.search, source);
        searchTruncated = found.truncated;
        if (hasContactFilter(filter)) {
          // A search finds at most CONTACT_SEARCH_MAX_MATCHES: filter those contacts themselves.
          const matched = (await contactsInOrder(ctx.contacts, userId, found.ids)).filter((c) => matchesFilter(c, filter));
          total = matched.length;
          items = matched.slice(offset, offset + limit);
        } else {
          total = found.ids.length;
          items = await contactsInOrder(ctx.contacts, userId, found.ids.slice(offset, offset + limit));
        }
      } else if (hasContactFilter(filter)) {
        const { rows, complete } = await ctx.contacts.filterRows(userId, source, CONTACT_FILTER_MAX_SCANNED);
        const ids = rows.filter((row) => matchesFilter(row, filter)).map((row) => row.id);
        total = ids.length;
        filterTruncated = !complete;
        items = await contactsInOrder(ctx.contacts, userId, ids.slice(offset, offset + limit));
      } else {
        ({ items, total } = await ctx.contacts.page(userId, { source, offset, limit }));
      }
      const totalPages = Math.max(1, Math.ceil(total / limit));
      // Issue 33: the page's opt-outs in one BatchGetItem.
      const optOuts = ctx.optOuts ? await ctx.optOuts.many(userId, items.map((c) => c.phoneNumber)) : null;
      return {
        data: items.map((c) => (optOuts ? { ...toContact(c), optOut: optOuts.get(c.phoneNumber) ?? null } : toContact(c))),
        pagination: {
          currentPage: page,
          totalPages,
          limit,
          totalContacts: total,
          hasPrevPage: page > 1,
          hasNextPage: page < totalPages,
        },
        ...(searchTruncated ? { searchTruncated } : {}),
        ...(filterTruncated ? { filterTruncated } : {}),
      };
    },

    /** The filters' choices: tags and custom field names in use (of the newest CONTACT_FILTER_MAX_SCANNED contacts). */
    async facets(userId: string): Promise<ContactFacets> {
      const { rows, complete } = await ctx.contacts.filterRows(userId, undefined, CONTACT_FILTER_MAX_SCANNED);
      return facetsOf(rows, complete);
    },

    async get(userId: string, id: string): Promise<Contact> {
      const contact = toContact(await load(userId, id));
      // Issue 33: whether they opted out (one GetItem).
      return withOptOut(contact, optOutOf(userId, contact.phoneNumber));
    },

    /** source 'api' when the caller used an API key (the public API), else 'manual'. */
    async create(userId: string, input: CreateContactRequest, source: ContactSource = 'manual', createdVia?: 'call'): Promise<Contact> {
      const parts = nameParts(input)!;
      const draft: ContactDraft = {
        ...parts,
        phoneNumber: e164OrThrow(input.phoneNumber, await ctx.accountCountry(userId)),
        email: input.email,
        customFields: input.customFields,
        tags: [],
        notes: '',
        source,
        isWAContact: false,
        ...(createdVia ? { createdVia } : {}),
      };
      // Issue 33: a customer who wrote BAJA before being saved shows it (read beside the create).
      const optOut = optOutOf(userId, draft.phoneNumber);
      const [outcome] = await createContacts(ctx, userId, [draft], true);
      if (outcome?.kind !== 'created') throw new Error('create did not create');
      return withOptOut(toContact(outcome.contact), optOut);
    },

    async update(userId: string, id: string, input: UpdateContactRequest): Promise<Contact> {
      const phoneNumber = e164OrThrow(input.phoneNumber, await ctx.accountCountry(userId));
      // Issue 33: the number's opt-out, read beside the update.
      const optOut = optOutOf(userId, phoneNumber);
      for (let attempt = 0; ; attempt++) {
        const before = await load(userId, id);
        const parts = nameParts(input);
        const name = parts?.name ?? before.name;
        const email = input.email ?? before.email;
        const after: StoredContact = {
          ...before,
          name,
          ...(parts ? { firstName: parts.firstName, lastName: parts.lastName } : {}),
          shortName: parts ? shortNameOf(parts.firstName || name) : before.shortName,
          phoneNumber,
          email,
          customFields: input.customFields ?? before.customFields,
          notes: input.metadata?.notes ?? before.notes,
          tags: input.metadata?.tags ?? before.tags,
          updatedAt: ctx.now().toISOString(),
          tokens: contactTokens({ name, email, phoneNumber }),
        };
        try {
          await ctx.contacts.replace(userId, before, after);
          return withOptOut(toContact(after), optOut);
        } catch (error) {
          if (error instanceof DuplicatePhoneError) throw await duplicateError(ctx, userId, error.existingContactId, phoneNumber);
          if (error instanceof ContactChangedError && attempt < 2) continue;
          if (error instanceof ContactChangedError) throw new ConflictError(serverErrorMessages.contactChanged);
          throw error;
        }
      }
    },

    /**
     * Read-check-write in one step (apply-contact and its undo): `change` sees the contact as stored
     * and returns the fields to write (or throws to refuse); the write is conditional on that read,
     * so a concurrent edit is re-read and re-checked, never overwritten. A phone number is normalised.
     */
    async patch(userId: string, id: string, change: (before: Contact) => ContactPatch): Promise<{ before: Contact; after: Contact }> {
      for (let attempt = 0; ; attempt++) {
        const stored = await load(userId, id);
        const before = toContact(stored);
        const input = change(before);
        const name = input.name ?? stored.name;
        const email = input.email ?? stored.email;
        // '' restores a contact that had no number (an undo).
        const phoneNumber =
          input.phoneNumber === undefined ? stored.phoneNumber : input.phoneNumber === '' ? '' : e164OrThrow(input.phoneNumber, await ctx.accountCountry(userId));
        const after: StoredContact = {
          ...stored,
          name,
          ...(input.name !== undefined ? partsOfWholeName(name, stored) : {}),
          shortName: input.name !== undefined ? shortNameOf(name) : stored.shortName,
          phoneNumber,
          email,
          customFields: input.customFields ?? stored.customFields,
          updatedAt: ctx.now().toISOString(),
          tokens: contactTokens({ name, email, phoneNumber }),
        };
        try {
          await ctx.contacts.replace(userId, stored, after);
          return { before, after: toContact(after) };
        } catch (error) {
          if (error instanceof DuplicatePhoneError) throw await duplicateError(ctx, userId, error.existingContactId, phoneNumber);
          if (error instanceof ContactChangedError && attempt < 2) continue;
          if (error instanceof ContactChangedError) throw new ConflictError(serverErrorMessages.contactChanged);
          throw error;
        }
      }
    },

    /** Deletes the contact only if `guard` (given the contact as stored) does not throw; conditional on that read. */
    async removeIf(userId: string, id: string, guard: (contact: Contact) => void): Promise<void> {
      const contact = await load(userId, id);
      guard(toContact(contact));
      try {
        await ctx.contacts.remove(userId, contact);
      } catch (error) {
        if (error instanceof ContactChangedError) throw new ConflictError(serverErrorMessages.contactChanged);
        throw error;
      }
      await ctx.usage.release(userId, 'contacts');
      await ctx.links.unlinkContact(userId, id);
    },

    async remove(userId: string, id: string): Promise<void> {
      const contact = await load(userId, id);
      try {
        await ctx.contacts.remove(userId, contact);
      } catch (error) {
        // Deleted meanwhile by another request: that request released the usage.
        if (error instanceof ContactChangedError) throw new NotFoundError(contactMessages.notFound);
        throw error;
      }
      await ctx.usage.release(userId, 'contacts');
      // Conversations and calls stay; they only lose their link to the contact.
      await ctx.links.unlinkContact(userId, id);
    },

    stats(userId: string): Promise<ContactStats> {
      return ctx.contacts.stats(userId);
    },
  };
}
