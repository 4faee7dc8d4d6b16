/**
 * Issue 33, a live call's recording after its caller's erasure (adapters/dynamo/privacy/calls.ts,
 * the voice webhook's recording callback): Twilio reports a call's recording only once the call
 * has ended, so when a person is erased during a call the callback comes after the call's items
 * are gone. The erasure leaves the CallSid's tombstone ({erased}, two days, no personal data); the
 * signed callback finds it and deletes that recording at Twilio (the fake Twilio lists it at
 * GET /_test/deletions), storing nothing. A retried incoming webhook and the status callback of the
 * erased call answer 200 and store nothing; a recording callback of an unknown CallSid behaves as
 * before (nothing deleted).
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import type { PrivacyJobView } from '../../src/contract/privacy.js';
import { newCallSid } from '../../local/fake-twilio/call-simulator.js';
import { api, db, provided, tableName } from '../support/api.js';
import { clinic, clinicVoice, must } from '../support/bookings.js';
import { callRepo } from '../support/seed-calls.js';
import { drainQueues } from '../support/stack-clients.js';
import { randomDigits } from '../support/whatsapp.js';

const twilioUrl = () => provided('twilioApiUrl');

async function deletions(accountSid: string) {
  const res = await fetch(`${twilioUrl()}/_test/deletions?accountSid=${accountSid}`);
  return (await res.json()) as { recordings: { sid: string }[]; endedCalls: { sid: string }[] };
}

/** A form POST as Twilio makes it: X-Twilio-Signature over the public URL and the parameters. */
async function twilioPost(authToken: string, url: string, params: Record<string, string>) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(authToken, url, params) },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, body: await res.text() };
}

const item = async (userId: string, sk: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `USER#${userId}`, sk }, ConsistentRead: true }))).Item;

async function keysUnder(userId: string, prefix: string): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': `USER#${userId}`, ':a': prefix, ':b': `${prefix}~` },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((i) => String(i.sk));
}

describe('a recording reported after its caller was erased', () => {
  it('is deleted at Twilio when its callback arrives; the erased call is not stored again; an unknown CallSid is left alone', async () => {
    const c = await clinic();
    const voice = await clinicVoice(c.token, { enableRecording: true, language: 'es-ES' });
    const webhookUrl = voice.setup.webhookUrl;
    const e164 = `+346${randomDigits(8)}`;

    // A live, recorded call from the patient (the signed incoming webhook, as Twilio sends it).
    const callSid = newCallSid();
    const incoming = { AccountSid: voice.accountSid, CallSid: callSid, From: e164, To: voice.number, Direction: 'inbound', CallStatus: 'ringing' };
    const answered = await twilioPost(voice.authToken, webhookUrl, incoming);
    expect(answered.status).toBe(200);
    expect(answered.body).toContain('<Recording');
    const call = (await callRepo().getBySid(c.userId, callSid))!;
    expect(call.status).toBe('active');
    expect(call.recording).toBeNull();

    // Erased during the call: the call is ended at Twilio and its items go; its CallSid keeps only a tombstone.
    const started = await api<PrivacyJobView>('POST', '/api/privacy/erasures', { token: c.token, body: { phoneNumber: e164.slice(3), confirmation: 'BORRAR' } });
    expect(started.status, started.body.message).toBe(202);
    await drainQueues();
    const job = await must<PrivacyJobView>(api('GET', `/api/privacy/jobs/${started.body.data!._id}`, { token: c.token }));
    expect(job.status).toBe('done');
    expect(job.counts).toMatchObject({ calls: 1, recordings: 0 });
    expect((await deletions(voice.accountSid)).endedCalls.map((x) => x.sid)).toEqual([callSid]);
    expect(await item(c.userId, `VCALL#${call.id}`)).toBeUndefined();
    const tombstone = await item(c.userId, `TWCALL#${callSid}`);
    const inTwoDays = Math.floor(Date.now() / 1000) + 2 * 86_400;
    expect(tombstone).toEqual({ pk: `USER#${c.userId}`, sk: `TWCALL#${callSid}`, entity: 'voiceCallSid', erased: true, expiresAt: expect.any(Number) });
    expect(Math.abs((tombstone!.expiresAt as number) - inTwoDays)).toBeLessThan(120);

    // Twilio's status callback of the ended call: nothing to finish, 200.
    const status = await twilioPost(voice.authToken, `${webhookUrl}/status`, { AccountSid: voice.accountSid, CallSid: callSid, CallStatus: 'completed', CallDuration: '95' });
    expect(status.status).toBe(200);

    // Then the recording, processed after the call: deleted at Twilio, nothing stored.
    const recordingSid = `RE${randomBytes(16).toString('hex')}`;
    const recordingParams = (sid: string, rec: string) => ({
      AccountSid: voice.accountSid,
      CallSid: sid,
      RecordingSid: rec,
      RecordingUrl: `${twilioUrl()}/2010-04-01/Accounts/${voice.accountSid}/Recordings/${rec}`,
      RecordingStatus: 'completed',
      RecordingDuration: '95',
      RecordingChannels: '1',
      RecordingSource: 'StartCallRecordingTwiML',
    });
    const late = await twilioPost(voice.authToken, `${webhookUrl}/recording`, recordingParams(callSid, recordingSid));
    expect(late).toEqual({ status: 200, body: '<?xml version="1.0" encoding="UTF-8"?><Response/>' });
    expect((await deletions(voice.accountSid)).recordings.map((r) => r.sid)).toEqual([recordingSid]);
    // Twilio sent it twice: already gone (404 at Twilio) is fine.
    expect((await twilioPost(voice.authToken, `${webhookUrl}/recording`, recordingParams(callSid, recordingSid))).status).toBe(200);
    expect(await keysUnder(c.userId, 'VCALL#')).toEqual([]);
    expect(await keysUnder(c.userId, `VCALLNUM#${e164}#`)).toEqual([]);
    expect(await item(c.userId, `TWCALL#${callSid}`)).toEqual(tombstone);

    // The incoming webhook retried late: the erased call is not stored again, the line hangs up.
    const retried = await twilioPost(voice.authToken, webhookUrl, incoming);
    expect(retried.status).toBe(200);
    expect(retried.body).toContain('<Hangup/>');
    expect(retried.body).not.toContain('<Say');
    expect(await keysUnder(c.userId, 'VCALL#')).toEqual([]);
    expect(await keysUnder(c.userId, `VCALLNUM#${e164}#`)).toEqual([]);

    // A recording of a CallSid we never had: 200 as before, nothing deleted.
    const stranger = `RE${randomBytes(16).toString('hex')}`;
    expect((await twilioPost(voice.authToken, `${webhookUrl}/recording`, recordingParams(newCallSid(), stranger))).status).toBe(200);
    expect((await deletions(voice.accountSid)).recordings.map((r) => r.sid)).toEqual([recordingSid]);
  });
});
