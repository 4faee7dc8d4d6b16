/**
 * The call loop over in-memory ports: the paths the integration test cannot provoke cheaply
 * (retried webhooks, billing arithmetic, the turn bound with a hanging model) and the TwiML and
 * signature adapters.
 */
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { renderTwiml, prosodyOf } from '../../../src/adapters/twilio/twiml.js';
import { publicRequestUrl, verifyTwilioSignature } from '../../../src/adapters/twilio/signature.js';
import { VOICE_DEFAULTS } from '../../../src/contract/voice.js';
import type { ChatModel, Completion } from '../../../src/domain/ai/ports.js';
import { speakable } from '../../../src/domain/voice/call-loop.js';
import { USER, incomingParams, said, setup } from './fakes.js';

describe('call loop', () => {
  it('stores the call once per CallSid: a retried incoming webhook gets the same welcome and reserves nothing more', async () => {
    const { loop, calls, minutes } = setup();

    const first = await loop.incoming(USER, incomingParams);
    const retry = await loop.incoming(USER, incomingParams);

    expect(calls.byId.size).toBe(1);
    const call = [...calls.byId.values()][0]!;
    expect(call.contact).toEqual({ _id: 'c1', name: 'Ana', phoneNumber: '+34600000001' });
    expect(call.voiceSettings).toEqual({ name: 'Receptionist', description: 'Front desk', language: 'es-ES' });
    expect(call.messages.map((m) => m.content)).toEqual([VOICE_DEFAULTS.messageWelcome]);
    expect(said(first)).toEqual([VOICE_DEFAULTS.messageWelcome]);
    expect(retry).toEqual(first);
    expect(minutes()).toBe(1);
  });

  it('a retried gather appends nothing and replays the stored answer', async () => {
    const { loop, calls } = setup();
    await loop.incoming(USER, incomingParams);
    const params = { ...incomingParams, CallStatus: 'in-progress', SpeechResult: 'Hola', Confidence: '0.91' };

    const first = await loop.gather(USER, params, { turn: '1' });
    const retry = await loop.gather(USER, params, { turn: '1' });

    const call = [...calls.byId.values()][0]!;
    expect(call.messages.map((m) => [m.role, m.content, m.confidence])).toEqual([
      ['agent', VOICE_DEFAULTS.messageWelcome, null],
      ['user', 'Hola', 0.91],
      ['agent', 'Sure: Hola', null],
    ]);
    expect(retry).toEqual(first);
    expect(first.steps[0]).toMatchObject({ kind: 'gather', actionUrl: expect.stringMatching(/[?&]turn=3$/), text: 'Sure: Hola' });
  });

  it('a hanging model is cut at the turn bound: the error message is said and the call listens again', async () => {
    const hanging: ChatModel = { complete: () => new Promise<Completion>(() => undefined) };
    const { loop } = setup({ model: hanging, turnMs: 200 });
    await loop.incoming(USER, incomingParams);

    const started = Date.now();
    const script = await loop.gather(USER, { ...incomingParams, SpeechResult: 'Hola', Confidence: '0.5' }, { turn: '1' });

    expect(Date.now() - started).toBeLessThan(1500);
    expect(script.steps).toEqual([expect.objectContaining({ kind: 'gather', text: VOICE_DEFAULTS.messageError })]);
  });

  it('over the plan’s minutes: polite message and hang-up, stored as usage_limit, never billed', async () => {
    const { loop, calls, jobs, minutes } = setup({ minutesLeft: 0 });

    const script = await loop.incoming(USER, incomingParams);
    await loop.status(USER, { ...incomingParams, CallStatus: 'completed', CallDuration: '7' });

    expect(script.steps.map((s) => s.kind)).toEqual(['say', 'hangup']);
    const call = [...calls.byId.values()][0]!;
    expect(call).toMatchObject({ status: 'completed', endReason: 'usage_limit', billedMinutes: 0 });
    expect(minutes()).toBe(0);
    expect(jobs).toHaveLength(1);
  });

  it('the final status bills ceil(duration / 60) minutes once, and only the first final callback enqueues the summary', async () => {
    const { loop, calls, jobs, minutes } = setup();
    await loop.incoming(USER, incomingParams);

    const first = await loop.status(USER, { ...incomingParams, CallStatus: 'completed', CallDuration: '125' });
    const again = await loop.status(USER, { ...incomingParams, CallStatus: 'completed', CallDuration: '125' });

    expect([first, again]).toEqual(['finished', 'already_finished']);
    const call = [...calls.byId.values()][0]!;
    expect(call).toMatchObject({ status: 'hung_up', endReason: 'caller', duration: 125_000, billedMinutes: 3 });
    expect(minutes()).toBe(3);
    expect(jobs).toEqual([{ userId: USER, callId: call.id }]);
  });

  it('busy / no-answer are failed calls and give the reserved minute back', async () => {
    const { loop, calls, minutes } = setup();
    await loop.incoming(USER, incomingParams);

    await loop.status(USER, { ...incomingParams, CallStatus: 'no-answer', CallDuration: '0' });

    expect([...calls.byId.values()][0]).toMatchObject({ status: 'failed', billedMinutes: 0 });
    expect(minutes()).toBe(0);
  });

  it('without an enabled agent: error message, goodbye, hang-up', async () => {
    const { loop, calls } = setup({ agent: false });

    const script = await loop.incoming(USER, incomingParams);

    expect(said(script)).toEqual([VOICE_DEFAULTS.messageError, VOICE_DEFAULTS.messageGoodbye]);
    expect(script.steps.at(-1)).toEqual({ kind: 'hangup' });
    expect([...calls.byId.values()][0]).toMatchObject({ endedByUs: true, endReason: 'error' });
  });
});

