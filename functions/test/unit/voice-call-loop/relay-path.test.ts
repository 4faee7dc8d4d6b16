/**
 * Streaming calls on the call loop (issue 16): which path incoming chooses (ConversationRelay or
 * the <Gather> loop), the warm-up, the TwiML of the relay path, the catalogue's voice mapping, and
 * the <Connect action> answers (warm transfer, failed session, end), over in-memory ports.
 */
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { RELAY_TRANSCRIPTION, renderTwiml } from '../../../src/adapters/twilio/twiml.js';
import { RELAY_VOICES, VOICE_CATALOGUE, VOICE_DEFAULTS, relayVoiceOf } from '../../../src/contract/voice.js';
import type { ChatModel } from '../../../src/domain/ai/ports.js';
import type { CallScript, CallStep } from '../../../src/domain/voice/call-loop.js';
import { RELAY_URL, USER, VOICE_BASE, incomingParams, reply, setup, type SetupOptions } from './fakes.js';

const FORWARD = '+34910000099';
const onlyCall = (calls: ReturnType<typeof setup>['calls']) => [...calls.byId.values()][0]!;
const relayStep = (script: CallScript) => script.steps.find((s): s is Extract<CallStep, { kind: 'relay' }> => s.kind === 'relay');
const action = (p: Record<string, string>) => ({ ...incomingParams, CallStatus: 'in-progress', SessionId: 'VX1', ...p });

describe('ConversationRelay voices', () => {
  it('maps every Google voice and the Polly voices with a neural form; Conchita and Enrique (standard only) have none', () => {
    const streamable = VOICE_CATALOGUE.filter((v) => relayVoiceOf(v.id)).map((v) => v.id);

    expect(VOICE_CATALOGUE.filter((v) => !relayVoiceOf(v.id)).map((v) => v.id)).toEqual(['Polly.Conchita', 'Polly.Enrique']);
    expect(Object.keys(RELAY_VOICES).sort()).toEqual([...streamable].sort());
    expect(relayVoiceOf('Google.es-ES-Standard-A')).toEqual({ ttsProvider: 'Google', voice: 'es-ES-Standard-A' });
    expect(relayVoiceOf('Polly.Lucia')).toEqual({ ttsProvider: 'Amazon', voice: 'Lucia-Neural' });
    expect(relayVoiceOf('Polly.Brian')).toEqual({ ttsProvider: 'Amazon', voice: 'Brian-Neural' });
    expect(relayVoiceOf('constructor')).toBeNull();
    expect(relayVoiceOf('Polly.Unknown')).toBeNull();
  });
});

describe('incoming: streaming or <Gather>', () => {
  it('streams when the mode is streaming, the relay is deployed and the voice can be spoken: ConversationRelay TwiML, the call stored as streaming, the relay warmed', async () => {
    const { loop, calls, warmUps, minutes } = setup({ relayUrl: RELAY_URL, settings: { voice: 'Polly.Lucia', enableRecording: true } });

    const script = await loop.incoming(USER, incomingParams);

    const call = onlyCall(calls);
    expect(call.conversationMode).toBe('streaming');
    expect(call.messages.map((m) => [m.role, m.content])).toEqual([['agent', VOICE_DEFAULTS.messageWelcome]]);
    expect(script.steps.map((s) => s.kind)).toEqual(['record', 'relay']);
    expect(relayStep(script)).toEqual({
      kind: 'relay',
      url: `${RELAY_URL}?user=${USER}&call=${call.id}`,
      actionUrl: `${VOICE_BASE}/relay-action?call=${call.id}`,
      welcomeGreeting: VOICE_DEFAULTS.messageWelcome,
      relay: { ttsProvider: 'Amazon', voice: 'Lucia-Neural' },
    });
    expect(warmUps()).toBe(1);
    expect(minutes()).toBe(1);
  });

  it('streams with the defaults (no settings stored yet: streaming, Google Standard A)', async () => {
    const { loop, calls } = setup({ relayUrl: RELAY_URL });

    const script = await loop.incoming(USER, incomingParams);

    expect(onlyCall(calls).conversationMode).toBe('streaming');
    expect(relayStep(script)?.relay).toEqual({ ttsProvider: 'Google', voice: 'es-ES-Standard-A' });
  });

  it('falls back to the <Gather> loop for a voice ConversationRelay cannot speak, for mode gather, and when the relay is not deployed; no warm-up', async () => {
    const cases = [
      setup({ relayUrl: RELAY_URL, settings: { voice: 'Polly.Conchita' } }),
      setup({ relayUrl: RELAY_URL, settings: { conversationMode: 'gather' } }),
      setup({ relayUrl: '' }),
      setup(),
    ];

    for (const { loop, calls, warmUps } of cases) {
      const script = await loop.incoming(USER, incomingParams);
      expect(script.steps.map((s) => s.kind)).toEqual(['gather']);
      expect(onlyCall(calls).conversationMode).toBe('gather');
      expect(warmUps()).toBe(0);
    }
  });

  it('a retried incoming webhook of a streamed call answers the same TwiML and reserves nothing more', async () => {
    const { loop, calls, minutes } = setup({ relayUrl: RELAY_URL, settings: { enableRecording: true } });

    const first = await loop.incoming(USER, incomingParams);
    const retry = await loop.incoming(USER, incomingParams);

    expect(retry).toEqual(first);
    expect(renderTwiml(retry)).toBe(renderTwiml(first));
    expect(calls.byId.size).toBe(1);
    expect(minutes()).toBe(1);
  });

  it('a retried incoming webhook of a recorded <Gather> call answers the same TwiML, recording included', async () => {
    const { loop } = setup({ settings: { conversationMode: 'gather', enableRecording: true } });

    const first = await loop.incoming(USER, incomingParams);
    const retry = await loop.incoming(USER, incomingParams);

    expect(first.steps.map((s) => s.kind)).toEqual(['record', 'gather']);
    expect(retry).toEqual(first);
  });

  it('refused calls (minutes used up) are not streamed', async () => {
    const { loop, calls } = setup({ relayUrl: RELAY_URL, minutesLeft: 0 });

    const script = await loop.incoming(USER, incomingParams);

    expect(script.steps.map((s) => s.kind)).toEqual(['say', 'hangup']);
    expect(onlyCall(calls)).toMatchObject({ conversationMode: 'gather', endReason: 'usage_limit' });
  });

  it('waits for the warm-up (bounded by its adapter) but is not failed by it', async () => {
    let release!: () => void;
    const { loop } = setup({ relayUrl: RELAY_URL, warmUp: () => new Promise<void>((r) => (release = r)) });

    let answered = false;
    const pending = loop.incoming(USER, incomingParams).then((s) => ((answered = true), s));
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toBe(false);
    release();

    expect(relayStep(await pending)).toBeDefined();
  });
});

