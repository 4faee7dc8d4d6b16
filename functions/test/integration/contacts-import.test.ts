/** CSV import (preview with per-row errors and duplicates, then create) and CSV export, through the gateway. */
import { describe, expect, it } from 'vitest';
import type { ContactImportPreview, ContactImportResult, ContactStats } from '../../src/contract/contacts.js';
import { api, get, getItem, post } from '../support/api.js';
import { activeUser, addContact, listContacts, setContactsUsage } from '../support/contacts.js';

const CSV = [
  'Name,Phone,Email,Tags,Company,City',
  'José Álvarez,(415) 555-0800,jose@example.com,vip; lead ;VIP,Acme,Madrid',
  '"García, Ana",+34 612 34 56 78,,customer|,"Foo ""Bar"" Ltd",',
  ',,nobody@example.com,,,',
  'Bad Phone,12345,bad-email,,,',
  'Repeat,415.555.0800,,,,',
  'Existing,+1 415 555 0899,,,,',
  '',
  'Plain,4155550801,,,,',
].join('\r\n');

describe('POST /api/contacts/import/preview', () => {
  it('reports per-row errors, duplicates in the file and against existing contacts, and writes nothing', async () => {
    const { token } = await activeUser();
    const existing = await addContact(token, { name: 'Already Here', phoneNumber: '+14155550899' });

    const res = await post<ContactImportPreview>('/api/contacts/import/preview', { csv: CSV }, token);

    expect(res.status).toBe(200);
    const { rows, summary } = res.body.data!;
    expect(summary).toEqual({ total: 7, new: 3, duplicates: 2, errors: 2 });
    expect(rows[0]).toEqual({
      line: 2,
      name: 'José Álvarez',
      phoneNumber: '+14155550800',
      email: 'jose@example.com',
      tags: ['vip', 'lead'],
      customFields: { Company: 'Acme', City: 'Madrid' },
      status: 'new',
      errors: [],
    });
    expect(rows[1]).toMatchObject({ line: 3, name: 'García, Ana', phoneNumber: '+34612345678', tags: ['customer'], customFields: { Company: 'Foo "Bar" Ltd' }, status: 'new' });
    expect(rows[2]).toMatchObject({ line: 4, status: 'error', errors: ['Phone number is required'] });
    expect(rows[3]).toMatchObject({ line: 5, status: 'error', errors: ['Please enter a valid phone number', 'Invalid email address'] });
    expect(rows[4]).toMatchObject({ line: 6, phoneNumber: '+14155550800', status: 'duplicate', errors: ['Same phone number as line 2'] });
    expect(rows[5]).toMatchObject({
      line: 7,
      status: 'duplicate',
      existingContactId: existing._id,
      errors: ['A contact with this phone number already exists: Already Here'],
    });
    expect(rows[6]).toMatchObject({ line: 9, name: 'Plain', phoneNumber: '+14155550801', status: 'new' });
    expect((await get<ContactStats>('/api/contacts/stats', token)).body.data?.total).toBe(1);
  });

  it('refuses a missing CSV, a header without a phone column and more than 5,000 rows', async () => {
    const { token } = await activeUser();
    const missing = await post('/api/contacts/import/preview', {}, token);
    expect(missing.body).toMatchObject({ success: false, message: 'CSV file is required' });
    const noPhone = await post('/api/contacts/import/preview', { csv: 'name,email\nAna,a@b.co' }, token);
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.message).toBe('The CSV header must have a phone (or phoneNumber) column');
    const big = ['phone', ...Array.from({ length: 5001 }, (_, i) => `+1415556${String(i).padStart(4, '0')}`)].join('\n');
    const tooMany = await post('/api/contacts/import', { csv: big }, token);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('A CSV import can have at most 5000 rows');
    const huge = await post('/api/contacts/import/preview', { csv: `phone\n${'1'.repeat(2 * 1024 * 1024)}` }, token);
    expect(huge.status).toBe(400);
    expect(huge.body.message).toBe('CSV file must be 2 MB or less');
  });
});

