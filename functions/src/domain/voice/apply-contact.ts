/**
 * Apply contact (beyond the spec; issue 17 made it field by field): the contact data the AI
 * analysis extracted from a call, offered to a contact. The target is the contact linked to the
 * call; when it was deleted or the call has none, the contact holding the caller's number;
 * otherwise a new contact is created with the caller's number (or the extracted phone when the
 * caller's number was withheld) through the contacts service (plan limit; source 'manual').
 *
 * - preview: one row per field the analysis would change (current → proposed; preselected only
 *   when the contact has no value), computed here so the screen never repeats the rule;
 * - apply: writes only the chosen fields (a field with no new value answers 400), links the call,
 *   and stores an undo record (valid once, APPLY_CONTACT_UNDO_MINUTES);
 * - undo: restores exactly the changed fields, or deletes the created contact, only when the
 *   contact was not changed again since (else 409, nothing changed; the token stays usable).
 *
 * Served by the contacts route group (it carries the contacts service), so only the texts of the
 * voice contract are imported here.
 */
import {
  APPLY_CONTACT_FIELDS,
  APPLY_CONTACT_UNDO_MINUTES,
  APPLY_CONTACT_WEB_FIELD,
  applyContactMessages,
  type ApplyContactField,
  type ApplyContactFieldPreview,
  type ApplyContactPreview,
  type ApplyContactResult,
  type UndoApplyContactResult,
} from '../../contract/apply-contact.js';
import { CONTACT_LIMITS, type Contact } from '../../contract/contacts.js';
import { E164_RE, voiceMessages } from '../../contract/voice-messages.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { CallContacts } from './calls.js';
import type { CallItems, StoredCall } from './ports.js';
import { toVoiceConversation } from './view.js';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Custom field names taken as the contact's website (compared lower-cased). */
const WEB_KEYS = ['web', 'website', 'sitio web', 'página web', 'pagina web'];

type Values = Partial<Record<ApplyContactField, string>>;

/** Fields a contact write changes; absent = kept (adapter: the contacts service's patch). */
export interface ContactFieldsPatch {
  name?: string;
  email?: string;
  /** '' = no number. */
  phoneNumber?: string;
  customFields?: Record<string, string>;
}

/** The contacts as apply-contact needs them (adapter: the contacts service and repository). */
export interface ApplyContacts extends Pick<CallContacts, 'existing' | 'idByPhone' | 'get'> {
  create(userId: string, input: { name: string; phoneNumber: string; email: string; customFields: Record<string, string> }): Promise<Contact>;
  /** Atomic read-check-write: `change` sees the stored contact and returns the fields to write, or throws to refuse. */
  patch(userId: string, id: string, change: (before: Contact) => ContactFieldsPatch): Promise<{ before: Contact; after: Contact }>;
  /** Deletes the contact when `guard` does not throw (conditional on that read). */
  removeIf(userId: string, id: string, guard: (contact: Contact) => void): Promise<void>;
  /** E.164 of a number as spoken or typed in the account's country (issue 19), or null. */
  toE164(userId: string, input: string): Promise<string | null>;
}

/** What one apply changed, kept to undo it once. */
export interface ApplyUndoRecord {
  token: string;
  callId: string;
  contactId: string;
  created: boolean;
  /** Each changed field's value before and after the apply. */
  previous: Values;
  applied: Values;
  /** The custom field the website went to. */
  webKey: string;
  /** The contact's updatedAt right after the apply (a created contact is untouched while it holds). */
  contactUpdatedAt: string;
  /** The call's contact link before the apply. */
  previousCallContact: StoredCall['contact'];
  /** ISO. */
  expiresAt: string;
}

/** Undo records (adapter: DynamoDB items with a TTL). */
export interface ApplyUndoStore {
  put(userId: string, record: ApplyUndoRecord): Promise<void>;
  /** Removes and returns the record of this call if it has not expired; null otherwise (so it is used once). */
  take(userId: string, token: string, callId: string, now: Date): Promise<ApplyUndoRecord | null>;
}

export interface ApplyContactDeps {
  calls: CallItems;
  contacts: ApplyContacts;
  undos: ApplyUndoStore;
  newToken: () => string;
  now?: () => Date;
}

/** The contact's custom field holding its website (an existing web/website field, else 'Web'). */
function webKeyOf(contact: Contact | null): string {
  const keys = Object.keys(contact?.customFields ?? {});
  return keys.find((k) => WEB_KEYS.includes(k.trim().toLowerCase())) ?? APPLY_CONTACT_WEB_FIELD;
}

