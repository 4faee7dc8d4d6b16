/**
 * Contacts like a Spanish sheet (issue 29 item 4): first and last name, "Apellidos" and multi-tag
 * cells in an import, origins in words (also for contacts stored before), skip reasons, and an
 * export with Spanish headers and a dated Spanish file name.
 */
import { describe, expect, it } from 'vitest';
import { contactMessages, nameParts } from '../../../src/contract/contacts.js';
import { suggestColumns } from '../../../src/domain/contacts/csv-detect.js';
import { contactsCsv } from '../../../src/domain/contacts/csv-export.js';
import { checkImportRow, splitTags } from '../../../src/domain/contacts/csv-import.js';
import { columnsOf } from '../../../src/domain/contacts/csv-job-worker.js';
import { partsOfWholeName } from '../../../src/domain/contacts/directory.js';
import { exportFileName } from '../../../src/domain/contacts/export-texts.js';
import { skipReasonOf } from '../../../src/domain/contacts/import-report.js';
import type { StoredContact } from '../../../src/domain/contacts/ports.js';
import { buildStoredContact, originOf, toContact, type ContactDraft } from '../../../src/domain/contacts/records.js';
import { contactTokens, matchesAll, searchTerms } from '../../../src/domain/contacts/text.js';

const draft = (over: Partial<ContactDraft> = {}): ContactDraft => ({
  name: 'María López García',
  firstName: 'María',
  lastName: 'López García',
  phoneNumber: '+34612345678',
  email: '',
  customFields: {},
  tags: [],
  notes: '',
  source: 'manual',
  isWAContact: false,
  ...over,
});

describe('the name in parts', () => {
  it('joins first and last name into the name; an older client’s one name is the first name', () => {
    expect(nameParts({ firstName: 'María', lastName: 'López García' })).toEqual({ firstName: 'María', lastName: 'López García', name: 'María López García' });
    expect(nameParts({ firstName: '', lastName: 'López' })).toEqual({ firstName: '', lastName: 'López', name: 'López' });
    expect(nameParts({ name: 'Ana Ruiz' })).toEqual({ firstName: 'Ana Ruiz', lastName: '', name: 'Ana Ruiz' });
    expect(nameParts({})).toBeUndefined();
  });

  it('shows a stored contact with its parts; one stored with a single name (before issue 29) reads as a first name', () => {
    const stored = buildStoredContact(draft(), 1, '2026-11-28T10:00:00.000Z', 'aaaaaa');
    expect(toContact(stored)).toMatchObject({ name: 'María López García', firstName: 'María', lastName: 'López García', shortName: 'María' });

    const { firstName: _f, lastName: _l, ...legacy } = stored;
    expect(toContact(legacy as StoredContact)).toMatchObject({ name: 'María López García', firstName: 'María López García', lastName: '' });
  });

  it('is found by a surname and by first name and surname, accent- and case-insensitively', () => {
    const stored = buildStoredContact(draft(), 1, '2026-11-28T10:00:00.000Z', 'aaaaaa');
    const find = (q: string) => matchesAll(stored, searchTerms(q, 'ES'));
    expect(find('lópez')).toBe(true);
    expect(find('LOPEZ')).toBe(true);
    expect(find('maria lopez')).toBe(true);
    expect(find('garcía maría')).toBe(true);
    expect(find('maria perez')).toBe(false);
    expect(contactTokens(stored)).toEqual(expect.arrayContaining(['maria', 'lopez', 'garcia']));
  });

  it('keeps the last name when a call writes a whole name that still ends with it (and its undo restores it)', () => {
    const stored = { name: 'María López García', firstName: 'María', lastName: 'López García' };
    expect(partsOfWholeName('María José López García', stored)).toEqual({ firstName: 'María José', lastName: 'López García' });
    expect(partsOfWholeName('Pepa', stored)).toEqual({ firstName: 'Pepa', lastName: '' });
    expect(partsOfWholeName('Ana Ruiz', { name: 'Ana' })).toEqual({ firstName: 'Ana Ruiz', lastName: '' });
  });
});