describe('POST /api/contacts/import', () => {
  it('creates only the new rows (source manual, importedAt set), never twice', async () => {
    const { token, userId } = await activeUser();
    await addContact(token, { name: 'Already Here', phoneNumber: '+14155550899' });

    const res = await post<ContactImportResult>('/api/contacts/import', { csv: CSV }, token);

    expect(res.status).toBe(200);
    const result = res.body.data!;
    expect(result).toMatchObject({ created: 3, duplicates: 2, errors: 2 });
    expect(result.rows.map((r) => r.status)).toEqual(['new', 'new', 'error', 'error', 'duplicate', 'duplicate', 'new']);
    const list = await listContacts(token, { limit: 10 });
    expect(list.body.pagination?.totalContacts).toBe(4);
    const jose = list.body.data!.find((c) => c.phoneNumber === '+14155550800')!;
    expect(jose).toMatchObject({ name: 'José Álvarez', source: 'manual', metadata: { tags: ['vip', 'lead'] }, customFields: { Company: 'Acme' } });
    expect(jose.metadata.importedAt).toEqual(expect.any(String));
    expect((await listContacts(token, { search: 'alvarez' })).body.data?.map((c) => c._id)).toEqual([jose._id]);
    expect((await getItem(`USER#${userId}`, 'USAGE#CONTACTS'))?.count).toBe(4);

    // The same file again: everything valid is now a duplicate of an existing contact.
    const again = await post<ContactImportResult>('/api/contacts/import', { csv: CSV }, token);
    expect(again.body.data).toMatchObject({ created: 0, duplicates: 5, errors: 2 });
    expect(again.body.data!.rows[0]).toMatchObject({ status: 'duplicate', existingContactId: jose._id });
    expect((await get<ContactStats>('/api/contacts/stats', token)).body.data).toEqual({ total: 4, withPhone: 4, waContacts: 0, myContacts: 4 });
  });

  it('creates up to the plan limit; rows beyond it become errors with the limit message', async () => {
    const { token, userId } = await activeUser('starter');
    await setContactsUsage(userId, 498);
    const csv = ['phone', '+14155550901', '+14155550902', '+14155550903', '+14155550904'].join('\n');

    const res = await post<ContactImportResult>('/api/contacts/import', { csv }, token);

    expect(res.body.data).toMatchObject({ created: 2, duplicates: 0, errors: 2 });
    expect(res.body.data!.rows.slice(2).map((r) => r.errors)).toEqual([
      ['Contact limit reached: your plan allows 500 contacts. Upgrade your plan to add more.'],
      ['Contact limit reached: your plan allows 500 contacts. Upgrade your plan to add more.'],
    ]);
    expect((await getItem(`USER#${userId}`, 'USAGE#CONTACTS'))?.count).toBe(500);
    expect((await get<ContactStats>('/api/contacts/stats', token)).body.data?.total).toBe(2);
  });
});

describe('GET /api/contacts/export', () => {
  it('answers every matching contact as a CSV attachment that imports back', async () => {
    const { token } = await activeUser();
    await addContact(token, { name: 'Zoë, "Z"', phoneNumber: '+14155551000', email: 'zoe@example.com', customFields: { Plan: 'gold' } });
    await addContact(token, { name: '=cmd()', phoneNumber: '+14155551001' });
    await addContact(token, { name: 'Other', phoneNumber: '+14155551002' });

    const res = await fetch(`${(await import('../support/api.js')).provided('apiUrl')}/api/contacts/export?search=zoe`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    // Issue 29: every field, a dated file name, the phone with its country code apart (Excel keeps it as text).
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="contacts-${day}.csv"`);
    expect(await res.text()).toBe(`First name,Last name,Phone,Email,Tags,Notes,Origin,Created,Plan\r\n"Zoë, ""Z""",,+1 4155551000,zoe@example.com,,,Manual,${day},gold\r\n`);

    const all = await api('GET', '/api/contacts/export', { token });
    const text = all.body.message as string; // not JSON: the helper keeps the text as message
    expect(text.split('\r\n').filter(Boolean)).toEqual([
      'First name,Last name,Phone,Email,Tags,Notes,Origin,Created,Plan',
      `Other,,+1 4155551002,,,,Manual,${day},`,
      `'=cmd(),,+1 4155551001,,,,Manual,${day},`,
      `"Zoë, ""Z""",,+1 4155551000,zoe@example.com,,,Manual,${day},gold`,
    ]);
    expect((await api('GET', '/api/contacts/export?source=nope', { token })).status).toBe(400);

    const other = await activeUser();
    const roundTrip = await post<ContactImportPreview>('/api/contacts/import/preview', { csv: text }, other.token);
    expect(roundTrip.body.data?.summary).toEqual({ total: 3, new: 3, duplicates: 0, errors: 0 });
    // The names and numbers come back as they were; the origin and date columns are not imported.
    expect(roundTrip.body.data?.rows.map((r) => [r.name, r.phoneNumber, r.customFields])).toEqual([
      ['Other', '+14155551002', {}],
      ["'=cmd()", '+14155551001', {}],
      ['Zoë, "Z"', '+14155551000', { Plan: 'gold' }],
    ]);
  });
});
