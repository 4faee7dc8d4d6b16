/**
 * The voice relay (issue 16; issue 28: ConversationRelay exactly as Twilio sends it): one streamed
 * call over Twilio ConversationRelay, frame by frame. Every WebSocket event is its own invocation
 * (API Gateway runs them concurrently, in no guaranteed order), so all the state lives in the
 * table: the connection record (which call a connection carries), the call item (transcript, the
 * setup that bound this connection, the last prompt taken, the session language) and the per-call
 * turn state (which answer streams, its cancel flag, the acknowledgement of a superseded one).
 *
 * - connect: X-Twilio-Signature over the exact relay URL (`?user=…&call=…`, as the call loop
 *   wrote it into <ConversationRelay url>) with the user's Twilio auth token, before anything
 *   else; the call must be that user's, streamed and still active. Refused → nothing is stored.
 * - setup: binds the connection to the call in one conditional write (the callSid must be the
 *   stored call's); another call's → the connection is closed.
 * - prompt (last) / dtmf: the caller's turn and the agent turn's placeholder are claimed in one
 *   atomic append whose condition is the turn order: the connection's setup came before the frame
 *   (a prompt racing its setup retries briefly; one before it, or without one, stores and answers
 *   nothing), no later frame was taken already, and it is not the last prompt's frame again (the
 *   same words within RELAY_LIMITS.duplicateWindowMs while that answer is not over; said again
 *   after it, they are a new turn). The agent answers with the streamed runtime; its text goes out
 *   as clause-sized `text` tokens, each with explicit interruptible/preemptible flags (answers: both;
 *   the hand-off message, fillers and the goodbye: neither).
 * - One answer streams at a time: a new answer's start supersedes one still streaming, which stops
 *   at its next check (between posts, and every RELAY_LIMITS.watchMs while silent) as an interrupt
 *   would, stores what it sent and acknowledges; the new answer posts nothing before that, and its
 *   model sees both prompts. The stored agent turn is what was sent (or heard when interrupted),
 *   with its latency from the frame's arrival (first and last token sent).
 * - prompt.lang naming another language the call supports (settings.additionalLanguages, declared
 *   as <Language> elements by the call loop, which has Deepgram detect the caller's language and
 *   report its primary tag, languageOf): a `language` message switches the voice before the answer
 *   (recognition stays on detection), the session language is stored with the claim, and the agent
 *   answers in it.
 * - interrupt: sets the flag of the streaming answer; an answer already fully sent (Twilio was
 *   still speaking it) gets its stored text corrected to what was heard.
 * - A tool call starting speaks a filler first; escalate_to_human speaks messageFallback and, with
 *   a forwarding number, ends the session with handoffData (the <Connect action> dials; call-loop
 *   relayAction), else the call is marked escalated and goes on. Model errors, no agent or no
 *   ChatGPT integration → messageError, the call goes on. maxCallDuration passed → goodbye + end.
 *
 * Minutes, the status and recording callbacks and the summary job stay with the HTTP webhooks.
 */
import { createHash } from 'node:crypto';
import type { CallTurn } from '../../../contract/voice.js';
import { DETECT_LANGUAGE, VOICE_LIMITS, callLanguages } from '../../../contract/voice-limits.js';
import { parseRelayFrame, type RelayOutboundFrame } from '../../../contract/voice-relay.js';
import { isId, isUuid } from '../../../lib/ids.js';
import type { AgentReader, AgentWithChildren } from '../../agents/ports.js';
// answer.ts, not index.ts: without the WhatsApp tools (issue 31), which a call never offers (a first contact's bundle).
import { answerAs } from '../../agents/runtime/answer.js';
import { customerE164 } from '../../agents/runtime/booking-tools.js';
import type { ToolExecutor } from '../../agents/runtime/ports.js';
import { TurnCancelledError, type AgentReply, type HistoryMessage } from '../../agents/runtime/run-agent.js';
import type { Bookings } from '../../bookings/ports.js';
import type { AiConnection, AiConnector } from '../../ai/ports.js';
import type { KnowledgeRetriever } from '../../knowledge/ports.js';
import type { RecordUnanswered } from '../../knowledge/unanswered.js';
import type { LiveCallItems, RelayClaim, RelayTurnClaim, StoredCall } from '../ports.js';
import { clauseSplitter } from './clauses.js';
import type { AnswerCheck, RelayConnectionRecord, RelayConnectionStore, RelayConnections, RelayTurnState } from './ports.js';

