/** Ports of the contacts domain: what it needs from storage and from the other domains. */
import type { Contact, ContactMetadata, ContactSource, ContactStats } from '../../contract/contacts.js';

/**
 * A contact as stored: the API's Contact (records.ts builds it back) with its metadata at the top
 * level, plus the list sequence and the search tokens.
 */
export interface StoredContact extends Omit<Contact, '_id' | 'metadata' | 'firstName' | 'lastName' | 'origin' | 'optOut'>, ContactMetadata {
  /** The name in parts (issue 29); a contact stored before has neither (its `name` is its first name). */
  firstName?: string;
  lastName?: string;
  /** 'call': a manual contact saved from a call (its origin reads "Call"). */
  createdVia?: 'call';
  /** Time-ordered: 10-digit zero-padded per-user sequence + 6 random base-36 characters. */
  id: string;
  seq: number;
  /** The search tokens the contact is indexed under (kept so that delete/update remove exactly these). */
  tokens: string[];
}

/** Another contact of the same user already has this phone number. */
export class DuplicatePhoneError extends Error {
  constructor(readonly existingContactId: string) {
    super('duplicate phone number');
    this.name = 'DuplicatePhoneError';
  }
}

/** The contact changed between our read and our write (a concurrent edit): the caller may retry. */
export class ContactChangedError extends Error {
  constructor() {
    super('contact changed concurrently');
    this.name = 'ContactChangedError';
  }
}

/** What the list's filters read of a contact. */
export interface ContactFilterRow {
  id: string;
  tags: string[];
  customFields: Record<string, string>;
}

export interface IdsByPrefix {
  /** Matching contact ids (unique, in no particular order). */
  ids: string[];
  /** False when more tokens matched than the read cap: `ids` is then a subset. */
  complete: boolean;
}

export interface ContactRepository {
  /** Reserves `count` consecutive sequence numbers for the user's new contacts; returns the first. */
  allocateSeq(userId: string, count: number): Promise<number>;
  /** Writes the contact, its phone guard, its tokens and the counters in one transaction. */
  insert(userId: string, contact: StoredContact): Promise<void>;
  get(userId: string, id: string): Promise<StoredContact | null>;
  /** Replaces `before` with `after` (same id/seq) in one transaction: tokens and phone guard move with it. */
  replace(userId: string, before: StoredContact, after: StoredContact): Promise<void>;
  /** Deletes the contact, its tokens and phone guard, and decrements the counters, in one transaction. */
  remove(userId: string, contact: StoredContact): Promise<void>;
  /** Contacts at ranks [offset, offset + limit) of the list (newest first), and the list's size. */
  page(userId: string, input: { source?: ContactSource; offset: number; limit: number }): Promise<{ items: StoredContact[]; total: number }>;
  /** Ids of the contacts having a token that begins with `prefix` (and of `source`, if given). */
  idsByTokenPrefix(userId: string, prefix: string, source: ContactSource | undefined, cap: number): Promise<IdsByPrefix>;
  /** Ids of the contacts whose E.164 number begins with `prefix` ("+34600"), of `source` if given. */
  idsByPhonePrefix(userId: string, prefix: string, source: ContactSource | undefined, cap: number): Promise<IdsByPrefix>;
  /** The contacts with these ids (unknown ids are skipped), in no particular order. */
  getMany(userId: string, ids: readonly string[]): Promise<StoredContact[]>;
  stats(userId: string): Promise<ContactStats>;
  /** For each phone number (E.164) that a contact of the user has: the contact's id. */
  phoneOwners(userId: string, phones: readonly string[]): Promise<Map<string, string>>;
  /** Every contact of the list (newest first), page by page. */
  pages(userId: string, source: ContactSource | undefined, pageSize: number): AsyncIterable<StoredContact[]>;
  /**
   * The tags and custom fields of the newest `cap` contacts of the list (all sources, or one),
   * newest first: what the tag and custom-field filters look at. `complete` when that was all.
   */
  filterRows(userId: string, source: ContactSource | undefined, cap: number): Promise<{ rows: ContactFilterRow[]; complete: boolean }>;
}

/**
 * Seam for the conversations and voice-call domains (not built yet): deleting a contact keeps
 * its conversations and calls but clears their link to it. Until those domains exist, the
 * composition wires a no-op.
 */
export interface ContactLinks {
  unlinkContact(userId: string, contactId: string): Promise<void>;
}

/** A customer who wrote to the user on WhatsApp (one per wa_id). */
export interface WhatsAppCustomer {
  waId: string;
  /** E.164, or '' when WhatsApp gave no phone number (a username-only customer). */
  phone: string;
  /** WhatsApp profile name. */
  name: string;
  /** The linked contact, or ''. */
  contactId: string;
}

/** The WhatsApp customers of the user's conversations ("Import from WhatsApp"); adapter: the conversation repository. */
export interface WhatsAppCustomers {
  customers(userId: string): AsyncIterable<WhatsAppCustomer[]>;
  /** Links the customer's conversations to a contact. */
  linkContact(userId: string, waId: string, contactId: string): Promise<void>;
}

/** The plan-limit primitive (domain/billing/usage.ts). */
export interface ContactUsage {
  reserve(userId: string, action: 'contacts', amount?: number): Promise<number>;
  release(userId: string, action: 'contacts', amount?: number): Promise<void>;
}
