/**
 * Apply contact (beyond the spec): the contact data the AI analysis extracted from a call written
 * to a contact. The target is the contact linked to the call; when it was deleted or the call has
 * none, the contact holding the caller's number; otherwise a new contact is created with the
 * caller's number (or the extracted phone when the caller's number was withheld) through the
 * contacts service (plan limit; source 'manual': the user created it with the button). Extracted
 * name and e-mail overwrite the contact's when not empty (an invalid e-mail is ignored); the call
 * is then linked to the contact. Served by the contacts route group (it carries the contacts
 * service), so only the texts of the voice contract are imported here.
 */
import type { Contact } from '../../contract/contacts.js';
import type { VoiceConversation } from '../../contract/voice.js';
import { E164_RE, voiceMessages } from '../../contract/voice-messages.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { CallContacts } from './calls.js';
import type { CallRepository, StoredCall } from './ports.js';
import { toVoiceConversation } from './view.js';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function createApplyContact(deps: { calls: CallRepository; contacts: CallContacts }) {
  async function load(userId: string, id: string): Promise<StoredCall> {
    const call = id && id.length <= 100 ? await deps.calls.get(userId, id) : null;
    if (!call) throw new NotFoundError(voiceMessages.callNotFound);
    return call;
  }
  return {
    async apply(userId: string, id: string): Promise<{ conversation: VoiceConversation; contact: Contact; created: boolean }> {
      const call = await load(userId, id);
      if (!call.summary) throw new ValidationError(voiceMessages.noSummary);
      const extracted = call.summary.contactExtracted;
      const name = extracted.name.trim().slice(0, 100);
      const email = EMAIL_RE.test(extracted.email.trim()) ? extracted.email.trim().toLowerCase() : '';
      if (!name && !email) throw new ValidationError(voiceMessages.noExtractedContact);

      let contactId: string | null = null;
      const linked = call.contact?._id;
      if (linked && (await deps.contacts.existing(userId, [linked])).has(linked)) contactId = linked;
      if (!contactId && E164_RE.test(call.phoneNumber)) contactId = await deps.contacts.idByPhone(userId, call.phoneNumber);

      let contact: Contact | null = contactId ? await deps.contacts.get(userId, contactId) : null;
      let created = false;
      if (contact) {
        contact = await deps.contacts.update(userId, contact._id, {
          ...(name ? { name } : {}),
          ...(email ? { email } : {}),
          phoneNumber: contact.phoneNumber || call.phoneNumber,
        });
      } else {
        const phone = E164_RE.test(call.phoneNumber) ? call.phoneNumber : extracted.phone.trim();
        contact = await deps.contacts.create(userId, { name, phoneNumber: phone, email });
        created = true;
      }
      const ref = { _id: contact._id, name: contact.name, phoneNumber: contact.phoneNumber };
      await deps.calls.setContact(userId, call.id, ref);
      const updated = { ...call, contact: ref };
      return { conversation: toVoiceConversation(updated, new Set([contact._id])), contact, created };
    },
  };
}
