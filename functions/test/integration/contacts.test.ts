/**
 * Contacts API through the local gateway against DynamoDB Local: validation rules and messages,
 * E.164 normalisation, one phone number per contact, pagination edges, accent- and
 * format-insensitive search, counters, ownership (a foreign id is a 404) and plan limits.
 */
import { describe, expect, it } from 'vitest';
import type { Contact, ContactStats } from '../../src/contract/contacts.js';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { api, db, get, getItem, itemsOf, registerUser, tableName } from '../support/api.js';
import {
  activeUser,
  addContact,
  createContact,
  deleteContact,
  listContacts,
  putContact,
  setContactsUsage,
} from '../support/contacts.js';

const stats = async (token: string) => (await get<ContactStats>('/api/contacts/stats', token)).body.data;

describe('POST /api/contacts: validation', () => {
  it.each([
    [{}, 'Phone number is required'],
    [{ phoneNumber: '   ' }, 'Phone number is required'],
    [{ phoneNumber: 12345 }, 'Phone number is required'],
    [{ phoneNumber: 'call me' }, 'Please enter a valid phone number'],
    [{ phoneNumber: '12345' }, 'Please enter a valid phone number'],
    // Shaped like a number but not one: the message names how a number is typed in the account's country (issue 19; US by default).
    [{ phoneNumber: '+1 000 000 0000' }, 'Please enter a valid phone number, e.g. (201) 555-0123 or +1 201 555 0123'],
    [{ phoneNumber: '+34 612 34 56 78', email: 'not-an-email' }, 'Invalid email address'],
    [{ phoneNumber: '+34 612 34 56 78', name: 'x'.repeat(101) }, 'Name must be 100 characters or less'],
    [{ phoneNumber: '+34 612 34 56 78', customFields: 'vip' }, 'Custom fields must be a list of {name, value} or an object of text values'],
  ])('%j → 400 %s', async (body, message) => {
    const { token } = await activeUser();
    const res = await createContact(token, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message });
    expect((await stats(token))?.total).toBe(0);
  });

  it('creates a manual contact: trimmed, E.164, custom fields normalised (empty dropped, last value of a repeated name wins)', async () => {
    const { token, userId } = await activeUser();
    const res = await createContact(token, {
      name: '  José  García ',
      phoneNumber: ' (415) 555-0123 ',
      email: ' jose@example.com ',
      customFields: [
        { name: ' plan ', value: 'gold' },
        { name: 'empty', value: '   ' },
        { name: '  ', value: 'nameless' },
        { name: 'plan', value: ' platinum ' },
        { name: 'city', value: 'Madrid' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Contact added successfully');
    const contact = res.body.data!;
    expect(contact).toMatchObject({
      name: 'José  García',
      shortName: 'José',
      phoneNumber: '+14155550123',
      email: 'jose@example.com',
      customFields: { plan: 'platinum', city: 'Madrid' },
      source: 'manual',
      isWAContact: false,
      metadata: { notes: '', tags: [] },
    });
    expect(contact._id).toMatch(/^\d{10}[a-z0-9]{6}$/);
    expect(contact.createdAt).toBe(contact.updatedAt);
    // The object form is accepted too.
    const other = await addContact(token, { phoneNumber: '+14155550124', customFields: { tier: ' 2 ', blank: '' } });
    expect(other.customFields).toEqual({ tier: '2' });
    // Stored with its phone guard and counted.
    expect((await getItem(`USER#${userId}`, 'PHONE#+14155550123'))?.contactId).toBe(contact._id);
    expect(await stats(token)).toEqual({ total: 2, withPhone: 2, waContacts: 0, myContacts: 2 });
    expect((await getItem(`USER#${userId}`, 'USAGE#CONTACTS'))?.count).toBe(2);
  });

  it.each([
    ['(415) 555-0123', '+14155550123'],
    ['415.555.0123', '+14155550123'],
    ['1-202-555-0123', '+12025550123'],
    ['+1 202 555 0123', '+12025550123'],
    ['+44 20 7946 0958', '+442079460958'],
    ['0044 20 7946 0958', '+442079460958'],
    ['+34 612-34-56-78', '+34612345678'],
    ['+52 55 1234 5678', '+525512345678'],
  ])('normalises %s to %s (default country US)', async (input, e164) => {
    const { token } = await activeUser();
    expect((await addContact(token, { phoneNumber: input })).phoneNumber).toBe(e164);
  });
});

describe('one phone number per contact', () => {
  it('refuses the same number in another format with a 409 naming the existing contact', async () => {
    const { token, userId } = await activeUser();
    const first = await addContact(token, { name: 'Ana Pérez', phoneNumber: '+1 415 555 0100' });

    const res = await createContact(token, { name: 'Someone else', phoneNumber: '(415) 555-0100' });

    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      message: 'A contact with this phone number already exists: Ana Pérez',
      existingContactId: first._id,
    });
    expect((await stats(token))?.total).toBe(1);
    // The refused create gave its plan reservation back.
    expect((await getItem(`USER#${userId}`, 'USAGE#CONTACTS'))?.count).toBe(1);
  });

  it('names the existing contact by its phone number when it has no name; other users may share the number', async () => {
    const { token } = await activeUser();
    const first = await addContact(token, { phoneNumber: '+14155550101' });
    const res = await createContact(token, { phoneNumber: '4155550101' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A contact with this phone number already exists: +14155550101');
    expect(res.body.existingContactId).toBe(first._id);

    const other = await activeUser();
    expect((await createContact(other.token, { phoneNumber: '+14155550101' })).status).toBe(201);
  });

  it('allows only one of two concurrent creates with the same number', async () => {
    const { token } = await activeUser();
    const results = await Promise.all(Array.from({ length: 5 }, () => createContact(token, { phoneNumber: '+14155550102' })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    expect((await stats(token))?.total).toBe(1);
  });
});

describe('PUT /api/contacts/{id}', () => {
  it('trims name, phone and notes; tags trimmed, empty and case-insensitive duplicates dropped; the phone guard moves', async () => {
    const { token, userId } = await activeUser();
    const contact = await addContact(token, { name: 'Ana', phoneNumber: '+14155550110', customFields: { a: '1' } });

    const res = await putContact(token, contact._id, {
      name: '  Ana María ',
      phoneNumber: ' +1 (415) 555-0111 ',
      email: 'ana@example.com',
      customFields: [{ name: 'b', value: '2' }],
      metadata: { notes: '  call after 5  ', tags: [' VIP ', 'vip', '', '  ', 'lead', 'Lead'] },
    });

    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Contact updated successfully');
    expect(res.body.data).toMatchObject({
      _id: contact._id,
      name: 'Ana María',
      shortName: 'Ana',
      phoneNumber: '+14155550111',
      email: 'ana@example.com',
      customFields: { b: '2' },
      metadata: { notes: 'call after 5', tags: ['VIP', 'lead'] },
      createdAt: contact.createdAt,
    });
    expect((await get<Contact>(`/api/contacts/${contact._id}`, token)).body.data).toEqual(res.body.data);
    expect(await getItem(`USER#${userId}`, 'PHONE#+14155550110')).toBeUndefined();
    expect((await getItem(`USER#${userId}`, 'PHONE#+14155550111'))?.contactId).toBe(contact._id);
    // The old number is free again; the new one is taken.
    expect((await createContact(token, { phoneNumber: '+14155550110' })).status).toBe(201);
    expect((await createContact(token, { phoneNumber: '+14155550111' })).status).toBe(409);
    // Search follows the edit.
    expect((await listContacts(token, { search: 'maria' })).body.data?.map((c) => c._id)).toEqual([contact._id]);
  });

  it('validates like create and refuses another contact\'s number with a 409', async () => {
    const { token } = await activeUser();
    const a = await addContact(token, { name: 'A', phoneNumber: '+14155550120' });
    const b = await addContact(token, { name: 'B', phoneNumber: '+14155550121' });
    expect((await putContact(token, b._id, { name: 'B' })).body).toMatchObject({ message: 'Phone number is required' });
    expect((await putContact(token, b._id, { phoneNumber: 'abc' })).body.message).toBe('Please enter a valid phone number');
    expect((await putContact(token, b._id, { phoneNumber: '+14155550121', email: 'x@' })).body.message).toBe('Invalid email address');
    const dup = await putContact(token, b._id, { phoneNumber: '(415) 555-0120' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ message: 'A contact with this phone number already exists: A', existingContactId: a._id });
    expect((await get<Contact>(`/api/contacts/${b._id}`, token)).body.data?.phoneNumber).toBe('+14155550121');
  });
});

describe('ownership', () => {
  it("answers 404 'Contact not found' for another user's contact on get, update and delete, and changes nothing", async () => {
    const owner = await activeUser();
    const contact = await addContact(owner.token, { name: 'Private', phoneNumber: '+14155550130' });
    const stranger = await activeUser();

    const read = await get(`/api/contacts/${contact._id}`, stranger.token);
    const update = await putContact(stranger.token, contact._id, { name: 'Hacked', phoneNumber: '+14155550131' });
    const remove = await deleteContact(stranger.token, contact._id);

    for (const res of [read, update, remove]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, message: 'Contact not found' });
    }
    expect((await get<Contact>(`/api/contacts/${contact._id}`, owner.token)).body.data?.name).toBe('Private');
    expect((await get('/api/contacts/0000000001zzzzzz', owner.token)).status).toBe(404);
    expect((await get('/api/contacts/not-an-id', owner.token)).status).toBe(404);
  });

  it('needs a token', async () => {
    expect((await get('/api/contacts')).status).toBe(401);
  });
});

describe('DELETE /api/contacts/{id}', () => {
  it('deletes the contact, its phone guard and search tokens, decrements stats and releases the plan reservation', async () => {
    const { token, userId } = await activeUser();
    const keep = await addContact(token, { name: 'Keep', phoneNumber: '+14155550140' });
    const gone = await addContact(token, { name: 'Gone Zebra', phoneNumber: '+14155550141', email: 'z@example.com' });

    const res = await deleteContact(token, gone._id);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Contact deleted successfully' });
    expect((await get(`/api/contacts/${gone._id}`, token)).status).toBe(404);
    expect((await deleteContact(token, gone._id)).status).toBe(404);
    expect(await stats(token)).toEqual({ total: 1, withPhone: 1, waContacts: 0, myContacts: 1 });
    expect((await getItem(`USER#${userId}`, 'USAGE#CONTACTS'))?.count).toBe(1);
    expect(await getItem(`USER#${userId}`, 'PHONE#+14155550141')).toBeUndefined();
    expect((await itemsOf(`USER#${userId}#TOK`)).filter((t) => String(t.sk).endsWith(gone._id))).toEqual([]);
    expect((await listContacts(token, { search: 'zebra' })).body.data).toEqual([]);
    expect((await listContacts(token)).body.data?.map((c) => c._id)).toEqual([keep._id]);
  });
});

describe('GET /api/contacts: pagination', () => {
  it('pages newest first; last page, a page beyond the end (empty, correct totals) and bad parameters', async () => {
    const { token } = await activeUser();
    const created: Contact[] = [];
    for (let i = 0; i < 12; i++) created.push(await addContact(token, { name: `Person ${i}`, phoneNumber: `+1415555${String(200 + i).padStart(4, '0')}` }));
    const newestFirst = created.map((c) => c._id).reverse();

    const first = await listContacts(token, { limit: 5 });
    expect(first.status).toBe(200);
    expect(first.body.data?.map((c) => c._id)).toEqual(newestFirst.slice(0, 5));
    expect(first.body.pagination).toEqual({ currentPage: 1, totalPages: 3, limit: 5, totalContacts: 12, hasPrevPage: false, hasNextPage: true });

    const last = await listContacts(token, { limit: 5, page: 3 });
    expect(last.body.data?.map((c) => c._id)).toEqual(newestFirst.slice(10));
    expect(last.body.pagination).toMatchObject({ currentPage: 3, totalPages: 3, hasPrevPage: true, hasNextPage: false });

    const beyond = await listContacts(token, { limit: 5, page: 9 });
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.pagination).toEqual({ currentPage: 9, totalPages: 3, limit: 5, totalContacts: 12, hasPrevPage: true, hasNextPage: false });

    const byDefault = await listContacts(token);
    expect(byDefault.body.pagination).toMatchObject({ limit: 10, totalPages: 2 });
    expect(byDefault.body.data).toHaveLength(10);
    expect((await listContacts(token, { limit: 25 })).body.data).toHaveLength(12);

    for (const limit of ['7', '0', '100', 'ten', '10.0']) {
      const res = await listContacts(token, { limit });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Limit must be one of 5, 10, 25, 50');
    }
    for (const page of ['0', '-1', '1.5', 'two']) {
      const res = await listContacts(token, { page });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Page must be a positive whole number');
    }
    const badSource = await listContacts(token, { source: 'whatsapp' });
    expect(badSource.status).toBe(400);
    expect(badSource.body.message).toBe('Source must be one of manual, whatsapp_import, api');
  });

  it('filters by source with its own totals; an empty list has one page', async () => {
    const { token } = await activeUser();
    const empty = await listContacts(token);
    expect(empty.body).toMatchObject({ data: [], pagination: { currentPage: 1, totalPages: 1, totalContacts: 0, hasNextPage: false } });
    await addContact(token, { phoneNumber: '+14155550300' });
    await addContact(token, { phoneNumber: '+14155550301' });
    const manual = await listContacts(token, { source: 'manual', limit: 5 });
    expect(manual.body.data).toHaveLength(2);
    expect(manual.body.pagination?.totalContacts).toBe(2);
    const api = await listContacts(token, { source: 'api' });
    expect(api.body).toMatchObject({ data: [], pagination: { totalContacts: 0, totalPages: 1 } });
  });
});

describe('GET /api/contacts: search', () => {
  it('matches name, phone (with or without formatting) and e-mail, case- and accent-insensitively', async () => {
    const { token } = await activeUser();
    const jose = await addContact(token, { name: 'José Álvarez', phoneNumber: '+1 (415) 555-0400', email: 'pepe.alvarez@acme.io' });
    const joseph = await addContact(token, { name: 'JOSEPH Núñez', phoneNumber: '+34 612 34 56 78' });
    const maria = await addContact(token, { name: 'María', phoneNumber: '+14155550401', email: 'maria@example.com' });
    const ids = async (search: string) => (await listContacts(token, { search })).body.data?.map((c) => c._id);

    expect(await ids('jose')).toEqual([joseph._id, jose._id]); // word prefix: José and JOSEPH
    expect(await ids('JOSÉ álv')).toEqual([jose._id]);
    expect(await ids('alvarez')).toEqual([jose._id]);
    expect(await ids('nunez')).toEqual([joseph._id]);
    expect(await ids('MARIA')).toEqual([maria._id]);
    expect(await ids('(415) 555-0400')).toEqual([jose._id]);
    expect(await ids('415-555-04')).toEqual([maria._id, jose._id]);
    expect(await ids('4155550401')).toEqual([maria._id]);
    expect(await ids('+14155550401')).toEqual([maria._id]);
    expect(await ids('0401')).toEqual([maria._id]);
    expect(await ids('612 34 56 78')).toEqual([joseph._id]);
    expect(await ids('maria@example')).toEqual([maria._id]);
    expect(await ids('acme.io')).toEqual([jose._id]);
    expect(await ids('pepe')).toEqual([jose._id]);
    expect(await ids('nobody')).toEqual([]);

    const res = await listContacts(token, { search: 'jose', limit: 5, source: 'manual' });
    expect(res.body.pagination).toEqual({ currentPage: 1, totalPages: 1, limit: 5, totalContacts: 2, hasPrevPage: false, hasNextPage: false });
    expect((await listContacts(token, { search: 'jose', source: 'api' })).body.data).toEqual([]);
    expect((await listContacts(token, { search: 'jose', page: 2, limit: 5 })).body).toMatchObject({ data: [], pagination: { totalContacts: 2 } });
  });

  it('in a Spanish account finds a number by how it begins (national, +34, 0034) or ends, within a source', async () => {
    const { token } = await activeUser();
    expect((await api('PUT', '/api/user/profile', { token, body: { name: 'Clínica Peña', language: 'es', country: 'ES' } })).status).toBe(200);
    const lucia = await addContact(token, { name: 'Lucía Muñoz', phoneNumber: '600 111 333' });
    const pedro = await addContact(token, { name: 'Pedro Peña', phoneNumber: '911 22 23 33' });
    const ids = async (search: string, source?: string) => (await listContacts(token, { search, ...(source ? { source } : {}) })).body.data?.map((c) => c._id);

    expect(await ids('600 111')).toEqual([lucia._id]);
    expect(await ids('600111333')).toEqual([lucia._id]);
    expect(await ids('+34 600')).toEqual([lucia._id]);
    expect(await ids('0034 911')).toEqual([pedro._id]);
    expect(await ids('3460')).toEqual([lucia._id]); // with the country code, without +
    expect(await ids('333')).toEqual([]); // three digits: only a beginning, and no number begins so
    expect(await ids('1333')).toEqual([lucia._id]); // the end
    expect(await ids('2333')).toEqual([pedro._id]);
    expect(await ids('600 111', 'manual')).toEqual([lucia._id]);
    expect(await ids('600 111', 'api')).toEqual([]);
    expect(await ids('1113')).toEqual([]); // digits inside a number are not indexed
  });

  it('still finds contacts indexed before issue 19 (a token per suffix of the number, a phone guard without source)', async () => {
    const { token, userId } = await activeUser();
    const old = await addContact(token, { name: 'Elena Vieja', phoneNumber: '+34 612 00 11 22' });
    const tokenPk = `USER#${userId}#TOK`;
    const current = (await itemsOf(tokenPk)).filter((t) => String(t.sk).endsWith(`#${old._id}`));
    const suffixes = Array.from({ length: '34612001122'.length - 3 }, (_, i) => '34612001122'.slice(i));
    const legacyTokens = ['elena', 'vieja', ...suffixes];
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          ...current.filter((t) => !legacyTokens.some((l) => t.sk === `${l}#${old._id}`)).map((t) => ({ Delete: { TableName: tableName(), Key: { pk: tokenPk, sk: t.sk } } })),
          ...legacyTokens.map((t) => ({ Put: { TableName: tableName(), Item: { pk: tokenPk, sk: `${t}#${old._id}`, src: 'manual', entity: 'contactToken' } } })),
          { Update: { TableName: tableName(), Key: { pk: `USER#${userId}`, sk: 'PHONE#+34612001122' }, UpdateExpression: 'REMOVE src' } },
          { Update: { TableName: tableName(), Key: { pk: `USER#${userId}`, sk: `CONTACT#${old._id}` }, UpdateExpression: 'SET tokens = :t', ExpressionAttributeValues: { ':t': legacyTokens } } },
        ],
      }),
    );
    const ids = async (search: string, source?: string) => (await listContacts(token, { search, ...(source ? { source } : {}) })).body.data?.map((c) => c._id);

    for (const q of ['612 00', '1122', '0011', '+34 612', 'elena']) expect(await ids(q), q).toEqual([old._id]);
    expect(await ids('612 00', 'manual')).toEqual([old._id]); // through its old tokens, which carry the source
    // Deleting it removes exactly the tokens it was written with.
    expect((await deleteContact(token, old._id)).status).toBe(200);
    expect((await itemsOf(tokenPk)).filter((t) => String(t.sk).endsWith(`#${old._id}`))).toEqual([]);
  });

  it("never finds another user's contacts", async () => {
    const owner = await activeUser();
    await addContact(owner.token, { name: 'Unique Quetzalcoatl', phoneNumber: '+14155550500' });
    const stranger = await activeUser();
    expect((await listContacts(stranger.token, { search: 'quetzal' })).body.data).toEqual([]);
    expect((await listContacts(owner.token, { search: 'quetzal' })).body.data).toHaveLength(1);
  });
});