describe('relay TwiML', () => {
  it('renders <Connect action><ConversationRelay …/></Connect> as the SDK does', async () => {
    const { loop } = setup({ relayUrl: RELAY_URL, settings: { voice: 'Polly.Emma', language: 'en-GB', messageWelcome: 'Hi & welcome to "Dr. <Smith>"' } });
    const script = await loop.incoming(USER, incomingParams);
    const step = relayStep(script)!;

    const expected = new twilio.twiml.VoiceResponse();
    expected.connect({ action: step.actionUrl, method: 'POST' }).conversationRelay({
      url: step.url,
      welcomeGreeting: step.welcomeGreeting,
      language: 'en-GB',
      ttsProvider: 'Amazon',
      voice: 'Emma-Neural',
      transcriptionProvider: RELAY_TRANSCRIPTION.provider,
      speechModel: RELAY_TRANSCRIPTION.speechModel,
      interruptible: 'any',
      dtmfDetection: true,
    });

    expect(renderTwiml(script)).toBe(expected.toString());
    expect(renderTwiml(script)).toContain('welcomeGreeting="Hi &amp; welcome to &quot;Dr. &lt;Smith>&quot;"');
    expect(renderTwiml(script)).toContain(`url="${RELAY_URL}?user=${USER}&amp;call=`);
  });
});

