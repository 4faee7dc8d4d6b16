/**
 * The Twilio adapters written without the SDK's private modules, checked against the SDK's public
 * API as the oracle: the TwiML builder against `twilio.twiml.VoiceResponse`, the signature check
 * against `twilio.getExpectedTwilioSignature` / `twilio.validateRequest`.
 */
import { randomBytes, randomInt } from 'node:crypto';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { RELAY_MULTILINGUAL_TRANSCRIPTION, RELAY_TRANSCRIPTION, prosodyOf, renderTwiml } from '../../../src/adapters/twilio/twiml.js';
import { twilioSignature, verifyTwilioSignature } from '../../../src/adapters/twilio/signature.js';
import type { CallScript, SpeechVoice } from '../../../src/domain/voice/call-loop.js';

type VR = InstanceType<typeof twilio.twiml.VoiceResponse>;

/** The same script through the SDK's VoiceResponse (what renderTwiml replaced). */
function sdkTwiml(script: CallScript): string {
  const response = new twilio.twiml.VoiceResponse();
  const say = (parent: { say: VR['say'] }, voice: SpeechVoice, text: string) => {
    const attributes = { voice: voice.voice, language: voice.language } as Parameters<VR['say']>[0];
    const prosody = prosodyOf(voice);
    if (!prosody) parent.say(attributes, text);
    else parent.say(attributes, '').prosody(prosody, text);
  };
  for (const step of script.steps) {
    if (step.kind === 'record') {
      response.start().recording({ recordingStatusCallback: step.callbackUrl, recordingStatusCallbackMethod: 'POST', recordingStatusCallbackEvent: ['completed'], trim: 'do-not-trim' } as never);
    } else if (step.kind === 'say') say(response, script.voice, step.text);
    else if (step.kind === 'gather') {
      const gather = response.gather({ input: ['speech'], language: script.voice.language as never, speechTimeout: 'auto', timeout: step.timeoutSec, actionOnEmptyResult: true, action: step.actionUrl, method: 'POST' });
      if (step.text) say(gather, script.voice, step.text);
    } else if (step.kind === 'dial') response.dial({ answerOnBridge: true }, step.number);
    else if (step.kind === 'relay') {
      const multilingual = (step.languages ?? []).length > 0;
      const stt = multilingual ? RELAY_MULTILINGUAL_TRANSCRIPTION : RELAY_TRANSCRIPTION;
      const relay = response.connect({ action: step.actionUrl, method: 'POST' }).conversationRelay({
        url: step.url,
        welcomeGreeting: step.welcomeGreeting,
        language: script.voice.language,
        ttsProvider: step.relay.ttsProvider,
        voice: step.relay.voice,
        transcriptionProvider: stt.provider,
        speechModel: stt.speechModel,
        ...(multilingual ? { transcriptionLanguage: RELAY_MULTILINGUAL_TRANSCRIPTION.language } : {}),
        interruptible: 'any',
        dtmfDetection: true,
      });
      for (const l of step.languages ?? []) {
        relay.language({ code: l.code, ttsProvider: l.relay.ttsProvider, voice: l.relay.voice, transcriptionProvider: stt.provider, speechModel: stt.speechModel });
      }
    } else response.hangup();
  }
  return response.toString();
}

