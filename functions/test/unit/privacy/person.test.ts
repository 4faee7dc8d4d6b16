/**
 * Who a privacy request names (issue 33, domain/privacy/person.ts): a phone typed nationally or
 * with +34 is one person (and finds the contact owning it); a contact id of another account or
 * unknown is 404; a team member's phone or e-mail is refused with 409.
 */
import { describe, expect, it } from 'vitest';
import { contactMessages } from '../../../src/contract/contacts.js';
import { privacyMessages } from '../../../src/contract/privacy.js';
import { resolvePerson, type PersonResolverDeps } from '../../../src/domain/privacy/person.js';
import type { StoredContact } from '../../../src/domain/contacts/ports.js';
import type { MemberRecord } from '../../../src/domain/team/ports.js';

const contact = { id: 'C1', name: 'Ana López', phoneNumber: '+34612345678', email: 'ana@example.es' } as StoredContact;
const owner: MemberRecord = { personId: 'o', accountId: 'acc', role: 'owner', name: 'Clínica', email: 'clinica@example.es', phoneNumber: '+34911222333', language: 'es', joinedAt: '' };
const agent: MemberRecord = { personId: 'a', accountId: 'acc', role: 'agent', name: 'Marta', email: 'Marta@Example.es', phoneNumber: '', language: 'es', joinedAt: '' };

function deps(members: MemberRecord[] = [owner]): PersonResolverDeps {
  return {
    contacts: {
      get: async (accountId, id) => (accountId === 'acc' && id === contact.id ? contact : null),
      phoneOwners: async (accountId, phones) => new Map(accountId === 'acc' && phones.includes(contact.phoneNumber) ? [[contact.phoneNumber, contact.id]] : []),
    },
    accountCountry: async () => 'ES',
    members: { list: async () => members },
  };
}

describe('resolving the person of a privacy request', () => {
  it('reads a phone number in the account country: national and +34 forms are the same person, with their contact', async () => {
    const national = await resolvePerson(deps(), 'acc', { phoneNumber: '612 34 56 78' });
    const international = await resolvePerson(deps(), 'acc', { phoneNumber: '+34 612 34 56 78' });
    expect(national.key).toEqual({ accountId: 'acc', contactId: 'C1', e164: '+34612345678', waId: '34612345678' });
    expect(international.key).toEqual(national.key);
    expect(national.label).toBe('Ana López');
    // Someone never saved: the number alone.
    const stranger = await resolvePerson(deps(), 'acc', { phoneNumber: '699 00 11 22' });
    expect(stranger.key).toEqual({ accountId: 'acc', contactId: null, e164: '+34699001122', waId: '34699001122' });
    expect(stranger.label).toBe('+34 699001122');
  });

  it('a contact by id; an unknown or foreign contact is 404; an unreadable number is 400', async () => {
    expect((await resolvePerson(deps(), 'acc', { contactId: 'C1' })).key.e164).toBe('+34612345678');
    await expect(resolvePerson(deps(), 'acc', { contactId: 'NOPE' })).rejects.toMatchObject({ status: 404, message: contactMessages.notFound });
    await expect(resolvePerson(deps(), 'other', { contactId: 'C1' })).rejects.toMatchObject({ status: 404 });
    await expect(resolvePerson(deps(), 'acc', { phoneNumber: '12' })).rejects.toMatchObject({ status: 400 });
  });

  it('refuses a team member: their phone (in either form) or their e-mail on the contact', async () => {
    await expect(resolvePerson(deps(), 'acc', { phoneNumber: '911 22 23 33' })).rejects.toMatchObject({ status: 409, message: privacyMessages.personIsMember });
    await expect(resolvePerson(deps(), 'acc', { phoneNumber: '+34911222333' })).rejects.toMatchObject({ status: 409 });
    const marta = { ...agent, email: 'ANA@example.es' };
    await expect(resolvePerson(deps([owner, marta]), 'acc', { contactId: 'C1' })).rejects.toMatchObject({ status: 409, message: privacyMessages.personIsMember });
    // A member stored with a national-form phone still matches.
    const old = { ...agent, phoneNumber: '612 345 678' };
    await expect(resolvePerson(deps([owner, old]), 'acc', { phoneNumber: '+34612345678' })).rejects.toMatchObject({ status: 409 });
    // Nobody of the team: resolved.
    await expect(resolvePerson(deps([owner, agent]), 'acc', { contactId: 'C1' })).resolves.toMatchObject({ key: { contactId: 'C1' } });
  });
});
