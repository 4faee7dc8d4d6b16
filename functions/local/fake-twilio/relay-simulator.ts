/**
 * Twilio's side of a ConversationRelay session (<Connect><ConversationRelay url=…>), as the call
 * simulator (call-simulator.ts) plays it:
 *
 * - opens the WebSocket to `url` with X-Twilio-Signature = the SDK's
 *   twilio.getExpectedTwilioSignature(authToken, url, {}) (the exact URL, no params); a refused
 *   handshake or a broken socket ends the session 'failed';
 * - sends `setup` (sessionId, callSid, accountSid, from, to, callType PSTN, direction inbound,
 *   customParameters from the <Parameter> children), "speaks" the welcomeGreeting;
 * - per scripted turn: speech → `prompt` {voicePrompt, lang, last: true} (lang: the session's
 *   transcription language, or the turn's own `lang`: the caller speaking another language; when
 *   the active transcription language is "multi", Deepgram's automatic detection, the primary tag
 *   only of the language the caller speaks: the noun's until a turn's `lang` names another, which
 *   the caller goes on in: "es", "en"), then
 *   collects `text` tokens until one has last: true (or `end`, or the turn timeout); with
 *   `interruptAfterTokens: n` the caller barges in after n tokens (only over a token that is not
 *   `interruptible: false`, as Twilio): `interrupt` {utteranceUntilInterrupt = the tokens heard,
 *   joined as spoken, durationUntilInterruptMs}, then waits `interruptSettleMs` counting the tokens
 *   still arriving for that answer, then goes on; `{dtmf}` → a `dtmf` frame (only when the noun has
 *   dtmfDetection="true", as Twilio), answered like a prompt;
 * - a `language` message switches the session's TTS and transcription languages (later prompts
 *   carry the new lang) when each names the noun's language or a declared <Language> (for
 *   transcription also the noun's transcriptionLanguage, e.g. "multi"; for TTS its ttsLanguage);
 *   otherwise Twilio's error frame comes back and nothing changes;
 * - `wire` shapes the frames as Twilio's variants do (issue 28): durationUntilInterruptMs as the
 *   string of the published samples ("460") instead of a number, and extra fields on every frame
 *   (an app must ignore what it does not know);
 * - an `end` frame from the app closes the socket: SessionStatus 'ended' (+ HandoffData when the
 *   frame carried it); the caller hanging up closes it too: 'completed';
 * - a frame Twilio cannot read gets an `error` frame back (as Twilio answers invalid messages).
 *
 * Reported per turn: prompt sent → first token and → last token (ms), tokens, what was heard,
 * interrupted, and interrupt → last token that still arrived (ms; 0 when none came).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import twilio from 'twilio';
import WebSocket from 'ws';

export type RelayScriptTurn =
  | { speech: string; confidence: number; interruptAfterTokens?: number; lang?: string }
  | { silence: true }
  | { dtmf: string };

export interface RelaySessionInput {
  /** The <ConversationRelay url>. */
  url: string;
  /** The noun's attributes (welcomeGreeting, language, transcriptionLanguage, dtmfDetection, …). */
  attrs: Record<string, string>;
  /** The codes of the noun's <Language> children: the languages a `language` message may switch to. */
  languages?: string[];
  /** How the frames look on the wire (see above). */
  wire?: RelayWire;
  customParameters: Record<string, string>;
  authToken: string;
  accountSid: string;
  callSid: string;
  from: string;
  to: string;
  /** The script's turns still to play. */
  turns: RelayScriptTurn[];
  /** Index of turns[0] in the whole script (for beforeTurn and the report). */
  firstTurnIndex: number;
  hangup: 'caller' | 'after-script' | 'stay';
  beforeTurn?: (index: number) => Promise<void> | void;
  /** How long the caller waits for an answer (or, with hangup 'stay', for the app to end the call); default 30 s. */
  turnTimeoutMs?: number;
  /** After an interrupt, how long tokens still arriving are counted for the interrupted answer; default 300 ms. */
  interruptSettleMs?: number;
}

