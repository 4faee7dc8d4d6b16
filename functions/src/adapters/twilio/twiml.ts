/**
 * TwiML for the call loop, built with the SDK's VoiceResponse (escaping and attribute names are
 * the SDK's). Only the TwiML module is imported, not the SDK's client (bundle size).
 *
 * <Say voice language> speaks; SSML <prosody> wraps the text only when the speech rate, pitch or
 * volume differ from 1. <Gather input="speech" speechTimeout="auto" actionOnEmptyResult="true">
 * posts to its action even when nothing was heard (Twilio would otherwise go on with the next
 * verb). <Start><Recording> records the call in the background and reports to the recording
 * callback. <Dial> forwards, <Hangup> ends.
 */
import VoiceResponse from 'twilio/lib/twiml/VoiceResponse.js';
import type { CallScript, SpeechVoice } from '../../domain/voice/call-loop.js';

const round = (n: number) => Math.round(n * 10) / 10;

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

type SayParent = { say(attributes: VoiceResponse.SayAttributes, message: string): VoiceResponse.Say };

function say(parent: SayParent, voice: SpeechVoice, text: string): void {
  const attributes = { voice: voice.voice, language: voice.language } as VoiceResponse.SayAttributes;
  const prosody = prosodyOf(voice);
  if (!prosody) {
    parent.say(attributes, text);
    return;
  }
  parent.say(attributes, '').prosody(prosody as VoiceResponse.SsmlProsodyAttributes, text);
}

export function renderTwiml(script: CallScript): string {
  const response = new VoiceResponse();
  const { voice } = script;
  for (const step of script.steps) {
    switch (step.kind) {
      case 'record':
        response.start().recording({
          recordingStatusCallback: step.callbackUrl,
          recordingStatusCallbackMethod: 'POST',
          recordingStatusCallbackEvent: ['completed'],
          trim: 'do-not-trim',
        } as VoiceResponse.RecordingAttributes);
        break;
      case 'say':
        say(response, voice, step.text);
        break;
      case 'gather': {
        const gather = response.gather({
          input: ['speech'],
          language: voice.language as VoiceResponse.GatherAttributes['language'],
          speechTimeout: 'auto',
          timeout: step.timeoutSec,
          actionOnEmptyResult: true,
          action: step.actionUrl,
          method: 'POST',
        });
        if (step.text) say(gather, voice, step.text);
        break;
      }
      case 'dial':
        response.dial({ answerOnBridge: true }, step.number);
        break;
      case 'hangup':
        response.hangup();
        break;
    }
  }
  return response.toString();
}
