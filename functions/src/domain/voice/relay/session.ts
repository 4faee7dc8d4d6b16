/**
 * The voice relay (issue 16): one streamed call over Twilio ConversationRelay, frame by frame.
 * Every WebSocket event is its own invocation (API Gateway runs them concurrently), so all the
 * state lives in the table: the connection record (which call a connection carries), the call's
 * transcript, and the per-call turn state with its cancel flag.
 *
 * - connect: X-Twilio-Signature over the exact relay URL (`?user=…&call=…`, as the call loop
 *   wrote it into <ConversationRelay url>) with the user's Twilio auth token, before anything
 *   else; the call must be that user's, streamed and still active. Refused → nothing is stored.
 * - setup: the callSid must be the stored call's, else the connection is closed.
 * - prompt (last): the caller's turn and the agent turn's placeholder are claimed in one atomic
 *   append (a repeated frame within RELAY_LIMITS.duplicateWindowMs is ignored), then the agent
 *   answers with the streamed runtime; its text goes out as clause-sized `text` tokens, and
 *   between posts one read of the cancel flag stops the turn when the caller barged in. The
 *   stored agent turn is what was sent, or what the caller heard when interrupted, with its
 *   latency from the frame's arrival (first and last token sent).
 * - interrupt: sets the flag of the streaming answer; an answer already fully sent (Twilio was
 *   still speaking it) gets its stored text corrected to what was heard.
 * - dtmf: the key reaches the agent as the caller's message ("Key pressed: 1").
 * - A tool call starting speaks a filler first; escalate_to_human speaks messageFallback and, with
 *   a forwarding number, ends the session with handoffData (the <Connect action> dials; call-loop
 *   relayAction), else the call is marked escalated and goes on. Model errors, no agent or no
 *   ChatGPT integration → messageError, the call goes on. maxCallDuration passed → goodbye + end.
 *
 * Minutes, the status and recording callbacks and the summary job stay with the HTTP webhooks.
 */
import { createHash } from 'node:crypto';
import type { CallTurn } from '../../../contract/voice.js';
import { VOICE_LIMITS } from '../../../contract/voice-limits.js';
import { parseRelayFrame } from '../../../contract/voice-relay.js';
import { isId, isUuid } from '../../../lib/ids.js';
import type { AgentReader } from '../../agents/ports.js';
import { answerAs, TurnCancelledError, type AgentReply, type HistoryMessage, type ToolExecutor } from '../../agents/runtime/index.js';
import type { AiConnector } from '../../ai/ports.js';
import type { KnowledgeRetriever } from '../../knowledge/ports.js';
import type { RecordUnanswered } from '../../knowledge/unanswered.js';
import type { LiveCallItems, StoredCall } from '../ports.js';
import { clauseSplitter } from './clauses.js';
import type { RelayConnectionRecord, RelayConnectionStore, RelayConnections, RelayTurnState } from './ports.js';

export const RELAY_LIMITS = {
  /** The same prompt text again within this window is a repeated frame, not the caller repeating themselves. */
  duplicateWindowMs: 2_000,
} as const;

/** Spoken when a tool call starts, so the caller is not left in silence while it runs. */
export const RELAY_FILLERS = { es: 'Un momento, por favor.', en: 'One moment, please.' } as const;
const fillerFor = (language: string) => (language.toLowerCase().startsWith('es') ? RELAY_FILLERS.es : RELAY_FILLERS.en);

/** A keypad press as the caller's message (and transcript line). */
export const dtmfMessage = (language: string, digit: string) => (language.toLowerCase().startsWith('es') ? `Tecla pulsada: ${digit}` : `Key pressed: ${digit}`);

const ESCALATE_TO_HUMAN = 'escalate_to_human';

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
  /** Records a question the agent's knowledge could not answer (issue 18; never throws). Absent = not recorded. */
  recordUnanswered?: RecordUnanswered;
  /** The relay's public wss:// URL (VOICE_RELAY_URL); '' = not deployed (every handshake refused). */
  relayUrl(): string;
  now?: () => number;
  /** Bound of one agent turn (default VOICE_LIMITS.turnMs). */
  turnMs?: number;
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
  /** Epoch ms the frame reached us: turn latencies are measured from it. */
  arrivedAt: number;
  /** API Gateway's id of this message (the same on a retried invocation). */
  messageId?: string;
}

/** The URL Twilio connected to (and signed) for this user's call: the call loop's format. */
export const relayCallUrl = (base: string, userId: string, callId: string) => `${base}?user=${encodeURIComponent(userId)}&call=${encodeURIComponent(callId)}`;

const live = (call: StoredCall | null): call is StoredCall => call !== null && call.status === 'active' && !call.endedByUs;

