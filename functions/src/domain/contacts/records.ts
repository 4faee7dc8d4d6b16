/**
 * A stored contact's shape: the draft a create starts from, the stored record built from it
 * (id from contact-id.ts, search tokens from text.ts), and the API view of a stored contact.
 * Pure (unit-tested).
 */
import type { Contact, ContactOrigin, ContactSource } from '../../contract/contacts.js';
import { padSeq } from './contact-id.js';
import type { StoredContact } from './ports.js';
import { contactTokens } from './text.js';

export const shortNameOf = (name: string) => name.trim().split(/\s+/)[0] ?? '';

/** A contact about to be created (already validated and normalised). */
export interface ContactDraft {
  /** The whole name (first and last name joined when given in parts). */
  name: string;
  /** The name in parts (issue 29); absent: `name` is the first name. */
  firstName?: string;
  lastName?: string;
  /** A manual contact made from a call (issue 29: its origin reads "Call"). */
  createdVia?: 'call';
  phoneNumber: string;
  email: string;
  customFields: Record<string, string>;
  tags: string[];
  notes: string;
  source: ContactSource;
  isWAContact: boolean;
  importedAt?: string;
  importJobId?: string;
}

/** The draft of a WhatsApp customer's contact (Import from WhatsApp, or one who wrote in). */
export function whatsappDraft(phoneNumber: string, profileName: string, importedAt: string): ContactDraft {
  return {
    name: profileName.trim().slice(0, 100),
    phoneNumber,
    email: '',
    customFields: {},
    tags: [],
    notes: '',
    source: 'whatsapp_import',
    isWAContact: true,
    importedAt,
  };
}

/** The stored record of a draft given its sequence number: id, short name and search tokens derived. */
export function buildStoredContact(draft: ContactDraft, seq: number, at: string, suffix: string): StoredContact {
  const base = {
    id: `${padSeq(seq)}${suffix}`,
    seq,
    name: draft.name,
    ...(draft.firstName !== undefined || draft.lastName !== undefined ? { firstName: draft.firstName ?? '', lastName: draft.lastName ?? '' } : {}),
    shortName: shortNameOf(draft.firstName || draft.name),
    phoneNumber: draft.phoneNumber,
    email: draft.email,
    customFields: draft.customFields,
    source: draft.source,
    isWAContact: draft.isWAContact,
    notes: draft.notes,
    tags: draft.tags,
    ...(draft.importedAt ? { importedAt: draft.importedAt } : {}),
    ...(draft.importJobId ? { importJobId: draft.importJobId } : {}),
    ...(draft.createdVia ? { createdVia: draft.createdVia } : {}),
    createdAt: at,
    updatedAt: at,
  };
  return { ...base, tokens: contactTokens(base) };
}

/** The name in parts as stored; a contact stored with one `name` (before issue 29) has it as its first name. */
export function namePartsOf(stored: Pick<StoredContact, 'name' | 'firstName' | 'lastName'>): { firstName: string; lastName: string } {
  if (stored.firstName === undefined && stored.lastName === undefined) return { firstName: stored.name, lastName: '' };
  return { firstName: stored.firstName ?? '', lastName: stored.lastName ?? '' };
}

/** Where a stored contact came from, in words (mapped at read time, so older contacts get one too). */
export function originOf(stored: Pick<StoredContact, 'source' | 'importedAt' | 'importJobId' | 'createdVia'>): ContactOrigin {
  if (stored.source === 'whatsapp_import') return 'whatsapp';
  if (stored.source === 'api') return 'api';
  if (stored.createdVia === 'call') return 'call';
  // A CSV import stores source 'manual' with the time (and since issue 19 the job) it came in with.
  if (stored.importJobId || stored.importedAt) return 'csv';
  return 'manual';
}

export function toContact(stored: StoredContact): Contact {
  return {
    _id: stored.id,
    name: stored.name,
    ...namePartsOf(stored),
    shortName: stored.shortName,
    phoneNumber: stored.phoneNumber,
    email: stored.email,
    customFields: stored.customFields,
    source: stored.source,
    origin: originOf(stored),
    isWAContact: stored.isWAContact,
    metadata: {
      notes: stored.notes,
      tags: stored.tags,
      ...(stored.importedAt ? { importedAt: stored.importedAt } : {}),
      ...(stored.clientId ? { clientId: stored.clientId } : {}),
      ...(stored.importJobId ? { importJobId: stored.importJobId } : {}),
    },
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}
