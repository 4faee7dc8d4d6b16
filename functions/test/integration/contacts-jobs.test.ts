/**
 * Contacts CSV import and export as background jobs (issue 19), through the local gateway with
 * s3rver (presigned form upload, report and export links) and the in-process SQS dispatcher
 * running the contacts-jobs worker: a Spanish Excel file (';', Windows-1252, Spanish headers,
 * numbers without +34) of issue 19's 5,000 rows with progress, the error report in Spanish and a
 * one-click undo (IMPORT_TEST_ROWS=N runs another size; bench-contacts-import measures the speed);
 * a UTF-8 file with a BOM; refused files; foreign ids; the export with a BOM and ';',
 * and with the list's tag, custom-field and search filters.
 */
import { describe, expect, it } from 'vitest';
import type { User } from '../../src/contract/auth.js';
import type { ContactExportJob, ContactImportJob, ContactImportJobList, ImportPreview, ImportUploadTicket } from '../../src/contract/contact-jobs.js';
import { contactMessages, type Contact, type ContactStats } from '../../src/contract/contacts.js';
import { api, get, getItem, post, provided, until } from '../support/api.js';
import { postToTicket } from '../support/agents-api.js';
import { activeUser, addContact, listContacts } from '../support/contacts.js';

const saveProfile = (token: string, body: Record<string, unknown>) => api<User>('PUT', '/api/user/profile', { token, body });

/** A subscribed user whose profile is Spanish, in Spain (numbers without +34 are Spanish). */
async function spanishUser() {
  const user = await activeUser();
  expect((await saveProfile(user.token, { name: 'Clínica Peña', language: 'es', country: 'ES' })).status).toBe(200);
  return user;
}

/** The browser's flow: a ticket, then the form POST to S3; returns the upload id. */
async function upload(token: string, fileName: string, bytes: Uint8Array): Promise<string> {
  const ticket = await post<ImportUploadTicket>('/api/contacts/import-jobs/uploads', { fileName, size: bytes.length }, token);
  expect(ticket.status).toBe(200);
  const sent = await postToTicket(ticket.body.data!, bytes);
  expect(sent.ok).toBe(true);
  return ticket.body.data!.uploadId;
}

const job = (token: string, id: string) => get<ContactImportJob>(`/api/contacts/import-jobs/${id}`, token);

async function finished(token: string, id: string, statuses: string[], timeoutMs: number): Promise<ContactImportJob> {
  return until(
    async () => {
      const current = (await job(token, id)).body.data;
      return current && statuses.includes(current.status) ? current : undefined;
    },
    `import job ${id} to be ${statuses.join('/')}`,
    timeoutMs,
  );
}

/** '600 000 123'-style Spanish mobile numbers, unique per row. */
const spanishMobile = (i: number) => {
  const digits = `6${String(i).padStart(8, '0')}`;
  return `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`;
};

