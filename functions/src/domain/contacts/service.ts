/**
 * The contacts domain: list (page jumps in O(1) requests, word-prefix search), create (plan
 * limit reserved first, E.164, one phone number per contact), update, delete (unlinking
 * conversations and calls), stats (counters), CSV import (preview, then create the new rows
 * through the same create path) and CSV export. Plain functions over ports.
 */
import {
  CONTACT_IMPORT_MAX_ROWS,
  CONTACT_SEARCH_MAX_MATCHES,
  contactMessages,
  createContactRequest,
  normaliseTags,
  type Contact,
  type ContactImportPreview,
  type ContactImportResult,
  type ContactImportRow,
  type ContactListResponse,
  type ContactSource,
  type ContactStats,
  type CreateContactRequest,
  type ExportContactsQuery,
  type ListContactsQuery,
  type UpdateContactRequest,
} from '../../contract/contacts.js';
import type { WhatsAppImportResult } from '../../contract/whatsapp.js';
import { ConflictError, LimitExceededError, NotFoundError, ValidationError } from '../errors.js';
import { csvCell, csvLine, parseCsv } from './csv.js';
import {
  ContactChangedError,
  DuplicatePhoneError,
  type ContactLinks,
  type ContactRepository,
  type ContactUsage,
  type StoredContact,
  type WhatsAppCustomer,
  type WhatsAppCustomers,
} from './ports.js';
import { contactTokens, matchesAll, searchTerms, toE164 } from './text.js';

export interface ContactDeps {
  contacts: ContactRepository;
  usage: ContactUsage;
  links: ContactLinks;
  /** The WhatsApp customers of the user's conversations (Import from WhatsApp). */
  whatsapp?: WhatsAppCustomers;
  /** ISO-8601 country code for numbers typed without a prefix (config CONTACTS_DEFAULT_COUNTRY). */
  defaultCountry: string;
  now?: () => Date;
  /** 6 random base-36 characters (the id suffix). */
  randomSuffix?: () => string;
  /** Parallel writes of an import. */
  importConcurrency?: number;
  onError?: (message: string, error: unknown) => void;
}

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

type CreateOutcome =
  | { kind: 'created'; contact: StoredContact }
  | { kind: 'duplicate'; existingContactId: string }
  | { kind: 'error'; message: string };

const ID_RE = /^\d{10}[a-z0-9]{6}$/;
export const SEQ_DIGITS = 10;
export const padSeq = (seq: number) => String(seq).padStart(SEQ_DIGITS, '0');
/** Terms read per search term before giving up on completeness (see ACCESS-PATTERNS.md, search). */
export const SEARCH_TERM_READ_CAP = 5 * CONTACT_SEARCH_MAX_MATCHES;
/** Rows exported per page read. */
const EXPORT_PAGE = 500;

