/**
 * The contacts API shapes (SPEC §3 Contact, Contact stats, Pagination; §7 Contacts). Declared here
 * until functions/src/contract/contacts.ts lands; then these re-export the contract's types.
 */
export const CONTACT_SOURCES = ['manual', 'whatsapp_import', 'api'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

export interface ContactMetadata {
  notes: string;
  tags: string[];
  importedAt?: string;
  clientId?: string;
}

export interface Contact {
  _id: string;
  name: string;
  shortName: string;
  /** E.164, or '' when the contact has none. */
  phoneNumber: string;
  email: string;
  customFields: Record<string, string>;
  source: ContactSource;
  isWAContact: boolean;
  metadata: ContactMetadata;
  createdAt: string;
  updatedAt: string;
}

export interface ContactStats {
  total: number;
  withPhone: number;
  waContacts: number;
  myContacts: number;
}

export interface ContactsPagination {
  currentPage: number;
  totalPages: number;
  limit: number;
  totalContacts: number;
  hasPrevPage: boolean;
  hasNextPage: boolean;
}

/** GET /api/contacts: pagination sits at the top level, beside data. */
export interface ContactListResponse {
  success: boolean;
  data: Contact[];
  pagination: ContactsPagination;
}

export interface NewContactInput {
  name: string;
  phoneNumber: string;
  email: string;
  customFields: Record<string, string>;
}

export interface UpdateContactInput extends NewContactInput {
  metadata: { notes: string; tags: string[] };
}

export type ImportRowStatus = 'new' | 'duplicate' | 'error';

export interface ImportRow {
  line: number;
  name: string;
  phoneNumber: string;
  email: string;
  tags: string[];
  customFields: Record<string, string>;
  status: ImportRowStatus;
  errors: string[];
  existingContactId?: string;
}

export interface ImportPreview {
  rows: ImportRow[];
  summary: { total: number; new: number; duplicates: number; errors: number };
}

export interface ImportResult {
  created: number;
  duplicates: number;
  errors: number;
  rows: ImportRow[];
}
