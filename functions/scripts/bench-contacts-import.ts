/**
 * Contacts import as a background job (issue 19; part of `npm run bench`): the local stack on a
 * throw-away data dir, a subscribed Spanish user, and a Spanish Excel file (';', Windows-1252,
 * Spanish headers, numbers without +34) uploaded with the presigned form and imported through the
 * contacts-jobs worker, polled as the page polls it. Measured through the local gateway:
 *   - the 5,000-row import: done ≤ 30 s after the job was created;
 *   - first progress (rows done > 0) visible ≤ 2 s after the upload;
 *   - the 50,000-row import completes (every row accounted for, no failed job, no dead letter).
 *
 *   --rows=N        rows of the first file (default 5000)
 *   --large=N       rows of the long file (default 50000; 0 skips it)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContactImportJob, ImportUploadTicket } from '../src/contract/contact-jobs.js';
import { startLocalStack } from '../local/stack.js';
import { arg, registeredToken, subscribe, table } from './bench-common.js';

const ROWS = arg('rows', 5_000);
const LARGE = arg('large', 50_000);
const DONE_TARGET_S = 30;
const PROGRESS_TARGET_S = 2;
/** A 50,000-row import may take long on DynamoDB Local; it must finish, not be fast. */
const LARGE_TIMEOUT_S = 3600;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function spanishExcelFile(rows: number, offset: number): Uint8Array {
  const lines = ['Nombre;Teléfono;Correo;Etiquetas;Ciudad'];
  for (let i = 1; i <= rows; i++) {
    const d = `6${String(offset + i).padStart(8, '0')}`;
    lines.push(`Muñoz Peña ${i};${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)};paciente${i}@example.es;vip;Móstoles`);
  }
  return new Uint8Array(Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1'));
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agentdesk-bench-import-'));
const stack = await startLocalStack({ dataDir, quiet: true });
let failures = 0;
try {
  console.log(`\nContacts import job: ${ROWS.toLocaleString('en-US')} rows${LARGE ? ` and ${LARGE.toLocaleString('en-US')} rows` : ''}, Spanish Excel CSV, through the local gateway and the contacts-jobs worker\n`);
  const { token, userId } = await registeredToken(stack.apiUrl, stack.mailboxUrl);
  await subscribe(stack, userId);
  const call = async <T>(method: string, p: string, body?: unknown): Promise<{ status: number; data?: T; message?: string }> => {
    const res = await fetch(`${stack.apiUrl}${p}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data?: T; message?: string };
    return { status: res.status, ...json };
  };
  await call('PUT', '/api/user/profile', { name: 'Clínica Peña', language: 'es', country: 'ES' });

  /** Upload, create the job, poll every 200 ms; the times are from the end of the upload. */
  async function importFile(rows: number, offset: number, timeoutS: number) {
    const bytes = spanishExcelFile(rows, offset);
    const ticket = await call<ImportUploadTicket>('POST', '/api/contacts/import-jobs/uploads', { fileName: `pacientes-${rows}.csv`, size: bytes.length });
    if (!ticket.data) throw new Error(`upload ticket: ${ticket.status} ${ticket.message}`);
    const form = new FormData();
    for (const [k, v] of Object.entries(ticket.data.fields)) form.append(k, v);
    form.append('file', new Blob([bytes]), 'pacientes.csv');
    const posted = await fetch(ticket.data.url, { method: 'POST', body: form });
    if (!posted.ok) throw new Error(`upload: ${posted.status}`);
    const uploaded = performance.now();
    const columns = [{ field: 'name' }, { field: 'phone' }, { field: 'email' }, { field: 'tags' }, { field: 'custom', name: 'Ciudad' }];
    const created = await call<ContactImportJob>('POST', '/api/contacts/import-jobs', { uploadId: ticket.data.uploadId, columns });
    if (!created.data) throw new Error(`create job: ${created.status} ${created.message}`);
    let firstProgressS: number | null = null;
    let job = created.data;
    while ((performance.now() - uploaded) / 1000 < timeoutS) {
      const got = await call<ContactImportJob>('GET', `/api/contacts/import-jobs/${created.data._id}`);
      job = got.data ?? job;
      if (firstProgressS === null && job.progress.rowsDone > 0) firstProgressS = (performance.now() - uploaded) / 1000;
      if (job.status === 'done' || job.status === 'failed') break;
      await sleep(200);
    }
    return { job, firstProgressS, doneS: (performance.now() - uploaded) / 1000 };
  }

  const out: string[][] = [];
  const small = await importFile(ROWS, 0, 600);
  const smallDone = small.job.status === 'done' && small.job.progress.created === ROWS;
  const smallOk = smallDone && small.doneS <= DONE_TARGET_S;
  const progressOk = small.firstProgressS !== null && small.firstProgressS <= PROGRESS_TARGET_S;
  out.push([`import ${ROWS.toLocaleString('en-US')} rows: done`, `${small.doneS.toFixed(1)} s`, `≤ ${DONE_TARGET_S} s`, `${small.job.status}, ${small.job.progress.created} created`, smallOk ? 'pass' : 'FAIL']);
  out.push([`import ${ROWS.toLocaleString('en-US')} rows: first progress`, small.firstProgressS === null ? '-' : `${small.firstProgressS.toFixed(2)} s`, `≤ ${PROGRESS_TARGET_S} s`, '', progressOk ? 'pass' : 'FAIL']);
  if (!smallOk) failures++;
  if (!progressOk) failures++;

  if (LARGE > 0) {
    const large = await importFile(LARGE, 10_000_000, LARGE_TIMEOUT_S);
    const dead = stack.dispatcher.deadLetters('contacts-jobs').length;
    const largeOk = large.job.status === 'done' && large.job.progress.rowsDone === LARGE && large.job.progress.created === LARGE && dead === 0;
    out.push([
      `import ${LARGE.toLocaleString('en-US')} rows: completes`,
      `${large.doneS.toFixed(1)} s`,
      'no timeout',
      `${large.job.status}, ${large.job.progress.rowsDone} rows, ${large.job.progress.created} created, ${dead} dead letters`,
      largeOk ? 'pass' : 'FAIL',
    ]);
    if (!largeOk) failures++;
  }
  console.log(table(['measure', 'value', 'target', 'job', 'result'], out));
  console.log(`\n${failures === 0 ? 'Contacts import targets met.' : `Contacts import targets missed (${failures}).`}`);
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exitCode = failures === 0 ? 0 : 1;
