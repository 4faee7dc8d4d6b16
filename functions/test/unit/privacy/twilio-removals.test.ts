/**
 * Issue 33: the Twilio adapter's recording delete, call end and recording audio against the fake
 * Twilio (functions/local/fake-twilio), which answers as Twilio's REST docs say: DELETE
 * Recordings/{Sid}.json → 204 (404 20404 once gone), POST Calls/{Sid}.json Status=completed → 200
 * (400 21220 once over), Basic auth AccountSid:AuthToken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchTwilioAccountApi } from '../../../src/adapters/twilio/account-api.js';
import { TwilioError } from '../../../src/domain/voice/ports.js';
import { startFakeTwilio, type FakeTwilio } from '../../../local/fake-twilio/server.js';

const hex32 = (n: number) => n.toString(16).padStart(32, '0');

describe('Twilio recording delete and call end (fake Twilio)', () => {
  let twilio: FakeTwilio;
  let api: FetchTwilioAccountApi;
  let creds: { accountSid: string; authToken: string };

  beforeAll(async () => {
    twilio = await startFakeTwilio();
    api = new FetchTwilioAccountApi({ baseUrl: twilio.url });
    const account = twilio.register({});
    creds = { accountSid: account.sid, authToken: account.authToken };
  });
  afterAll(() => twilio.close());

  it('deletes a recording with DELETE …/Recordings/{Sid}.json (204); a second delete (404) is success too', async () => {
    const sid = `RE${hex32(1)}`;
    const url = `${twilio.url}/2010-04-01/Accounts/${creds.accountSid}/Recordings/${sid}.json`;
    const auth = `Basic ${Buffer.from(`${creds.accountSid}:${creds.authToken}`).toString('base64')}`;
    expect((await fetch(url, { headers: { authorization: auth } })).status).toBe(200);

    await api.deleteRecording(creds, sid);
    const deletions = (await (await fetch(`${twilio.url}/_test/deletions?accountSid=${creds.accountSid}`)).json()) as { recordings: { sid: string }[] };
    expect(deletions.recordings.map((r) => r.sid)).toEqual([sid]);

    // Twilio's shape for the second time: 404 with {code: 20404, message, more_info, status}.
    const again = await fetch(url, { method: 'DELETE', headers: { authorization: auth } });
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ code: 20404, status: 404 });
    await expect(api.deleteRecording(creds, sid)).resolves.toBeUndefined();
    // Its media is gone as well.
    expect((await fetch(url, { headers: { authorization: auth } })).status).toBe(404);
    expect(await api.recordingAudio(creds, sid)).toBeNull();
  });

  it('ends a live call with Status=completed (form-encoded); ending it again is success', async () => {
    const sid = `CA${hex32(2)}`;
    await api.endCall(creds, sid);
    await api.endCall(creds, sid);
    const deletions = (await (await fetch(`${twilio.url}/_test/deletions?accountSid=${creds.accountSid}`)).json()) as { endedCalls: { sid: string; status: string }[] };
    expect(deletions.endedCalls).toEqual([expect.objectContaining({ sid, status: 'completed' })]);
  });

  it('streams a recording the account still has', async () => {
    const audio = await api.recordingAudio(creds, `RE${hex32(3)}`);
    expect(audio).not.toBeNull();
    const chunks: Uint8Array[] = [];
    for await (const chunk of audio!) chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    expect(bytes.length).toBeGreaterThan(1000);
    expect(bytes[0]).toBe(0xff); // An MPEG frame.
  });

  it('wrong credentials are an auth error, not a silent success', async () => {
    const wrong = { accountSid: creds.accountSid, authToken: 'x'.repeat(32) };
    await expect(api.deleteRecording(wrong, `RE${hex32(4)}`)).rejects.toMatchObject({ kind: 'auth' });
    await expect(api.endCall(wrong, `CA${hex32(4)}`)).rejects.toBeInstanceOf(TwilioError);
    expect(twilio.deletedRecordings.some((r) => r.sid === `RE${hex32(4)}`)).toBe(false);
  });

  it('a Twilio outage is an unavailable error (the job retries)', async () => {
    await fetch(`${twilio.url}/_test/fail`, { method: 'POST', body: JSON.stringify({ accountSid: creds.accountSid, status: 503, count: 1 }) });
    await expect(api.deleteRecording(creds, `RE${hex32(5)}`)).rejects.toMatchObject({ kind: 'unavailable' });
    await api.deleteRecording(creds, `RE${hex32(5)}`);
  });
});
