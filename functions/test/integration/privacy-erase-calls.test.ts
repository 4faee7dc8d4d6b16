/**
 * Issue 33, a person's calls, bookings and contact erased (adapters/dynamo/privacy/calls.ts,
 * bookings.ts, contact.ts) on the local stack, with the fake Twilio and the fake Google Calendar:
 *
 * - A Spanish clinic: 20 calls of the person with recordings (one live), 3 bookings (the last one
 *   written to Google Calendar), the contact saved with a national number ("6xx xx xx xx"), and a
 *   second person who must stay untouched. POST /api/privacy/erasures with the number typed as
 *   saved; a Twilio outage on one recording delete makes the job's first try fail half-way (the
 *   live call already ended), the queue retries it. Afterwards: no call of theirs in the list or by
 *   id, the contact and its timeline 404, the bookings still in the calendar with "Data erased"
 *   and no name or phone, Twilio shows the 20 recordings deleted and the live call ended, Google the
 *   event deleted; the other person's calls, booking, event and contact intact; the call list's
 *   total (VCALLS#STATS) counts what is left, as the list shows it.
 * - The calls step alone, stopped (shouldYield) and crashed (Twilio failing) half-way, then run
 *   again: everything gone, the runs' counts add up, the calls total moved once per call (the
 *   dashboard's ACT# history kept); its export before it (JSON, transcript, audio).
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { FetchTwilioAccountApi } from '../../src/adapters/twilio/account-api.js';
import { DynamoJobAccountSettings } from '../../src/adapters/dynamo/contact-jobs.js';
import { DynamoCallsPart } from '../../src/adapters/dynamo/privacy/calls.js';
import type { Booking } from '../../src/contract/bookings.js';
import type { Contact } from '../../src/contract/contacts.js';
import type { ContactTimeline } from '../../src/contract/contact-timeline.js';
import type { PersonDataInventory, PrivacyJobView } from '../../src/contract/privacy.js';
import type { VoiceConversationList } from '../../src/contract/voice.js';
import type { ExportWriter, PersonKey } from '../../src/domain/privacy/ports.js';
import type { StoredCall } from '../../src/domain/voice/ports.js';
import { memoryStepContext } from '../support/privacy.js';
import { mapLimit } from '../../src/lib/map-limit.js';
import { api, db, provided, tableName } from '../support/api.js';
import { bookingsOf, clinic, clinicVoice, must, weekdayAhead } from '../support/bookings.js';
import { activeUser, addContact } from '../support/contacts.js';
import { connectGoogle, googleEvents } from '../support/google-calendar.js';
import { agentTurn, seedCall, userTurn } from '../support/seed-calls.js';
import { drainQueues } from '../support/stack-clients.js';
import { randomDigits } from '../support/whatsapp.js';

const twilioUrl = () => provided('twilioApiUrl');
const recordingSid = () => `RE${randomBytes(16).toString('hex')}`;
const callSid = () => `CA${randomBytes(16).toString('hex')}`;

async function twilioControl<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${twilioUrl()}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!res.ok) throw new Error(`fake Twilio ${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
const deletions = (accountSid: string) =>
  twilioControl<{ recordings: { sid: string }[]; endedCalls: { sid: string; status: string }[] }>('GET', `/_test/deletions?accountSid=${accountSid}`);

/** A national Spanish mobile as a person types it ("6xx xx xx xx") and its E.164. */
function spanishMobile(): { national: string; e164: string } {
  const digits = `6${randomDigits(8)}`;
  return { national: `${digits.slice(0, 3)} ${digits.slice(3, 5)} ${digits.slice(5, 7)} ${digits.slice(7)}`, e164: `+34${digits}` };
}

/** `n` calls from `e164`, each with a recording on the account (the first `live` ones still active), a minute apart. */
async function seedCalls(userId: string, accountSid: string, e164: string, n: number, live = 0): Promise<StoredCall[]> {
  const start = Date.now() - 2 * 86_400_000;
  // Four at a time: each is the repository's create transaction (a collision on the counters is retried there).
  const calls = await mapLimit(Array.from({ length: n }, (_, i) => i), 4, (i) => {
    const sid = recordingSid();
    const active = i < live;
    return seedCall(userId, {
      callSid: callSid(),
      phoneNumber: e164,
      // A live call started just now: one started two days ago is closed by the stale-calls schedule (the local stack runs it) before the lookup sees it live.
      createdAt: active ? new Date().toISOString() : new Date(start + i * 60_000).toISOString(),
      status: active ? 'active' : 'completed',
      ...(active ? { endedAt: null, duration: 0, billedMinutes: 0 } : {}),
      messages: [agentTurn('Clínica Peña, ¿en qué puedo ayudarle?'), userTurn(`Soy Begoña Muñoz, llamo por la cita nº${i}`)],
      recording: { sid, url: `${twilioUrl()}/2010-04-01/Accounts/${accountSid}/Recordings/${sid}`, durationSec: 42 },
    });
  });
  // The caller's all-time figures (written when a call finishes) and a streamed call's turn state.
  await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `USER#${userId}`, sk: `CALLER#${e164}`, entity: 'caller', phoneNumber: e164, callCount: n, completedCalls: n - live, turns: 2 * n } }));
  await db().send(new PutCommand({ TableName: tableName(), Item: { pk: `USER#${userId}`, sk: `VRELAY#${calls[0]!.id}`, entity: 'relayState', answerSlot: 1 } }));
  return calls;
}

