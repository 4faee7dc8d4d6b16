/**
 * Who a privacy request names (issue 33): a contact of the account, or a phone number typed in
 * any form the account's country reads ("612 34 56 78" and "+34 612 34 56 78" are one person, and
 * the contact owning that number is found through its phone guard). A member of the team is never
 * erased or exported as a customer: their phone or e-mail refuses the request.
 */
import { contactMessages } from '../../contract/contacts.js';
import { privacyMessages, type PersonRefRequest } from '../../contract/privacy.js';
import { phoneForSheet, phoneInvalidFor, toE164 } from '../contacts/text.js';
import type { ContactRepository } from '../contacts/ports.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { TeamMembers } from '../team/ports.js';
import type { PersonKey } from './ports.js';

export interface PersonResolverDeps {
  contacts: Pick<ContactRepository, 'get' | 'phoneOwners'>;
  /** The account's country (phones typed without a prefix). */
  accountCountry(accountId: string): Promise<string>;
  members: Pick<TeamMembers, 'list'>;
}

export interface ResolvedPerson {
  key: PersonKey;
  /** The contact's name, when saved. */
  name: string | null;
  email: string | null;
  /** What the dashboard shows while a job runs: the name, else the number. */
  label: string;
}

/** WhatsApp's id of a number: its E.164 digits without '+'. */
export const waIdOf = (e164: string): string => e164.replace(/^\+/, '');

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export async function resolvePerson(deps: PersonResolverDeps, accountId: string, ref: PersonRefRequest): Promise<ResolvedPerson> {
  let country: Promise<string> | null = null;
  const countryOf = () => (country ??= deps.accountCountry(accountId));
  let contactId: string | null = null;
  let e164: string | null = null;
  let name: string | null = null;
  let email: string | null = null;
  if (ref.contactId) {
    const contact = await deps.contacts.get(accountId, ref.contactId);
    if (!contact) throw new NotFoundError(contactMessages.notFound);
    contactId = contact.id;
    e164 = contact.phoneNumber || null;
    name = contact.name || null;
    email = contact.email || null;
  } else {
    const typedIn = await countryOf();
    e164 = toE164(ref.phoneNumber ?? '', typedIn);
    if (!e164) throw new ValidationError(phoneInvalidFor(typedIn), 'phoneNumber');
    const owner = (await deps.contacts.phoneOwners(accountId, [e164])).get(e164);
    if (owner) {
      const contact = await deps.contacts.get(accountId, owner);
      if (contact) {
        contactId = contact.id;
        name = contact.name || null;
        email = contact.email || null;
      }
    }
  }
  await refuseMember(deps, accountId, countryOf, e164, email);
  return {
    key: { accountId, contactId, e164, waId: e164 ? waIdOf(e164) : null },
    name,
    email,
    label: name || (e164 ? phoneForSheet(e164) : contactId ?? ''),
  };
}

/** 409 when the number or e-mail is a member's of the account (their own data is theirs to change, not a customer's). */
async function refuseMember(deps: PersonResolverDeps, accountId: string, countryOf: () => Promise<string>, e164: string | null, email: string | null): Promise<void> {
  if (!e164 && !email) return;
  const members = await deps.members.list(accountId);
  const withPhone = members.filter((m) => m.phoneNumber);
  // A profile phone is stored E.164; one typed before that is read in the account's country.
  const country = e164 && withPhone.length ? await countryOf() : '';
  for (const m of members) {
    const phone = e164 && m.phoneNumber ? toE164(m.phoneNumber, country) : null;
    if ((e164 && phone === e164) || (email && m.email && sameEmail(m.email, email))) throw new ConflictError(privacyMessages.personIsMember);
  }
}
