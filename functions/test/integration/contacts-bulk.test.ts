/**
 * Issue 19: bulk delete and tag on the contacts list, and the list's tag and custom-field filters
 * (with their facets), through the local gateway against DynamoDB Local. Ids that are not the
 * caller's contacts are skipped and counted as `notFound`; nothing of another user is touched.
 */
import { describe, expect, it } from 'vitest';
import type { BulkDeleteContactsResult, BulkTagContactsResult, ContactFacets } from '../../src/contract/contacts-bulk.js';
import type { Contact, ContactStats } from '../../src/contract/contacts.js';
import { get, getItem, post } from '../support/api.js';
import { activeUser, addContact, createContact, listContacts, putContact } from '../support/contacts.js';

const stats = async (token: string) => (await get<ContactStats>('/api/contacts/stats', token)).body.data;
const bulkDelete = (token: string, body: unknown) => post<BulkDeleteContactsResult>('/api/contacts/bulk-delete', body, token);
const bulkTag = (token: string, body: unknown) => post<BulkTagContactsResult>('/api/contacts/bulk-tag', body, token);
const namesOf = (contacts: Contact[] | undefined) => (contacts ?? []).map((c) => c.name);

/** Spanish contacts: +34 6xx numbers, accents, a custom field "Ciudad". */
async function seed(token: string, people: { name: string; city?: string; tags?: string[] }[]): Promise<Contact[]> {
  const out: Contact[] = [];
  for (const [i, person] of people.entries()) {
    const contact = await addContact(token, {
      name: person.name,
      phoneNumber: `+34 600 111 ${String(300 + i).padStart(3, '0')}`,
      customFields: person.city ? { Ciudad: person.city } : {},
    });
    if (person.tags) {
      const res = await putContact(token, contact._id, { phoneNumber: contact.phoneNumber, metadata: { tags: person.tags } });
      expect(res.status).toBe(200);
      out.push(res.body.data!);
    } else out.push(contact);
  }
  return out;
}

describe('POST /api/contacts/bulk-delete', () => {
  it("deletes the caller's contacts in one call; unknown and another user's ids are counted as not found and left alone", async () => {
    const { token, userId } = await activeUser();
    const [muñoz, peña, keep] = await seed(token, [{ name: 'Lucía Muñoz' }, { name: 'Javier Peña' }, { name: 'Ana Ruiz' }]);
    const other = await activeUser();
    const foreign = await addContact(other.token, { name: 'Ajeno', phoneNumber: '+34 911 22 23 33' });

    const res = await bulkDelete(token, { ids: [muñoz!._id, peña!._id, muñoz!._id, foreign._id, '0000009999zzzzzz', 'nonsense'] });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Contacts deleted', data: { deleted: 2, notFound: 3 } });
    expect(namesOf((await listContacts(token)).body.data)).toEqual([keep!.name]);
    expect(await stats(token)).toEqual({ total: 1, withPhone: 1, waContacts: 0, myContacts: 1 });
    expect((await getItem(`USER#${userId}`, 'USAGE#CONTACTS'))?.count).toBe(1);
    // Search tokens and the phone guard went with them: no match, and the number can be added again.
    expect((await listContacts(token, { search: 'muñoz' })).body.data).toEqual([]);
    expect((await createContact(token, { name: 'Lucía Muñoz', phoneNumber: muñoz!.phoneNumber })).status).toBe(201);
    // The other user's contact is untouched.
    expect((await get(`/api/contacts/${foreign._id}`, other.token)).status).toBe(200);
    expect((await stats(other.token))?.total).toBe(1);
  });

  it.each([
    ['no ids', 'Select at least one contact', {}],
    ['empty ids', 'Select at least one contact', { ids: [] }],
    ['ids not a list', 'ids must be a list of contact ids', { ids: 'abc' }],
    ['an id not text', 'ids must be a list of contact ids', { ids: [12] }],
    ['501 ids', 'At most 500 contacts can be changed at once', { ids: Array.from({ length: 501 }, (_, i) => `id${i}`) }],
    ['an unknown field', 'Unknown field: all', { ids: ['a'], all: true }],
    ['a list body', 'The request body must be a JSON object', ['a']],
  ])('%s → 400 %s, nothing deleted', async (_label, message, body) => {
    const { token } = await activeUser();
    await seed(token, [{ name: 'Lucía Muñoz' }]);

    const res = await bulkDelete(token, body);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect((await stats(token))?.total).toBe(1);
  });
});

describe('POST /api/contacts/bulk-tag', () => {
  it('adds and removes tags case-insensitively, keeps contacts already right, refuses to pass the tag limit, skips foreign ids', async () => {
    const { token } = await activeUser();
    const [a, b, c, full] = await seed(token, [
      { name: 'Lucía Muñoz', tags: ['lead'] },
      { name: 'Javier Peña', tags: ['vip'] },
      { name: 'Ana Ruiz', tags: ['VIP', 'Paciente'] },
      { name: 'Llena', tags: Array.from({ length: 50 }, (_, i) => `t${i}`) },
    ]);
    const other = await activeUser();
    const foreign = (await seed(other.token, [{ name: 'Ajeno', tags: ['lead'] }]))[0]!;

    const res = await bulkTag(token, { ids: [a!._id, b!._id, c!._id, full!._id, foreign._id], add: [' VIP ', 'Paciente'], remove: ['LEAD'] });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Tags updated', data: { updated: 2, unchanged: 1, notFound: 1, tooManyTags: 1 } });
    const tagsOf = async (id: string, t = token) => (await get<Contact>(`/api/contacts/${id}`, t)).body.data?.metadata.tags;
    expect(await tagsOf(a!._id)).toEqual(['VIP', 'Paciente']);
    expect(await tagsOf(b!._id)).toEqual(['vip', 'Paciente']);
    expect(await tagsOf(c!._id)).toEqual(['VIP', 'Paciente']);
    expect(await tagsOf(full!._id)).toHaveLength(50);
    expect(await tagsOf(foreign._id, other.token)).toEqual(['lead']);

    const removed = await bulkTag(token, { ids: [a!._id, b!._id], remove: ['paciente'] });
    expect(removed.body.data).toEqual({ updated: 2, unchanged: 0, notFound: 0, tooManyTags: 0 });
    expect(await tagsOf(b!._id)).toEqual(['vip']);
  });

  it.each([
    [{ ids: ['a'] }, 'Give at least one tag to add or remove'],
    [{ ids: ['a'], add: ['  '] }, 'Give at least one tag to add or remove'],
    [{ ids: ['a'], add: ['x'.repeat(51)] }, 'Tags must be 50 characters or less'],
    [{ add: ['vip'] }, 'Select at least one contact'],
    [{ ids: ['a'], add: ['vip'], tags: ['x'] }, 'Unknown field: tags'],
  ])('%j → 400 %s', async (body, message) => {
    const { token } = await activeUser();

    const res = await bulkTag(token, body);

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
  });
});