describe('plan limits', () => {
  it('refuses a create without an active subscription (402) and beyond the plan limit (403), writing nothing', async () => {
    const { session } = await registerUser();
    const none = await createContact(session.token, { phoneNumber: '+14155550600' });
    expect(none.status).toBe(402);
    expect(none.body.message).toBe('An active subscription is required');

    const { token, userId } = await activeUser('starter');
    await setContactsUsage(userId, 500);
    const over = await createContact(token, { phoneNumber: '+14155550601' });
    expect(over.status).toBe(403);
    expect(over.body.message).toBe('Contact limit reached: your plan allows 500 contacts. Upgrade your plan to add more.');
    expect(await getItem(`USER#${userId}`, 'PHONE#+14155550601')).toBeUndefined();
    expect((await stats(token))?.total).toBe(0);
  });
});

describe('GET /api/contacts/stats', () => {
  it('answers the counters', async () => {
    const { token } = await activeUser();
    expect(await stats(token)).toEqual({ total: 0, withPhone: 0, waContacts: 0, myContacts: 0 });
    await addContact(token, { phoneNumber: '+14155550700' });
    const res = await api<ContactStats>('GET', '/api/contacts/stats', { token });
    expect(res.body).toEqual({ success: true, data: { total: 1, withPhone: 1, waContacts: 0, myContacts: 1 } });
  });
});