export const RELAY_LIMITS = {
  /** The same prompt text again within this window, while its answer is not over, is a repeated frame. */
  duplicateWindowMs: 2_000,
  /** How long a prompt waits for its connection's setup frame (handled by a concurrent invocation) from its arrival. */
  setupWaitMs: 800,
  /** A streaming answer reads its turn state at least this often, posting or not (a newer answer waits for it to stop). */
  watchMs: 150,
  /** How long a new answer waits (polling every supersedePollMs) for the one it supersedes to stop posting. */
  supersedeWaitMs: 2_000,
  supersedePollMs: 25,
} as const;

/** Spoken when a tool call starts, so the caller is not left in silence while it runs. */
export const RELAY_FILLERS = { es: 'Un momento, por favor.', en: 'One moment, please.' } as const;
const fillerFor = (language: string) => (language.toLowerCase().startsWith('es') ? RELAY_FILLERS.es : RELAY_FILLERS.en);

/** A keypad press as the caller's message (and transcript line). */
export const dtmfMessage = (language: string, digit: string) => (language.toLowerCase().startsWith('es') ? `Tecla pulsada: ${digit}` : `Key pressed: ${digit}`);

/**
 * The supported language a prompt's `lang` names (`supported`: the main language first): the same
 * code (any case), else the first supported one with its primary tag — automatic detection sends
 * only that ("en"), so "es" is es-ES on an es-ES call that also speaks es-MX, and es-MX on an
 * en-US call whose additional languages are es-MX then es-ES. null = none: the session keeps its language.
 */
export function languageOf(lang: string | undefined, supported: readonly string[]): string | null {
  const code = lang?.trim().toLowerCase();
  if (!code) return null;
  const exact = supported.find((l) => l.toLowerCase() === code);
  if (exact) return exact;
  const primary = code.split('-')[0];
  return supported.find((l) => l.toLowerCase().split('-')[0] === primary) ?? null;
}

const ESCALATE_TO_HUMAN = 'escalate_to_human';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Text that is part of the answer (the caller may cut it, and so may a newer answer), or ours to say whole (fillers, hand-off, goodbye). */
type Speech = 'answer' | 'whole';

export interface RelaySessionDeps {
  calls: LiveCallItems;
  connections: RelayConnectionStore;
  posts: RelayConnections;
  turns: RelayTurnState;
  /** X-Twilio-Signature of the handshake, checked with the user's active Twilio integration's auth token. */
  handshake: { verify(userId: string, url: string, signature: string | undefined): Promise<boolean> };
  agents: AgentReader;
  ai: AiConnector;
  retriever: KnowledgeRetriever;
  tools: ToolExecutor;
  /** The bookings core for the agent's built-in booking tools (issue 30); absent = not offered. */
  bookings?: Bookings;
  /** Records a question the agent's knowledge could not answer (issue 18; never throws). Absent = not recorded. */
  recordUnanswered?: RecordUnanswered;
  /** The relay's public wss:// URL (VOICE_RELAY_URL); '' = not deployed (every handshake refused). */
  relayUrl(): string;
  now?: () => number;
  /** Bound of one agent turn (default VOICE_LIMITS.turnMs). */
  turnMs?: number;
  /** RELAY_LIMITS overrides (tests). */
  limits?: Partial<Record<keyof typeof RELAY_LIMITS, number>>;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
  onInfo?: (message: string, data?: Record<string, unknown>) => void;
}

export interface RelayHandshake {
  connectionId: string;
  /** queryStringParameters.user / .call */
  user: string | undefined;
  call: string | undefined;
  /** The X-Twilio-Signature header. */
  signature: string | undefined;
}

export interface FrameMeta {
  /** Epoch ms the frame reached us (API Gateway's request time): turn latencies and the frames' order count from it. */
  arrivedAt: number;
  /** API Gateway's id of this message (the same on a retried invocation). */
  messageId?: string;
}

/** The URL Twilio connected to (and signed) for this user's call: the call loop's format. */
export const relayCallUrl = (base: string, userId: string, callId: string) => `${base}?user=${encodeURIComponent(userId)}&call=${encodeURIComponent(callId)}`;