function valueOf(contact: Contact | null, field: ApplyContactField, webKey: string): string {
  if (!contact) return '';
  if (field === 'web') return contact.customFields[webKey] ?? '';
  return contact[field] ?? '';
}

const same = (field: ApplyContactField, a: string, b: string) => (field === 'email' ? a.toLowerCase() === b.toLowerCase() : a === b);

/** What the analysis proposes for each field ('' = nothing usable). */
function proposedValues(call: StoredCall, spokenPhone: string): Record<ApplyContactField, string> {
  const extracted = call.summary!.contactExtracted;
  const email = extracted.email.trim().toLowerCase();
  const web = extracted.web.trim();
  return {
    name: extracted.name.trim().replace(/\s+/g, ' ').slice(0, CONTACT_LIMITS.name).trim(),
    email: EMAIL_RE.test(email) && email.length <= CONTACT_LIMITS.email ? email : '',
    phoneNumber: E164_RE.test(call.phoneNumber) ? call.phoneNumber : spokenPhone,
    web: web.length <= CONTACT_LIMITS.customFieldValue ? web : '',
  };
}

/** One row per field whose proposal differs from the contact's value. */
function rowsFor(proposed: Record<ApplyContactField, string>, contact: Contact | null): ApplyContactFieldPreview[] {
  const webKey = webKeyOf(contact);
  const webRoom = !contact || webKey in contact.customFields || Object.keys(contact.customFields).length < CONTACT_LIMITS.customFields;
  const rows: ApplyContactFieldPreview[] = [];
  for (const field of APPLY_CONTACT_FIELDS) {
    const value = proposed[field];
    const current = valueOf(contact, field, webKey);
    if (!value || same(field, current, value) || (field === 'web' && !webRoom)) continue;
    rows.push({ field, current, proposed: value, preselected: current === '', required: !contact && field === 'phoneNumber' });
  }
  return rows;
}

/** The chosen rows; a chosen field without a new value answers 400 (nothing is written). */
function chosen(rows: readonly ApplyContactFieldPreview[], fields: readonly ApplyContactField[]): Map<ApplyContactField, ApplyContactFieldPreview> {
  const byField = new Map(rows.map((r) => [r.field, r]));
  const out = new Map<ApplyContactField, ApplyContactFieldPreview>();
  for (const field of fields) {
    const row = byField.get(field);
    if (!row) throw new ValidationError(applyContactMessages.notProposed, 'fields');
    out.set(field, row);
  }
  for (const row of rows) if (row.required) out.set(row.field, row);
  return out;
}