describe('TwiML', () => {
  it('renders Say with the voice and language, prosody only when changed, and a speech Gather that posts on silence', () => {
    const voice = { voice: 'Polly.Lucia', language: 'es-ES', speechRate: 1, pitch: 1, volume: 1 };
    const plain = renderTwiml({ voice, steps: [{ kind: 'record', callbackUrl: 'https://a/rec' }, { kind: 'gather', actionUrl: 'https://a/g?turn=1&silences=1', text: 'Hola & adiós', timeoutSec: 5 }] });
    const styled = renderTwiml({ voice: { ...voice, speechRate: 1.2, pitch: 0.9, volume: 2 }, steps: [{ kind: 'say', text: 'Hi' }, { kind: 'dial', number: '+34910000001' }] });

    expect(plain).toContain('<Start><Recording recordingStatusCallback="https://a/rec"');
    expect(plain).toContain('<Gather input="speech" language="es-ES" speechTimeout="auto" timeout="5" actionOnEmptyResult="true" action="https://a/g?turn=1&amp;silences=1" method="POST">');
    expect(plain).toContain('<Say voice="Polly.Lucia" language="es-ES">Hola &amp; adiós</Say>');
    expect(plain).not.toContain('prosody');
    expect(styled).toContain('<prosody rate="120%" pitch="-10%" volume="+6dB">Hi</prosody>');
    expect(styled).toContain('+34910000001</Dial>');
    expect(prosodyOf({ speechRate: 1, pitch: 1, volume: 0 })).toEqual({ volume: 'silent' });
  });

  it('spoken replies carry no markdown', () => {
    expect(speakable('**Open** 9–5. See [hours](https://x.example)\n- Mon')).toBe('Open 9–5. See hours Mon');
  });
});

describe('X-Twilio-Signature', () => {
  it('is checked over the exact public URL, query included', () => {
    const url = publicRequestUrl('https://app.example/any/path', '/api/webhooks/twilio/u/voice/gather', 'turn=3');
    const params = { CallSid: 'CA1', SpeechResult: 'Hola' };
    const signature = twilio.getExpectedTwilioSignature('token', url, params);

    expect(url).toBe('https://app.example/api/webhooks/twilio/u/voice/gather?turn=3');
    expect(verifyTwilioSignature('token', signature, url, params)).toBe(true);
    expect(verifyTwilioSignature('other', signature, url, params)).toBe(false);
    expect(verifyTwilioSignature('token', signature, url.replace('turn=3', 'turn=4'), params)).toBe(false);
    expect(verifyTwilioSignature('token', signature, url, { ...params, SpeechResult: 'Adiós' })).toBe(false);
    expect(verifyTwilioSignature('token', undefined, url, params)).toBe(false);
  });
});

describe('call loop: unanswered questions (issue 18)', () => {
  it('a caller question no passage supports is recorded with the call id; small talk is not', async () => {
    const recorded: unknown[] = [];
    const { loop, calls } = setup({ knowledge: true, recordUnanswered: async (...args) => void (args[2] && recorded.push(args)) });
    await loop.incoming(USER, incomingParams);
    const callId = [...calls.byId.keys()][0]!;

    await loop.gather(USER, { ...incomingParams, SpeechResult: '¿Tenéis aparcamiento para clientes?', Confidence: '0.9' }, { turn: '1' });
    await loop.gather(USER, { ...incomingParams, SpeechResult: 'Gracias', Confidence: '0.9' }, { turn: '2' });

    expect(recorded).toEqual([[USER, expect.any(String), { question: '¿Tenéis aparcamiento para clientes?' }, { channel: 'voice', callId }]]);
  });
});