const defaultSuffix = () =>
  Array.from({ length: 6 }, () => '0123456789abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 36)]).join('');

export const shortNameOf = (name: string) => name.trim().split(/\s+/)[0] ?? '';

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

/** Runs `work` over `items` with at most `limit` in flight; results in input order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

export function createContactService(deps: ContactDeps) {
  const now = deps.now ?? (() => new Date());
  const suffix = deps.randomSuffix ?? defaultSuffix;
  const concurrency = deps.importConcurrency ?? 8;
  const onError = deps.onError ?? (() => undefined);

  const phoneOrThrow = (input: string): string => {
    const e164 = toE164(input, deps.defaultCountry);
    if (!e164) throw new ValidationError(contactMessages.phoneInvalid, 'phoneNumber');
    return e164;
  };

  async function load(userId: string, id: string): Promise<StoredContact> {
    const found = ID_RE.test(id) ? await deps.contacts.get(userId, id) : null;
    if (!found) throw new NotFoundError(contactMessages.notFound);
    return found;
  }

  async function duplicateError(userId: string, existingContactId: string, phone: string): Promise<ConflictError> {
    const existing = await deps.contacts.get(userId, existingContactId);
    const label = existing?.name || existing?.phoneNumber || phone;
    return new ConflictError(contactMessages.duplicate(label), { existingContactId });
  }

  function buildStored(draft: ContactDraft, seq: number, at: string): StoredContact {
    const base = {
      id: `${padSeq(seq)}${suffix()}`,
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

  /**
   * The one create path (single create and import): reserve the plan's usage BEFORE writing
   * (402 without a subscription; rows beyond the limit are refused), allocate sequence numbers,
   * write each contact in its own transaction, and give the reservation back when a write fails.
   * `strict`: a single create throws its failure; an import reports it per row.
   */
  async function createMany(userId: string, drafts: readonly ContactDraft[], strict: boolean): Promise<CreateOutcome[]> {
    if (drafts.length === 0) return [];
    let reserved = drafts.length;
    try {
      await deps.usage.reserve(userId, 'contacts', drafts.length);
    } catch (error) {
      if (strict || !(error instanceof LimitExceededError)) throw error;
      // Not room for all: take the rows one by one until the plan's limit refuses.
      reserved = 0;
      let refusal: LimitExceededError | undefined;
      for (let i = 0; i < drafts.length && !refusal; i++) {
        try {
          await deps.usage.reserve(userId, 'contacts', 1);
          reserved++;
        } catch (one) {
          if (!(one instanceof LimitExceededError)) {
            if (reserved > 0) await deps.usage.release(userId, 'contacts', reserved);
            throw one;
          }
          refusal = one;
        }
      }
      if (reserved === 0) return drafts.map(() => ({ kind: 'error', message: (refusal ?? error).message }));
      const head = await writeReserved(userId, drafts.slice(0, reserved), strict);
      return [...head, ...drafts.slice(reserved).map((): CreateOutcome => ({ kind: 'error', message: (refusal ?? error).message }))];
    }
    return writeReserved(userId, drafts.slice(0, reserved), strict);
  }

  async function writeReserved(userId: string, drafts: readonly ContactDraft[], strict: boolean): Promise<CreateOutcome[]> {
    let first: number;
    try {
      first = await deps.contacts.allocateSeq(userId, drafts.length);
    } catch (error) {
      await deps.usage.release(userId, 'contacts', drafts.length);
      throw error;
    }
    const at = now().toISOString();
    return mapLimit(drafts, concurrency, async (draft, i): Promise<CreateOutcome> => {
      const stored = buildStored(draft, first + i, at);
      try {
        await deps.contacts.insert(userId, stored);
        return { kind: 'created', contact: stored };
      } catch (error) {
        await deps.usage.release(userId, 'contacts', 1);
        if (strict) {
          if (error instanceof DuplicatePhoneError) throw await duplicateError(userId, error.existingContactId, draft.phoneNumber);
          throw error;
        }
        if (error instanceof DuplicatePhoneError) return { kind: 'duplicate', existingContactId: error.existingContactId };
        onError('contact import write failed', error);
        return { kind: 'error', message: 'This contact could not be saved. Please try again.' };
      }
    });
  }

  async function searchIds(userId: string, search: string, source: ContactSource | undefined) {
    const terms = searchTerms(search, deps.defaultCountry);
    if (terms.length === 0) return { ids: [] as string[], truncated: false };
    // One Query per term, in parallel; the intersection is exact when at least one term's set is complete.
    const sets = await Promise.all(terms.map((t) => deps.contacts.idsByTokenPrefix(userId, t, source, SEARCH_TERM_READ_CAP)));
    const ordered = [...sets].sort((a, b) => Number(b.complete) - Number(a.complete) || a.ids.length - b.ids.length);
    let ids = ordered[0]!.ids;
    for (const other of ordered.slice(1)) {
      const keep = new Set(other.ids);
      ids = ids.filter((id) => keep.has(id));
    }
    ids = [...new Set(ids)].sort().reverse(); // ids begin with the zero-padded sequence: newest first
    const truncated = !sets.some((s) => s.complete) || ids.length > CONTACT_SEARCH_MAX_MATCHES;
    return { ids: ids.slice(0, CONTACT_SEARCH_MAX_MATCHES), truncated };
  }

  async function getOrdered(userId: string, ids: readonly string[]): Promise<StoredContact[]> {
    const byId = new Map((await deps.contacts.getMany(userId, ids)).map((c) => [c.id, c]));
    return ids.map((id) => byId.get(id)).filter((c): c is StoredContact => c !== undefined);
  }

  function validateImportRow(record: { line: number; fields: string[] }, columns: ImportColumns): { row: ContactImportRow; draft?: ContactDraft } {
    const cell = (i: number | undefined) => (i === undefined ? '' : (record.fields[i] ?? '').trim());
    const rawPhone = cell(columns.phone);
    const customFields = Object.fromEntries(
      columns.custom.map(({ name, index }) => [name, cell(index)] as const).filter(([, v]) => v !== ''),
    );
    const parsed = createContactRequest.safeParse({ name: cell(columns.name), phoneNumber: rawPhone, email: cell(columns.email), customFields });
    // The first failing rule of each field, as the API would answer it.
    const firstByField = new Map<string, string>();
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = String(issue.path[0]);
      if (!firstByField.has(field)) firstByField.set(field, issue.message);
    }
    const errors = [...new Set(firstByField.values())];
    const e164 = rawPhone ? toE164(rawPhone, deps.defaultCountry) : null;
    if (rawPhone && !e164 && !errors.includes(contactMessages.phoneInvalid)) errors.push(contactMessages.phoneInvalid);
    const tags = normaliseTags(cell(columns.tags).split(/[;|]/));
    if (tags.length > 50) errors.push(contactMessages.tooManyTags);
    if (tags.some((t) => t.length > 50)) errors.push(contactMessages.tagTooLong);
    const data = parsed.success ? parsed.data : undefined;
    const row: ContactImportRow = {
      line: record.line,
      name: data?.name ?? cell(columns.name),
      phoneNumber: e164 ?? rawPhone,
      email: data?.email ?? cell(columns.email),
      tags,
      customFields: data?.customFields ?? customFields,
      status: errors.length ? 'error' : 'new',
      errors,
    };
    if (errors.length || !data || !e164) return { row };
    return {
      row,
      draft: {
        name: data.name,
        phoneNumber: e164,
        email: data.email,
        customFields: data.customFields,
        tags,
        notes: '',
        source: 'manual',
        isWAContact: false,
      },
    };
  }

  /** Parses and checks an import: per-row errors, duplicates inside the file and against existing contacts. */
  async function analyseImport(userId: string, csv: string) {
    const records = parseCsv(csv);
    const header = records.shift();
    if (!header) throw new ValidationError(contactMessages.csvRequired, 'csv');
    if (records.length > CONTACT_IMPORT_MAX_ROWS) throw new ValidationError(contactMessages.csvTooManyRows, 'csv');
    const columns = importColumns(header.fields);
    const checked = records.map((r) => validateImportRow(r, columns));
    const firstLineByPhone = new Map<string, number>();
    for (const entry of checked) {
      if (!entry.draft) continue;
      const seen = firstLineByPhone.get(entry.draft.phoneNumber);
      if (seen !== undefined) {
        entry.row.status = 'duplicate';
        entry.row.errors = [`Same phone number as line ${seen}`];
        entry.draft = undefined;
      } else firstLineByPhone.set(entry.draft.phoneNumber, entry.row.line);
    }
    const owners = await deps.contacts.phoneOwners(userId, [...firstLineByPhone.keys()]);
    if (owners.size > 0) {
      const existing = new Map((await deps.contacts.getMany(userId, [...new Set(owners.values())])).map((c) => [c.id, c]));
      for (const entry of checked) {
        const owner = entry.draft && owners.get(entry.draft.phoneNumber);
        if (!owner || !entry.draft) continue;
        markDuplicate(entry.row, owner, existing.get(owner)?.name || entry.draft.phoneNumber);
        entry.draft = undefined;
      }
    }
    return checked;
  }

  const markDuplicate = (row: ContactImportRow, existingContactId: string, label: string) => {
    row.status = 'duplicate';
    row.existingContactId = existingContactId;
    row.errors = [contactMessages.duplicate(label)];
  };

  const summarise = (rows: ContactImportRow[]) => ({
    total: rows.length,
    new: rows.filter((r) => r.status === 'new').length,
    duplicates: rows.filter((r) => r.status === 'duplicate').length,
    errors: rows.filter((r) => r.status === 'error').length,
  });

  return {
    async list(userId: string, query: ListContactsQuery): Promise<Omit<ContactListResponse, 'success'>> {
      const { page, limit, source } = query;
      const offset = (page - 1) * limit;
      let items: StoredContact[];
      let total: number;
      let searchTruncated = false;
      if (query.search) {
        const found = await searchIds(userId, query.search, source);
        total = found.ids.length;
        searchTruncated = found.truncated;
        items = await getOrdered(userId, found.ids.slice(offset, offset + limit));
      } else {
        ({ items, total } = await deps.contacts.page(userId, { source, offset, limit }));
      }
      const totalPages = Math.max(1, Math.ceil(total / limit));
      return {
        data: items.map(toContact),
        pagination: {
          currentPage: page,
          totalPages,
          limit,
          totalContacts: total,
          hasPrevPage: page > 1,
          hasNextPage: page < totalPages,
        },
        ...(searchTruncated ? { searchTruncated } : {}),
      };
    },

    async get(userId: string, id: string): Promise<Contact> {
      return toContact(await load(userId, id));
    },

    /** source 'api' when the caller used an API key (the public API), else 'manual'. */
    async create(userId: string, input: CreateContactRequest, source: ContactSource = 'manual'): Promise<Contact> {
      const draft: ContactDraft = {
        name: input.name,
        phoneNumber: phoneOrThrow(input.phoneNumber),
        email: input.email,
        customFields: input.customFields,
        tags: [],
        notes: '',
        source,
        isWAContact: false,
      };
      const [outcome] = await createMany(userId, [draft], true);
      if (outcome?.kind !== 'created') throw new Error('create did not create');
      return toContact(outcome.contact);
    },

    async update(userId: string, id: string, input: UpdateContactRequest): Promise<Contact> {
      const phoneNumber = phoneOrThrow(input.phoneNumber);
      for (let attempt = 0; ; attempt++) {
        const before = await load(userId, id);
        const name = input.name ?? before.name;
        const email = input.email ?? before.email;
        const fields = {
          name,
          shortName: input.name !== undefined ? shortNameOf(name) : before.shortName,
          phoneNumber,
          email,
          customFields: input.customFields ?? before.customFields,
          notes: input.metadata?.notes ?? before.notes,
          tags: input.metadata?.tags ?? before.tags,
        };
        const after: StoredContact = {
          ...before,
          ...fields,
          updatedAt: now().toISOString(),
          tokens: contactTokens({ name, email, phoneNumber }),
        };
        try {
          await deps.contacts.replace(userId, before, after);
          return toContact(after);
        } catch (error) {
          if (error instanceof DuplicatePhoneError) throw await duplicateError(userId, error.existingContactId, phoneNumber);
          if (error instanceof ContactChangedError && attempt < 2) continue;
          if (error instanceof ContactChangedError) throw new ConflictError('The contact was changed at the same time. Please try again.');
          throw error;
        }
      }
    },

    async remove(userId: string, id: string): Promise<void> {
      const contact = await load(userId, id);
      try {
        await deps.contacts.remove(userId, contact);
      } catch (error) {
        // Deleted meanwhile by another request: that request released the usage.
        if (error instanceof ContactChangedError) throw new NotFoundError(contactMessages.notFound);
        throw error;
      }
      await deps.usage.release(userId, 'contacts');
      // Conversations and calls stay; they only lose their link to the contact.
      await deps.links.unlinkContact(userId, id);
    },

    stats(userId: string): Promise<ContactStats> {
      return deps.contacts.stats(userId);
    },

    async previewImport(userId: string, csv: string): Promise<ContactImportPreview> {
      const rows = (await analyseImport(userId, csv)).map((c) => c.row);
      return { rows, summary: summarise(rows) };
    },

    async runImport(userId: string, csv: string): Promise<ContactImportResult> {
      const checked = await analyseImport(userId, csv);
      const importedAt = now().toISOString();
      const pending = checked.filter((c) => c.draft);
      const outcomes = await createMany(
        userId,
        pending.map((c) => ({ ...c.draft!, importedAt })),
        false,
      );
      pending.forEach((entry, i) => {
        const outcome = outcomes[i]!;
        if (outcome.kind === 'duplicate') markDuplicate(entry.row, outcome.existingContactId, entry.draft!.phoneNumber);
        else if (outcome.kind === 'error') {
          entry.row.status = 'error';
          entry.row.errors = [outcome.message];
        }
      });
      const rows = checked.map((c) => c.row);
      const summary = summarise(rows);
      return { created: summary.new, duplicates: summary.duplicates, errors: summary.errors, rows };
    },

    /** Every contact matching the filter, as CSV (name, phone, email, tags, then one column per custom field). */
    async exportCsv(userId: string, query: ExportContactsQuery): Promise<string> {
      const contacts: StoredContact[] = [];
      if (query.search) {
        const { ids } = await searchIds(userId, query.search, query.source);
        for (let i = 0; i < ids.length; i += EXPORT_PAGE) contacts.push(...(await getOrdered(userId, ids.slice(i, i + EXPORT_PAGE))));
      } else {
        for await (const page of deps.contacts.pages(userId, query.source, EXPORT_PAGE)) contacts.push(...page);
      }
      const customNames = [...new Set(contacts.flatMap((c) => Object.keys(c.customFields)))];
      const lines = [
        csvLine(['name', 'phone', 'email', 'tags', ...customNames].map((h) => csvCell(h))),
        ...contacts.map((c) =>
          csvLine([
            csvCell(c.name),
            csvCell(c.phoneNumber, { formulaSafe: false }),
            csvCell(c.email),
            csvCell(c.tags.join('|')),
            ...customNames.map((n) => csvCell(c.customFields[n] ?? '')),
          ]),
        ),
      ];
      return `${lines.join('\r\n')}\r\n`;
    },

    /**
     * Import from WhatsApp: a contact (source whatsapp_import, isWAContact) for every customer of
     * the user's conversations whose phone number is not in the directory yet, through the same
     * create path (plan limit reserved first: premium-gated like a manual add); the customers'
     * conversations are linked to their contact. Customers without a phone number are skipped.
     */
    async importFromWhatsApp(userId: string): Promise<WhatsAppImportResult> {
      if (!deps.whatsapp) throw new Error('importFromWhatsApp needs the WhatsApp customers port');
      const customers: WhatsAppCustomer[] = [];
      for await (const page of deps.whatsapp.customers(userId)) customers.push(...page);
      const byPhone = new Map<string, WhatsAppCustomer[]>();
      for (const customer of customers) {
        const phone = customer.phone ? toE164(customer.phone, deps.defaultCountry) : null;
        if (phone) byPhone.set(phone, [...(byPhone.get(phone) ?? []), customer]);
      }
      const owners = await deps.contacts.phoneOwners(userId, [...byPhone.keys()]);
      const missing = [...byPhone.keys()].filter((phone) => !owners.has(phone));
      const importedAt = now().toISOString();
      const drafts = missing.map(
        (phone): ContactDraft => ({
          name: byPhone.get(phone)!.find((c) => c.name)?.name.trim().slice(0, 100) ?? '',
          phoneNumber: phone,
          email: '',
          customFields: {},
          tags: [],
          notes: '',
          source: 'whatsapp_import',
          isWAContact: true,
          importedAt,
        }),
      );
      // Premium-gated even when there is nothing to add: reserving 0 checks the subscription (402).
      if (drafts.length === 0) await deps.usage.reserve(userId, 'contacts', 0);
      const outcomes = await createMany(userId, drafts, false);
      let imported = 0;
      outcomes.forEach((outcome, i) => {
        if (outcome.kind === 'created') {
          imported++;
          owners.set(missing[i]!, outcome.contact.id);
        } else if (outcome.kind === 'duplicate') owners.set(missing[i]!, outcome.existingContactId);
      });
      const links = [...byPhone].flatMap(([phone, list]) => {
        const contactId = owners.get(phone);
        return contactId ? list.filter((c) => c.contactId !== contactId).map((c) => ({ waId: c.waId, contactId })) : [];
      });
      await mapLimit(links, concurrency, async ({ waId, contactId }) => {
        try {
          await deps.whatsapp!.linkContact(userId, waId, contactId);
        } catch (error) {
          onError('linking WhatsApp conversations to a contact failed', error);
        }
      });
      return { imported, skipped: customers.length - imported };
    },

    /**
     * The contact of a customer who wrote on WhatsApp (the inbound worker): the contact holding
     * the phone number, or a new one (source whatsapp_import, isWAContact) through the create
     * path (plan limit reserved first). Null when none can be made (no subscription, the plan's
     * contact limit, a customer with no phone number… the message is stored anyway).
     */
    async upsertFromWhatsApp(userId: string, customer: { waId: string; phone: string; name: string }): Promise<string | null> {
      const phone = customer.phone ? toE164(customer.phone, deps.defaultCountry) : null;
      if (!phone) return null;
      const existing = (await deps.contacts.phoneOwners(userId, [phone])).get(phone);
      if (existing) return existing;
      const draft: ContactDraft = {
        name: customer.name.trim().slice(0, 100),
        phoneNumber: phone,
        email: '',
        customFields: {},
        tags: [],
        notes: '',
        source: 'whatsapp_import',
        isWAContact: true,
        importedAt: now().toISOString(),
      };
      const [outcome] = await createMany(userId, [draft], false);
      if (outcome?.kind === 'created') return outcome.contact.id;
      if (outcome?.kind === 'duplicate') return outcome.existingContactId;
      return null;
    },

    /** For tests and tools: does a stored contact match a query (the rule the index implements)? */
    matches(contact: Pick<StoredContact, 'tokens'>, search: string): boolean {
      return matchesAll(contact.tokens, searchTerms(search, deps.defaultCountry));
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;

interface ImportColumns {
  name?: number;
  phone?: number;
  email?: number;
  tags?: number;
  custom: { name: string; index: number }[];
}

const HEADER_ALIASES: Record<string, 'name' | 'phone' | 'email' | 'tags'> = {
  name: 'name',
  fullname: 'name',
  phone: 'phone',
  phonenumber: 'phone',
  mobile: 'phone',
  email: 'email',
  emailaddress: 'email',
  mail: 'email',
  tags: 'tags',
  tag: 'tags',
};

/** Header → column roles: name, phone (or phoneNumber), email, tags; any other named column is a custom field. */
export function importColumns(header: string[]): ImportColumns {
  const columns: ImportColumns = { custom: [] };
  header.forEach((raw, index) => {
    const title = raw.trim();
    const key = title.toLowerCase().replace(/[^a-z]/g, '');
    const role = HEADER_ALIASES[key];
    if (role && columns[role] === undefined) columns[role] = index;
    else if (title) columns.custom.push({ name: title, index });
  });
  if (columns.phone === undefined) throw new ValidationError(contactMessages.csvNoPhoneColumn, 'csv');
  return columns;
}

