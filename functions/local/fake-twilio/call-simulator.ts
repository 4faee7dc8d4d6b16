/**
 * Plays one inbound phone call against an app the way Twilio does (local runtime, tests, bench,
 * and the fake Twilio's POST /_test/calls). Only what the call loop uses is modelled:
 *
 * - every request is a form POST signed like Twilio signs it: X-Twilio-Signature = the SDK's
 *   twilio.getExpectedTwilioSignature(authToken, exact URL called incl. query, POST params);
 * - the voice URL is requested first (CallStatus ringing, Direction inbound), then the TwiML is
 *   executed verb by verb: <Say> (text incl. SSML children), <Play>, <Pause>, <Start><Recording>,
 *   <Gather>, <Redirect>, <Dial>, <Hangup>; a document that runs out ends the call;
 * - <Gather input="speech">: the next scripted turn answers it. Speech → POST to the action with
 *   SpeechResult + Confidence; silence → POST to the action WITHOUT SpeechResult only when
 *   actionOnEmptyResult="true", otherwise Twilio goes on with the verb after the <Gather>; a
 *   keypress ({dtmf}) → Digits when the <Gather> listens for dtmf, else like silence;
 * - <Connect><ConversationRelay url=…>: the next scripted turns are played over the WebSocket
 *   (relay-simulator.ts: setup, prompts, interrupts, DTMF, language switches to the declared
 *   <Language> children, automatic language detection with transcriptionLanguage="multi",
 *   per-turn latency); when the session
 *   ends, the <Connect action> is POSTed (SessionId, SessionStatus, SessionDuration, HandoffData)
 *   and its TwiML executed (<Dial> for a warm transfer, <Hangup>, …); without an action Twilio goes
 *   on with the verb after <Connect>;
 * - a non-2xx answer, a timeout (Twilio waits 15 s) or a body that is not TwiML ends the call
 *   the way Twilio does ("an application error has occurred"): ended 'error';
 * - at the end: the status callback (CallStatus completed + CallDuration seconds), then, when the
 *   TwiML started a recording, its recordingStatusCallback (RecordingSid, RecordingUrl,
 *   RecordingStatus completed, RecordingDuration…).
 *
 * Caller behaviour when the script is played out and a <Gather> listens again (`hangup`):
 * 'after-script' (default) — the caller hangs up (Twilio's final status is still 'completed');
 * 'caller' — the caller hangs up right after the last scripted turn, without listening to the
 * answer; 'stay' — the caller stays on the line saying nothing until our TwiML ends the call.
 */
import { randomBytes } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import twilio from 'twilio';
import { playRelaySession, type RelayScriptTurn, type RelaySessionReport, type RelayWire } from './relay-simulator.js';

/**
 * One thing the caller does when listened to: speak, stay silent, or press a key. In a
 * ConversationRelay session a spoken turn may barge in after `interruptAfterTokens` answer tokens.
 */
export type ScriptTurn = RelayScriptTurn;

export interface SimulateCallInput {
  voiceUrl: string;
  statusCallbackUrl: string;
  accountSid: string;
  authToken: string;
  /** The caller (E.164). */
  from: string;
  /** The business number called (E.164). */
  to: string;
  turns: ScriptTurn[];
  callSid?: string;
  hangup?: 'caller' | 'after-script' | 'stay';
  /** Runs before scripted turn `index` is answered (e.g. to age the stored call for max-duration tests). */
  beforeTurn?: (index: number) => Promise<void> | void;
  /** CallDuration reported on the status callback; default 5 s + 10 s per scripted turn. */
  callDurationSec?: number;
  /** The final status callback is not sent with the call: SimulatedCall.sendStatus sends it later (a lost or late callback). */
  holdStatus?: boolean;
  /** Final CallStatus; not 'completed' = the call never got past the voice URL (busy, no-answer, failed, canceled). */
  finalStatus?: 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled';
  /** Origin of RecordingUrl (the fake Twilio's URL locally); default https://api.twilio.com. */
  twilioApiUrl?: string;
  /** How long Twilio waits for an answer; default 15 000 ms. */
  timeoutMs?: number;
  /** Upper bound of webhook requests in the call loop (a guard against endless loops); default 60. */
  maxRequests?: number;
  /**
   * ConversationRelay sessions: how long the caller waits for an answer, the barge-in settle time,
   * and the frames' wire variants (relay-simulator.ts).
   */
  relay?: { turnTimeoutMs?: number; interruptSettleMs?: number; wire?: RelayWire };
  fetch?: typeof fetch;
}

