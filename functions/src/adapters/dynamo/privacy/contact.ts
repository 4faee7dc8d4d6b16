/**
 * The `contact` step of a person's erasure and export (issue 33), the last one: the contact is
 * deleted through the contacts domain's own delete (its search tokens, phone guard, directory
 * counters and the plan's contacts usage stay right, and what still links to it is unlinked), and
 * the number's opt-out item (`OPTOUT#{e164}`) goes with it. Contacts hold no stored objects of
 * their own (a CSV import's or export's files belong to that job, not to a contact).
 */
import type { PersonDataCounts } from '../../../contract/privacy.js';
import type { Contact } from '../../../contract/contacts.js';
import { NotFoundError } from '../../../domain/errors.js';
import type { ExportWriter, OptOuts, PersonDataPart, PersonKey, StepOutcome } from '../../../domain/privacy/ports.js';

export interface ContactPartDeps {
  contacts: { get(accountId: string, id: string): Promise<Contact>; remove(accountId: string, id: string): Promise<void> };
  optOuts: Pick<OptOuts, 'get' | 'clear'>;
}

export class ContactPart implements PersonDataPart {
  readonly step = 'contact' as const;

  constructor(private readonly deps: ContactPartDeps) {}

  private async contact(person: PersonKey): Promise<Contact | null> {
    if (!person.contactId) return null;
    try {
      return await this.deps.contacts.get(person.accountId, person.contactId);
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  async count(person: PersonKey): Promise<Partial<PersonDataCounts>> {
    return { contacts: (await this.contact(person)) ? 1 : 0 };
  }

  async erase(person: PersonKey): Promise<StepOutcome> {
    let contacts = 0;
    if (person.contactId) {
      try {
        await this.deps.contacts.remove(person.accountId, person.contactId);
        contacts = 1;
      } catch (error) {
        // Deleted before (a retried step, or by the owner meanwhile): nothing left.
        if (!(error instanceof NotFoundError)) throw error;
      }
    }
    if (person.e164) await this.deps.optOuts.clear(person.accountId, person.e164);
    return { counts: { contacts }, done: true };
  }

  async export(person: PersonKey, out: ExportWriter): Promise<StepOutcome> {
    const [contact, optOut] = await Promise.all([this.contact(person), person.e164 ? this.deps.optOuts.get(person.accountId, person.e164) : null]);
    if (contact) await out.json('contact/contact.json', contact);
    if (optOut) await out.json('contact/opt-out.json', { phoneNumber: person.e164, ...optOut });
    return { counts: { contacts: contact ? 1 : 0 }, done: true };
  }
}