describe('relay action (<Connect action>)', () => {
  async function streamedCall(settings: SetupOptions['settings'] = {}) {
    const t = setup({ relayUrl: RELAY_URL, settings: { escalationForwardNumber: FORWARD, ...settings } });
    await t.loop.incoming(USER, incomingParams);
    return { ...t, call: onlyCall(t.calls) };
  }
  const handoffData = (callId: string) => JSON.stringify({ reason: 'The caller wants to speak to the doctor', callId });

  it('a hand-over: <Dial> to the forwarding number, the call forwarded by us, the owner’s handoff notice queued once even when the action is retried', async () => {
    const { loop, jobs, calls, call } = await streamedCall();
    const p = action({ SessionStatus: 'completed', HandoffData: handoffData(call.id) });

    const first = await loop.relayAction(USER, p, { call: call.id });
    const retry = await loop.relayAction(USER, p, { call: call.id });

    expect(first.steps).toEqual([{ kind: 'dial', number: FORWARD }]);
    expect(retry).toEqual(first);
    expect(jobs).toEqual([{ userId: USER, callId: call.id, stage: 'handoff' }]);
    expect(calls.byId.get(call.id)).toMatchObject({ endedByUs: true, endReason: 'forwarded', escalated: true, escalationReason: 'The caller wants to speak to the doctor' });
  });

  it('finds the call by CallSid when the query’s id is not the caller’s call', async () => {
    const { loop, jobs, call } = await streamedCall();

    const script = await loop.relayAction(USER, action({ HandoffData: handoffData(call.id) }), { call: 'someone-else' });

    expect(script.steps).toEqual([{ kind: 'dial', number: FORWARD }]);
    expect(jobs).toHaveLength(1);
  });

  it('a failed session: the error message and a hang-up, the call ended by us with endReason error', async () => {
    const { loop, calls, jobs, call } = await streamedCall();

    const script = await loop.relayAction(USER, action({ SessionStatus: 'failed', ErrorCode: '64107', ErrorMessage: 'WebSocket closed' }), { call: call.id });

    expect(script.steps).toEqual([{ kind: 'say', text: VOICE_DEFAULTS.messageError }, { kind: 'hangup' }]);
    expect(calls.byId.get(call.id)).toMatchObject({ endedByUs: true, endReason: 'error' });
    expect(jobs).toEqual([]);
  });

  it('any other end hangs up: a goodbye the relay marked keeps its reason; an unmarked live call ends by us; a gone caller changes nothing', async () => {
    const marked = await streamedCall();
    await marked.calls.markEndedByUs(USER, marked.call.id, 'max_duration');
    const unmarked = await streamedCall();
    const gone = await streamedCall();

    const a = await marked.loop.relayAction(USER, action({ SessionStatus: 'ended' }), { call: marked.call.id });
    const b = await unmarked.loop.relayAction(USER, action({ SessionStatus: 'completed' }), { call: unmarked.call.id });
    const c = await gone.loop.relayAction(USER, action({ SessionStatus: 'completed', CallStatus: 'completed' }), { call: gone.call.id });

    for (const script of [a, b, c]) expect(script.steps).toEqual([{ kind: 'hangup' }]);
    expect(marked.calls.byId.get(marked.call.id)?.endReason).toBe('max_duration');
    expect(unmarked.calls.byId.get(unmarked.call.id)).toMatchObject({ endedByUs: true, endReason: 'goodbye' });
    expect(gone.calls.byId.get(gone.call.id)).toMatchObject({ endedByUs: false });
    expect([marked, unmarked, gone].flatMap((t) => t.jobs)).toEqual([]);
  });

  it('HandoffData without a forwarding number, without a reason or not JSON is not a transfer', async () => {
    const noNumber = await streamedCall({ escalationForwardNumber: '' });
    const noReason = await streamedCall();
    const junk = await streamedCall();

    const a = await noNumber.loop.relayAction(USER, action({ HandoffData: handoffData(noNumber.call.id) }), { call: noNumber.call.id });
    const b = await noReason.loop.relayAction(USER, action({ HandoffData: '{"reason":"  "}' }), { call: noReason.call.id });
    const c = await junk.loop.relayAction(USER, action({ HandoffData: '{not json' }), { call: junk.call.id });

    for (const script of [a, b, c]) expect(script.steps).toEqual([{ kind: 'hangup' }]);
    expect([noNumber, noReason, junk].flatMap((t) => t.jobs)).toEqual([]);
  });

  it('an unknown call: the default error message and a hang-up', async () => {
    const { loop } = setup({ relayUrl: RELAY_URL });

    const script = await loop.relayAction(USER, action({ CallSid: 'CA-unknown' }), { call: 'nope' });

    expect(script.steps).toEqual([{ kind: 'say', text: VOICE_DEFAULTS.messageError }, { kind: 'hangup' }]);
  });

  it('a queue failure does not stop the transfer', async () => {
    const t = await streamedCall();
    // The fake queue's enqueue pushes here: a throwing push is a failing send.
    t.jobs.push = () => {
      throw new Error('SQS down');
    };

    const script = await t.loop.relayAction(USER, action({ HandoffData: handoffData(t.call.id) }), { call: t.call.id });

    expect(script.steps).toEqual([{ kind: 'dial', number: FORWARD }]);
    expect(t.calls.byId.get(t.call.id)?.endReason).toBe('forwarded');
  });
});

describe('warm transfer on the <Gather> path', () => {
  it('escalation with a forwarding number: <Dial>, the call forwarded, the owner’s handoff notice queued once (a retried gather replays without a second one)', async () => {
    const model: ChatModel = {
      complete: async (r) =>
        r.messages.some((m) => m.role === 'tool')
          ? reply('Ok')
          : reply('', [{ id: 'call_1', name: 'escalate_to_human', arguments: JSON.stringify({ reason: 'Wants a person' }) }]),
    };
    const { loop, calls, jobs } = setup({ model, settings: { conversationMode: 'gather', escalationForwardNumber: FORWARD } });
    await loop.incoming(USER, incomingParams);
    const call = onlyCall(calls);
    const p = { ...incomingParams, CallStatus: 'in-progress', SpeechResult: 'Quiero hablar con alguien', Confidence: '0.9' };

    const first = await loop.gather(USER, p, { call: call.id, turn: '1' });
    const retry = await loop.gather(USER, p, { call: call.id, turn: '1' });

    expect(first.steps).toEqual([{ kind: 'say', text: VOICE_DEFAULTS.messageFallback }, { kind: 'dial', number: FORWARD }]);
    expect(retry).toEqual(first);
    expect(calls.byId.get(call.id)).toMatchObject({ endedByUs: true, endReason: 'forwarded', escalated: true, escalationReason: 'Wants a person' });
    expect(jobs).toEqual([{ userId: USER, callId: call.id, stage: 'handoff' }]);
  });
});
