/**
 * A person's lookup, erasure and export through the local stack (issue 33): the counts of what is
 * held about a Spanish patient (typed with or without +34), an erasure asked twice at once (one
 * job), its progress while it runs and its report once done (no personal data; the activity log
 * has the counts), an export downloaded through its short-lived link and read file by file, and
 * the refusals: a foreign contact or job (404), a team member (409), a wrong confirmation (400,
 * nothing queued).
 */
import { createHash, randomBytes } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { contactMessages, type Contact } from '../../src/contract/contacts.js';
import {
  EXPORT_KEEP_HOURS,
  PRIVACY_STEPS,
  privacyMessages,
  type PersonDataInventory,
  type PrivacyJobPage,
  type PrivacyJobView,
} from '../../src/contract/privacy.js';
import type { ActivityPage } from '../../src/contract/team.js';
import type { User } from '../../src/contract/auth.js';
import { api, db, get, itemsOf, provided, tableName, until } from '../support/api.js';
import { clinic, weekdayAhead } from '../support/bookings.js';
import { addContact } from '../support/contacts.js';
import { openConversation } from '../support/conversations.js';
import { seedCall } from '../support/seed-calls.js';
import { localCredentials, testS3Client } from '../support/stack-clients.js';
import { S3Presigner } from '../../src/adapters/s3-presigner.js';
import { openS3ZipExport, uploadsObjectReader } from '../../src/adapters/s3-privacy-export.js';
import { joinedMember, ownerOn } from '../support/team.js';
import { newWamid, randomDigits } from '../support/whatsapp.js';
import { idTimePrefix } from '../../src/adapters/dynamo/messages.js';
import type { StoredMessage } from '../../src/domain/conversations/ports.js';
import { newId } from '../../src/lib/ids.js';
import { mapLimit } from '../../src/lib/map-limit.js';

