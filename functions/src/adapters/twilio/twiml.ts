/**
 * TwiML for the call loop: a small builder for the five verbs the loop uses, producing what the
 * SDK's VoiceResponse produces for them (the tests compare the two). The SDK's TwiML module
 * would pull its XML builder into the voice-webhook bundle for a handful of elements.
 *
 * <Say voice language> speaks; SSML <prosody> wraps the text only when the speech rate, pitch or
 * volume differ from 1. <Gather input="speech" speechTimeout="auto" actionOnEmptyResult="true">
 * posts to its action even when nothing was heard (Twilio would otherwise go on with the next
 * verb). <Start><Recording> records the call in the background and reports to the recording
 * callback. <Dial> forwards, <Hangup> ends.
 *
 * <Connect action><ConversationRelay> (issue 16) hands the call to our WebSocket relay: Twilio
 * speaks the welcome, transcribes the caller with Google's telephony model, speaks our text tokens
 * with the mapped voice, lets the caller interrupt it (speech or keypad) and reports DTMF; when
 * the session ends it posts the <Connect action>. Rate/pitch/volume are <Say>-only (no attribute).
 * A call that can switch languages (issue 28) declares each one as a <Language> child (code, voice,
 * recognition): ConversationRelay's language message may only name a declared language. Such a
 * call is transcribed by Deepgram with transcriptionLanguage="multi" (automatic detection: each
 * prompt's lang is the caller's language, its primary tag only); Google's recogniser would only
 * ever report the session's language, so no switch would happen. `language` stays the main one:
 * the welcome and the voice until the first switch.
 */
import { DETECT_LANGUAGE } from '../../contract/voice-limits.js';
import type { CallScript, SpeechVoice } from '../../domain/voice/call-loop.js';

const round = (n: number) => Math.round(n * 10) / 10;

/** Speech recognition of streamed calls in one language: Google's phone-audio model (es-ES, es-MX, en-GB, en-US). */
export const RELAY_TRANSCRIPTION = { provider: 'Google', speechModel: 'telephony' } as const;

/**
 * Speech recognition of streamed calls that can switch languages: Deepgram's Nova-3, whose `multi`
 * language detects English and Spanish among others (Nova-2's `multi` too, English and Spanish only).
 * Every <Language> names the same model, so detection compares like with like.
 */
export const RELAY_MULTILINGUAL_TRANSCRIPTION = { provider: 'Deepgram', speechModel: 'nova-3-general', language: DETECT_LANGUAGE } as const;

/** SSML prosody attributes for rate/pitch/volume (1 = unchanged → omitted). */
export function prosodyOf(voice: Pick<SpeechVoice, 'speechRate' | 'pitch' | 'volume'>): Record<string, string> | null {
  const attrs: Record<string, string> = {};
  if (voice.speechRate !== 1) attrs.rate = `${Math.round(voice.speechRate * 100)}%`;
  if (voice.pitch !== 1) {
    const pct = Math.round((voice.pitch - 1) * 100);
    attrs.pitch = `${pct >= 0 ? '+' : ''}${pct}%`;
  }
  if (voice.volume !== 1) {
    if (voice.volume <= 0) attrs.volume = 'silent';
    else {
      const db = round(20 * Math.log10(voice.volume));
      attrs.volume = `${db >= 0 ? '+' : ''}${db}dB`;
    }
  }
  return Object.keys(attrs).length > 0 ? attrs : null;
}

// Characters XML 1.0 cannot carry at all (control characters, lone surrogates, U+FFFE/U+FFFF): dropped.
// eslint-disable-next-line no-control-regex
const ILLEGAL_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const escapeText = (s: string) => s.replace(ILLEGAL_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
const escapeAttr = (s: string) =>
  s.replace(ILLEGAL_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\t/g, '&#x9;').replace(/\n/g, '&#xA;').replace(/\r/g, '&#xD;');

type AttrValue = string | number | boolean | readonly string[];

/** <name a="…">children</name>, or <name a="…"/> without children. Attributes in the given order. */
function element(name: string, attrs: Record<string, AttrValue>, children = ''): string {
  const attributes = Object.entries(attrs)
    .map(([key, value]) => ` ${key}="${escapeAttr(Array.isArray(value) ? value.join(' ') : String(value))}"`)
    .join('');
  return children ? `<${name}${attributes}>${children}</${name}>` : `<${name}${attributes}/>`;
}

function say(voice: SpeechVoice, text: string): string {
  const prosody = prosodyOf(voice);
  const body = prosody ? element('prosody', prosody, escapeText(text)) : escapeText(text);
  return element('Say', { voice: voice.voice, language: voice.language }, body);
}

export function renderTwiml(script: CallScript): string {
  const { voice } = script;
  const verbs = script.steps.map((step) => {
    switch (step.kind) {
      case 'record':
        return element(
          'Start',
          {},
          element('Recording', {
            recordingStatusCallback: step.callbackUrl,
            recordingStatusCallbackMethod: 'POST',
            recordingStatusCallbackEvent: ['completed'],
            trim: 'do-not-trim',
          }),
        );
      case 'say':
        return say(voice, step.text);
      case 'gather':
        return element(
          'Gather',
          { input: ['speech'], language: voice.language, speechTimeout: 'auto', timeout: step.timeoutSec, actionOnEmptyResult: true, action: step.actionUrl, method: 'POST' },
          step.text ? say(voice, step.text) : '',
        );
      case 'dial':
        return element('Dial', { answerOnBridge: true }, escapeText(step.number));
      case 'hangup':
        return element('Hangup', {});
      case 'relay': {
        const languages = step.languages ?? [];
        // Several languages: the caller's is detected (a single-language call keeps Google's telephony model).
        const multilingual = languages.length > 0;
        const stt = multilingual ? RELAY_MULTILINGUAL_TRANSCRIPTION : RELAY_TRANSCRIPTION;
        return element(
          'Connect',
          { action: step.actionUrl, method: 'POST' },
          element(
            'ConversationRelay',
            {
              url: step.url,
              welcomeGreeting: step.welcomeGreeting,
              language: voice.language,
              ttsProvider: step.relay.ttsProvider,
              voice: step.relay.voice,
              transcriptionProvider: stt.provider,
              speechModel: stt.speechModel,
              ...(multilingual ? { transcriptionLanguage: RELAY_MULTILINGUAL_TRANSCRIPTION.language } : {}),
              interruptible: 'any',
              dtmfDetection: true,
            },
            // The languages the relay may switch to (its language message names one of them).
            languages
              .map((l) =>
                element('Language', {
                  code: l.code,
                  ttsProvider: l.relay.ttsProvider,
                  voice: l.relay.voice,
                  transcriptionProvider: stt.provider,
                  speechModel: stt.speechModel,
                }),
              )
              .join(''),
          ),
        );
      }
    }
  });
  return `<?xml version="1.0" encoding="UTF-8"?>${element('Response', {}, verbs.join(''))}`;
}