export interface RelayTurnReport {
  /** Index in the whole script. */
  turn: number;
  kind: 'prompt' | 'dtmf';
  /** The caller's words, or the digit. */
  said: string;
  sentAt: string;
  /** Prompt sent → first text token received; null when none came. */
  firstTokenMs: number | null;
  /** Prompt sent → the token with last: true (or the last one heard when interrupted); null when none came. */
  lastTokenMs: number | null;
  tokens: number;
  /** The tokens the caller heard, joined as ConversationRelay speaks them. */
  heard: string;
  /** Each text frame heard with its flags (undefined = the app left it out: Twilio's default applies). */
  texts: Array<{ token: string; interruptible?: boolean; preemptible?: boolean }>;
  /** The prompt's lang (the transcription language it was heard in); null for a keypress. */
  lang: string | null;
  interrupted: boolean;
  /** Interrupt sent → the last token of this answer that still arrived (0 = none arrived). */
  interruptToLastTokenMs: number | null;
  /** Tokens of this answer that arrived after the interrupt (not heard). */
  tokensAfterInterrupt: number;
  /** No last token within the turn timeout. */
  timedOut: boolean;
}

export interface RelayEvent {
  /** greeting, prompt, dtmf, answer, interrupt, end, play, sendDigits, language, error-sent, error-received */
  kind: string;
  text?: string;
  data?: Record<string, unknown>;
}

export interface RelaySessionReport {
  url: string;
  sessionId: string;
  /** 'ended': the app sent `end`; 'completed': the caller hung up; 'failed': no session or the socket broke. */
  status: 'ended' | 'completed' | 'failed';
  /** The end frame's handoffData, as sent (a string). */
  handoffData: string | null;
  /** The handshake's HTTP status: 101 = accepted; 0 = no answer. */
  handshakeStatus: number;
  closeCode: number | null;
  durationMs: number;
  /** Scripted turns this session used up (played or skipped). */
  turnsUsed: number;
  turns: RelayTurnReport[];
  events: RelayEvent[];
}

type Frame = Record<string, unknown> & { type?: unknown };

export interface RelayWire {
  /** 'string': interrupt.durationUntilInterruptMs as in Twilio's published samples ("460"); default 'number'. */
  interruptDuration?: 'number' | 'string';
  /** Every frame carries fields the app does not know (as Twilio adds some over time). */
  extraFields?: boolean;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** Frames in arrival order; next() waits for one until a deadline. */
class Inbox {
  private frames: { frame: Frame; at: number }[] = [];
  private wake: (() => void) | null = null;
  closed = false;

  push(frame: Frame, at: number): void {
    this.frames.push({ frame, at });
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  /** The next frame, or null at the deadline (performance.now() ms) or once closed and empty. */
  async next(deadline: number): Promise<{ frame: Frame; at: number } | null> {
    while (this.frames.length === 0) {
      const left = deadline - performance.now();
      if (this.closed || left <= 0) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    return this.frames.shift()!;
  }
}

export async function playRelaySession(input: RelaySessionInput): Promise<RelaySessionReport> {
  const turnTimeoutMs = input.turnTimeoutMs ?? 30_000;
  const settleMs = input.interruptSettleMs ?? 300;
  const sessionId = `VX${randomBytes(16).toString('hex')}`;
  const events: RelayEvent[] = [];
  const turns: RelayTurnReport[] = [];
  const started = performance.now();
  const report = (status: RelaySessionReport['status'], extra: Partial<RelaySessionReport> = {}): RelaySessionReport => ({
    url: input.url,
    sessionId,
    status,
    handoffData: null,
    handshakeStatus: 0,
    closeCode: null,
    durationMs: round(performance.now() - started),
    turnsUsed: 0,
    turns,
    events,
    ...extra,
  });

  const signature = twilio.getExpectedTwilioSignature(input.authToken, input.url, {});
  const inbox = new Inbox();
  let closeCode: number | null = null;
  let handshakeStatus = 0;
  const ws = new WebSocket(input.url, { headers: { 'X-Twilio-Signature': signature, 'User-Agent': 'Twilio.TmeWs/1.0' } });
  const opened = await new Promise<boolean>((resolve) => {
    ws.once('open', () => {
      handshakeStatus = 101;
      resolve(true);
    });
    ws.once('unexpected-response', (_req, res) => {
      handshakeStatus = res.statusCode ?? 0;
      res.resume();
      resolve(false);
    });
    ws.once('error', () => resolve(false));
  });
  if (!opened) {
    ws.terminate();
    return report('failed', { handshakeStatus });
  }
  ws.on('error', () => undefined);
  ws.on('close', (code) => {
    closeCode = code;
    inbox.close();
  });
  ws.on('message', (data, isBinary) => {
    const at = performance.now();
    const text = isBinary ? '' : data.toString();
    let frame: Frame | null = null;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) frame = parsed as Frame;
    } catch {
      frame = null;
    }
    if (!frame || !['text', 'end', 'play', 'sendDigits', 'language'].includes(String(frame.type))) {
      // Twilio answers a message it cannot read with an error frame and carries on.
      events.push({ kind: 'error-received', text });
      send({ type: 'error', description: `Invalid message received: ${text.slice(0, 200)}` });
      return;
    }
    inbox.push(frame, at);
  });

