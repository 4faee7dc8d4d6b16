/**
 * The contacts domain's parts on their own: ids and views (records.ts), the search intersection
 * (search.ts), the CSV import checks (csv-import.ts) and the one create path's plan-limit rules
 * (create-path.ts) over in-memory ports.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_SEARCH_MAX_MATCHES, contactMessages } from '../../../src/contract/contacts.js';
import { LimitExceededError, ValidationError } from '../../../src/domain/errors.js';
import { contactContext } from '../../../src/domain/contacts/context.js';
import { createContacts } from '../../../src/domain/contacts/create-path.js';
import { checkImportRow, importColumns, markDuplicatesInFile } from '../../../src/domain/contacts/csv-import.js';
import { contactsCsv } from '../../../src/domain/contacts/csv-export.js';
import { DuplicatePhoneError, type ContactRepository, type StoredContact } from '../../../src/domain/contacts/ports.js';
import { isContactId } from '../../../src/domain/contacts/contact-id.js';
import { buildStoredContact, toContact, whatsappDraft, type ContactDraft } from '../../../src/domain/contacts/records.js';
import { intersectMatches } from '../../../src/domain/contacts/search.js';

const draft = (over: Partial<ContactDraft> = {}): ContactDraft => ({
  name: 'José García',
  phoneNumber: '+34612345678',
  email: 'jose@example.com',
  customFields: {},
  tags: [],
  notes: '',
  source: 'manual',
  isWAContact: false,
  ...over,
});

describe('records', () => {
  it('builds a time-ordered id from the sequence, the short name and the search tokens', () => {
    const stored = buildStoredContact(draft(), 42, '2026-01-01T00:00:00.000Z', 'abc123');

    expect(stored.id).toBe('0000000042abc123');
    expect(isContactId(stored.id)).toBe(true);
    expect(stored.shortName).toBe('José');
    expect(stored.tokens).toEqual(expect.arrayContaining(['garcia', 'jose@example.com', '~87654321643'])); // "jose" begins the e-mail
  });

  it('shows a stored contact with its metadata grouped, optional fields only when set', () => {
    const stored = buildStoredContact(draft({ tags: ['vip'], notes: 'n' }), 1, '2026-01-01T00:00:00.000Z', 'zzzzzz');

    const view = toContact(stored);

    expect(view).toMatchObject({ _id: stored.id, name: 'José García', metadata: { notes: 'n', tags: ['vip'] } });
    expect(view.metadata).not.toHaveProperty('importedAt');
  });

  it('makes a WhatsApp draft from a profile name cut to 100 characters', () => {
    const d = whatsappDraft('+34612345678', `  ${'x'.repeat(120)}  `, '2026-01-01T00:00:00.000Z');

    expect(d).toMatchObject({ source: 'whatsapp_import', isWAContact: true, importedAt: '2026-01-01T00:00:00.000Z' });
    expect(d.name).toHaveLength(100);
  });
});

describe('intersectMatches', () => {
  it('keeps the ids every term matched, newest first, complete when one set is complete', () => {
    const result = intersectMatches([
      { ids: ['0000000001aaaaaa', '0000000003cccccc', '0000000002bbbbbb'], complete: true },
      { ids: ['0000000003cccccc', '0000000001aaaaaa', '0000000009zzzzzz'], complete: false },
    ]);

    expect(result).toEqual({ ids: ['0000000003cccccc', '0000000001aaaaaa'], truncated: false });
  });

  it('says the result is truncated when no term read its whole set', () => {
    expect(intersectMatches([{ ids: ['0000000001aaaaaa'], complete: false }]).truncated).toBe(true);
  });

  it('lists at most the newest CONTACT_SEARCH_MAX_MATCHES', () => {
    const ids = Array.from({ length: CONTACT_SEARCH_MAX_MATCHES + 5 }, (_, i) => `${String(i).padStart(10, '0')}aaaaaa`);

    const result = intersectMatches([{ ids, complete: true }]);

    expect(result.truncated).toBe(true);
    expect(result.ids).toHaveLength(CONTACT_SEARCH_MAX_MATCHES);
    expect(result.ids[0]).toBe(ids.at(-1));
  });

  it('finds nothing for no terms', () => {
    expect(intersectMatches([])).toEqual({ ids: [], truncated: false });
  });
});

describe('CSV import checks', () => {
  it('reads column roles by their aliases; other named columns are custom fields', () => {
    expect(importColumns(['Full Name', 'Mobile', 'E-mail Address', 'Tag', 'Company', ''])).toEqual({
      name: 0,
      phone: 1,
      email: 2,
      tags: 3,
      custom: [{ name: 'Company', index: 4 }],
    });
  });

  it('refuses a header without a phone column', () => {
    expect(() => importColumns(['name', 'email'])).toThrow(new ValidationError(contactMessages.csvNoPhoneColumn, 'csv'));
  });

  it('checks a row with the API rules: the phone in E.164, tags split on ; and |', () => {
    const columns = importColumns(['name', 'phone', 'email', 'tags', 'Company']);

    const ok = checkImportRow({ line: 2, fields: ['Ana', '612 34 56 78', '', 'a; b|a', 'ACME'] }, columns, 'ES');
    const bad = checkImportRow({ line: 3, fields: ['Luis', '12', 'not-mail', '', ''] }, columns, 'ES');

    expect(ok.row).toMatchObject({ status: 'new', phoneNumber: '+34612345678', tags: ['a', 'b'], customFields: { Company: 'ACME' } });
    expect(ok.draft).toMatchObject({ phoneNumber: '+34612345678', source: 'manual' });
    expect(bad.row.status).toBe('error');
    expect(bad.row.errors).toEqual(expect.arrayContaining([contactMessages.phoneInvalid, contactMessages.emailInvalid]));
    expect(bad.draft).toBeUndefined();
  });

  it('marks a later row with the same phone number as a duplicate of the first line', () => {
    const columns = importColumns(['phone']);
    const checked = [2, 3].map((line) => checkImportRow({ line, fields: ['+34612345678'] }, columns, 'ES'));

    const first = markDuplicatesInFile(checked);

    expect([...first]).toEqual([['+34612345678', 2]]);
    expect(checked[1]!.row).toMatchObject({ status: 'duplicate', errors: ['Same phone number as line 2'] });
    expect(checked[1]!.draft).toBeUndefined();
  });
});

describe('contactsCsv', () => {
  it('writes every field and one column per custom field, the phone with its country code apart (issue 29: Excel keeps it as text)', () => {
    const a = buildStoredContact(draft({ customFields: { Company: 'ACME' }, tags: ['x', 'y'], notes: 'Prefers mornings' }), 1, '2026-11-28T10:00:00.000Z', 'aaaaaa');

    expect(contactsCsv([a])).toBe(
      '\uFEFFFirst name,Last name,Phone,Email,Tags,Notes,Origin,Created,Company\r\nJosé García,,+34 612345678,jose@example.com,"x, y",Prefers mornings,Manual,2026-11-28,ACME\r\n',
    );
  });

  it('starts with a UTF-8 BOM and separates with the chosen delimiter, quoting cells that contain it (issue 19: Spanish Excel)', () => {
    const a = buildStoredContact(draft({ name: 'Muñoz; Peña', customFields: { Ciudad: 'Madrid' } }), 1, '2026-11-28T10:00:00.000Z', 'aaaaaa');

    const csv = contactsCsv([a], ';');

    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv).toBe('\uFEFFFirst name;Last name;Phone;Email;Tags;Notes;Origin;Created;Ciudad\r\n"Muñoz; Peña";;+34 612345678;jose@example.com;;;Manual;2026-11-28;Madrid\r\n');
  });
});

/** An in-memory repository with a phone guard and a usage counter with a limit. */
function memory(limit: number) {
  const byId = new Map<string, StoredContact>();
  let used = 0;
  let seq = 0;
  const failPhones = new Set<string>();
  const contacts = {
    allocateSeq: async (_u: string, n: number) => ((seq += n), seq - n + 1),
    insert: async (_u: string, c: StoredContact) => {
      if (failPhones.has(c.phoneNumber)) throw new Error('write failed');
      const owner = [...byId.values()].find((o) => o.phoneNumber === c.phoneNumber);
      if (owner) throw new DuplicatePhoneError(owner.id);
      byId.set(c.id, c);
    },
    get: async (_u: string, id: string) => byId.get(id) ?? null,
  } as unknown as ContactRepository;
  const usage = {
    reserve: async (_u: string, _a: 'contacts', n = 1) => {
      if (used + n > limit) throw new LimitExceededError('Contact limit reached');
      used += n;
      return used;
    },
    release: async (_u: string, _a: 'contacts', n = 1) => {
      used -= n;
    },
  };
  const errors: string[] = [];
  const ctx = contactContext({
    contacts,
    usage,
    links: { unlinkContact: async () => undefined },
    defaultCountry: 'ES',
    onError: (message) => errors.push(message),
  });
  return { ctx, byId, used: () => used, failPhones, errors };
}