describe('a Spanish sheet’s columns', () => {
  it('suggests Apellidos (and Surname, Last name…) as the last name, and leaves our export’s origin and date out', () => {
    expect(suggestColumns(['Nombre', 'Apellidos', 'Teléfono', 'Correo electrónico', 'Etiquetas', 'Notas', 'Origen', 'Creado'])).toEqual([
      { field: 'name' },
      { field: 'lastName' },
      { field: 'phone' },
      { field: 'email' },
      { field: 'tags' },
      { field: 'notes' },
      { field: 'ignore' },
      { field: 'ignore' },
    ]);
    for (const title of ['Apellido', 'Surname', 'Last name', 'Primer apellido']) expect(suggestColumns([title])).toEqual([{ field: 'lastName' }]);
    expect(suggestColumns(['First name', 'Last name'])).toEqual([{ field: 'name' }, { field: 'lastName' }]);
  });

  it('splits several tags in one cell on , and ; (and |)', () => {
    expect(splitTags('vip, dental;revisión | VIP')).toEqual(['vip', 'dental', 'revisión']);
    expect(splitTags('')).toEqual([]);
  });

  it('checks a row with Nombre and Apellidos into a contact with both parts', () => {
    const columns = columnsOf([{ field: 'name' }, { field: 'lastName' }, { field: 'phone' }, { field: 'tags' }]);
    const { row, draft: made } = checkImportRow({ line: 2, fields: ['María', 'López García', '612 34 56 78', 'vip; dental'] }, columns, 'ES');
    expect(row).toMatchObject({ status: 'new', name: 'María López García', tags: ['vip', 'dental'] });
    expect(made).toMatchObject({ name: 'María López García', firstName: 'María', lastName: 'López García', phoneNumber: '+34612345678' });

    const whole = checkImportRow({ line: 3, fields: ['Ana Ruiz', '+34 600 111 222'] }, columnsOf([{ field: 'name' }, { field: 'phone' }]), 'ES');
    expect(whole.draft).toMatchObject({ name: 'Ana Ruiz' });
    expect(whole.draft?.lastName).toBeUndefined();
  });

  it('gives each row problem a reason code: the first problem of the row counts', () => {
    expect(skipReasonOf(contactMessages.phoneRequired)).toBe('phone_missing');
    expect(skipReasonOf(contactMessages.phoneInvalid)).toBe('phone_invalid');
    expect(skipReasonOf(`${contactMessages.phoneInvalid}, e.g. 612 34 56 78`)).toBe('phone_invalid');
    expect(skipReasonOf(contactMessages.emailInvalid)).toBe('email_invalid');
    expect(skipReasonOf(contactMessages.nameTooLong)).toBe('too_long');
  });
});

describe('origins in words', () => {
  it('maps stored sources to origins, so contacts stored before issue 29 say where they came from', () => {
    expect(originOf({ source: 'manual', importJobId: 'j' })).toBe('csv');
    expect(originOf({ source: 'manual', importedAt: '2026-01-01T00:00:00.000Z' })).toBe('csv');
    expect(originOf({ source: 'whatsapp_import', importedAt: '2026-01-01T00:00:00.000Z' })).toBe('whatsapp');
    expect(originOf({ source: 'manual', createdVia: 'call' })).toBe('call');
    expect(originOf({ source: 'api' })).toBe('api');
    expect(originOf({ source: 'manual' })).toBe('manual');
  });
});

describe('export in a Spanish account', () => {
  it('has Spanish headers, every field and the origin in words', () => {
    const a = buildStoredContact(
      draft({ tags: ['vip', 'dental'], notes: 'Prefiere mañanas', importedAt: '2026-11-28T10:00:00.000Z', importJobId: 'j', customFields: { Ciudad: 'Madrid' } }),
      1,
      '2026-11-28T23:30:00.000Z',
      'aaaaaa',
    );
    expect(contactsCsv([a], ';', 'es', 'Europe/Madrid')).toBe(
      '\uFEFFNombre;Apellidos;Teléfono;Correo electrónico;Etiquetas;Notas;Origen;Creado;Ciudad\r\n' +
        'María;López García;+34 612345678;;"vip, dental";Prefiere mañanas;Importado (CSV);2026-11-29;Madrid\r\n',
    );
  });

  it('names the file in the account’s language, dated in its time zone', () => {
    expect(exportFileName('es', '2026-11-28T10:00:00.000Z', 'Europe/Madrid')).toBe('contactos-2026-11-28.csv');
    expect(exportFileName('es', '2026-11-28T23:30:00.000Z', 'Europe/Madrid')).toBe('contactos-2026-11-29.csv');
    expect(exportFileName('en', '2026-11-28T23:30:00.000Z', undefined)).toBe('contacts-2026-11-28.csv');
    expect(exportFileName('en', '2026-11-28T23:30:00.000Z', 'Not/AZone')).toBe('contacts-2026-11-28.csv');
  });
});