export function createRelaySession(deps: RelaySessionDeps) {
  const now = deps.now ?? Date.now;
  const iso = (t: number = now()) => new Date(t).toISOString();
  const turnMs = deps.turnMs ?? VOICE_LIMITS.turnMs;
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
    await deps.connections.put({ connectionId: h.connectionId, userId, callId, agentId: call.agent?._id ?? null, connectedAt: iso() });
    return true;
  }

  async function disconnect(connectionId: string): Promise<void> {
    await deps.connections.delete(connectionId);
  }

  /**
   * One answer's posts: in order, the cancel flag read between two, timings of the first and last.
   * `turn` (the claimed slot once the turn state an interrupt flags is written; null when the turn
   * was not claimed) is awaited before the first post only, so the claim and that write overlap
   * the agent's reads and the model instead of delaying them. Unclaimed: nothing is posted.
   */
  function answerStream(conn: RelayConnectionRecord, turn: Promise<number | null>) {
    const abort = new AbortController();
    let chain: Promise<void> = Promise.resolve();
    let slot: number | null = null;
    let sent = '';
    let posts = 0;
    let firstAt: number | null = null;
    let lastAt: number | null = null;
    let heard: { heard: string } | null = null;
    let stopped = false;
    const stop = () => {
      stopped = true;
      abort.abort();
    };
    const send = (token: string, last: boolean) => {
      chain = chain.then(async () => {
        if (stopped) return;
        try {
          if (posts === 0 && (slot = await turn) === null) return stop();
          if (posts > 0 && slot !== null && slot >= 0) {
            heard = await deps.turns.cancelled(conn.userId, conn.callId, slot);
            if (heard) return stop();
          }
          if (!(await deps.posts.post(conn.connectionId, { type: 'text', token, last }))) {
            onInfo('Voice relay: the caller is gone; the answer stops', { callId: conn.callId });
            return stop();
          }
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
      done: () => chain,
      result: () => ({ sent, firstAt, lastAt, heard }),
    };
  }

  /** The agent turn as stored: what was sent (or heard), and when its first and last tokens went out. */
  function agentTurn(at: string, arrivedAt: number, r: { sent: string; firstAt: number | null; lastAt: number | null; heard: { heard: string } | null }): CallTurn {
    return {
      role: 'agent',
      content: r.heard ? r.heard.heard : r.sent,
      at,
      confidence: null,
      ...(r.firstAt !== null && r.lastAt !== null ? { latency: { firstTokenMs: Math.max(0, r.firstAt - arrivedAt), lastTokenMs: Math.max(0, r.lastAt - arrivedAt) } } : {}),
      ...(r.heard ? { interrupted: true } : {}),
    };
  }

  async function callerTurn(conn: RelayConnectionRecord, message: string, dedupKey: string, meta: FrameMeta): Promise<void> {
    const { userId, callId } = conn;
    // Everything before the model runs side by side: the call, its agent (its id is on the
    // connection record), the ChatGPT connection, and the turn's claim — which only appends to a
    // live call, so a prompt after the end changes nothing. The model does not wait for the claim
    // (a conditional append to the call item, the slowest of them): the first post and every tool
    // call do, and a refused claim (a repeated frame, a call that just ended) stops it unheard.
    const callRead = deps.calls.get(userId, callId);
    const agentRead =
      conn.agentId !== undefined
        ? conn.agentId
          ? deps.agents.get(userId, conn.agentId)
          : Promise.resolve(null)
        : callRead.then((c) => (c?.agent ? deps.agents.get(userId, c.agent._id) : null));
    const askedAt = iso(meta.arrivedAt);
    const answerAt = iso();
    const claim: Promise<number | null> = deps.calls
      .claimRelayTurn(userId, callId, {
        turns: [
          { role: 'user', content: message, at: askedAt, confidence: null },
          { role: 'agent', content: '', at: answerAt, confidence: null },
        ],
        dedupKey,
        now: meta.arrivedAt,
        windowMs: RELAY_LIMITS.duplicateWindowMs,
      })
      .then(
        (claimed) => {
          if (claimed === 'duplicate') onInfo('Voice relay: a repeated prompt frame was ignored', { userId, callId, messageId: meta.messageId });
          return typeof claimed === 'object' ? claimed.slot : null;
        },
        (error: unknown) => {
          onError('Voice relay: the caller’s turn could not be stored; no answer', error, { userId, callId });
          return null;
        },
      );
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

    // The turn state (the cancel flag an interrupt sets) exists before the first post.
    const turn = claim.then(async (slot) => {
      if (slot !== null && slot >= 0) await deps.turns.start(userId, callId, slot);
      return slot;
    });
    turn.catch(() => undefined);
    const out = answerStream(conn, turn);
    void claim.then((slot) => slot === null && out.stop());
    const tools: ToolExecutor = {
      execute: async (tool, args, options) =>
        (await claim) === null ? { ok: false, result: 'The turn was not taken.' } : deps.tools.execute(tool, args, options),
    };
    const splitter = clauseSplitter();
    const say = (tokens: string[]) => tokens.forEach((t) => void out.send(t, false));

    let escalation: AgentReply['escalation'] = null;
    let ended: 'max_duration' | null = null;
    if (overTime) {
      say(splitter.interject(s.messageGoodbye));
      ended = 'max_duration';
    } else {
      const [agent, connection] = (await ready) ?? [null, null];
      if (!agent || !connection) {
        onInfo(!agent ? 'Voice relay: the call’s agent is gone; error message' : 'Voice relay: no ChatGPT integration; error message', { userId, callId });
        say(splitter.interject(s.messageError));
      } else {
        // The read may already hold this turn's claim: the caller's words go in as `message`.
        const history: HistoryMessage[] = call.messages
          .filter((m) => m.content !== '' && !(m.role === 'user' && m.at === askedAt && m.content === message))
          .map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', content: m.content }));
        let filler = false;
        let timedOut = false;
        // The runtime bounds model and tools by the deadline; this is the last guard.
        const timer = setTimeout(() => {
          timedOut = true;
          out.abortModel();
        }, turnMs + 250);
        try {
          const reply = await answerAs('voice', { retriever: deps.retriever, tools }, {
            userId,
            agent,
            connection,
            history,
            message,
            deadline: now() + turnMs,
            now,
            onError,
            stream: {
              signal: out.signal,
              skipHandoffReply: true,
              onText: (piece) => say(splitter.push(piece)),
              onToolStart: (names) => {
                if (filler || names.every((n) => n === ESCALATE_TO_HUMAN)) return;
                filler = true;
                say(splitter.interject(fillerFor(s.language)));
              },
            },
          });
          escalation = reply.escalation;
          if (escalation) say(splitter.interject(s.messageFallback));
          // After the answer was spoken: the write never delays what the caller hears.
          await deps.recordUnanswered?.(userId, agent._id, reply.unanswered, { channel: 'voice', callId });
        } catch (error) {
          // Cancelled by a barge-in or a gone caller: nothing more to say. Anything else (the
          // model failed, or the turn's bound passed) still owes the caller an answer.
          if (!(error instanceof TurnCancelledError) || timedOut) {
            onError('Voice relay: the agent could not answer; error message', error, { userId, callId, timedOut });
            say(splitter.interject(s.messageError));
          }
        } finally {
          clearTimeout(timer);
        }
      }
    }

    void out.send(splitter.flush(), true);
    await out.done();
    const slot = await turn;
    if (slot === null) return;
    let result = out.result();
    if (!result.heard && slot >= 0) {
      // Exactly one of "fully sent" and an interrupt wins (the turn state's conditional writes).
      const heard = await deps.turns.finish(userId, callId, slot);
      if (heard) result = { ...result, heard };
    }
    await storeAnswer(conn, slot, answerAt, meta.arrivedAt, result);

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
        const call = await deps.calls.get(conn.userId, conn.callId);
        if (!call || call.callSid !== f.callSid) {
          onInfo('Voice relay: setup for another call; the connection is closed', { callId: conn.callId });
          await deps.connections.delete(connectionId);
          await deps.posts.close(connectionId);
        }
        return;
      }
      case 'prompt': {
        const text = f.voicePrompt.trim();
        if (!f.last || text === '') return;
        const key = `p:${createHash('sha256').update(text.toLowerCase()).digest('base64url')}`;
        return callerTurn(conn, text, key, meta);
      }
      case 'dtmf': {
        const call = await deps.calls.get(conn.userId, conn.callId);
        if (!live(call)) return;
        return callerTurn(conn, dtmfMessage(call.settings.language, f.digit), `d:${meta.messageId ?? `${f.digit}:${meta.arrivedAt}`}`, meta);
      }
      case 'interrupt': {
        const heard = f.utteranceUntilInterrupt.trim();
        const outcome = await deps.turns.interrupt(conn.userId, conn.callId, heard);
        if (outcome && !outcome.streaming) await deps.calls.setRelayHeard(conn.userId, conn.callId, outcome.slot, heard);
        return;
      }
      case 'error':
        onInfo('Voice relay: ConversationRelay reported an error', { callId: conn.callId, description: f.description });
        return;
    }
  }

  return { connect, disconnect, frame };
}

export type RelaySession = ReturnType<typeof createRelaySession>;