describe('createContacts (the one create path)', () => {
  it('creates the rows the plan has room for and refuses the rest with the limit message', async () => {
    const m = memory(2);
    const drafts = ['+34600000001', '+34600000002', '+34600000003'].map((phoneNumber) => draft({ phoneNumber }));

    const outcomes = await createContacts(m.ctx, 'u', drafts, false);

    expect(outcomes.map((o) => o.kind)).toEqual(['created', 'created', 'error']);
    expect(outcomes[2]).toEqual({ kind: 'error', message: 'Contact limit reached' });
    expect(m.used()).toBe(2);
  });

  it('throws the limit at once for a single (strict) create', async () => {
    const m = memory(0);

    await expect(createContacts(m.ctx, 'u', [draft()], true)).rejects.toBeInstanceOf(LimitExceededError);
    expect(m.used()).toBe(0);
  });

  it('gives the reservation back for a duplicate or a failed write and reports each per row', async () => {
    const m = memory(10);
    await createContacts(m.ctx, 'u', [draft({ phoneNumber: '+34600000001' })], true);
    m.failPhones.add('+34600000009');

    const outcomes = await createContacts(m.ctx, 'u', [draft({ phoneNumber: '+34600000001' }), draft({ phoneNumber: '+34600000009' })], false);

    expect(outcomes[0]).toMatchObject({ kind: 'duplicate' });
    expect(outcomes[1]).toEqual({ kind: 'error', message: 'This contact could not be saved. Please try again.' });
    expect(m.used()).toBe(1);
    expect(m.errors).toEqual(['contact import write failed']);
  });

  it('answers a strict duplicate with 409 naming the existing contact', async () => {
    const m = memory(10);
    await createContacts(m.ctx, 'u', [draft({ name: 'Ana' })], true);

    await expect(createContacts(m.ctx, 'u', [draft({ name: 'Other' })], true)).rejects.toMatchObject({
      status: 409,
      message: contactMessages.duplicate('Ana'),
    });
  });
});