const chunked = <T>(items: readonly T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

const lookup = (token: string, body: unknown) => api<PersonDataInventory>('POST', '/api/privacy/people/lookup', { token, body });
const erase = (token: string, body: unknown) => api<PrivacyJobView>('POST', '/api/privacy/erasures', { token, body });
const exportOf = (token: string, body: unknown) => api<PrivacyJobView>('POST', '/api/privacy/exports', { token, body });
const jobOf = (token: string, id: string) => get<PrivacyJobView>(`/api/privacy/jobs/${id}`, token);
const privacyJobItems = async (accountId: string) => (await itemsOf(`USER#${accountId}`)).filter((i) => /^PRIVACY(JOB|LOCK)#/.test(String(i.sk)));

/** A Spanish mobile: its national form ("6xx xx xx xx"), E.164 and wa_id. */
function spanishMobile() {
  const digits = `6${randomDigits(8)}`;
  return { national: `${digits.slice(0, 3)} ${digits.slice(3, 5)} ${digits.slice(5, 7)} ${digits.slice(7)}`, e164: `+34${digits}`, waId: `34${digits}` };
}

/** The entries of a ZIP by name, read whole (the test's files are small). */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** Seeds a patient of the clinic: a contact, a WhatsApp conversation of `messages` messages (one an image), two calls and a booking. */
async function seedPatient(c: Awaited<ReturnType<typeof clinic>>, messages: number) {
  const phone = spanishMobile();
  const contact = await addContact(c.token, { name: 'Ana López', phoneNumber: phone.national, email: `ana.${randomDigits(6)}@example.es` });
  const business = { phoneId: `10${randomDigits(13)}`, phoneNumber: '+34911000000' };
  const conv = await openConversation(c.userId, business, { waId: phone.waId, name: 'Ana López' }, new Date(Date.now() - 3_600_000));
  // Her messages written with BatchWrite as the repository writes them (seeding through it would take the test's time); the last one an image.
  const start = Date.now() - 3_000_000;
  const imageBytes = randomBytes(3000);
  let mediaKey = '';
  const items = Array.from({ length: messages }, (_, i) => {
    const at = new Date(start + i * 1000);
    const mid = `${idTimePrefix(at.getTime())}${newId().slice(10)}`;
    const id = `${conv.id}-${mid}`;
    const image = i === messages - 1;
    if (image) mediaKey = `whatsapp-media/${c.userId}/${conv.id}/${id}`;
    const message: StoredMessage = {
      id,
      conversationId: conv.id,
      waMessageId: newWamid(),
      contactId: '',
      type: image ? 'image' : 'chat',
      hasMedia: image,
      ...(image ? { media: { mimeType: 'image/jpeg', state: 'stored', size: imageBytes.length, storedKey: mediaKey } } : {}),
      fromMe: false,
      from: phone.e164,
      to: business.phoneNumber,
      phoneNumberId: { id: business.phoneId, name: business.phoneNumber },
      status: 'delivered',
      timestamp: at.toISOString(),
      body: image ? '' : `Mensaje ${i}: me duele la muela`,
      createdAt: at.toISOString(),
    } as StoredMessage;
    return { pk: `USER#${c.userId}#CONV#${conv.id}`, sk: `MSG#${mid}`, gsi1pk: `USER#${c.userId}#MSGS`, gsi1sk: mid, entity: 'message', ...message };
  });
  await mapLimit(chunked(items, 25), 4, async (chunk) => {
    let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
    while (pending.length) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
    }
  });
  // The image she sent, in the uploads bucket where the media pipeline puts it.
  await testS3Client().send(new PutObjectCommand({ Bucket: provided('uploadsBucket'), Key: mediaKey, Body: imageBytes, ContentType: 'image/jpeg' }));
  await seedCall(c.userId, { phoneNumber: phone.e164 });
  await seedCall(c.userId, { phoneNumber: phone.e164 });
  const booked = await api('POST', '/api/bookings', {
    token: c.token,
    body: { serviceId: c.service._id, staffId: c.staff._id, start: `${weekdayAhead(2)}T10:00`, customer: { name: 'Ana López', phone: phone.national } },
  });
  expect(booked.status, booked.body.message).toBe(201);
  return { phone, contact, conv, mediaKey, imageBytes };
}

describe("a person's data: lookup, erasure, export", () => {
  it('counts what is held, erases it once when asked twice at once (progress, then a report without personal data), refuses foreign ids and bad confirmations', async () => {
    const c = await clinic();
    const ana = await seedPatient(c, 400);

    // The same person typed both ways, or as her contact.
    const national = await lookup(c.token, { phoneNumber: ana.phone.national });
    expect(national.status, national.body.message).toBe(200);
    const held = national.body.data!;
    expect(held.person).toEqual({ contactId: ana.contact._id, name: 'Ana López', phoneNumber: ana.phone.e164 });
    expect(held.counts).toMatchObject({ contacts: 1, conversations: 1, messages: 400, media: 1, calls: 2, bookings: 1 });
    expect((await lookup(c.token, { phoneNumber: `+34 ${ana.phone.national}` })).body.data).toEqual(held);
    expect((await lookup(c.token, { contactId: ana.contact._id })).body.data).toEqual(held);

    // Another account: her contact is not found, and nothing of hers is counted by number.
    const other = await ownerOn('starter', 'Otra Clínica');
    const foreign = await lookup(other.token, { contactId: ana.contact._id });
    expect([foreign.status, foreign.body.message]).toEqual([404, contactMessages.notFound]);
    expect((await erase(other.token, { contactId: ana.contact._id, confirmation: 'BORRAR' })).status).toBe(404);

    // A wrong confirmation: 400, nothing queued.
    const wrong = await erase(c.token, { contactId: ana.contact._id, confirmation: 'BORRA' });
    expect([wrong.status, wrong.body.message]).toEqual([400, privacyMessages.confirmationInvalid]);
    expect(await privacyJobItems(c.userId)).toEqual([]);

    // Twice at once (two tabs, national and +34 forms): one job.
    const [first, second] = await Promise.all([
      erase(c.token, { phoneNumber: ana.phone.national, confirmation: 'borrar' }),
      erase(c.token, { contactId: ana.contact._id, confirmation: 'ERASE' }),
    ]);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(first.body.message).toBe(privacyMessages.erasureStarted);
    const jobId = first.body.data!._id;
    expect(second.body.data!._id).toBe(jobId);
    expect(first.body.data).toMatchObject({ kind: 'erasure', person: { label: 'Ana López' }, requestedBy: { _id: c.userId }, progress: { stepsTotal: PRIVACY_STEPS.length } });

    // Its progress while it runs, then done.
    const seen: PrivacyJobView[] = [];
    const done = await until(async () => {
      const view = (await jobOf(c.token, jobId)).body.data!;
      seen.push(view);
      return view.status === 'done' || view.status === 'failed' ? view : undefined;
    }, 'the erasure done', 50_000);
    expect(done.status, done.failure ?? '').toBe('done');
    expect(seen.some((v) => v.status === 'running' && v.person?.label === 'Ana López')).toBe(true);
    expect(done.progress).toMatchObject({ stepsDone: PRIVACY_STEPS.length, stepsTotal: PRIVACY_STEPS.length, step: null });
    expect(done.counts).toMatchObject({ contacts: 1, conversations: 1, messages: 400, media: 1, calls: 2, bookings: 1 });
    // The kept report names nobody.
    expect(done.person).toBeNull();
    const report = (await privacyJobItems(c.userId)).find((i) => i.sk === `PRIVACYJOB#${jobId}`)!;
    expect(JSON.stringify(report)).not.toMatch(new RegExp(`Ana|López|${ana.phone.e164.slice(1)}|${ana.contact._id}`));
    // The lock is gone with the job.
    expect((await privacyJobItems(c.userId)).filter((i) => String(i.sk).startsWith('PRIVACYLOCK#'))).toEqual([]);

    // Nothing left: the lookup counts nothing, a second erasure has nothing to erase.
    expect((await lookup(c.token, { phoneNumber: ana.phone.national })).body.data!.counts).toMatchObject({ contacts: 0, conversations: 0, messages: 0, calls: 0, media: 0 });
    const again = await erase(c.token, { phoneNumber: ana.phone.e164, confirmation: 'BORRAR' });
    expect([again.status, again.body.message]).toEqual([404, privacyMessages.personNotFound]);

    // The activity log: who, and the counts.
    const activity = (await get<ActivityPage>('/api/team/activity?action=person.erased', c.token)).body.data!.entries;
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ actor: { kind: 'member', _id: c.userId }, details: { messages: 400, calls: 2, contacts: 1 } });

    // A job id of another account, or no job: 404.
    expect([(await jobOf(other.token, jobId)).status, (await jobOf(other.token, jobId)).body.message]).toEqual([404, privacyMessages.jobNotFound]);
    expect((await jobOf(c.token, '01JUNKJUNKJUNKJUNKJUNKJUNK')).status).toBe(404);
    expect((await jobOf(c.token, 'not-an-id')).status).toBe(404);
  }, 120_000);

  it('exports a person as a ZIP downloaded through a short-lived link, file by file; lists the jobs newest first', async () => {
    const c = await clinic();
    const ana = await seedPatient(c, 12);
    const started = await exportOf(c.token, { phoneNumber: ana.phone.national });
    expect(started.status, started.body.message).toBe(202);
    const jobId = started.body.data!._id;
    const done = await until(async () => {
      const view = (await jobOf(c.token, jobId)).body.data!;
      return view.status === 'done' || view.status === 'failed' ? view : undefined;
    }, 'the export done', 50_000);
    expect(done.status, done.failure ?? '').toBe('done');
    expect(done.person).toEqual({ label: 'Ana López' });
    const today = new Date().toISOString().slice(0, 10);
    expect(done.download).toMatchObject({ fileName: `datos-ana-lopez-${today}.zip` });
    expect(Date.parse(done.download!.expiresAt) - Date.now()).toBeLessThanOrEqual(15 * 60_000 + 1000);

    const response = await fetch(done.download!.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toContain(`datos-ana-lopez-${today}.zip`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBe(done.download!.bytes);
    const files = await unzip(bytes);
    const names = [...files.keys()];

    const readme = files.get('README.txt')!.toString('utf8');
    expect(readme).toContain('Exportación de datos personales');
    expect(readme).toContain('Ana López');
    for (const name of names.filter((n) => n !== 'README.txt')) expect(readme).toContain(name);

    const convJson = names.find((n) => n.startsWith('conversations/') && n.endsWith('/conversation.json'))!;
    const conversation = JSON.parse(files.get(convJson)!.toString('utf8')) as { messages: unknown[] };
    expect(conversation.messages).toHaveLength(12);
    const transcript = files.get(convJson.replace('conversation.json', 'transcript.txt'))!.toString('utf8');
    expect(transcript).toContain('Mensaje 0: me duele la muela');
    const media = names.find((n) => n.startsWith(convJson.replace('conversation.json', 'media/')))!;
    expect(files.get(media)!.equals(ana.imageBytes)).toBe(true);

    const callTranscripts = names.filter((n) => n.startsWith('calls/') && n.endsWith('transcript.txt'));
    expect(callTranscripts).toHaveLength(2);
    const csv = files.get('bookings/bookings.csv')!.toString('utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.split('\r\n')[0]).toContain(';');
    expect(csv).toContain('Ana López');
    expect(JSON.parse(files.get('contact/contact.json')!.toString('utf8'))).toMatchObject({ name: 'Ana López', phoneNumber: ana.phone.e164 });

    // A job whose queue message was lost (queued, silent for two hours) does not lock the person out: it is failed and a new one starts.
    const lostId = '01K0000000000000000000DEAD';
    const hoursAgo = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const hash = createHash('sha256').update(ana.phone.e164).digest('hex');
    const lock = `PRIVACYLOCK#export#${hash}`;
    await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `USER#${c.userId}`, sk: lock, entity: 'privacyLock', jobId: lostId } }));
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk: `USER#${c.userId}`, sk: `PRIVACYJOB#${lostId}`, entity: 'privacyJob', id: lostId, kind: 'export', status: 'queued', person: { accountId: c.userId, contactId: null, e164: ana.phone.e164, waId: ana.phone.waId }, personLabel: 'x', personHash: hash, lockSk: lock, stepsDone: [], items: 0, counts: {}, requestedBy: null, createdAt: hoursAgo, updatedAt: hoursAgo },
      }),
    );
    const after = await exportOf(c.token, { phoneNumber: ana.phone.national });
    expect(after.status, after.body.message).toBe(202);
    expect(after.body.data!._id).not.toBe(lostId);
    expect((await jobOf(c.token, lostId)).body.data).toMatchObject({ status: 'failed', failure: privacyMessages.jobFailed });
    await until(async () => (await jobOf(c.token, after.body.data!._id)).body.data!.status === 'done', 'the new export done', 50_000);

    // The export's item (her name) lives as long as its file plus a week, not a year.
    const exportItem = (await privacyJobItems(c.userId)).find((i) => i.sk === `PRIVACYJOB#${jobId}`)!;
    const fileEnds = Date.parse((exportItem.file as { expiresAt: string }).expiresAt) / 1000;
    expect(fileEnds - Date.now() / 1000).toBeGreaterThan(EXPORT_KEEP_HOURS * 3600 - 300);
    expect(Math.abs(Number(exportItem.expiresAt) - (fileEnds + 7 * 86_400))).toBeLessThanOrEqual(60);

    // Another patient's export, done.
    const luisPhone = spanishMobile();
    await addContact(c.token, { name: 'Luis Pérez', phoneNumber: luisPhone.national });
    const luis = await exportOf(c.token, { phoneNumber: luisPhone.e164 });
    expect(luis.status, luis.body.message).toBe(202);
    const luisId = luis.body.data!._id;
    await until(async () => (await jobOf(c.token, luisId)).body.data!.status === 'done', "Luis's export done", 50_000);

    // Exporting erases nothing; the list has the exports, newest first.
    expect((await lookup(c.token, { contactId: ana.contact._id })).body.data!.counts).toMatchObject({ messages: 12, contacts: 1 });
    const zipOf = (id: string) => testS3Client().send(new HeadObjectCommand({ Bucket: provided('uploadsBucket'), Key: `tmp/privacy-exports/${c.userId}/${id}.zip` })).then(() => true, () => false);
    expect([await zipOf(jobId), await zipOf(after.body.data!._id), await zipOf(luisId)]).toEqual([true, true, true]);
    const erasing = await erase(c.token, { contactId: ana.contact._id, confirmation: 'BORRAR' });
    const list = await get<PrivacyJobPage>('/api/privacy/jobs', c.token);
    expect(list.status).toBe(200);
    expect(list.body.data!.jobs.map((j) => [j._id, j.kind, j.status])).toEqual([
      [erasing.body.data!._id, 'erasure', expect.any(String)],
      [luisId, 'export', 'done'],
      [after.body.data!._id, 'export', 'done'],
      [jobId, 'export', 'done'],
      [lostId, 'export', 'failed'],
    ]);
    expect(list.body.data!.jobs[3]!.download?.fileName).toBe(`datos-ana-lopez-${today}.zip`);
    await until(async () => (await jobOf(c.token, erasing.body.data!._id)).body.data!.status === 'done', 'the erasure done', 50_000);

    // Erased, her exports are gone (the jobs and their ZIPs); Luis's is untouched.
    const listed = (await get<PrivacyJobPage>('/api/privacy/jobs', c.token)).body.data!.jobs;
    expect(listed.map((j) => [j._id, j.kind, j.status])).toEqual([
      [erasing.body.data!._id, 'erasure', 'done'],
      [luisId, 'export', 'done'],
    ]);
    expect(listed[1]!.person).toEqual({ label: 'Luis Pérez' });
    for (const id of [jobId, after.body.data!._id, lostId]) expect([(await jobOf(c.token, id)).status, (await jobOf(c.token, id)).body.message]).toEqual([404, privacyMessages.jobNotFound]);
    expect([await zipOf(jobId), await zipOf(after.body.data!._id), await zipOf(luisId)]).toEqual([false, false, true]);
    const kept = await privacyJobItems(c.userId);
    expect(kept.map((i) => i.sk).sort()).toEqual([`PRIVACYJOB#${erasing.body.data!._id}`, `PRIVACYJOB#${luisId}`].sort());
    expect(JSON.stringify(kept)).not.toMatch(new RegExp(`Ana|López|${ana.phone.e164.slice(1)}|${ana.contact._id}`));
  }, 120_000);

  it('streams a ZIP bigger than one upload part (several S3 parts, a recording streamed) and the archive reads back whole', async () => {
    const presigner = new S3Presigner({ bucket: provided('uploadsBucket'), region: 'us-east-1', endpoint: provided('s3Endpoint'), expiresInSeconds: 900, credentials: async () => localCredentials });
    const key = `tmp/privacy-exports/test/${newId()}.zip`;
    const file = await openS3ZipExport(presigner, key, { readObject: uploadsObjectReader(presigner) });
    // 20 MB of incompressible audio in 64 KB chunks, as a Twilio recording arrives.
    const audio = randomBytes(20 * 1024 * 1024);
    async function* chunks() {
      for (let at = 0; at < audio.length; at += 65_536) yield audio.subarray(at, at + 65_536);
    }
    await file.json('calls/call.json', { caller: 'Ana López', turns: 3 });
    await file.stream('calls/recording.mp3', chunks());
    await file.csv('bookings/bookings.csv', [['Fecha', 'Nota'], ['2026-12-01', '=SUMA(1;2) "muela"']]);
    await file.object('media/missing.jpg', 'whatsapp-media/none/none/none');
    const { bytes } = await file.close();
    expect(bytes).toBeGreaterThan(20 * 1024 * 1024);
    const response = await fetch(await presigner.urlFor(key));
    const zipBytes = Buffer.from(await response.arrayBuffer());
    expect(zipBytes.length).toBe(bytes);
    const files = await unzip(zipBytes);
    expect([...files.keys()]).toEqual(['calls/call.json', 'calls/recording.mp3', 'bookings/bookings.csv']);
    expect(files.get('calls/recording.mp3')!.equals(audio)).toBe(true);
    // UTF-8 with a BOM, ';', CRLF, a formula neutralised and quotes doubled.
    expect(files.get('bookings/bookings.csv')!.toString('utf8')).toBe(`\uFEFFFecha;Nota\r\n2026-12-01;"'=SUMA(1;2) ""muela"""\r\n`);
  }, 60_000);

  it("refuses a team member's number (either form) with 409 and queues nothing", async () => {
    const owner = await ownerOn('professional', 'Clínica Peña');
    const member = await joinedMember(owner, 'agent', 'Marta Ruiz');
    const phone = spanishMobile();
    const saved = await api<User>('PUT', '/api/user/profile', { token: member.token, body: { name: 'Marta Ruiz', language: 'es', phoneNumber: phone.e164 } });
    expect(saved.status, saved.body.message).toBe(200);
    expect((await api<User>('PUT', '/api/user/profile', { token: owner.token, body: { name: 'Clínica Peña', language: 'es', country: 'ES' } })).status).toBe(200);
    for (const typed of [phone.national, phone.e164]) {
      const res = await lookup(owner.token, { phoneNumber: typed });
      expect([res.status, res.body.message]).toEqual([409, privacyMessages.personIsMember]);
    }
    // A contact saved with her number is refused too.
    const contact: Contact = await addContact(owner.token, { name: 'Marta', phoneNumber: phone.national });
    const erased = await erase(owner.token, { contactId: contact._id, confirmation: 'BORRAR' });
    expect([erased.status, erased.body.message]).toEqual([409, privacyMessages.personIsMember]);
    expect((await exportOf(owner.token, { phoneNumber: phone.national })).status).toBe(409);
    expect(await privacyJobItems(owner.accountId)).toEqual([]);
  }, 60_000);
});
