/**
 * A stored contact's identity and shape: the time-ordered id (zero-padded per-user sequence +
 * random suffix), the draft a create starts from, the stored record built from it, and the
 * API view of a stored contact. Pure (unit-tested).
 */
import type { Contact, ContactSource } from '../../contract/contacts.js';
import type { StoredContact } from './ports.js';
import { contactTokens } from './text.js';

export const SEQ_DIGITS = 10;
export const padSeq = (seq: number) => String(seq).padStart(SEQ_DIGITS, '0');
/** What a contact id looks like; anything else is not read (it answers 404). */
export const isContactId = (id: string) => /^\d{10}[a-z0-9]{6}$/.test(id);

/** 6 random base-36 characters (the id suffix). */
export const randomIdSuffix = () =>
  Array.from({ length: 6 }, () => '0123456789abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 36)]).join('');

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
    },
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}