/** What Spanish Excel saves as "CSV (delimitado por comas)": ';', Windows-1252, CRLF. */
function spanishExcelFile(rows: number): Uint8Array {
  const lines = ['Nombre;Teléfono;Correo;Etiquetas;Ciudad'];
  for (let i = 1; i <= rows; i++) {
    let phone = spanishMobile(i);
    let email = `paciente${i}@example.es`;
    if (i === 10) phone = '12345'; // line 11: not a number
    if (i === 20) phone = spanishMobile(1); // line 21: same number as line 2
    if (i === 30) email = 'sin-arroba'; // line 31: bad e-mail
    lines.push(`Muñoz Peña ${i};${phone};${email};vip|ortodoncia;Móstoles`);
  }
  return new Uint8Array(Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1'));
}

const ROWS = Number(process.env.IMPORT_TEST_ROWS ?? 5000);

describe('contacts import job', () => {
  it(`imports a ${ROWS}-row Spanish Excel file (;, Windows-1252, Spanish headers, no +34) with progress, a Spanish error report and a one-click undo`, async () => {
    const { token, userId } = await spanishUser();
    const before = await addContact(token, { name: 'Ya estaba', phoneNumber: '+34 699 999 999' });
    const uploadId = await upload(token, 'pacientes.csv', spanishExcelFile(ROWS));

    const preview = await post<ImportPreview>('/api/contacts/import-jobs/preview', { uploadId }, token);
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({
      fileName: 'pacientes.csv',
      delimiter: ';',
      encoding: 'windows-1252',
      bom: false,
      header: ['Nombre', 'Teléfono', 'Correo', 'Etiquetas', 'Ciudad'],
      suggestedColumns: [{ field: 'name' }, { field: 'phone' }, { field: 'email' }, { field: 'tags' }, { field: 'custom', name: 'Ciudad' }],
    });
    expect(preview.body.data!.rows).toHaveLength(5);
    expect(preview.body.data!.rows[0]).toEqual(['Muñoz Peña 1', '600 000 001', 'paciente1@example.es', 'vip|ortodoncia', 'Móstoles']);

    const started = await post<ContactImportJob>('/api/contacts/import-jobs', { uploadId, columns: preview.body.data!.suggestedColumns }, token);
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ status: 'queued', fileName: 'pacientes.csv', progress: { rowsDone: 0, created: 0 } });
    const id = started.body.data!._id;

    // Progress shows while the job runs (batches are committed one by one).
    const midway = await until(
      async () => {
        const p = (await job(token, id)).body.data?.progress;
        return p && p.rowsDone > 0 ? p : undefined;
      },
      'first progress',
      30_000,
    );
    expect(midway.rowsTotal).toBe(ROWS);
    const done = await finished(token, id, ['done', 'failed'], 600_000);
    expect(done.status).toBe('done');
    expect(done.progress).toEqual({ rowsTotal: ROWS, rowsDone: ROWS, created: ROWS - 3, duplicates: 1, errors: 2 });
    expect(done).toMatchObject({ delimiter: ';', encoding: 'windows-1252' });

    const listed = await get<Contact[]>('/api/contacts?search=600000001', token);
    expect(listed.body.data?.[0]).toMatchObject({
      name: 'Muñoz Peña 1',
      phoneNumber: '+34600000001',
      email: 'paciente1@example.es',
      customFields: { Ciudad: 'Móstoles' },
      metadata: { tags: ['vip', 'ortodoncia'], importJobId: id },
    });
    expect((await get<ContactStats>('/api/contacts/stats', token)).body.data?.total).toBe(ROWS - 2);

    // The error report: UTF-8 with a BOM, the file's ';', Spanish header and reasons, the rows as written.
    expect(done.errorReportUrl).toBeTruthy();
    const report = new Uint8Array(await (await fetch(done.errorReportUrl!)).arrayBuffer());
    expect([...report.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(report.slice(3)).trim().split('\r\n');
    expect(lines[0]).toBe('Línea;Nombre;Teléfono;Correo;Etiquetas;Ciudad;Motivo');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe('11;Muñoz Peña 10;12345;paciente10@example.es;vip|ortodoncia;Móstoles;Introduce un número de teléfono válido');
    expect(lines[2]).toMatch(/^21;Muñoz Peña 20;600 000 001;.*;Mismo número de teléfono que la línea 2$/);
    expect(lines[3]).toMatch(/^31;.*;Dirección de correo electrónico no válida$/);

    const recent = await get<ContactImportJob[]>('/api/contacts/import-jobs', token);
    expect((recent.body as unknown as ContactImportJobList).data.map((j) => j._id)).toEqual([id]);

    // Undo: one call; the imported contacts go, the one that was there stays, the plan usage is given back.
    const undo = await post<ContactImportJob>(`/api/contacts/import-jobs/${id}/undo`, undefined, token);
    expect(undo.status).toBe(202);
    expect(undo.body.data?.status).toBe('undoing');
    const again = await post<ContactImportJob>(`/api/contacts/import-jobs/${id}/undo`, undefined, token);
    expect(again.status).toBe(202);
    const undone = await finished(token, id, ['undone'], 600_000);
    expect(undone.undone).toBe(ROWS - 3);
    expect((await get<ContactStats>('/api/contacts/stats', token)).body.data?.total).toBe(1);
    expect((await get<Contact[]>('/api/contacts?search=600000001', token)).body.data).toEqual([]);
    expect((await get<Contact>(`/api/contacts/${before._id}`, token)).status).toBe(200);
    expect((await getItem(`USER#${userId}`, 'USAGE#CONTACTS'))?.count).toBe(1);
  }, 900_000);

  it('reads a UTF-8 file with a BOM and English headers, mapping a notes column and ignoring one', async () => {
    const { token } = await activeUser();
    const text = '\uFEFFFull name,Mobile,E-mail,Notes,Internal\r\nAna Peña,+34 612 345 678,ana@example.com,Prefiere mañanas,x\r\n"Ruiz, José",+1 415 555 0100,,,y\r\n';
    const uploadId = await upload(token, 'contacts.csv', new TextEncoder().encode(text));

    const preview = await post<ImportPreview>('/api/contacts/import-jobs/preview', { uploadId }, token);
    expect(preview.body.data).toMatchObject({ delimiter: ',', encoding: 'utf-8', bom: true, header: ['Full name', 'Mobile', 'E-mail', 'Notes', 'Internal'] });
    expect(preview.body.data!.suggestedColumns).toEqual([{ field: 'name' }, { field: 'phone' }, { field: 'email' }, { field: 'notes' }, { field: 'custom', name: 'Internal' }]);

    const columns = [...preview.body.data!.suggestedColumns.slice(0, 4), { field: 'ignore' }];
    const started = await post<ContactImportJob>('/api/contacts/import-jobs', { uploadId, columns }, token);
    const done = await finished(token, started.body.data!._id, ['done', 'failed'], 60_000);

    expect(done.progress).toMatchObject({ rowsTotal: 2, created: 2, errors: 0, duplicates: 0 });
    expect(done.errorReportUrl).toBeUndefined();
    const ana = (await get<Contact[]>('/api/contacts?search=ana', token)).body.data?.[0];
    expect(ana).toMatchObject({ name: 'Ana Peña', phoneNumber: '+34612345678', customFields: {}, metadata: { notes: 'Prefiere mañanas' } });
  }, 120_000);

  it('refuses what is not a CSV file, a file too large, a mapping without a phone and an unknown upload with a clear 400; a garbage file fails its job with a reason', async () => {
    const { token } = await activeUser();
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    const uploadId = await upload(token, 'photo.csv', garbage);

    const preview = await post('/api/contacts/import-jobs/preview', { uploadId }, token);
    expect(preview.status).toBe(400);
    expect(preview.body.message).toBe('The file is not a CSV text file');

    const started = await post<ContactImportJob>('/api/contacts/import-jobs', { uploadId, columns: [{ field: 'phone' }] }, token);
    expect(started.status).toBe(202);
    const failed = await finished(token, started.body.data!._id, ['done', 'failed'], 60_000);
    expect(failed).toMatchObject({ status: 'failed', failure: { code: 'not_csv', message: 'The file is not a CSV text file' } });

    const huge = await post('/api/contacts/import-jobs/uploads', { fileName: 'big.csv', size: 21 * 1024 * 1024 }, token);
    expect(huge.status).toBe(400);
    expect(huge.body.message).toBe('The file must be 20 MB or less');

    const noPhone = await post('/api/contacts/import-jobs', { uploadId, columns: [{ field: 'name' }, { field: 'email' }] }, token);
    expect(noPhone.status).toBe(400);
    expect(noPhone.body.message).toBe('Choose the column with the phone number');

    const unknown = await post('/api/contacts/import-jobs/preview', { uploadId: 'f'.repeat(32) }, token);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('The file has not been uploaded yet (or the upload expired): upload it again');

    const extra = await post('/api/contacts/import-jobs/preview', { uploadId, sql: 'drop' }, token);
    expect(extra.status).toBe(400);
    expect(extra.body.message).toBe('Unknown field: sql');
  }, 120_000);

  it("answers 404 for another user's import and export jobs, and 400 for another user's upload", async () => {
    const owner = await activeUser();
    const uploadId = await upload(owner.token, 'a.csv', new TextEncoder().encode('phone\n+34612345678\n'));
    const started = await post<ContactImportJob>('/api/contacts/import-jobs', { uploadId, columns: [{ field: 'phone' }] }, owner.token);
    await finished(owner.token, started.body.data!._id, ['done'], 60_000);
    const exported = await post<ContactExportJob>('/api/contacts/export-jobs', { delimiter: ';' }, owner.token);
    const intruder = await activeUser();

    expect((await job(intruder.token, started.body.data!._id)).status).toBe(404);
    expect((await post(`/api/contacts/import-jobs/${started.body.data!._id}/undo`, undefined, intruder.token)).status).toBe(404);
    expect((await get(`/api/contacts/export-jobs/${exported.body.data!._id}`, intruder.token)).status).toBe(404);
    expect((await job(intruder.token, 'not-an-id')).status).toBe(404);
    const theirs = await post('/api/contacts/import-jobs/preview', { uploadId }, intruder.token);
    expect(theirs.status).toBe(400);
    expect(((await get<ContactImportJob[]>('/api/contacts/import-jobs', intruder.token)).body as unknown as ContactImportJobList).data).toEqual([]);
  }, 120_000);
});

/** Runs an export job with this body; the job when done, the download, its bytes and its lines (after the BOM). */
async function exportJob(token: string, body: Record<string, unknown>) {
  const started = await post<ContactExportJob>('/api/contacts/export-jobs', body, token);
  expect(started.status).toBe(202);
  const done = await until(
    async () => {
      const j = (await get<ContactExportJob>(`/api/contacts/export-jobs/${started.body.data!._id}`, token)).body.data;
      return j?.status === 'done' ? j : undefined;
    },
    'export job',
    60_000,
  );
  const download = await fetch(done.downloadUrl!);
  const bytes = new Uint8Array(await download.arrayBuffer());
  return { job: done, download, bytes, lines: new TextDecoder().decode(bytes.slice(3)).trim().split('\r\n') };
}

describe('contacts export', () => {
  it('writes the directory with a UTF-8 BOM and the chosen ; as a job with a download link, and the synchronous export too', async () => {
    const { token } = await spanishUser();
    await addContact(token, { name: 'Muñoz; Peña', phoneNumber: '600 111 333', customFields: { Ciudad: 'Móstoles' } });

    const { job: done, bytes, download } = await exportJob(token, { delimiter: ';' });
    expect(done.rows).toBe(1);
    // Issue 29: a Spanish account's export has Spanish headers, every field and a dated Spanish name.
    expect(download.headers.get('content-disposition')).toMatch(/contactos-\d{4}-\d{2}-\d{2}\.csv/);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toMatch(
      /^Nombre;Apellidos;Teléfono;Correo electrónico;Etiquetas;Notas;Origen;Creado;Ciudad\r\n"Muñoz; Peña";;\+34 600111333;;;;Manual;\d{4}-\d{2}-\d{2};Móstoles\r\n$/,
    );

    const sync = await fetch(`${provided('apiUrl')}/api/contacts/export?delimiter=%3B`, { headers: { authorization: `Bearer ${token}` } });
    const syncBytes = new Uint8Array(await sync.arrayBuffer());
    expect([...syncBytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(syncBytes.slice(3)).split('\r\n')[0]).toBe('Nombre;Apellidos;Teléfono;Correo electrónico;Etiquetas;Notas;Origen;Creado;Ciudad');
  }, 120_000);
});

describe('contacts export with the list filters', () => {
  const names = (lines: string[]) => lines.slice(1).map((l) => l.split(';')[0]).sort();

  it('exports only what the list shows for tag, custom field (any case and accents) and search, never another account\'s contacts', async () => {
    const { token } = await spanishUser();
    const munoz = await addContact(token, { name: 'Muñoz', phoneNumber: '600 111 333', customFields: { Ciudad: 'Móstoles' } });
    const garcia = await addContact(token, { name: 'García', phoneNumber: '600 111 334', customFields: { Ciudad: 'Madrid' } });
    await addContact(token, { name: 'López', phoneNumber: '600 111 335', customFields: { Ciudad: 'mostoles' } });
    expect((await post('/api/contacts/bulk-tag', { ids: [munoz._id, garcia._id], add: ['VIP'] }, token)).status).toBe(200);
    // Another account with a contact that matches every filter.
    const other = await spanishUser();
    const theirs = await addContact(other.token, { name: 'Muñoz Ajeno', phoneNumber: '600 111 336', customFields: { Ciudad: 'Móstoles' } });
    expect((await post('/api/contacts/bulk-tag', { ids: [theirs._id], add: ['vip'] }, other.token)).status).toBe(200);

    const byTag = await exportJob(token, { delimiter: ';', tag: 'vip' });
    expect(byTag.job).toMatchObject({ rows: 2, tag: 'vip' });
    expect(names(byTag.lines)).toEqual(['García', 'Muñoz']);
    expect((await listContacts(token, { tag: 'vip' })).body.pagination?.totalContacts).toBe(2);

    const byField = await exportJob(token, { delimiter: ';', field: 'ciudad', value: 'MOSTOLES' });
    expect(byField.job).toMatchObject({ rows: 2, field: 'ciudad', value: 'MOSTOLES' });
    expect(names(byField.lines)).toEqual(['López', 'Muñoz']);

    const searchAndTag = await exportJob(token, { delimiter: ';', search: 'García', tag: 'vip' });
    expect(names(searchAndTag.lines)).toEqual(['García']);

    const sync = await fetch(`${provided('apiUrl')}/api/contacts/export?delimiter=%3B&field=Ciudad&value=m%C3%B3stoles&tag=VIP`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(sync.status).toBe(200);
    expect(names(new TextDecoder().decode(new Uint8Array(await sync.arrayBuffer()).slice(3)).trim().split('\r\n'))).toEqual(['Muñoz']);
  }, 120_000);

  it('refuses a value without a field with the list\'s 400, on the job and the direct export', async () => {
    const { token } = await activeUser();
    const job = await post('/api/contacts/export-jobs', { value: 'Madrid' }, token);
    expect(job.status).toBe(400);
    expect(job.body.message).toBe(contactMessages.valueWithoutField);
    const sync = await get('/api/contacts/export?value=Madrid', token);
    expect(sync.status).toBe(400);
    expect(sync.body.message).toBe(contactMessages.valueWithoutField);
  });
});
