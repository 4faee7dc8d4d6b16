/**
 * The contacts directory's read-check-write (apply-contact and its undo, issue 17) over an
 * in-memory repository whose replace is conditional on the read, as DynamoDB's version check is.
 */
import { describe, expect, it } from 'vitest';
import { contactContext } from '../../../src/domain/contacts/context.js';
import { contactDirectory } from '../../../src/domain/contacts/directory.js';
import { ContactChangedError, type ContactRepository, type StoredContact } from '../../../src/domain/contacts/ports.js';
import { buildStoredContact } from '../../../src/domain/contacts/records.js';
import { ConflictError } from '../../../src/domain/errors.js';

function memory(initial: StoredContact) {
  let stored = initial;
  /** Runs once, between a patch's read and its write (another request's edit). */
  let meanwhile: ((c: StoredContact) => StoredContact) | null = null;
  const contacts = {
    get: async () => stored,
    replace: async (_u: string, before: StoredContact, after: StoredContact) => {
      if (meanwhile) {
        stored = meanwhile(stored);
        meanwhile = null;
      }
      if (stored !== before) throw new ContactChangedError();
      stored = after;
    },
  } as unknown as ContactRepository;
  const directory = contactDirectory(
    contactContext({ contacts, usage: { reserve: async () => 0, release: async () => undefined }, links: { unlinkContact: async () => undefined }, defaultCountry: 'ES' }),
  );
  return { directory, current: () => stored, editMeanwhile: (edit: (c: StoredContact) => StoredContact) => (meanwhile = edit) };
}

const contact = (over: Partial<Parameters<typeof buildStoredContact>[0]> = {}) =>
  buildStoredContact(
    { name: 'Ana García', phoneNumber: '+34612345678', email: 'ana@example.com', customFields: {}, tags: [], notes: '', source: 'manual', isWAContact: false, ...over },
    1,
    '2026-01-01T00:00:00.000Z',
    'abcdef',
  );

describe('contact patch (read-check-write)', () => {
  it('re-reads and re-checks after a concurrent edit, so an undo never overwrites it', async () => {
    const m = memory(contact());
    m.editMeanwhile((c) => ({ ...c, name: 'Ana García Ruiz' }));
    const undoName = m.directory.patch('u', '0000000001abcdef', (c) => {
      if (c.name !== 'Ana García') throw new ConflictError('changed since');
      return { name: 'María José Núñez' };
    });

    await expect(undoName).rejects.toBeInstanceOf(ConflictError);
    expect(m.current().name).toBe('Ana García Ruiz');
  });

  it('writes only the given fields, normalises a typed number and accepts no number', async () => {
    const m = memory(contact({ customFields: { Seguro: 'Sanitas' } }));

    const { before, after } = await m.directory.patch('u', '0000000001abcdef', () => ({ email: 'ana.garcia@example.com', phoneNumber: '612 34 56 78' }));
    const cleared = await m.directory.patch('u', '0000000001abcdef', () => ({ phoneNumber: '' }));

    expect(before).toMatchObject({ name: 'Ana García', email: 'ana@example.com' });
    expect(after).toMatchObject({ name: 'Ana García', shortName: 'Ana', email: 'ana.garcia@example.com', phoneNumber: '+34612345678', customFields: { Seguro: 'Sanitas' } });
    expect(cleared.after.phoneNumber).toBe('');
    expect(m.current().tokens).not.toContain('612345678');
  });
});
