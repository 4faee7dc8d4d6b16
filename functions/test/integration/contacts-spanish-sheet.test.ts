/**
 * Contacts like a Spanish sheet (issue 29 item 4), through the local gateway, s3rver and the
 * contacts-jobs worker: a ';'/Windows-1252 file from Spanish Excel with Nombre and Apellidos,
 * several tags in a cell and bad rows → the contacts with first and last name (found by surname,
 * accent-insensitively), the history's skipped rows per reason and the Spanish error report; the
 * export in the Spanish account (Spanish headers, every field, origins in words, a dated Spanish
 * file name); the name in parts through the API, and contacts stored before it with one name.
 */
import { describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../../src/contract/auth.js';
import type { ContactExportJob, ContactImportJob, ContactImportJobList, ImportPreview, ImportUploadTicket } from '../../src/contract/contact-jobs.js';
import type { Contact } from '../../src/contract/contacts.js';
import { api, db, get, post, provided, tableName, until } from '../support/api.js';
import { postToTicket } from '../support/agents-api.js';
import { activeUser, addContact, createContact, putContact } from '../support/contacts.js';

/** A subscribed user whose profile is Spanish, in Spain, on Madrid time. */
async function spanishUser() {
  const user = await activeUser();
  const saved = await api<User>('PUT', '/api/user/profile', { token: user.token, body: { name: 'Clínica Peña', language: 'es', country: 'ES', timeZone: 'Europe/Madrid' } });
  expect(saved.status).toBe(200);
  return user;
}

async function upload(token: string, fileName: string, bytes: Uint8Array): Promise<string> {
  const ticket = await post<ImportUploadTicket>('/api/contacts/import-jobs/uploads', { fileName, size: bytes.length }, token);
  expect(ticket.status).toBe(200);
  expect((await postToTicket(ticket.body.data!, bytes)).ok).toBe(true);
  return ticket.body.data!.uploadId;
}

/** Spanish Excel's "CSV (delimitado por comas)": ';', Windows-1252, CRLF; numbers without +34. */
const SHEET = [
  'Nombre;Apellidos;Teléfono;Etiquetas;Notas',
  'María;López García;612 34 56 78;vip, ortodoncia;Prefiere mañanas', // line 2
  'José;Núñez;612 34 56 79;revisión;', // line 3
  'Ana;Ruiz;12345;;', // line 4: not a number
  'Luis;Gómez;;vip;', // line 5: no number
  'Pepa;Martín;612 34 56 78;;', // line 6: line 2's number
  'Ya;Estaba;699 999 999;vip;', // line 7: a contact has it already
];
const sheetBytes = () => new Uint8Array(Buffer.from(`${SHEET.join('\r\n')}\r\n`, 'latin1'));

const today = (timeZone: string) => {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date());
  const part = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
};