export function createApplyContact(deps: ApplyContactDeps) {
  const now = deps.now ?? (() => new Date());

  async function load(userId: string, id: string): Promise<StoredCall> {
    const call = id && id.length <= 100 ? await deps.calls.get(userId, id) : null;
    if (!call) throw new NotFoundError(voiceMessages.callNotFound);
    return call;
  }

  /** The call with an analysis that found something, and what it proposes. */
  async function analysed(userId: string, id: string) {
    const call = await load(userId, id);
    if (!call.summary) throw new ValidationError(voiceMessages.noSummary);
    const spokenPhone = (await deps.contacts.toE164(userId, call.summary.contactExtracted.phone)) ?? '';
    const proposed = proposedValues(call, spokenPhone);
    if (!proposed.name && !proposed.email && !proposed.web && !spokenPhone) throw new ValidationError(voiceMessages.noExtractedContact);
    return { call, proposed };
  }

  /** The linked contact if it still exists, else the one holding the caller's number, else null. */
  async function targetOf(userId: string, call: StoredCall): Promise<Contact | null> {
    let contactId: string | null = null;
    const linked = call.contact?._id;
    if (linked && (await deps.contacts.existing(userId, [linked])).has(linked)) contactId = linked;
    if (!contactId && E164_RE.test(call.phoneNumber)) contactId = await deps.contacts.idByPhone(userId, call.phoneNumber);
    return contactId ? deps.contacts.get(userId, contactId) : null;
  }

  const refOf = (contact: Contact) => ({ _id: contact._id, name: contact.name, phoneNumber: contact.phoneNumber });

  return {
    async preview(userId: string, id: string): Promise<ApplyContactPreview> {
      const { call, proposed } = await analysed(userId, id);
      const contact = await targetOf(userId, call);
      return { contactId: contact?._id ?? null, contactName: contact?.name ?? '', fields: rowsFor(proposed, contact) };
    },

    async apply(userId: string, id: string, fields: readonly ApplyContactField[]): Promise<ApplyContactResult> {
      const { call, proposed } = await analysed(userId, id);
      const target = await targetOf(userId, call);
      let contact: Contact;
      let previous: Values = {};
      let applied: Values = {};
      let webKey = APPLY_CONTACT_WEB_FIELD;
      if (target) {
        // The rows are recomputed on the contact as written, so what is recorded as "before" is exact.
        const result = await deps.contacts.patch(userId, target._id, (before) => {
          webKey = webKeyOf(before);
          const rows = chosen(rowsFor(proposed, before), fields);
          const patch: ContactFieldsPatch = {};
          // Called again after a concurrent edit: start over.
          previous = {};
          applied = {};
          for (const [field, row] of rows) {
            previous[field] = row.current;
            applied[field] = row.proposed;
            if (field === 'web') patch.customFields = { ...before.customFields, [webKey]: row.proposed };
            else patch[field] = row.proposed;
          }
          return patch;
        });
        contact = result.after;
      } else {
        const rows = chosen(rowsFor(proposed, null), fields);
        const phone = rows.get('phoneNumber')?.proposed;
        if (!phone) throw new ValidationError(applyContactMessages.noPhoneForNew);
        for (const [field, row] of rows) applied[field] = row.proposed;
        contact = await deps.contacts.create(userId, {
          name: applied.name ?? '',
          phoneNumber: phone,
          email: applied.email ?? '',
          customFields: applied.web ? { [webKey]: applied.web } : {},
        });
      }
      const ref = refOf(contact);
      await deps.calls.setContact(userId, call.id, ref);
      const at = now();
      const record: ApplyUndoRecord = {
        token: deps.newToken(),
        callId: call.id,
        contactId: contact._id,
        created: !target,
        previous,
        applied,
        webKey,
        contactUpdatedAt: contact.updatedAt,
        previousCallContact: call.contact ?? null,
        expiresAt: new Date(at.getTime() + APPLY_CONTACT_UNDO_MINUTES * 60_000).toISOString(),
      };
      await deps.undos.put(userId, record);
      return {
        conversation: toVoiceConversation({ ...call, contact: ref }, new Set([contact._id])),
        contact,
        created: !target,
        applied: APPLY_CONTACT_FIELDS.filter((f) => f in applied),
        undo: { token: record.token, expiresAt: record.expiresAt, previous },
      };
    },

    async undo(userId: string, id: string, token: string): Promise<UndoApplyContactResult> {
      const call = await load(userId, id);
      const record = await deps.undos.take(userId, token, call.id, now());
      if (!record) throw new ConflictError(applyContactMessages.undoUnavailable);
      let contact: Contact | null = null;
      try {
        if (record.created) {
          await deps.contacts.removeIf(userId, record.contactId, (c) => {
            if (c.updatedAt !== record.contactUpdatedAt) throw new ConflictError(applyContactMessages.undoChanged);
          });
        } else {
          const result = await deps.contacts.patch(userId, record.contactId, (c) => {
            const patch: ContactFieldsPatch = {};
            for (const field of APPLY_CONTACT_FIELDS) {
              const appliedValue = record.applied[field];
              if (appliedValue === undefined) continue;
              if (!same(field, valueOf(c, field, record.webKey), appliedValue)) throw new ConflictError(applyContactMessages.undoChanged);
              const before = record.previous[field] ?? '';
              if (field === 'web') {
                const { [record.webKey]: _applied, ...rest } = patch.customFields ?? c.customFields;
                patch.customFields = before ? { ...rest, [record.webKey]: before } : rest;
              } else patch[field] = before;
            }
            return patch;
          });
          contact = result.after;
        }
      } catch (error) {
        // Not undone: the token stays usable (e.g. after the owner reverts their own edit).
        await deps.undos.put(userId, record).catch(() => undefined);
        if (error instanceof NotFoundError) throw new ConflictError(applyContactMessages.undoChanged);
        throw error;
      }
      // The call's link as it was, while it still points at the contact the apply set.
      let restored = call;
      if (call.contact?._id === record.contactId) {
        await deps.calls.setContact(userId, call.id, record.previousCallContact);
        restored = { ...call, contact: record.previousCallContact };
      }
      const live = await deps.contacts.existing(userId, restored.contact?._id ? [restored.contact._id] : []);
      return { conversation: toVoiceConversation(restored, live), contact, deleted: record.created };
    },
  };
}