/** Every item of the account whose sort key starts with one of these prefixes. */
async function itemsUnder(userId: string, prefix: string): Promise<Record<string, unknown>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':a': prefix, ':b': `${prefix}~` },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}

const stepContext = memoryStepContext;

describe('a person erased: calls, bookings, contact', () => {
  it('POST /api/privacy/erasures ends the live call, deletes the recordings at Twilio and the Google event, anonymises the bookings, deletes the contact; the other person stays', async () => {
    const c = await clinic();
    const voice = await clinicVoice(c.token, {});
    const person = spanishMobile();
    const other = spanishMobile();
    const contact = await addContact(c.token, { firstName: 'Begoña', lastName: 'Muñoz Pérez', phoneNumber: person.national, customFields: { alergia: 'látex' } });
    expect(contact.phoneNumber).toBe(person.e164);
    const otherContact = await addContact(c.token, { firstName: 'Tomás', lastName: 'Ibáñez', phoneNumber: other.national });

    const [calls, otherCalls] = await Promise.all([seedCalls(c.userId, voice.accountSid, person.e164, 20, 1), seedCalls(c.userId, voice.accountSid, other.e164, 2)]);

    // Two bookings before Google is connected, the third (and the other person's) after: only those are events.
    const day = weekdayAhead(2);
    const book = (time: string, name: string, phone: string) =>
      must<Booking>(api('POST', '/api/bookings', { token: c.token, body: { serviceId: c.service._id, staffId: c.staff._id, start: `${day}T${time}`, customer: { name, phone }, notes: `${name}: alergia al látex` } }), 201);
    const booked = [await book('09:00', 'Begoña Muñoz', person.national), await book('10:00', 'Begoña Muñoz', person.national)];
    await drainQueues();
    const googleEmail = `clinica-${randomDigits(6)}@gmail.test`;
    await connectGoogle(c.token, { email: googleEmail, calendars: [] });
    booked.push(await book('11:00', 'Begoña Muñoz', person.national));
    const otherBooking = await book('12:00', 'Tomás Ibáñez', other.national);
    await drainQueues();
    const eventsBefore = await googleEvents(googleEmail);
    expect(eventsBefore.filter((e) => e.status === 'confirmed').map((e) => e.summary.split(' · ')[0]).sort()).toEqual(['Begoña Muñoz', 'Tomás Ibáñez']);
    expect((await itemsUnder(c.userId, `BKNUM#${person.e164}#`)).length).toBeGreaterThan(0);

    const lookup = await must<PersonDataInventory>(api('POST', '/api/privacy/people/lookup', { token: c.token, body: { phoneNumber: person.national } }));
    expect(lookup.person.contactId).toBe(contact._id);
    expect(lookup.counts).toMatchObject({ calls: 20, recordings: 20, bookings: 3, contacts: 1 });
    expect(lookup.active.call).toBe(true);

    // Twilio fails one recording's delete once: the job's first try stops half-way (the live call already ended), the retry finishes.
    const failing = calls[7]!.recording!.sid;
    await twilioControl('POST', '/_test/faults', { kind: 'status', status: 503, times: 1, match: { method: 'DELETE', path: `/2010-04-01/Accounts/*/Recordings/${failing}.json`, key: voice.accountSid } });

    const started = await api<PrivacyJobView>('POST', '/api/privacy/erasures', { token: c.token, body: { phoneNumber: person.national, confirmation: 'borrar' } });
    expect(started.status, started.body.message).toBe(202);
    await drainQueues();
    const job = await must<PrivacyJobView>(api('GET', `/api/privacy/jobs/${started.body.data!._id}`, { token: c.token }));
    expect(job.status).toBe('done');
    expect(job.counts).toMatchObject({ calls: 20, recordings: 20, bookings: 3, contacts: 1 });

    // Twilio: the live call ended, every recording of theirs deleted, none of the other person's.
    const removed = await deletions(voice.accountSid);
    expect(removed.endedCalls).toEqual([expect.objectContaining({ sid: calls[0]!.callSid, status: 'completed' })]);
    const deleted = new Set(removed.recordings.map((r) => r.sid));
    expect(calls.every((call) => deleted.has(call.recording!.sid))).toBe(true);
    expect(otherCalls.some((call) => deleted.has(call.recording!.sid))).toBe(false);

    // The call logs: none of theirs, by list, search or id; the other person's stay.
    const list = await must<VoiceConversationList>(api('GET', '/api/voice-conversations?limit=100', { token: c.token }));
    expect(list.conversations.map((x) => x._id).sort()).toEqual(otherCalls.map((x) => x.id).sort());
    const searched = await must<VoiceConversationList>(api('GET', `/api/voice-conversations?search=${person.e164.slice(3)}`, { token: c.token }));
    expect(searched.conversations).toEqual([]);
    expect((await api('GET', `/api/voice-conversations/${calls[3]!.id}`, { token: c.token })).status).toBe(404);
    expect((await api('GET', `/api/voice-conversations/${calls[3]!.id}/recording`, { token: c.token })).status).toBe(404);
    for (const prefix of [`VCALLNUM#${person.e164}#`, `CALLER#${person.e164}`, `BKCUST#${person.e164}#`, `BKNUM#${person.e164}#`, `OPTOUT#${person.e164}`, `VRELAY#${calls[0]!.id}`]) {
      expect(await itemsUnder(c.userId, prefix), prefix).toEqual([]);
    }
    // Each CallSid keeps only a tombstone, for a recording Twilio reports late (privacy-erase-late-recording.test.ts).
    for (const call of calls) {
      const [guard, ...more] = await itemsUnder(c.userId, `TWCALL#${call.callSid}`);
      expect(more).toEqual([]);
      expect(Object.keys(guard!).sort()).toEqual(['entity', 'erased', 'expiresAt', 'pk', 'sk']);
      expect(guard!.erased).toBe(true);
    }
    for (const b of booked) expect(await itemsUnder(c.userId, `BKMSG#${b._id}#`)).toEqual([]);
    // The call list's total moved like a delete (−1 a call erased): it counts the 2 calls left, the ones it lists.
    const stats = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `USER#${c.userId}`, sk: 'VCALLS#STATS' }, ConsistentRead: true }));
    expect(stats.Item?.total).toBe(2);
    expect(list.pagination.totalItems).toBe(list.conversations.length);
    expect(list.pagination.totalPages).toBe(1);

    // The contact and its timeline are gone; the other's timeline still has their calls.
    expect((await api('GET', `/api/contacts/${contact._id}`, { token: c.token })).status).toBe(404);
    expect((await api('GET', `/api/contacts/${contact._id}/timeline`, { token: c.token })).status).toBe(404);
    const otherTimeline = await must<ContactTimeline>(api('GET', `/api/contacts/${otherContact._id}/timeline?limit=20`, { token: c.token }));
    expect(otherTimeline.items.filter((i) => i.kind === 'call')).toHaveLength(2);
    expect((await must<Contact>(api('GET', `/api/contacts/${otherContact._id}`, { token: c.token })))._id).toBe(otherContact._id);

    // Bookings: still in the calendar at their times, with no name, phone or notes; the other's intact.
    const after = await bookingsOf(c);
    for (const b of booked) {
      const now = after.find((x) => x._id === b._id)!;
      expect(now).toMatchObject({ start: b.start, end: b.end, status: 'confirmed', serviceName: b.serviceName, staffName: b.staffName, notes: '', customer: { name: '', phone: '', contactId: null, erased: true } });
    }
    expect(JSON.stringify(after)).not.toContain('Begoña');
    expect(after.find((x) => x._id === otherBooking._id)).toMatchObject({ customer: { name: 'Tomás Ibáñez', phone: other.e164 }, notes: 'Tomás Ibáñez: alergia al látex' });
    // The slot stays taken: the busy-day spans held.
    const retake = await api('POST', '/api/bookings', { token: c.token, body: { serviceId: c.service._id, staffId: c.staff._id, start: `${day}T09:00`, customer: { name: 'Nuevo', phone: spanishMobile().national } } });
    expect(retake.status).toBe(409);

    // Google: their event deleted, the other's kept.
    const eventsAfter = await googleEvents(googleEmail);
    expect(eventsAfter.filter((e) => e.status === 'confirmed').map((e) => e.summary.split(' · ')[0])).toEqual(['Tomás Ibáñez']);
    expect(eventsAfter.filter((e) => e.status === 'cancelled')).toHaveLength(1);

    // Asked again: nothing is held about them any more.
    expect((await api('POST', '/api/privacy/erasures', { token: c.token, body: { phoneNumber: person.e164, confirmation: 'ERASE' } })).status).toBe(404);
  });

  it('the calls step stopped and crashed half-way, run again, deletes everything once; its export has each call, transcript and recording', async () => {
    const { userId } = await activeUser();
    const account = await twilioControl<{ accountSid: string; authToken: string }>('POST', '/_test/accounts', { numbers: [] });
    const creds = { accountSid: account.accountSid, authToken: account.authToken };
    const person = spanishMobile();
    const calls = (await seedCalls(userId, creds.accountSid, person.e164, 12)).sort((a, b) => a.id.localeCompare(b.id));
    const part = new DynamoCallsPart({
      db: db(),
      tableName: tableName(),
      twilio: new FetchTwilioAccountApi({ baseUrl: twilioUrl() }),
      credentials: async (accountId) => (accountId === userId ? creds : null),
      locale: new DynamoJobAccountSettings(db(), tableName()),
      batchSize: 4,
    });
    const key: PersonKey = { accountId: userId, contactId: null, e164: person.e164, waId: person.e164.slice(1) };
    expect(await part.count(key)).toEqual({ calls: 12, recordings: 12 });

    // The export first: a folder per call with its JSON, its transcript and the audio from Twilio.
    const files = new Map<string, unknown>();
    const out: ExportWriter = {
      json: async (path, value) => void files.set(path, JSON.parse(JSON.stringify(value))),
      text: async (path, text) => void files.set(path, text),
      csv: async (path, rows) => void files.set(path, rows),
      object: async (path, objectKey) => void files.set(path, { key: objectKey }),
      stream: async (path, body) => {
        const chunks: Uint8Array[] = [];
        for await (const chunk of body) chunks.push(chunk);
        files.set(path, Buffer.concat(chunks));
      },
    };
    expect(await part.export(key, out, stepContext())).toEqual({ counts: { calls: 12, recordings: 12 }, done: true });
    const folder = `calls/${calls[5]!.createdAt.slice(0, 10)}-${calls[5]!.id}`;
    expect(files.get(`${folder}/call.json`)).toMatchObject({ id: calls[5]!.id, from: person.e164, direction: 'inbound', transcript: [{ role: 'agent' }, { role: 'caller', text: 'Soy Begoña Muñoz, llamo por la cita nº5' }] });
    expect(files.get(`${folder}/transcript.txt`)).toMatch(/Customer: Soy Begoña Muñoz, llamo por la cita nº5/);
    expect((files.get(`${folder}/recording.mp3`) as Buffer).length).toBeGreaterThan(1000);

    const history = async () => (await itemsUnder(userId, 'ACT#')).map((i) => Object.fromEntries(Object.entries(i).filter(([k]) => /^calls\d\d$/.test(k))));
    const historyBefore = await history();
    expect(historyBefore.flatMap((h) => Object.values(h)).reduce((n: number, v) => n + Number(v), 0)).toBe(12);
    const ctx = stepContext();
    // Run 1 stops after its first batch (the function's time is nearly up).
    let checks = 0;
    const first = await part.erase(key, { ...ctx, shouldYield: () => checks++ > 0 });
    expect(first).toEqual({ counts: { calls: 4, recordings: 4 }, done: false });
    // Run 2 crashes in the third batch (Twilio fails that batch's recording delete).
    await twilioControl('POST', '/_test/faults', { kind: 'status', status: 500, times: 1, match: { method: 'DELETE', path: `/2010-04-01/Accounts/*/Recordings/${calls[9]!.recording!.sid}.json`, key: creds.accountSid } });
    await expect(part.erase(key, ctx)).rejects.toMatchObject({ kind: 'unavailable' });
    // Its second batch was deleted before the crash; the third is whole (its call items name its recordings).
    expect(await part.count(key)).toEqual({ calls: 4, recordings: 4 });
    const third = await part.erase(key, ctx);
    expect(third).toEqual({ counts: { calls: 4, recordings: 4 }, done: true });
    expect(await part.count(key)).toEqual({ calls: 0, recordings: 0 });
    expect(await itemsUnder(userId, 'VCALL#')).toEqual([]);
    expect(await itemsUnder(userId, 'VCALLNUM#')).toEqual([]);
    expect((await itemsUnder(userId, 'TWCALL#')).map((i) => i.erased)).toEqual(calls.map(() => true));
    const removed = await deletions(creds.accountSid);
    expect(new Set(removed.recordings.map((r) => r.sid))).toEqual(new Set(calls.map((call) => call.recording!.sid)));
    expect(removed.recordings).toHaveLength(12);
    // Once more: nothing left, nothing counted.
    expect(await part.erase(key, ctx)).toEqual({ counts: { calls: 0, recordings: 0 }, done: true });
    // The list's total moved once per call across the yield, the crash and the reruns; the history stays.
    const stats = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `USER#${userId}`, sk: 'VCALLS#STATS' }, ConsistentRead: true }));
    expect(stats.Item?.total).toBe(0);
    expect(await history()).toEqual(historyBefore);
  });
});
