/**
 * Issue 33: a call erased with its caller's data leaves a CallSid tombstone. Twilio reports the
 * call's recording only after the call ended, so the recording callback finds the tombstone and
 * deletes that recording at Twilio (nothing stored); a retried incoming webhook of the erased call
 * stores nothing again and hangs up.
 */
import { describe, expect, it } from 'vitest';
import { ErasedCallError } from '../../../src/domain/voice/ports.js';
import { USER, incomingParams, setup } from './fakes.js';

const RECORDING = 'RE0123456789abcdef0123456789abcdef';
const recordingParams = (over: Record<string, string> = {}) => ({
  AccountSid: 'AC1',
  CallSid: 'CA-erased',
  RecordingSid: RECORDING,
  RecordingUrl: `https://api.twilio.com/2010-04-01/Accounts/AC1/Recordings/${RECORDING}`,
  RecordingStatus: 'completed',
  RecordingDuration: '42',
  ...over,
});

function erasedSetup(options: { failDelete?: boolean } = {}) {
  const deleted: Array<[string, string]> = [];
  const asked: string[] = [];
  const env = setup({
    erasedCalls: {
      isErased: async (_u, callSid) => {
        asked.push(callSid);
        return callSid === 'CA-erased';
      },
      deleteRecording: async (userId, sid) => {
        if (options.failDelete) throw new Error('Twilio is down');
        deleted.push([userId, sid]);
      },
    },
  });
  return { ...env, deleted, asked };
}

describe('an erased call’s late recording', () => {
  it('is deleted at Twilio with the account’s credentials and nothing is stored', async () => {
    const { loop, calls, deleted } = erasedSetup();
    expect(await loop.recording(USER, recordingParams())).toBe('erased');
    expect(deleted).toEqual([[USER, RECORDING]]);
    expect(calls.byId.size).toBe(0);
  });

  it('a CallSid that is neither a call nor erased stays an unknown call: nothing deleted', async () => {
    const { loop, deleted } = erasedSetup();
    expect(await loop.recording(USER, recordingParams({ CallSid: 'CA-unknown' }))).toBe('unknown_call');
    expect(deleted).toEqual([]);
  });

  it('a live call’s recording is stored as before: the tombstone is not even read', async () => {
    const { loop, calls, deleted, asked } = erasedSetup();
    await loop.incoming(USER, incomingParams);
    expect(await loop.recording(USER, recordingParams({ CallSid: incomingParams.CallSid }))).toBe('stored');
    expect([...calls.byId.values()][0]!.recording).toEqual({ sid: RECORDING, url: recordingParams().RecordingUrl, durationSec: 42 });
    expect(deleted).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('a recording not completed (absent, failed) is ignored: there is nothing at Twilio to delete', async () => {
    const { loop, deleted } = erasedSetup();
    expect(await loop.recording(USER, recordingParams({ RecordingStatus: 'absent' }))).toBe('ignored');
    expect(await loop.recording(USER, recordingParams({ RecordingStatus: 'failed' }))).toBe('ignored');
    expect(deleted).toEqual([]);
  });

  it('Twilio failing the delete is reported, not thrown (the webhook still answers 200)', async () => {
    const { loop } = erasedSetup({ failDelete: true });
    expect(await loop.recording(USER, recordingParams())).toBe('erase_failed');
  });

  it('without the erased-calls port the callback behaves as before', async () => {
    const { loop } = setup();
    expect(await loop.recording(USER, recordingParams())).toBe('unknown_call');
  });
});

describe('a retried incoming webhook of an erased call', () => {
  it('stores nothing, says nothing, hangs up and gives the minute back', async () => {
    const { loop, calls, minutes } = erasedSetup();
    calls.create = async () => {
      throw new ErasedCallError();
    };
    const script = await loop.incoming(USER, { ...incomingParams, CallSid: 'CA-erased' });
    expect(script.steps).toEqual([{ kind: 'hangup' }]);
    expect(calls.byId.size).toBe(0);
    expect(minutes()).toBe(0);
  });
});