const ALPHABET = ['a', 'Z', '0', ' ', '&', '<', '>', '"', "'", ']]>', '\t', '\n', '\r', 'ñ', 'é', '😀', '%', '=', '?', '/', ';', '&amp;'];
const text = () => Array.from({ length: randomInt(0, 12) }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

describe('TwiML builder', () => {
  it('renders what the SDK VoiceResponse renders for every verb the call loop uses', () => {
    const voice: SpeechVoice = { voice: 'Polly.Lucia', language: 'es-ES', speechRate: 1, pitch: 1, volume: 1 };
    const scripts: CallScript[] = [
      { voice, steps: [] },
      {
        voice,
        steps: [
          { kind: 'record', callbackUrl: 'https://a/rec?x=1&y="2"' },
          { kind: 'say', text: 'Hola & adiós <b>' },
          { kind: 'gather', actionUrl: 'https://a/g?turn=1&silences=1', text: 'Dime', timeoutSec: 5 },
          { kind: 'gather', actionUrl: 'https://a/g', text: null, timeoutSec: 3 },
          { kind: 'say', text: '' },
          { kind: 'dial', number: '+34910000001' },
          { kind: 'hangup' },
        ],
      },
      { voice: { ...voice, speechRate: 1.2, pitch: 0.9, volume: 2 }, steps: [{ kind: 'say', text: 'Hi' }, { kind: 'gather', actionUrl: 'u', text: 'x', timeoutSec: 5 }] },
      { voice: { ...voice, volume: 0 }, steps: [{ kind: 'say', text: '' }] },
    ];

    for (const script of scripts) expect(renderTwiml(script)).toBe(sdkTwiml(script));
  });

  it('escapes text and attributes as the SDK does (random strings with markup characters)', () => {
    for (let i = 0; i < 300; i++) {
      const voice: SpeechVoice = { voice: text(), language: text(), speechRate: randomInt(2) ? 1 : 1.5, pitch: 1, volume: 1 };
      const script: CallScript = {
        voice,
        steps: [
          { kind: 'say', text: text() },
          { kind: 'gather', actionUrl: text(), text: text() || null, timeoutSec: randomInt(1, 10) },
          { kind: 'record', callbackUrl: text() },
          { kind: 'dial', number: text() },
          { kind: 'relay', url: text(), actionUrl: text(), welcomeGreeting: text(), relay: { ttsProvider: 'Google', voice: text() } },
          {
            kind: 'relay',
            url: text(),
            actionUrl: text(),
            welcomeGreeting: text(),
            relay: { ttsProvider: 'Amazon', voice: text() },
            languages: [
              { code: text(), relay: { ttsProvider: 'Amazon', voice: text() } },
              { code: text(), relay: { ttsProvider: 'Google', voice: text() } },
            ],
          },
        ],
      };

      expect(renderTwiml(script)).toBe(sdkTwiml(script));
    }
  });

  it('drops characters XML cannot carry instead of failing the call (the SDK throws on them)', () => {
    const voice: SpeechVoice = { voice: 'v', language: 'en-US', speechRate: 1, pitch: 1, volume: 1 };

    const twiml = renderTwiml({ voice, steps: [{ kind: 'say', text: 'a\u0001b\u0000c' }] });

    expect(twiml).toContain('<Say voice="v" language="en-US">abc</Say>');
  });
});

/** The SDK's verdict; a URL it cannot parse is refused (as the adapter did when it wrapped the SDK). */
function sdkAccepts(token: string, signature: string, url: string, params: Record<string, string>): boolean {
  try {
    return twilio.validateRequest(token, signature, url, params);
  } catch {
    return false;
  }
}

describe('X-Twilio-Signature (documented algorithm)', () => {
  it("computes the SDK's signature and accepts exactly what the SDK's validateRequest accepts", () => {
    for (let i = 0; i < 200; i++) {
      const token = randomBytes(16).toString('hex');
      const port = ['', ':443', ':8443'][randomInt(3)]!;
      const url = `https://app.example${port}/api/webhooks/twilio/u/voice/gather?turn=${randomInt(9)}&call=${text()}`;
      const params: Record<string, string> = { CallSid: `CA${randomInt(1e6)}`, SpeechResult: text(), [text() || 'k']: text() };
      const signed = twilio.getExpectedTwilioSignature(token, url, params);
      const otherPort = url.replace(port, port ? '' : ':443');
      const forged = twilio.getExpectedTwilioSignature(`${token}x`, url, params);

      expect(twilioSignature(token, url, params)).toBe(signed);
      expect(verifyTwilioSignature(token, signed, url, params)).toBe(true);
      expect(verifyTwilioSignature(token, forged, url, params)).toBe(false);
      expect(verifyTwilioSignature(token, signed, otherPort, params)).toBe(sdkAccepts(token, signed, otherPort, params));
      expect(verifyTwilioSignature(token, signed, url, { ...params, Extra: '1' })).toBe(false);
    }
  });
});