describe('a Spanish sheet imported and exported', () => {
  it('imports Nombre + Apellidos and multi-tag cells, counts skipped rows per reason with a Spanish error report, and exports in Spanish', async () => {
    const { token } = await spanishUser();
    await addContact(token, { name: 'Ya Estaba', phoneNumber: '699 999 999' });
    const uploadId = await upload(token, 'pacientes.csv', sheetBytes());

    const preview = await post<ImportPreview>('/api/contacts/import-jobs/preview', { uploadId }, token);
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ delimiter: ';', encoding: 'windows-1252', header: ['Nombre', 'Apellidos', 'Teléfono', 'Etiquetas', 'Notas'] });
    expect(preview.body.data!.suggestedColumns).toEqual([{ field: 'name' }, { field: 'lastName' }, { field: 'phone' }, { field: 'tags' }, { field: 'notes' }]);

    const started = await post<ContactImportJob>('/api/contacts/import-jobs', { uploadId, columns: preview.body.data!.suggestedColumns }, token);
    expect(started.status).toBe(202);
    const id = started.body.data!._id;
    const done = await until(
      async () => {
        const j = (await get<ContactImportJob>(`/api/contacts/import-jobs/${id}`, token)).body.data;
        return j && (j.status === 'done' || j.status === 'failed') ? j : undefined;
      },
      'import job done',
      60_000,
    );
    expect(done.status).toBe('done');
    expect(done.progress).toEqual({ rowsTotal: 6, rowsDone: 6, created: 2, duplicates: 2, errors: 2 });
    // How many rows were skipped and why (the history shows these).
    expect(done.skipped).toEqual({ phone_invalid: 1, phone_missing: 1, duplicate_in_file: 1, duplicate: 1 });
    expect(done.hasErrorReport).toBe(true);

    // The history lists it with its counts and says a report can be downloaded (the job's GET gives the link).
    const history = (await get<ContactImportJob[]>('/api/contacts/import-jobs', token)).body as unknown as ContactImportJobList;
    expect(history.data[0]).toMatchObject({ _id: id, hasErrorReport: true, skipped: done.skipped });
    expect(history.data[0]!.errorReportUrl).toBeUndefined();

    // The error report: the skipped rows as written, the reason in Spanish, named in Spanish.
    const reportResponse = await fetch(done.errorReportUrl!);
    expect(reportResponse.headers.get('content-disposition')).toContain('errores-pacientes.csv');
    const report = new Uint8Array(await reportResponse.arrayBuffer());
    expect([...report.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(report.slice(3)).trim().split('\r\n');
    expect(lines).toEqual([
      'Línea;Nombre;Apellidos;Teléfono;Etiquetas;Notas;Motivo',
      '4;Ana;Ruiz;12345;;;Introduce un número de teléfono válido',
      '5;Luis;Gómez;;vip;;El número de teléfono es obligatorio',
      '6;Pepa;Martín;612 34 56 78;;;Mismo número de teléfono que la línea 2',
      '7;Ya;Estaba;699 999 999;vip;;Ya existe un contacto con este número de teléfono: Ya Estaba',
    ]);

    // The contacts: first and last name, tags split, found by surname and by name + surname without accents.
    const bySurname = await get<Contact[]>(`/api/contacts?search=${encodeURIComponent('lópez')}`, token);
    expect(bySurname.body.data).toHaveLength(1);
    expect(bySurname.body.data![0]).toMatchObject({
      name: 'María López García',
      firstName: 'María',
      lastName: 'López García',
      shortName: 'María',
      phoneNumber: '+34612345678',
      origin: 'csv',
      metadata: { tags: ['vip', 'ortodoncia'], notes: 'Prefiere mañanas', importJobId: id },
    });
    expect((await get<Contact[]>('/api/contacts?search=maria%20lopez', token)).body.data?.map((c) => c.firstName)).toEqual(['María']);
    expect((await get<Contact[]>('/api/contacts?search=NUNEZ', token)).body.data?.map((c) => c.name)).toEqual(['José Núñez']);

    // The export in the Spanish account: ';' and a BOM, Spanish headers, every field, origins in words, a dated Spanish name.
    const exportStarted = await post<ContactExportJob>('/api/contacts/export-jobs', { delimiter: ';' }, token);
    expect(exportStarted.status).toBe(202);
    const exported = await until(
      async () => {
        const j = (await get<ContactExportJob>(`/api/contacts/export-jobs/${exportStarted.body.data!._id}`, token)).body.data;
        return j?.status === 'done' ? j : undefined;
      },
      'export job',
      60_000,
    );
    const fileName = `contactos-${today('Europe/Madrid')}.csv`;
    expect(exported).toMatchObject({ rows: 3, fileName });
    const download = await fetch(exported.downloadUrl!);
    expect(download.headers.get('content-disposition')).toContain(fileName);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = new TextDecoder().decode(bytes.slice(3)).trim().split('\r\n');
    expect(rows[0]).toBe('Nombre;Apellidos;Teléfono;Correo electrónico;Etiquetas;Notas;Origen;Creado');
    expect(rows).toContain(`María;López García;+34 612345678;;"vip, ortodoncia";Prefiere mañanas;Importado (CSV);${today('Europe/Madrid')}`);
    expect(rows).toContain(`Ya Estaba;;+34 699999999;;;;Manual;${today('Europe/Madrid')}`);

    // The direct export is named and worded the same way.
    const sync = await fetch(`${provided('apiUrl')}/api/contacts/export?delimiter=%3B`, { headers: { authorization: `Bearer ${token}` } });
    expect(sync.status).toBe(200);
    expect(sync.headers.get('content-disposition')).toBe(`attachment; filename="${fileName}"`);
    expect(new TextDecoder().decode(new Uint8Array(await sync.arrayBuffer()).slice(3)).split('\r\n')[0]).toBe(rows[0]);
  }, 180_000);
});

describe('the name in parts through the API', () => {
  it('creates and edits with first and last name, keeps older clients’ one name working, and refuses a too long last name', async () => {
    const { token, userId } = await activeUser();
    const made = await addContact(token, { firstName: 'María', lastName: 'López García', phoneNumber: '+34 612 34 56 78' });
    expect(made).toMatchObject({ name: 'María López García', firstName: 'María', lastName: 'López García', shortName: 'María', origin: 'manual' });

    const edited = await putContact(token, made._id, { firstName: 'María José', lastName: 'López García', phoneNumber: made.phoneNumber });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ name: 'María José López García', firstName: 'María José', lastName: 'López García' });
    expect((await get<Contact[]>('/api/contacts?search=jose%20garcia', token)).body.data?.map((c) => c._id)).toEqual([made._id]);

    const older = await addContact(token, { name: 'Ana Ruiz', phoneNumber: '+34 600 111 222' });
    expect(older).toMatchObject({ name: 'Ana Ruiz', firstName: 'Ana Ruiz', lastName: '' });
    const renamed = await putContact(token, older._id, { name: 'Ana Ruiz Peña', phoneNumber: older.phoneNumber });
    expect(renamed.body.data).toMatchObject({ name: 'Ana Ruiz Peña', firstName: 'Ana Ruiz Peña', lastName: '' });

    // A contact stored before issue 29: one name, an import time without a job. It reads and edits as it did.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `USER#${userId}`, sk: `CONTACT#${older._id}` },
        UpdateExpression: 'REMOVE firstName, lastName SET importedAt = :at',
        ExpressionAttributeValues: { ':at': '2025-06-01T10:00:00.000Z' },
      }),
    );
    expect((await get<Contact>(`/api/contacts/${older._id}`, token)).body.data).toMatchObject({ name: 'Ana Ruiz Peña', firstName: 'Ana Ruiz Peña', lastName: '', origin: 'csv' });
    const split = await putContact(token, older._id, { firstName: 'Ana', lastName: 'Ruiz Peña', phoneNumber: older.phoneNumber });
    expect(split.body.data).toMatchObject({ name: 'Ana Ruiz Peña', firstName: 'Ana', lastName: 'Ruiz Peña' });

    const tooLong = await createContact(token, { firstName: 'Ana', lastName: 'x'.repeat(101), phoneNumber: '+34 600 111 333' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe('Name must be 100 characters or less');
    expect((await get<Contact[]>('/api/contacts?search=600111333', token)).body.data).toEqual([]);
  }, 120_000);
});