const live = (call: StoredCall | null): call is StoredCall => call !== null && call.status === 'active' && !call.endedByUs;

/** A claimed turn once its answer may speak: its slot, whether it started (not superseded before), the language to switch to first. */
interface TurnGo {
  slot: number;
  started: boolean;
  switchTo: string | null;
}

/** How an answer ended: fully sent, interrupted (what the caller heard), superseded by a newer one; null while streaming. */
type Ending = 'sent' | { heard: string } | 'superseded';

export function createRelaySession(deps: RelaySessionDeps) {
  const now = deps.now ?? Date.now;
  const iso = (t: number = now()) => new Date(t).toISOString();
  const turnMs = deps.turnMs ?? VOICE_LIMITS.turnMs;
  const limits: Record<keyof typeof RELAY_LIMITS, number> = { ...RELAY_LIMITS, ...deps.limits };
  const onError = deps.onError ?? (() => undefined);
  const onInfo = deps.onInfo ?? (() => undefined);

  async function connect(h: RelayHandshake): Promise<boolean> {
    const base = deps.relayUrl();
    const userId = h.user ?? '';
    const callId = h.call ?? '';
    // Malformed ids get the same refusal before any read.
    if (!base || !isUuid(userId) || !isId(callId) || !h.signature) return false;
    if (!(await deps.handshake.verify(userId, relayCallUrl(base, userId, callId), h.signature))) return false;
    const call = await deps.calls.get(userId, callId);
    if (!live(call) || call.conversationMode !== 'streaming') {
      onInfo('Voice relay: handshake for a call that is not a live streamed call', { userId, callId });
      return false;
    }
    await deps.connections.put({
      connectionId: h.connectionId,
      userId,
      callId,
      agentId: call.agent?._id ?? null,
      languages: callLanguages(call.settings),
      connectedAt: iso(),
    });
    return true;
  }

  async function disconnect(connectionId: string): Promise<void> {
    await deps.connections.delete(connectionId);
  }

  /**
   * One answer's posts: in order, the turn state checked between two (and by a watcher while the
   * answer is silent), timings of the first and last text token. `turn` (the claimed slot once the
   * turn state is written and any superseded answer has stopped; null when the turn was not taken)
   * is awaited before the first post only, so the turn-state writes overlap the model instead of
   * delaying it. Not taken, or not started: nothing is posted. Right
   * before the last token, finish() settles the answer as fully sent (or how it was cut).
   */
  function answerStream(conn: RelayConnectionRecord, turn: Promise<TurnGo | null>) {
    const abort = new AbortController();
    let chain: Promise<void> = Promise.resolve();
    let go: TurnGo | null = null;
    let sent = '';
    let posts = 0;
    let firstAt: number | null = null;
    let lastAt: number | null = null;
    let ending: Ending | null = null;
    let finished = false;
    let stopped = false;
    let lastCheckAt = 0;
    let checking = false;
    let watcher: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      stopped = true;
      clearInterval(watcher);
      abort.abort();
    };
    let settled: Promise<void> | null = null;
    /** Once no more posts can go out: the answer is settled with finish() (a newer answer may be waiting for it). */
    const settle = () =>
      (settled ??= chain.then(async () => {
        if (!finished && speaking(go)) await finish(go.slot);
      }));
    const cut = (state: AnswerCheck): boolean => {
      if (state === 'go') return false;
      ending = state;
      stop();
      // Acknowledged as soon as the post in flight is done, not when the model or a tool returns.
      settle().catch((error: unknown) => onError('Voice relay: a cut answer could not be settled', error, { callId: conn.callId }));
      return true;
    };
    const check = async (slot: number): Promise<boolean> => {
      lastCheckAt = now();
      return cut(await deps.turns.check(conn.userId, conn.callId, slot));
    };
    const finish = async (slot: number): Promise<Ending> => {
      finished = true;
      ending = await deps.turns.finish(conn.userId, conn.callId, slot);
      return ending;
    };
    const speaking = (g: TurnGo | null): g is TurnGo => g !== null && g.started && g.slot >= 0;

    // A silent answer (the model thinking, a tool running) still notices an interrupt or a newer answer.
    void turn.then((g) => {
      go = g;
      if (!speaking(g) || stopped) return;
      lastCheckAt = now();
      watcher = setInterval(() => {
        if (stopped || checking || now() - lastCheckAt < limits.watchMs) return;
        checking = true;
        check(g.slot)
          .catch((error: unknown) => onError('Voice relay: the turn state could not be read', error, { callId: conn.callId }))
          .finally(() => (checking = false));
      }, limits.watchMs);
    });

    const post = async (frame: RelayOutboundFrame): Promise<boolean> => {
      if (await deps.posts.post(conn.connectionId, frame)) return true;
      onInfo('Voice relay: the caller is gone; the answer stops', { callId: conn.callId });
      stop();
      return false;
    };

    const send = (token: string, last: boolean, speech: Speech) => {
      chain = chain.then(async () => {
        if (stopped) return;
        try {
          if (posts === 0) {
            go = await turn;
            if (!go || !go.started) return stop();
            if (go.switchTo) {
              // The caller speaks another language the call supports: its voice first. Recognition
              // stays on automatic detection (the TwiML's), so the caller may switch back.
              if (!(await post({ type: 'language', ttsLanguage: go.switchTo, transcriptionLanguage: DETECT_LANGUAGE }))) return;
              posts++;
            }
          } else if (!last && speaking(go) && (await check(go.slot))) return;
          // The last token settles the answer first (fully sent, or how it was cut): a prompt arriving
          // once the caller heard it end is new speech, not a repeated frame.
          if (last && speaking(go) && (await finish(go.slot)) !== 'sent') return stop();
          const whole = speech === 'whole';
          if (!(await post({ type: 'text', token, last, interruptible: !whole, preemptible: !whole }))) return;
        } catch (error) {
          onError('Voice relay: a text token could not be posted; the answer stops', error, { callId: conn.callId });
          return stop();
        }
        posts++;
        sent += token;
        lastAt = now();
        firstAt ??= lastAt;
      });
      return chain;
    };
    return {
      signal: abort.signal,
      send,
      stop,
      /** Stops the model only (the turn's bound passed): the posts go on. */
      abortModel: () => abort.abort(),
      /** Every post done; the answer settled (an answer cut before its last token acknowledges here). */
      done: async (): Promise<void> => {
        await chain;
        clearInterval(watcher);
        stopped = true;
        await settle();
      },
      result: () => ({ sent, firstAt, lastAt, ending }),
      /** The watcher ends with the turn, whatever happened to it. */
      dispose: () => clearInterval(watcher),
    };
  }

  /** The agent turn as stored: what was sent (or heard), and when its first and last tokens went out. */
  function agentTurn(at: string, arrivedAt: number, r: { sent: string; firstAt: number | null; lastAt: number | null; ending: Ending | null }): CallTurn {
    const heard = r.ending !== null && typeof r.ending === 'object' ? r.ending.heard : null;
    const cut = heard !== null || r.ending === 'superseded';
    return {
      role: 'agent',
      content: heard ?? r.sent,
      at,
      confidence: null,
      ...(r.firstAt !== null && r.lastAt !== null ? { latency: { firstTokenMs: Math.max(0, r.firstAt - arrivedAt), lastTokenMs: Math.max(0, r.lastAt - arrivedAt) } } : {}),
      ...(cut ? { interrupted: true } : {}),
    };
  }

  /**
   * The turn's claim (RelayTurnClaim's order rules): retried while the connection's setup is still
   * being handled, and once as the same words said again when the answer to the last prompt is
   * over. The claimed slot and the session language before it, or null (nothing is answered).
   */
  async function claimTurn(conn: RelayConnectionRecord, input: Omit<RelayTurnClaim, 'repeatOf'>, meta: FrameMeta) {
    const { userId, callId } = conn;
    let repeatOf: number | undefined;
    for (let wait = 25; ; ) {
      const claim = await deps.calls.claimRelayTurn(userId, callId, { ...input, ...(repeatOf !== undefined ? { repeatOf } : {}) });
      if ('slot' in claim) return claim;
      if ('repeated' in claim) {
        const previous = claim.repeated;
        // Said again once the caller heard that answer end: a new turn. A frame that arrived before
        // it ended is the same frame handled late (a busy moment), however late it is handled.
        const status = repeatOf === undefined && previous.slot >= 0 ? await deps.turns.status(userId, callId, previous.slot) : null;
        if (status?.over && (status.overAt === null || status.overAt <= meta.arrivedAt)) {
          repeatOf = previous.at;
          continue;
        }
        onInfo('Voice relay: a repeated prompt frame was ignored', { userId, callId, messageId: meta.messageId });
        return null;
      }
      if (claim.refused === 'no-setup' && now() - meta.arrivedAt + wait <= limits.setupWaitMs) {
        await sleep(wait);
        wait *= 2;
        continue;
      }
      const why = {
        'no-setup': 'a frame before (or without) its connection’s setup was ignored',
        stale: 'a frame older than one already taken was ignored',
        ended: 'a frame after the call ended was ignored',
        missing: 'a frame for a missing call was ignored',
      }[claim.refused];
      onInfo(`Voice relay: ${why}`, { userId, callId, messageId: meta.messageId });
      return null;
    }
  }

  /** Waits (bounded) until the superseded answer in `slot` posts nothing more. */
  async function untilStopped(conn: RelayConnectionRecord, slot: number): Promise<void> {
    const until = now() + limits.supersedeWaitMs;
    while (!(await deps.turns.status(conn.userId, conn.callId, slot)).stopped) {
      if (now() >= until) {
        onInfo('Voice relay: the superseded answer did not acknowledge in time; the new one speaks', { callId: conn.callId, slot });
        return;
      }
      await sleep(limits.supersedePollMs);
    }
  }

  async function callerTurn(conn: RelayConnectionRecord, message: string, dedupKey: string, meta: FrameMeta, lang?: string): Promise<void> {
    const { userId, callId } = conn;
    // Everything before the model runs side by side: the call, its agent (its id is on the
    // connection record), the ChatGPT connection, and the turn's claim — which only appends to a
    // live call, in order, after this connection's setup, so a frame out of turn changes nothing.
    // The model waits for the claim: the transcript the claim found is its history, so a prompt
    // that follows another by a few milliseconds is answered with both, whichever read landed
    // first; a refused claim never reaches the model.
    const callRead = deps.calls.get(userId, callId);
    const agentRead =
      conn.agentId !== undefined
        ? conn.agentId
          ? deps.agents.get(userId, conn.agentId)
          : Promise.resolve(null)
        : callRead.then((c) => (c?.agent ? deps.agents.get(userId, c.agent._id) : null));
    const askedAt = iso(meta.arrivedAt);
    const answerAt = iso();
    const languages = conn.languages ?? [];
    const spoken = languageOf(lang, languages);
    const claim = claimTurn(
      conn,
      {
        turns: [
          { role: 'user', content: message, at: askedAt, confidence: null },
          { role: 'agent', content: '', at: answerAt, confidence: null },
        ],
        dedupKey,
        now: meta.arrivedAt,
        windowMs: limits.duplicateWindowMs,
        connectionId: conn.connectionId,
        ...(spoken ? { language: spoken } : {}),
      },
      meta,
    ).catch((error: unknown) => {
      onError('Voice relay: the caller’s turn could not be stored; no answer', error, { userId, callId });
      return null;
    });
    const readyReads = Promise.all([agentRead, deps.ai.forUser(userId)]);
    readyReads.catch(() => undefined);
    const call = await callRead;
    if (!live(call)) return;
    const s = call.settings;
    const overTime = meta.arrivedAt - Date.parse(call.createdAt) >= s.maxCallDuration * 1000;
    const ready = overTime
      ? Promise.resolve(null)
      : readyReads.catch((error: unknown) => {
          onError('Voice relay: the agent or the ChatGPT connection could not be read; error message', error, { userId, callId });
          return null;
        });
    // The language the answer is spoken in: the caller's when the call supports it, else the session's.
    const language = spoken ?? call.relayLanguage ?? s.language;

    // The turn state (the cancel flag an interrupt sets) exists, and an answer this one supersedes
    // has stopped posting, before the first post.
    const turn = claim.then(async (claimed): Promise<TurnGo | null> => {
      if (!claimed) return null;
      const switchTo = spoken && spoken !== (claimed.previousLanguage ?? languages[0] ?? s.language) ? spoken : null;
      if (claimed.slot < 0) return { slot: claimed.slot, started: true, switchTo };
      const start = await deps.turns.start(userId, callId, claimed.slot);
      if (!start.started) onInfo('Voice relay: a newer answer started first; this one is not spoken', { callId, slot: claimed.slot });
      else if (start.supersedes !== null) await untilStopped(conn, start.supersedes);
      return { slot: claimed.slot, started: start.started, switchTo };
    });
    turn.catch(() => undefined);
    const out = answerStream(conn, turn);
    void turn.then((go) => (!go || !go.started) && out.stop(), () => out.stop());
    try {
      await speak(conn, call, out, claim, turn, { message, answerAt, meta, language, languages, overTime, ready });
    } finally {
      out.dispose();
    }
  }

  /** The agent's answer on the stream, then the turn stored, and the hand-over or the goodbye. */
  async function speak(
    conn: RelayConnectionRecord,
    call: StoredCall,
    out: ReturnType<typeof answerStream>,
    /** The turn's claim (null: not taken): the model's history, and tools wait for it. */
    claim: Promise<Extract<RelayClaim, { slot: number }> | null>,
    turn: Promise<TurnGo | null>,
    t: {
      message: string;
      answerAt: string;
      meta: FrameMeta;
      language: string;
      languages: string[];
      overTime: boolean;
      /** The agent and the ChatGPT connection (null: over time, or they could not be read). */
      ready: Promise<readonly [AgentWithChildren | null, AiConnection | null] | null>;
    },
  ): Promise<void> {
    const { userId, callId } = conn;
    const { message, answerAt, meta, language, languages, overTime, ready } = t;
    const s = call.settings;
    const tools: ToolExecutor = {
      execute: async (tool, args, options) =>
        (await claim) === null ? { ok: false, result: 'The turn was not taken.' } : deps.tools.execute(tool, args, options),
    };
    const splitter = clauseSplitter();
    /** What the splitter returned, in order: the model's text, then (interjected) a sentence of ours. */
    let lastSpeech: Speech = 'answer';
    const say = (tokens: string[], speech: Speech = 'answer') =>
      tokens.forEach((t) => {
        lastSpeech = speech;
        void out.send(t, false, speech);
      });
    const interject = (text: string, speech: Speech) => {
      const { before, own } = splitter.interject(text);
      say(before);
      say(own, speech);
    };

    let escalation: AgentReply['escalation'] = null;
    let ended: 'max_duration' | null = null;
    if (overTime) {
      interject(s.messageGoodbye, 'whole');
      ended = 'max_duration';
    } else {
      const [agent, connection] = (await ready) ?? [null, null];
      const claimed = await claim;
      if (!claimed) {
        // Not taken (a repeated or stale frame, the call over): nothing is said.
      } else if (!agent || !connection) {
        onInfo(!agent ? 'Voice relay: the call’s agent is gone; error message' : 'Voice relay: no ChatGPT integration; error message', { userId, callId });
        interject(s.messageError, 'answer');
      } else {
        // Every turn before this one, as the claim appended after them (a placeholder still empty
        // is an answer not yet spoken); the caller's words go in as `message`.
        const history: HistoryMessage[] = claimed.before
          .filter((m) => m.content !== '')
          .map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', content: m.content }));
        let filler = false;
        let timedOut = false;
        // The runtime bounds model and tools by the deadline; this is the last guard.
        const timer = setTimeout(() => {
          timedOut = true;
          out.abortModel();
        }, turnMs + 250);
        try {
          const reply = await answerAs('voice', { retriever: deps.retriever, tools, ...(deps.bookings ? { bookings: deps.bookings } : {}) }, {
            userId,
            agent,
            connection,
            history,
            message,
            deadline: now() + turnMs,
            now,
            onError,
            // A call that can switch languages answers in the one it speaks now.
            ...(languages.length > 1 ? { replyLanguage: language } : {}),
            // The booking tools act for the caller's number, and change nothing unless this turn's claim was taken.
            customer: { customerPhone: customerE164(call.phoneNumber), callId, gate: async () => (await claim) !== null },
            stream: {
              signal: out.signal,
              skipHandoffReply: true,
              onText: (piece) => say(splitter.push(piece)),
              onToolStart: (names) => {
                if (filler || names.every((n) => n === ESCALATE_TO_HUMAN)) return;
                filler = true;
                interject(fillerFor(language), 'whole');
              },
            },
          });
          escalation = reply.escalation;
          if (escalation) interject(s.messageFallback, 'whole');
          // After the answer was spoken: the write never delays what the caller hears.
          await deps.recordUnanswered?.(userId, agent._id, reply.unanswered, { channel: 'voice', callId });
        } catch (error) {
          // Cancelled by a barge-in, a newer answer or a gone caller: nothing more to say. Anything
          // else (the model failed, or the turn's bound passed) still owes the caller an answer.
          if (!(error instanceof TurnCancelledError) || timedOut) {
            onError('Voice relay: the agent could not answer; error message', error, { userId, callId, timedOut });
            interject(s.messageError, 'answer');
          }
        } finally {
          clearTimeout(timer);
        }
      }
    }

    const rest = splitter.flush();
    if (rest !== '') lastSpeech = 'answer';
    void out.send(rest, true, lastSpeech);
    await out.done();
    const go = await turn;
    if (!go || !go.started) {
      // Taken but superseded before it spoke: the placeholder says so (nothing was sent).
      if (go) await storeAnswer(conn, go.slot, answerAt, meta.arrivedAt, { ...out.result(), ending: 'superseded' });
      return;
    }
    const result = out.result();
    await storeAnswer(conn, go.slot, answerAt, meta.arrivedAt, result);
    // A superseded answer leaves the call to the newer one.
    if (result.ending === 'superseded') return;

    if (escalation) {
      const reason = escalation.reason.slice(0, 500);
      await deps.calls.markEscalated(userId, callId, reason);
      if (s.escalationForwardNumber) {
        // Warm transfer: Twilio posts the <Connect action> with this handoffData; it dials and tells the owner.
        await deps.posts.post(conn.connectionId, { type: 'end', handoffData: JSON.stringify({ reason, callId }) });
      }
    }
    if (ended) {
      await deps.calls.markEndedByUs(userId, callId, ended);
      await deps.posts.post(conn.connectionId, { type: 'end' });
    }
  }

  async function storeAnswer(conn: RelayConnectionRecord, slot: number, at: string, arrivedAt: number, r: Parameters<typeof agentTurn>[2]): Promise<void> {
    if (slot < 0) return;
    await deps.calls.setRelayAnswer(conn.userId, conn.callId, slot, agentTurn(at, arrivedAt, r));
  }

  async function frame(connectionId: string, body: string | null | undefined, meta: FrameMeta): Promise<void> {
    const f = parseRelayFrame(body);
    if (!f) {
      onInfo('Voice relay: a frame that is not a ConversationRelay message was ignored', { connectionId, bytes: body?.length ?? 0 });
      return;
    }
    const conn = await deps.connections.get(connectionId);
    if (!conn) {
      onInfo('Voice relay: a frame for an unknown connection was ignored', { connectionId, type: f.type });
      return;
    }
    switch (f.type) {
      case 'setup': {
        const bound = await deps.calls.bindRelaySetup(conn.userId, conn.callId, { callSid: f.callSid, connectionId, at: meta.arrivedAt });
        if (!bound) {
          onInfo('Voice relay: setup for another call (or one that is over); the connection is closed', { callId: conn.callId });
          await deps.connections.delete(connectionId);
          await deps.posts.close(connectionId);
        }
        return;
      }
      case 'prompt': {
        const text = f.voicePrompt.trim();
        if (!f.last || text === '') return;
        const key = `p:${createHash('sha256').update(text.toLowerCase()).digest('base64url')}`;
        return callerTurn(conn, text, key, meta, f.lang);
      }
      case 'dtmf': {
        const call = await deps.calls.get(conn.userId, conn.callId);
        if (!live(call)) return;
        const language = call.relayLanguage ?? call.settings.language;
        return callerTurn(conn, dtmfMessage(language, f.digit), `d:${meta.messageId ?? `${f.digit}:${meta.arrivedAt}`}`, meta);
      }
      case 'interrupt': {
        const heard = f.utteranceUntilInterrupt.trim();
        const outcome = await deps.turns.interrupt(conn.userId, conn.callId, heard);
        if (outcome && !outcome.streaming) await deps.calls.setRelayHeard(conn.userId, conn.callId, outcome.slot, heard);
        return;
      }
      case 'info':
        onInfo('Voice relay: ConversationRelay info', { callId: conn.callId, description: f.description });
        return;
      case 'error':
        onInfo('Voice relay: ConversationRelay reported an error', { callId: conn.callId, description: f.description });
        return;
    }
  }

  return { connect, disconnect, frame };
}

export type RelaySession = ReturnType<typeof createRelaySession>;