  let sequence = 0;
  const send = (frame: Record<string, unknown>) => {
    const extra = input.wire?.extraFields ? { sequenceId: ++sequence, twilioTrace: { region: 'ie1', edge: 'dublin' } } : {};
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ ...frame, ...extra }));
  };
  let lang = input.attrs.transcriptionLanguage ?? input.attrs.language ?? 'en-US';
  let ttsLanguage = input.attrs.ttsLanguage ?? input.attrs.language ?? 'en-US';
  const declaredSet = (...codes: Array<string | undefined>) => new Set([...codes, ...(input.languages ?? [])].filter((l): l is string => !!l).map((l) => l.toLowerCase()));
  const declared = { tts: declaredSet(input.attrs.language, input.attrs.ttsLanguage), stt: declaredSet(input.attrs.language, input.attrs.transcriptionLanguage) };
  /** The language the caller speaks: the noun's, until a turn's `lang` names another (they go on in it). */
  let callerSpeaks = input.attrs.language ?? 'en-US';
  /** A prompt's lang as the recogniser reports it: "multi" detects the caller's language and says only its primary tag. */
  const promptLangOf = (spokenIn: string | undefined) => {
    if (lang.toLowerCase() !== 'multi') return spokenIn ?? lang;
    callerSpeaks = spokenIn ?? callerSpeaks;
    return callerSpeaks.split('-')[0]!.toLowerCase();
  };

  send({
    type: 'setup',
    sessionId,
    accountSid: input.accountSid,
    parentCallSid: '',
    callSid: input.callSid,
    from: input.from,
    to: input.to,
    forwardedFrom: input.to,
    callType: 'PSTN',
    callerName: '',
    direction: 'inbound',
    callStatus: 'IN-PROGRESS',
    customParameters: input.customParameters,
  });
  if (input.attrs.welcomeGreeting) events.push({ kind: 'greeting', text: input.attrs.welcomeGreeting });

  let ended: { handoffData: string | null } | null = null;
  /** Handles a non-text frame; true when it ended the session. */
  const other = (frame: Frame): boolean => {
    if (frame.type === 'end') {
      ended = { handoffData: typeof frame.handoffData === 'string' ? frame.handoffData : null };
      events.push({ kind: 'end', ...(ended.handoffData ? { text: ended.handoffData } : {}) });
      return true;
    }
    if (frame.type === 'language') {
      const tts = typeof frame.ttsLanguage === 'string' ? frame.ttsLanguage : null;
      const stt = typeof frame.transcriptionLanguage === 'string' ? frame.transcriptionLanguage : null;
      if ((!tts && !stt) || (tts !== null && !declared.tts.has(tts.toLowerCase())) || (stt !== null && !declared.stt.has(stt.toLowerCase()))) {
        // Only a language the TwiML declared can be switched to.
        events.push({ kind: 'error-received', text: JSON.stringify(frame) });
        send({ type: 'error', description: `Invalid message received: language not configured: ${JSON.stringify(frame).slice(0, 200)}` });
        return false;
      }
      ttsLanguage = tts ?? ttsLanguage;
      lang = stt ?? lang;
      events.push({ kind: 'language', text: `${ttsLanguage}/${lang}`, data: frame });
      return false;
    }
    events.push({ kind: String(frame.type), data: frame });
    return false;
  };

  /** Sends one caller turn and collects its answer. */
  async function playTurn(index: number, kind: 'prompt' | 'dtmf', said: string, interruptAfter?: number, spokenIn?: string): Promise<RelayTurnReport> {
    const sentAt = new Date().toISOString();
    const t0 = performance.now();
    const promptLang = promptLangOf(spokenIn);
    if (kind === 'prompt') send({ type: 'prompt', voicePrompt: said, lang: promptLang, last: true });
    else send({ type: 'dtmf', digit: said });
    events.push({ kind, text: said });
    const tokens: string[] = [];
    const texts: RelayTurnReport['texts'] = [];
    let first: number | null = null;
    let last: number | null = null;
    let timedOut = true;
    let interruptedAt: number | null = null;
    let afterInterrupt = 0;
    let lastAfterInterrupt: number | null = null;
    const deadline = t0 + turnTimeoutMs;
    for (;;) {
      const wait = interruptedAt === null ? deadline : interruptedAt + settleMs;
      const next = await inbox.next(wait);
      if (!next) {
        if (interruptedAt !== null) timedOut = false;
        break;
      }
      const { frame, at } = next;
      if (frame.type !== 'text') {
        if (other(frame)) {
          timedOut = false;
          break;
        }
        continue;
      }
      if (interruptedAt !== null) {
        afterInterrupt++;
        lastAfterInterrupt = at;
        continue;
      }
      const token = typeof frame.token === 'string' ? frame.token : '';
      tokens.push(token);
      texts.push({
        token,
        ...(typeof frame.interruptible === 'boolean' ? { interruptible: frame.interruptible } : {}),
        ...(typeof frame.preemptible === 'boolean' ? { preemptible: frame.preemptible } : {}),
      });
      first ??= at;
      last = at;
      if (frame.last === true) {
        timedOut = false;
        break;
      }
      // Speech over a token that may not be interrupted does not cut it (Twilio sends no interrupt).
      if (interruptAfter !== undefined && tokens.length >= interruptAfter && frame.interruptible !== false) {
        interruptedAt = performance.now();
        const utterance = tokens.join('');
        const duration = Math.round(interruptedAt - (first ?? interruptedAt));
        send({
          type: 'interrupt',
          utteranceUntilInterrupt: utterance,
          durationUntilInterruptMs: input.wire?.interruptDuration === 'string' ? String(duration) : duration,
        });
        events.push({ kind: 'interrupt', text: utterance });
      }
    }
    const heard = tokens.join('');
    if (tokens.length) events.push({ kind: 'answer', text: heard });
    return {
      turn: index,
      kind,
      said,
      sentAt,
      firstTokenMs: first === null ? null : round(first - t0),
      lastTokenMs: last === null ? null : round(last - t0),
      tokens: tokens.length,
      heard,
      texts,
      lang: kind === 'prompt' ? promptLang : null,
      interrupted: interruptedAt !== null,
      interruptToLastTokenMs: interruptedAt === null ? null : lastAfterInterrupt === null ? 0 : round(lastAfterInterrupt - interruptedAt),
      tokensAfterInterrupt: afterInterrupt,
      timedOut,
    };
  }

  let used = 0;
  let callerLeft = false;
  for (const turn of input.turns) {
    if (ended || inbox.closed) break;
    const index = input.firstTurnIndex + used;
    used++;
    await input.beforeTurn?.(index);
    // Frames that came between turns (a late token, an end) are dealt with first.
    for (let f = await inbox.next(0); f; f = await inbox.next(0)) if (f.frame.type !== 'text' && other(f.frame)) break;
    if (ended) break;
    const lastScripted = used === input.turns.length;
    if ('silence' in turn) continue;
    if ('dtmf' in turn) {
      if (input.attrs.dtmfDetection !== 'true') {
        events.push({ kind: 'dtmf-ignored', text: turn.dtmf });
        continue;
      }
      turns.push(await playTurn(index, 'dtmf', turn.dtmf));
      continue;
    }
    if (lastScripted && input.hangup === 'caller') {
      send({ type: 'prompt', voicePrompt: turn.speech, lang: promptLangOf(turn.lang), last: true });
      events.push({ kind: 'prompt', text: turn.speech });
      callerLeft = true;
      break;
    }
    turns.push(await playTurn(index, 'prompt', turn.speech, turn.interruptAfterTokens, turn.lang));
  }

  if (!ended && !inbox.closed && input.hangup === 'stay' && !callerLeft) {
    // The caller stays on the line until the app ends the call (or gives up).
    const deadline = performance.now() + turnTimeoutMs;
    for (let f = await inbox.next(deadline); f && !ended; f = await inbox.next(deadline)) if (f.frame.type !== 'text') other(f.frame);
  }

  const endFrame = ended as { handoffData: string | null } | null;
  // Closed from the app's side (DeleteConnection, a crash) before the caller or an end frame closed it.
  const appClosed = inbox.closed;
  const appCloseCode = closeCode;
  if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) {
    // Twilio closes the socket when the session ends, whoever ended it.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 1000);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.close(1000);
    });
  }
  const status: RelaySessionReport['status'] = endFrame ? 'ended' : appClosed ? (appCloseCode === 1000 ? 'ended' : 'failed') : 'completed';
  return report(status, { handoffData: endFrame?.handoffData ?? null, handshakeStatus, closeCode, turnsUsed: used });
}