export interface CallEvent {
  verb: string;
  /** Say: the spoken text; Dial: the number; Play: the URL. */
  text?: string;
  attrs: Record<string, string>;
}

export interface CallRequest {
  kind: 'voice' | 'gather' | 'redirect' | 'dial-action' | 'connect-action' | 'status' | 'recording';
  url: string;
  params: Record<string, string>;
  /** 0 = no answer in time / connection failed. */
  status: number;
  durationMs: number;
  body: string;
}

export interface SimulatedCall {
  callSid: string;
  events: CallEvent[];
  /** 'hangup': our TwiML ended it (<Hangup> or the document ran out); 'caller': the caller hung up; 'dial': forwarded; 'error': a webhook failed. */
  ended: 'hangup' | 'caller' | 'dial' | 'error';
  httpStatuses: number[];
  requests: CallRequest[];
  recordingSid: string | null;
  /** The ConversationRelay sessions of the call (streamed calls), with their per-turn figures. */
  relaySessions: RelaySessionReport[];
  /** Sends the final status callback (with holdStatus; otherwise it was sent already). */
  sendStatus: () => Promise<CallRequest>;
}

type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: true,
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
export const newCallSid = () => `CA${hex(16)}`;

function nameOf(node: XmlNode): string {
  return Object.keys(node).find((k) => k !== ':@') ?? '';
}
function childrenOf(node: XmlNode): XmlNode[] {
  const v = node[nameOf(node)];
  return Array.isArray(v) ? (v as XmlNode[]) : [];
}
function textOf(nodes: XmlNode[]): string {
  return nodes
    .map((n) => (nameOf(n) === '#text' ? String(n['#text'] ?? '') : textOf(childrenOf(n))))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The verbs of a TwiML document, or null when it is not a <Response>. */
export function parseTwiml(xml: string): XmlNode[] | null {
  let doc: XmlNode[];
  try {
    doc = parser.parse(xml) as XmlNode[];
  } catch {
    return null;
  }
  const response = doc.find((n) => nameOf(n) === 'Response');
  return response ? childrenOf(response) : null;
}

export async function simulateCall(input: SimulateCallInput): Promise<SimulatedCall> {
  const doFetch = input.fetch ?? fetch;
  const callSid = input.callSid ?? newCallSid();
  const timeoutMs = input.timeoutMs ?? 15_000;
  const maxRequests = input.maxRequests ?? 60;
  const hangupMode = input.hangup ?? 'after-script';
  const events: CallEvent[] = [];
  const requests: CallRequest[] = [];
  const base: Record<string, string> = {
    AccountSid: input.accountSid,
    ApiVersion: '2010-04-01',
    CallSid: callSid,
    Called: input.to,
    Caller: input.from,
    Direction: 'inbound',
    From: input.from,
    To: input.to,
  };
  let recording: { callback: string; method: string } | null = null;
  const relaySessions: RelaySessionReport[] = [];
  let turnIndex = 0;
  let ended: SimulatedCall['ended'] | null = null;

  async function post(kind: CallRequest['kind'], url: string, params: Record<string, string>): Promise<CallRequest> {
    const signature = twilio.getExpectedTwilioSignature(input.authToken, url, params);
    const started = Date.now();
    const record: CallRequest = { kind, url, params, status: 0, durationMs: 0, body: '' };
    try {
      const res = await doFetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': signature,
          'i-twilio-idempotency-token': hex(16),
          'user-agent': 'TwilioProxy/1.1',
        },
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
      record.status = res.status;
      record.body = await res.text();
    } catch {
      record.status = 0;
    }
    record.durationMs = Date.now() - started;
    requests.push(record);
    return record;
  }

  /** Requests TwiML; null (and the call ends with 'error') when Twilio would give up. */
  async function fetchTwiml(kind: CallRequest['kind'], url: string, params: Record<string, string>): Promise<XmlNode[] | null> {
    if (requests.length >= maxRequests) {
      ended = 'error';
      return null;
    }
    const r = await post(kind, url, params);
    const verbs = r.status >= 200 && r.status < 300 ? parseTwiml(r.body) : null;
    if (!verbs) ended = 'error';
    return verbs;
  }

  const inProgress = () => ({ ...base, CallStatus: 'in-progress' });

  async function run(verbs: XmlNode[], docUrl: string): Promise<void> {
    for (const node of verbs) {
      if (ended) return;
      const verb = nameOf(node);
      const attrs = node[':@'] ?? {};
      const resolve = (u: string | undefined) => new URL(u ?? docUrl, docUrl).toString();
      switch (verb) {
        case 'Say':
          events.push({ verb, text: textOf(childrenOf(node)), attrs });
          break;
        case 'Play':
          events.push({ verb, text: textOf(childrenOf(node)), attrs });
          break;
        case 'Pause':
          events.push({ verb, attrs });
          break;
        case 'Start':
          for (const child of childrenOf(node)) {
            const a = child[':@'] ?? {};
            events.push({ verb: `Start/${nameOf(child)}`, attrs: a });
            if (nameOf(child) === 'Recording') {
              recording = { callback: a.recordingStatusCallback ? resolve(a.recordingStatusCallback) : '', method: a.recordingStatusCallbackMethod ?? 'POST' };
            }
          }
          break;
        case 'Hangup':
          events.push({ verb, attrs });
          ended = 'hangup';
          return;
        case 'Redirect': {
          events.push({ verb, text: textOf(childrenOf(node)), attrs });
          const url = resolve(textOf(childrenOf(node)) || undefined);
          const next = await fetchTwiml('redirect', url, inProgress());
          if (next) await run(next, url);
          return;
        }
        case 'Dial': {
          const number = textOf(childrenOf(node));
          events.push({ verb, text: number, attrs });
          if (attrs.action) {
            const url = resolve(attrs.action);
            const next = await fetchTwiml('dial-action', url, { ...inProgress(), DialCallStatus: 'completed', DialCallDuration: '30' });
            if (next) await run(next, url);
            if (!ended) ended = 'dial';
            return;
          }
          ended = 'dial';
          break;
        }
        case 'Gather': {
          // Nested <Say>/<Play> are heard while Twilio listens.
          for (const child of childrenOf(node)) {
            if (nameOf(child) === 'Say' || nameOf(child) === 'Play') events.push({ verb: nameOf(child), text: textOf(childrenOf(child)), attrs: child[':@'] ?? {} });
          }
          events.push({ verb, attrs });
          let turn: ScriptTurn | undefined = input.turns[turnIndex];
          if (turn === undefined) {
            if (hangupMode !== 'stay') {
              ended = 'caller';
              return;
            }
            turn = { silence: true };
          } else {
            await input.beforeTurn?.(turnIndex);
          }
          turnIndex++;
          const url = resolve(attrs.action);
          if ('speech' in turn) {
            const params = { ...inProgress(), SpeechResult: turn.speech, Confidence: String(turn.confidence), Language: attrs.language ?? 'en-US' };
            const lastScripted = turnIndex >= input.turns.length;
            if (lastScripted && hangupMode === 'caller') {
              await post('gather', url, params);
              ended = 'caller';
              return;
            }
            const next = await fetchTwiml('gather', url, params);
            if (next) await run(next, url);
            return;
          }
          if ('dtmf' in turn && (attrs.input ?? 'dtmf').split(/\s+/).includes('dtmf')) {
            const next = await fetchTwiml('gather', url, { ...inProgress(), Digits: turn.dtmf });
            if (next) await run(next, url);
            return;
          }
          if (attrs.actionOnEmptyResult === 'true') {
            const next = await fetchTwiml('gather', url, inProgress());
            if (next) await run(next, url);
            return;
          }
          // Nothing heard and no empty-result action: Twilio goes on with the next verb.
          break;
        }
        case 'Connect': {
          const relay = childrenOf(node).find((child) => nameOf(child) === 'ConversationRelay');
          if (!relay) {
            // Other <Connect> nouns (<Stream>, <Room>…) are not modelled.
            events.push({ verb, attrs });
            break;
          }
          const relayAttrs = relay[':@'] ?? {};
          const customParameters: Record<string, string> = {};
          const languages: string[] = [];
          for (const p of childrenOf(relay)) {
            if (nameOf(p) === 'Language' && p[':@']?.code) languages.push(p[':@'].code);
            const a = p[':@'] ?? {};
            if (nameOf(p) === 'Parameter' && a.name) customParameters[a.name] = a.value ?? '';
          }
          events.push({ verb: 'Connect/ConversationRelay', text: relayAttrs.url ?? '', attrs: { ...attrs, ...relayAttrs } });
          const session = await playRelaySession({
            url: relayAttrs.url ?? '',
            attrs: relayAttrs,
            languages,
            customParameters,
            authToken: input.authToken,
            accountSid: input.accountSid,
            callSid,
            from: input.from,
            to: input.to,
            turns: input.turns.slice(turnIndex),
            firstTurnIndex: turnIndex,
            hangup: hangupMode,
            beforeTurn: input.beforeTurn,
            ...input.relay,
          });
          relaySessions.push(session);
          turnIndex += session.turnsUsed;
          for (const e of session.events) {
            if (e.kind === 'greeting' || e.kind === 'answer') events.push({ verb: 'ConversationRelay/Say', text: e.text ?? '', attrs: { source: e.kind } });
            if (e.kind === 'end') events.push({ verb: 'ConversationRelay/end', text: e.text ?? '', attrs: {} });
          }
          const sessionParams = {
            SessionId: session.sessionId,
            SessionStatus: session.status,
            SessionDuration: String(Math.round(session.durationMs / 1000)),
            ...(session.handoffData !== null ? { HandoffData: session.handoffData } : {}),
          };
          if (session.status === 'completed') {
            // The caller hung up: Twilio still reports the session's end; the call is over.
            if (attrs.action) await post('connect-action', resolve(attrs.action), { ...base, CallStatus: 'completed', ...sessionParams });
            ended = 'caller';
            return;
          }
          if (!attrs.action) break;
          const url = resolve(attrs.action);
          const next = await fetchTwiml('connect-action', url, { ...inProgress(), ...sessionParams });
          if (next) await run(next, url);
          return;
        }
        default:
          events.push({ verb, attrs });
      }
    }
    // The document ran out: Twilio ends the call.
    if (!ended) ended = 'hangup';
  }

  const first = await fetchTwiml('voice', input.voiceUrl, { ...base, CallStatus: 'ringing' });
  const finalStatus = input.finalStatus ?? 'completed';
  if (first && finalStatus === 'completed') await run(first, input.voiceUrl);
  if (finalStatus !== 'completed') ended = 'caller';
  const outcome = ended ?? 'hangup';

  const duration = finalStatus === 'completed' ? (input.callDurationSec ?? 5 + 10 * Math.min(turnIndex, input.turns.length)) : 0;
  const sendStatus = () =>
    post('status', input.statusCallbackUrl, {
      ...base,
      CallStatus: finalStatus,
      CallDuration: String(duration),
      Duration: String(Math.ceil(duration / 60)),
      CallbackSource: 'call-progress-events',
      SequenceNumber: '0',
      Timestamp: new Date().toUTCString(),
    });
  if (!input.holdStatus) await sendStatus();

  let recordingSid: string | null = null;
  const rec = recording as { callback: string; method: string } | null;
  if (rec && finalStatus === 'completed') {
    recordingSid = `RE${hex(16)}`;
    if (rec.callback) {
      const origin = (input.twilioApiUrl ?? 'https://api.twilio.com').replace(/\/+$/, '');
      await post('recording', rec.callback, {
        AccountSid: input.accountSid,
        CallSid: callSid,
        RecordingSid: recordingSid,
        RecordingUrl: `${origin}/2010-04-01/Accounts/${input.accountSid}/Recordings/${recordingSid}`,
        RecordingStatus: 'completed',
        RecordingDuration: String(Math.max(1, duration - 1)),
        RecordingChannels: '1',
        RecordingSource: 'StartCallRecordingTwiML',
        RecordingStartTime: new Date().toUTCString(),
        ErrorCode: '0',
      });
    }
  }

  return { callSid, events, ended: outcome, httpStatuses: requests.map((r) => r.status), requests, recordingSid, relaySessions, sendStatus };
}
