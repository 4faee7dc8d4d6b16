/**
 * A stored contact's shape: the draft a create starts from, the stored record built from it
 * (id from contact-id.ts, search tokens from text.ts), and the API view of a stored contact.
 * Pure (unit-tested).
 */
import type { Contact, ContactSource } from '../../contract/contacts.js';
import { padSeq } from './contact-id.js';
import type { StoredContact } from './ports.js';
import { contactTokens } from './text.js';

export const shortNameOf = (name: string) => name.trim().split(/\s+/)[0] ?? '';

/** A contact about to be created (already validated and normalised). */
export interface ContactDraft {
  name: string;
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
    shortName: shortNameOf(draft.name),
    phoneNumber: draft.phoneNumber,
    email: draft.email,
    customFields: draft.customFields,
    source: draft.source,
    isWAContact: draft.isWAContact,
    notes: draft.notes,
    tags: draft.tags,
    ...(draft.importedAt ? { importedAt: draft.importedAt } : {}),
    ...(draft.importJobId ? { importJobId: draft.importJobId } : {}),
    createdAt: at,
    updatedAt: at,
  };
  return { ...base, tokens: contactTokens(base) };
}

export function toContact(stored: StoredContact): Contact {
  return {
    _id: stored.id,
    name: stored.name,
    shortName: stored.shortName,
    phoneNumber: stored.phoneNumber,
    email: stored.email,
    customFields: stored.customFields,
    source: stored.source,
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