describe('GET /api/contacts: tag and custom-field filters', () => {
  it('filters by tag and by custom field (with or without a value), case- and accent-insensitively, with exact pagination', async () => {
    const { token } = await activeUser();
    const people = [
      ...Array.from({ length: 7 }, (_, i) => ({ name: `Paciente ${i + 1}`, city: i % 2 ? 'Madrid' : 'Málaga', tags: ['Ortodoncia'] })),
      { name: 'Lucía Muñoz', city: 'madrid', tags: ['vip'] },
      { name: 'Sin Ciudad', tags: ['ortodóncia'] },
      { name: 'Javier Peña' },
    ];
    await seed(token, people);

    const page1 = await listContacts(token, { tag: 'ORTODONCIA', limit: 5 });
    const page2 = await listContacts(token, { tag: 'ortodoncia', limit: 5, page: 2 });

    expect(page1.status).toBe(200);
    expect(page1.body.pagination).toEqual({ currentPage: 1, totalPages: 2, limit: 5, totalContacts: 8, hasPrevPage: false, hasNextPage: true });
    expect(namesOf(page1.body.data)).toEqual(['Sin Ciudad', 'Paciente 7', 'Paciente 6', 'Paciente 5', 'Paciente 4']);
    expect(namesOf(page2.body.data)).toEqual(['Paciente 3', 'Paciente 2', 'Paciente 1']);
    expect(page2.body.pagination).toMatchObject({ currentPage: 2, totalContacts: 8, hasNextPage: false, hasPrevPage: true });
    expect(page1.body).not.toHaveProperty('filterTruncated');

    const madrid = await listContacts(token, { field: 'ciudad', value: 'MADRID' });
    expect(namesOf(madrid.body.data)).toEqual(['Lucía Muñoz', 'Paciente 6', 'Paciente 4', 'Paciente 2']);
    const malaga = await listContacts(token, { field: 'Ciudad', value: 'malaga' });
    expect(malaga.body.pagination?.totalContacts).toBe(4);
    const anyCity = await listContacts(token, { field: 'Ciudad', limit: 50 });
    expect(anyCity.body.pagination?.totalContacts).toBe(8);
    // Filters combine with each other and with the search.
    expect(namesOf((await listContacts(token, { tag: 'ortodoncia', field: 'Ciudad', value: 'Madrid' })).body.data)).toEqual(['Paciente 6', 'Paciente 4', 'Paciente 2']);
    expect(namesOf((await listContacts(token, { search: 'munoz', field: 'Ciudad', value: 'madrid' })).body.data)).toEqual(['Lucía Muñoz']);
    expect((await listContacts(token, { search: 'munoz', tag: 'ortodoncia' })).body.pagination?.totalContacts).toBe(0);
    expect((await listContacts(token, { tag: 'ortodoncia', source: 'api' })).body.data).toEqual([]);
    expect((await listContacts(token, { tag: 'nadie' })).body.pagination).toMatchObject({ totalContacts: 0, totalPages: 1 });
  });

  it('refuses a value without a field and over-long filters with a 400', async () => {
    const { token } = await activeUser();
    for (const [query, message] of [
      [{ value: 'Madrid' }, 'Choose a custom field to filter by its value'],
      [{ tag: 'x'.repeat(51) }, 'Tags must be 50 characters or less'],
      [{ field: 'x'.repeat(51) }, 'Custom field names must be 50 characters or less'],
    ] as const) {
      const res = await listContacts(token, query);
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });

  it('GET /api/contacts/facets lists the tags in use (most used first, counted case-insensitively) and the custom field names', async () => {
    const { token } = await activeUser();
    await seed(token, [
      { name: 'A', city: 'Madrid', tags: ['Ortodoncia', 'vip'] },
      { name: 'B', city: 'Sevilla', tags: ['ortodoncia'] },
      { name: 'C', tags: ['Implantes'] },
    ]);
    await addContact(token, { name: 'D', phoneNumber: '+34 600 999 000', customFields: { Seguro: 'Sanitas' } });

    const res = await get<ContactFacets>('/api/contacts/facets', token);

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      tags: [
        { tag: 'ortodoncia', count: 2 },
        { tag: 'Implantes', count: 1 },
        { tag: 'vip', count: 1 },
      ],
      fields: ['Ciudad', 'Seguro'],
      truncated: false,
    });
    expect((await get<ContactFacets>('/api/contacts/facets', (await activeUser()).token)).body.data).toEqual({ tags: [], fields: [], truncated: false });
  });
});
