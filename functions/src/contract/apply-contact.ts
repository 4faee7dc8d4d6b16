/**
 * Apply to contact (issue 17): the contact data a call's AI analysis found, offered field by field.
 * GET …/apply-contact/preview shows what each field would become (current → proposed, from the
 * server's own rule); POST …/apply-contact writes only the chosen fields and answers an undo token
 * (valid once, APPLY_CONTACT_UNDO_MINUTES); POST …/apply-contact/undo restores exactly the changed
 * fields (or deletes the contact the apply created) unless they were changed again since.
 * Browser-safe: no Node imports.
 */
import * as z from 'zod/mini';
import './zod-locale.js';
import type { Contact } from './contacts.js';
import type { VoiceConversation } from './voice.js';

/** What the analysis can propose: its extracted name, e-mail, phone and website (a custom field). */
export const APPLY_CONTACT_FIELDS = ['name', 'email', 'phoneNumber', 'web'] as const;
export type ApplyContactField = (typeof APPLY_CONTACT_FIELDS)[number];

/** How long an apply can be undone. */
export const APPLY_CONTACT_UNDO_MINUTES = 10;

/** The custom field the extracted website goes to when the contact has none named web/website. */
export const APPLY_CONTACT_WEB_FIELD = 'Web';

export const applyContactMessages = {
  fieldsRequired: 'Choose at least one field to apply',
  fieldInvalid: 'Fields must be some of name, email, phoneNumber, web',
  notProposed: 'The AI analysis has no new value for one of the chosen fields. Reload and try again.',
  noPhoneForNew: 'The call has no phone number to create a contact with',
  tokenInvalid: 'Undo token is invalid',
  undone: 'The change to the contact was undone',
  undoUnavailable: `This change can no longer be undone (it was already undone or more than ${APPLY_CONTACT_UNDO_MINUTES} minutes have passed)`,
  undoChanged: 'The contact was changed again since; nothing was undone',
} as const;

/** One row of the preview: the contact's value now and the analysis's. */
export interface ApplyContactFieldPreview {
  field: ApplyContactField;
  /** '' when the contact has no value (or there is no contact yet). */
  current: string;
  proposed: string;
  /** Suggested choice: only fields the contact has no value for. */
  preselected: boolean;
  /** Always applied (a new contact needs its phone number). */
  required: boolean;
}

/** GET /api/voice-conversations/{id}/apply-contact/preview: data. No rows: nothing would change. */
export interface ApplyContactPreview {
  /** The contact the fields would be written to; null: a new contact would be created. */
  contactId: string | null;
  contactName: string;
  fields: ApplyContactFieldPreview[];
}

/** POST /api/voice-conversations/{id}/apply-contact. Unknown keys or fields answer 400. */
export const applyContactRequest = z.strictObject({
  fields: z
    .array(z.enum(APPLY_CONTACT_FIELDS, { error: applyContactMessages.fieldInvalid }), { error: applyContactMessages.fieldsRequired })
    .check(z.minLength(1, applyContactMessages.fieldsRequired), z.maxLength(APPLY_CONTACT_FIELDS.length * 2, applyContactMessages.fieldInvalid)),
});
export type ApplyContactRequest = z.infer<typeof applyContactRequest>;

/** What an apply changed, to undo it once. */
export interface ApplyContactUndo {
  token: string;
  /** ISO; after it the undo answers 409. */
  expiresAt: string;
  /** Each changed field's value before the apply ('' = none); empty for a created contact. */
  previous: Partial<Record<ApplyContactField, string>>;
}

/** POST …/apply-contact: data. */
export interface ApplyContactResult {
  conversation: VoiceConversation;
  contact: Contact;
  created: boolean;
  /** The fields that were written. */
  applied: ApplyContactField[];
  undo: ApplyContactUndo;
}

/** POST /api/voice-conversations/{id}/apply-contact/undo. */
export const undoApplyContactRequest = z.strictObject({
  token: z.string({ error: applyContactMessages.tokenInvalid }).check(z.regex(/^[A-Za-z0-9_-]{16,64}$/, applyContactMessages.tokenInvalid)),
});
export type UndoApplyContactRequest = z.infer<typeof undoApplyContactRequest>;

/** POST …/apply-contact/undo: data. `contact` is null when the undo deleted the contact the apply created. */
export interface UndoApplyContactResult {
  conversation: VoiceConversation;
  contact: Contact | null;
  deleted: boolean;
}
