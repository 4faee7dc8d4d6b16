/**
 * The call loop (issue 7, SPEC §4 call states): what the app answers to each Twilio webhook of
 * one call, over ports. The handler has verified X-Twilio-Signature before anything runs here.
 *
 * - incoming: the call is stored once per CallSid (a retried webhook gets the same answer), with
 *   the caller's contact matched by phone, the voice settings snapshot and the welcome as the
 *   first agent turn; one plan minute is reserved (refused → polite message + hang-up, stored
 *   with endReason usage_limit). No enabled agent or no ChatGPT integration → error message,
 *   goodbye, hang-up. Otherwise: <Start><Recording> when enabled, then the welcome inside a
 *   speech <Gather> posting to …/voice/gather?turn=<n>.
 * - gather: `turn` is the transcript length the <Gather> was issued at, so a retried gather
 *   cannot append twice (CallRepository.appendTurns is conditional on it) and replays the stored
 *   answer instead. Speech → the agent (bounded by VOICE_LIMITS.turnMs: deadline + the model's
 *   timeout) → user + agent turns → the answer inside the next <Gather>. Any agent or model error
 *   → messageError and listen again (never a Twilio timeout). Silence → messageNoInput; the
 *   second silence in a row → goodbye + hang-up. maxCallDuration passed → goodbye + hang-up.
 *   escalate_to_human → messageFallback, the call marked escalated, and <Dial> to the forwarding
 *   number when one is set (a warm transfer: the owner's handoff notice is queued once; else the
 *   call goes on).
 * - status: the first final callback finishes the call (completed when our TwiML ended it, hung_up
 *   when the caller did, failed for busy/no-answer/failed/canceled), bills ceil(duration / 60)
 *   minutes (the one reserved at the start included; over the plan: logged, never fails the
 *   callback) and enqueues the call-summary job (call-end.ts, shared with the stale-call sweeper).
 *   Later callbacks change nothing.
 * - recording: the recording's sid, URL and duration are stored on the call.
 *
 * Streaming (issue 16): when the settings ask for it, the relay is deployed (VOICE_RELAY_URL) and
 * ConversationRelay can speak the voice (RELAY_VOICES), incoming answers
 * <Connect action=…/relay-action?call=<id>><ConversationRelay url=relayUrl?user=…&call=…/> instead
 * of the first <Gather> (same call record, stored as 'streaming') and warms the relay function up.
 * The WebSocket function (domain/voice/relay) carries the turns; when its session ends Twilio posts
 * the <Connect action>: relayAction answers <Dial> for a hand-over (and queues the owner's handoff
 * notice once), the error message after a failed session, else <Hangup/>.
 */
import type { CallTurn, RelayVoice, VoiceSettings } from '../../contract/voice.js';
// voice-catalogue.js and voice-limits.js, not voice.js: this bundle (first contact) needs no request schema.
import { RELAY_LANGUAGE_VOICES, VOICE_CATALOGUE, VOICE_DEFAULTS, relayVoiceOf, type VoiceLanguage } from '../../contract/voice-catalogue.js';
import { VOICE_LIMITS, callLanguages } from '../../contract/voice-limits.js';
import type { AgentReader, AgentWithChildren } from '../agents/ports.js';
import { pickAnsweringAgent } from '../agents/ports.js';
// answer.ts, not index.ts: without the WhatsApp tools (issue 31), which a call never offers (a first contact's bundle).
import { answerAs } from '../agents/runtime/answer.js';
import { customerE164 } from '../agents/runtime/booking-tools.js';
import type { ToolExecutor } from '../agents/runtime/ports.js';
import type { AgentReply, HistoryMessage } from '../agents/runtime/run-agent.js';
import type { Bookings } from '../bookings/ports.js';
import { LimitExceededError, PaymentRequiredError } from '../errors.js';
import type { AiConnection, AiConnector } from '../ai/ports.js';
import type { ActivityCounters } from '../dashboard/ports.js';
import type { KnowledgeRetriever } from '../knowledge/ports.js';
import type { RecordUnanswered } from '../knowledge/unanswered.js';
import { endCall, type CallEnd, type CallUsage } from './call-end.js';
import { speakable } from './speakable.js';
import { ErasedCallError, type CallRepository, type CallSettingsSnapshot, type CallSummaryQueue, type StoredCall, type StoredVoiceSettings, type VoiceSettingsRepository } from './ports.js';
import type { EscalationAlerts } from '../notifications/ports.js';
import { aiNotice, recordingNotice, type AccountNoticesReader } from '../privacy/notices.js';
import { callAlert } from './call-alert.js';

// ---------------------------------------------------------------------------------------------
// What a webhook answers (rendered as TwiML by adapters/twilio/twiml.ts)

export interface SpeechVoice {
  voice: string;
  language: string;
  speechRate: number;
  pitch: number;
  volume: number;
}

export type CallStep =
  | { kind: 'record'; callbackUrl: string }
  | { kind: 'say'; text: string }
  | { kind: 'gather'; actionUrl: string; text: string | null; timeoutSec: number }
  | { kind: 'dial'; number: string }
  | { kind: 'hangup' }
  /**
   * <Connect action><ConversationRelay url welcomeGreeting …/></Connect>: the call goes to the
   * WebSocket relay. `languages` (issue 28): every language the call can switch to, with its voice
   * (<Language> children; none when the call speaks its main language only). A call with languages
   * is transcribed with automatic detection (contract DETECT_LANGUAGE), so its prompts say which
   * one the caller speaks.
   */
  | { kind: 'relay'; url: string; actionUrl: string; welcomeGreeting: string; relay: RelayVoice; languages?: RelayLanguage[] };

/** A language a streamed call can switch to (<Language code ttsProvider voice …/>). */
export interface RelayLanguage {
  code: string;
  relay: RelayVoice;
}

export interface CallScript {
  voice: SpeechVoice;
  steps: CallStep[];
}

/** The POST parameters of a Twilio voice webhook (only those the loop reads). */
export interface TwilioCallParams {
  CallSid?: string;
  AccountSid?: string;
  From?: string;
  To?: string;
  CallStatus?: string;
  CallDuration?: string;
  SpeechResult?: string;
  Confidence?: string;
  RecordingSid?: string;
  RecordingUrl?: string;
  RecordingStatus?: string;
  RecordingDuration?: string;
  /** <Connect action> after a ConversationRelay session: completed | ended | failed …, and the end frame's handoffData (JSON). */
  SessionStatus?: string;
  HandoffData?: string;
  ErrorCode?: string;
  ErrorMessage?: string;
}

// ---------------------------------------------------------------------------------------------
// Ports

export type { CallUsage };

export interface CallContacts {
  /** The user's contact holding this E.164 number, or null. */
  findByPhone(userId: string, phone: string): Promise<{ _id: string; name: string; phoneNumber: string } | null>;
}

/** Fire-and-forget warm-up of the relay function: resolves within a short bound and never rejects. */
export interface RelayWarmer {
  warmUp(): Promise<void>;
}

/**
 * The hand-over of a streamed call, once: marks the still-active call forwarded by us (escalated,
 * with the reason) and claims its handoff notice. False when it was already claimed (a retried
 * <Connect action>) or the call is over.
 */
export interface CallHandoffs {
  claim(userId: string, callId: string, reason: string, at: string): Promise<boolean>;
}

export interface CallLoopDeps {
  calls: CallRepository;
  settings: Pick<VoiceSettingsRepository, 'get'>;
  agents: AgentReader;
  ai: AiConnector;
  retriever: KnowledgeRetriever;
  tools: ToolExecutor;
  /** The bookings core for the agent's built-in booking tools (issue 30); absent = not offered. */
  bookings?: Bookings;
  usage: CallUsage;
  contacts: CallContacts;
  queue: CallSummaryQueue;
  /** The dashboard's counters of a finished call (durations, callers); absent = not counted. Never throws. */
  activity?: Pick<ActivityCounters, 'callFinished'>;
  /** Absolute webhook URLs of a user (APP_URL + /api/webhooks/twilio/{userId}/voice/…). */
  urls(userId: string): { gather: string; recording: string };
  /** Streamed calls (issue 16); absent = every call uses <Gather>. */
  relay?: {
    /** The relay's public wss:// URL (VOICE_RELAY_URL); '' = not deployed. */
    url(): string;
    /** {voice webhook base}/relay-action of a user: the <Connect action> (the call id is added). */
    actionUrl(userId: string): string;
    warmer: RelayWarmer;
  };
  /** The in-app notification of an escalated call (issue 17; its e-mail goes when the call ends); never throws. */
  alerts?: EscalationAlerts;
  /** Transfers claimed once, so the owner's handoff notice is queued once; absent = the call is only marked forwarded. */
  handoffs?: CallHandoffs;
  /** Records a question the agent's knowledge could not answer (issue 18; never throws). Absent = not recorded. */
  recordUnanswered?: RecordUnanswered;
  /**
   * Issue 33: the account's AI and recording notices, read beside the call's other reads (no
   * extra round trip): the greeting says it is an AI; a recorded call says so first. Absent = none.
   */
  notices?: AccountNoticesReader;
  /**
   * Issue 33: calls whose caller's data was erased (their CallSid's tombstone) and the deletion at
   * Twilio of a recording reported after that (Twilio reports it only once the call has ended).
   * Absent = an erased call's late recording is ignored like an unknown call's.
   */
  erasedCalls?: {
    isErased(userId: string, callSid: string): Promise<boolean>;
    deleteRecording(userId: string, recordingSid: string): Promise<void>;
  };
  /** 26-character time-sortable id. */
  newId(now: number): string;
  now?: () => number;
  /** Bound of one agent turn (default VOICE_LIMITS.turnMs). */
  turnMs?: number;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
  onInfo?: (message: string, data?: Record<string, unknown>) => void;
}

const FINAL_STATUSES = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);
/** What a call keeps of the settings (phone request and secret hint are not call settings). */
function snapshotOf(stored: StoredVoiceSettings | null): CallSettingsSnapshot {
  if (!stored) return { ...VOICE_DEFAULTS };
  const s: VoiceSettings | StoredVoiceSettings = stored;
  return {
    messageWelcome: s.messageWelcome,
    messageNoInput: s.messageNoInput,
    messageFallback: s.messageFallback,
    messageGoodbye: s.messageGoodbye,
    messageError: s.messageError,
    language: s.language,
    additionalLanguages: s.additionalLanguages ?? [],
    voice: s.voice,
    speechRate: s.speechRate,
    pitch: s.pitch,
    volume: s.volume,
    enableRecording: s.enableRecording,
    maxCallDuration: s.maxCallDuration,
    summaryNotificationMethod: s.summaryNotificationMethod,
    summaryWebhookUrl: s.summaryWebhookUrl,
    escalationForwardNumber: s.escalationForwardNumber ?? '',
    // Settings stored before issue 16 have no mode: the product default.
    conversationMode: s.conversationMode ?? VOICE_DEFAULTS.conversationMode,
  };
}

const voiceOf = (s: CallSettingsSnapshot): SpeechVoice => ({ voice: s.voice, language: s.language, speechRate: s.speechRate, pitch: s.pitch, volume: s.volume });

/** An additional language's voice: the chosen one when it speaks that language, else the language's own relay voice. */
function languageVoice(code: string, voiceId: string, chosen: RelayVoice): RelayVoice {
  const spoken = VOICE_CATALOGUE.find((v) => v.id === voiceId)?.language;
  if (spoken === code) return chosen;
  return Object.hasOwn(RELAY_LANGUAGE_VOICES, code) ? RELAY_LANGUAGE_VOICES[code as VoiceLanguage] : chosen;
}

/** Spoken text (shared with the voice relay, which must not load this module). */
export { speakable };

function confidenceOf(raw: string | undefined): number | null {
  const n = Number(raw);
  return raw !== undefined && raw !== '' && Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : null;
}

/** The gather action: the call (and its agent) by id, so a turn reads them in one round trip; `turn` and `silences` make retries idempotent. */
function gatherUrl(base: string, call: Pick<StoredCall, 'id' | 'agent'>, turn: number, silences: number): string {
  const agent = call.agent ? `&agent=${encodeURIComponent(call.agent._id)}` : '';
  return `${base}?call=${encodeURIComponent(call.id)}${agent}&turn=${turn}${silences > 0 ? `&silences=${silences}` : ''}`;
}

const intParam = (raw: string | undefined): number | null => (raw !== undefined && /^\d{1,6}$/.test(raw) ? Number(raw) : null);

/** The relay's end frame handoffData ({"reason": …, "callId": …}); null when it is not a hand-over. */
function handoffOf(raw: string | undefined): { reason: string } | null {
  if (!raw) return null;
  try {
    const data = JSON.parse(raw) as unknown;
    const reason = data && typeof data === 'object' ? (data as { reason?: unknown }).reason : undefined;
    return typeof reason === 'string' && reason.trim() !== '' ? { reason: reason.trim().slice(0, 500) } : null;
  } catch {
    return null;
  }
}

const FAILED_SESSION = new Set(['failed', 'error']);

/** A call's stored opening (issue 33): its recording notice (two agent turns first) and its greeting. */
function openingOf(call: Pick<StoredCall, 'messages'>, s: Pick<CallSettingsSnapshot, 'messageWelcome'>): { notice: string | null; greeting: string } {
  const [first, second] = call.messages;
  const notice = first?.role === 'agent' && second?.role === 'agent' ? first.content : null;
  return { notice, greeting: (notice ? second?.content : first?.content) ?? s.messageWelcome };
}

export function createCallLoop(deps: CallLoopDeps) {
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const turnMs = deps.turnMs ?? VOICE_LIMITS.turnMs;
  const onError = deps.onError ?? (() => undefined);
  const onInfo = deps.onInfo ?? (() => undefined);

  const agentTurn = (content: string): CallTurn => ({ role: 'agent', content, at: iso(), confidence: null });

  /** How ConversationRelay speaks a call with these settings; null = the <Gather> loop. */
  function relayFor(s: Pick<CallSettingsSnapshot, 'conversationMode' | 'voice'>): RelayVoice | null {
    if (s.conversationMode !== 'streaming' || !deps.relay?.url()) return null;
    return relayVoiceOf(s.voice);
  }

  /**
   * The call's first words, stored as its first agent turns (issue 33): a recorded call's notice
   * before anything else, then the greeting, which says it is an AI assistant (the account's
   * notices, in the call's language).
   */
  function openingTurns(s: CallSettingsSnapshot, notices: Awaited<ReturnType<AccountNoticesReader>> | null): CallTurn[] {
    const recorded = recordingNotice(notices, s.enableRecording, s.language);
    // Spoken: one line, the notice first.
    const greeting = [aiNotice(notices, s.language), s.messageWelcome].filter(Boolean).join(' ');
    return recorded ? [agentTurn(recorded), agentTurn(greeting)] : [agentTurn(greeting)];
  }

  /** The call handed to the relay; the URL format is what the relay's $connect verifies (signed by Twilio over it). */
  function connect(userId: string, call: Pick<StoredCall, 'id'>, s: CallSettingsSnapshot, relay: RelayVoice, greeting: string): CallStep {
    const r = deps.relay!;
    const languages = callLanguages(s);
    return {
      kind: 'relay',
      url: `${r.url()}?user=${encodeURIComponent(userId)}&call=${encodeURIComponent(call.id)}`,
      actionUrl: `${r.actionUrl(userId)}?call=${encodeURIComponent(call.id)}`,
      welcomeGreeting: greeting,
      relay,
      // A switch (the relay's language message) is only to a declared language: all of them, each with its voice.
      ...(languages.length > 1 ? { languages: languages.map((code) => ({ code, relay: code === s.language ? relay : languageVoice(code, s.voice, relay) })) } : {}),
    };
  }

  /**
   * What a live call answers when it starts: [the recording notice, then the recording] + the relay,
   * or the greeting inside the first <Gather>. The call's opening turns (stored when it was created)
   * are what is said: the greeting last, the recording notice before it when there is one (issue 33).
   */
  function opening(userId: string, call: Pick<StoredCall, 'id' | 'agent' | 'conversationMode' | 'silences' | 'messages'>, s: CallSettingsSnapshot): CallStep[] {
    const steps: CallStep[] = [];
    const { notice, greeting } = openingOf(call, s);
    // Said before the recording starts (TwiML runs its verbs in order).
    if (notice) steps.push({ kind: 'say', text: notice });
    if (s.enableRecording) steps.push({ kind: 'record', callbackUrl: deps.urls(userId).recording });
    const relay = call.conversationMode === 'streaming' ? relayFor(s) : null;
    if (relay) steps.push(connect(userId, call, s, relay, greeting));
    else steps.push(listen(userId, call, call.messages.length, call.silences, greeting));
    return steps;
  }

  function listen(userId: string, call: Pick<StoredCall, 'id' | 'agent'>, turn: number, silences: number, text: string | null): CallStep {
    return { kind: 'gather', actionUrl: gatherUrl(deps.urls(userId).gather, call, turn, silences), text, timeoutSec: VOICE_LIMITS.gatherTimeout };
  }

  const goodbye = (s: CallSettingsSnapshot, before: CallStep[] = []): CallScript => ({
    voice: voiceOf(s),
    steps: [...before, { kind: 'say', text: s.messageGoodbye }, { kind: 'hangup' }],
  });

  /** The answer of a call that was already answered (a retried webhook): where it stands now. */
  function replay(userId: string, call: StoredCall, afterTurn: number | null): CallScript {
    const s = call.settings;
    if (call.status !== 'active' || call.endedByUs) {
      // Our TwiML ended it: the same ending again.
      if (call.endReason === 'usage_limit') return { voice: voiceOf(s), steps: [{ kind: 'say', text: s.messageError }, { kind: 'hangup' }] };
      if (call.endReason === 'error') return goodbye(s, [{ kind: 'say', text: s.messageError }]);
      if (call.endReason === 'forwarded' && s.escalationForwardNumber) {
        return { voice: voiceOf(s), steps: [{ kind: 'say', text: s.messageFallback }, { kind: 'dial', number: s.escalationForwardNumber }] };
      }
      return goodbye(s);
    }
    // A retried incoming webhook: the same opening (the first answer was never played).
    // (Only its opening turns stored — the greeting, after the recording notice when there is one — nothing was said yet.)
    const unanswered = call.messages.every((m) => m.role === 'agent') && call.messages.length <= 2;
    if (afterTurn === null && (call.conversationMode === 'streaming' || unanswered)) return { voice: voiceOf(s), steps: opening(userId, call, s) };
    const answer = afterTurn !== null ? call.messages[afterTurn + 1] : { role: 'agent', content: openingOf(call, s).greeting };
    return { voice: voiceOf(s), steps: [listen(userId, call, call.messages.length, call.silences, answer?.role === 'agent' ? answer.content : null)] };
  }

  /** Runs the agent on the caller's words within the turn's bound. */
  async function answer(userId: string, agent: AgentWithChildren, connection: AiConnection, call: StoredCall, message: string): Promise<AgentReply> {
    const deadline = now() + turnMs;
    const history: HistoryMessage[] = call.messages.map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', content: m.content }));
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The agent turn bounds the model and tool calls by the deadline; the race is the last guard.
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`The agent turn took longer than ${turnMs} ms`)), turnMs + 250);
    });
    try {
      // The booking tools act for the caller's number (a hidden caller id books nothing).
      const customer = { customerPhone: customerE164(call.phoneNumber), callId: call.id };
      const reply = await Promise.race([answerAs('voice', deps, { userId, agent, connection, history, message, deadline, now, onError, customer }), late]);
      await deps.recordUnanswered?.(userId, agent._id, reply.unanswered, { channel: 'voice', callId: call.id });
      return reply;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A warm transfer (both paths): the call marked forwarded by us and the owner's handoff notice
   * queued, once (a retried webhook finds the claim taken). A queue failure never stops the <Dial>.
   */
  async function forward(userId: string, call: Pick<StoredCall, 'id'>, reason: string): Promise<void> {
    if (!deps.handoffs) {
      await deps.calls.markEndedByUs(userId, call.id, 'forwarded', { reason });
      return;
    }
    if (!(await deps.handoffs.claim(userId, call.id, reason, iso()))) return;
    await deps.queue.enqueue({ userId, callId: call.id, stage: 'handoff' }).catch((error: unknown) => {
      onError('Voice: the owner’s handoff notice could not be queued; the call is forwarded anyway', error, { userId, callId: call.id });
    });
  }

  /** The incoming webhook's work: the call stored once per CallSid, then its opening (or why it ends at once). */
  async function answerIncoming(userId: string, p: TwilioCallParams, settingsRead: Promise<StoredVoiceSettings | null>): Promise<CallScript> {
    const callSid = p.CallSid ?? '';
    type Reservation = { ok: true } | { ok: false; error: unknown };
    // A retried webhook is found by create() (the CallSid guard), not by a read first: one round trip less.
    const [stored, agents, connection, contact, reservation, notices] = await Promise.all([
      settingsRead,
      deps.agents.list(userId),
      deps.ai.forUser(userId),
      p.From
        ? deps.contacts.findByPhone(userId, p.From).catch((error: unknown) => {
            onError('Voice: the caller’s contact lookup failed; the call goes on', error);
            return null;
          })
        : Promise.resolve(null),
      deps.usage.reserve(userId, 'minutes', 1).then(
        (): Reservation => ({ ok: true }),
        (error: unknown): Reservation => ({ ok: false, error }),
      ),
      deps.notices ? deps.notices(userId) : null,
    ]);
    if (!reservation.ok && !(reservation.error instanceof LimitExceededError) && !(reservation.error instanceof PaymentRequiredError)) {
      throw reservation.error;
    }
    const s = snapshotOf(stored);
    const agent = pickAnsweringAgent(agents);
    const at = iso();
    const endReason: StoredCall['endReason'] = !reservation.ok ? 'usage_limit' : !agent || !connection ? 'error' : undefined;
    const call: StoredCall = {
      id: deps.newId(now()),
      userId,
      callSid,
      status: 'active',
      phoneNumber: p.From ?? '',
      internalNumber: p.To ?? '',
      contact,
      duration: 0,
      createdAt: at,
      endedAt: null,
      voiceSettings: { name: agent?.name ?? '', description: agent?.description ?? '', language: s.language },
      messages: endReason ? [] : openingTurns(s, notices),
      summary: null,
      summaryStatus: 'pending',
      deliveries: [],
      agent: agent ? { _id: agent._id, name: agent.name } : null,
      escalated: false,
      settings: s,
      silences: 0,
      endedByUs: endReason !== undefined,
      recording: null,
      billedMinutes: 0,
      conversationMode: !endReason && relayFor(s) ? 'streaming' : 'gather',
      latency: null,
      ...(endReason ? { endReason } : {}),
    };
    // A retried webhook of a call erased since (issue 33): nothing stored again, the line hung up.
    const created = await deps.calls.create(call).catch((error: unknown) => {
      if (error instanceof ErasedCallError) return null;
      throw error;
    });
    if (!created?.created) {
      if (reservation.ok) await deps.usage.release(userId, 'minutes', 1);
      if (!created) return { voice: voiceOf(s), steps: [{ kind: 'hangup' }] };
      return replay(userId, created.call, null);
    }
    if (endReason === 'usage_limit') {
      onInfo('Voice: call refused, the plan’s minutes are used up (or no active subscription)', { userId, callSid });
      return { voice: voiceOf(s), steps: [{ kind: 'say', text: s.messageError }, { kind: 'hangup' }] };
    }
    if (endReason === 'error') {
      onInfo(!agent ? 'Voice: no enabled agent answers calls; the call is ended' : 'Voice: no ChatGPT integration; the call is ended', { userId, callSid });
      return goodbye(s, [{ kind: 'say', text: s.messageError }]);
    }
    return { voice: voiceOf(s), steps: opening(userId, call, s) };
  }

  return {
    async incoming(userId: string, p: TwilioCallParams): Promise<CallScript> {
      // The relay function is warmed as soon as the settings say the call will stream (in parallel
      // with the rest); the answer waits for the bounded invoke, or Lambda would freeze it unsent.
      let warming: Promise<void> | undefined;
      const settingsRead = deps.settings.get(userId).then((stored) => {
        if (deps.relay && relayFor(snapshotOf(stored))) warming = deps.relay.warmer.warmUp();
        return stored;
      });
      try {
        return await answerIncoming(userId, p, settingsRead);
      } finally {
        await warming;
      }
    },

    /** The <Connect action> of a streamed call: Twilio posts it when the ConversationRelay session ends. */
    async relayAction(userId: string, p: TwilioCallParams, query: { call?: string }): Promise<CallScript> {
      const byId = query.call ? await deps.calls.get(userId, query.call) : null;
      const call = byId && byId.callSid === p.CallSid ? byId : await deps.calls.getBySid(userId, p.CallSid ?? '');
      if (!call) {
        onInfo('Voice: relay action for an unknown call', { userId, callSid: p.CallSid });
        const s = snapshotOf(null);
        return { voice: voiceOf(s), steps: [{ kind: 'say', text: s.messageError }, { kind: 'hangup' }] };
      }
      const s = call.settings;
      const handoff = handoffOf(p.HandoffData);
      if (handoff && s.escalationForwardNumber) {
        // Warm transfer: the relay already spoke messageFallback.
        await forward(userId, call, handoff.reason);
        return { voice: voiceOf(s), steps: [{ kind: 'dial', number: s.escalationForwardNumber }] };
      }
      const live = call.status === 'active' && !call.endedByUs;
      if (FAILED_SESSION.has((p.SessionStatus ?? '').toLowerCase())) {
        onInfo('Voice: the ConversationRelay session failed; error message and hang-up', { userId, callId: call.id, errorCode: p.ErrorCode, error: p.ErrorMessage });
        if (live) await deps.calls.markEndedByUs(userId, call.id, 'error');
        return { voice: voiceOf(s), steps: [{ kind: 'say', text: s.messageError }, { kind: 'hangup' }] };
      }
      // Goodbye or max duration (the relay marked the call), or the caller is gone. A live call we hang up on ends by us.
      if (live && (p.CallStatus ?? 'in-progress') === 'in-progress') await deps.calls.markEndedByUs(userId, call.id, 'goodbye');
      return { voice: voiceOf(s), steps: [{ kind: 'hangup' }] };
    },

    async gather(userId: string, p: TwilioCallParams, query: { call?: string; agent?: string; turn?: string; silences?: string }): Promise<CallScript> {
      // The call, the ChatGPT connection and the agent side by side (ids from our own, signed, action URL).
      const [byId, connection, agentById] = await Promise.all([
        query.call ? deps.calls.get(userId, query.call) : Promise.resolve(null),
        deps.ai.forUser(userId),
        query.agent ? deps.agents.get(userId, query.agent) : Promise.resolve(null),
      ]);
      const call = byId && byId.callSid === p.CallSid ? byId : await deps.calls.getBySid(userId, p.CallSid ?? '');
      if (!call) {
        onInfo('Voice: gather for an unknown call', { userId, callSid: p.CallSid });
        const s = snapshotOf(null);
        return { voice: voiceOf(s), steps: [{ kind: 'say', text: s.messageError }, { kind: 'hangup' }] };
      }
      const s = call.settings;
      const turn = intParam(query.turn) ?? call.messages.length;
      const silences = intParam(query.silences) ?? 0;
      if (call.status !== 'active' || call.endedByUs || call.messages.length > turn) return replay(userId, call, turn);

      const speech = (p.SpeechResult ?? '').trim();
      const overTime = now() - Date.parse(call.createdAt) >= s.maxCallDuration * 1000;

      if (speech === '') {
        const next = silences + 1;
        if (overTime || next >= VOICE_LIMITS.silencesBeforeHangup) {
          await deps.calls.setSilences(userId, call.id, call.silences, next);
          await deps.calls.markEndedByUs(userId, call.id, overTime ? 'max_duration' : 'silence');
          return goodbye(s);
        }
        await deps.calls.setSilences(userId, call.id, call.silences, next);
        return { voice: voiceOf(s), steps: [listen(userId, call, turn, next, s.messageNoInput)] };
      }

      const userTurn: CallTurn = { role: 'user', content: speech, at: iso(), confidence: confidenceOf(p.Confidence) };
      if (overTime) {
        const appended = await deps.calls.appendTurns(userId, call.id, turn, [userTurn, agentTurn(s.messageGoodbye)], 0);
        if (!appended) return replay(userId, (await deps.calls.get(userId, call.id)) ?? call, turn);
        await deps.calls.markEndedByUs(userId, call.id, 'max_duration');
        return { voice: voiceOf(s), steps: [{ kind: 'say', text: s.messageGoodbye }, { kind: 'hangup' }] };
      }

      const agent = call.agent && agentById?._id === call.agent._id ? agentById : call.agent ? await deps.agents.get(userId, call.agent._id) : null;
      let said: string;
      let escalation: { reason: string } | null = null;
      if (!agent || !connection) {
        onInfo(!agent ? 'Voice: the call’s agent is gone; error message' : 'Voice: no ChatGPT integration; error message', { userId, callId: call.id });
        said = s.messageError;
      } else {
        try {
          const reply = await answer(userId, agent, connection, call, speech);
          escalation = reply.escalation;
          said = escalation ? s.messageFallback : speakable(reply.reply) || s.messageError;
        } catch (error) {
          onError('Voice: the agent could not answer in time; error message', error, { userId, callId: call.id });
          said = s.messageError;
        }
      }
      const appended = await deps.calls.appendTurns(userId, call.id, turn, [userTurn, agentTurn(said)], 0);
      if (!appended) return replay(userId, (await deps.calls.get(userId, call.id)) ?? call, turn);

      if (escalation) {
        const reason = escalation.reason.slice(0, 500);
        if (s.escalationForwardNumber) {
          await forward(userId, call, reason);
          await deps.alerts?.escalated(userId, callAlert(call, reason));
          return { voice: voiceOf(s), steps: [{ kind: 'say', text: said }, { kind: 'dial', number: s.escalationForwardNumber }] };
        }
        await deps.calls.markEscalated(userId, call.id, reason);
        await deps.alerts?.escalated(userId, callAlert(call, reason));
      }
      return { voice: voiceOf(s), steps: [listen(userId, call, turn + 2, 0, said)] };
    },

    /** The number's status callback. Returns what happened (for logs and tests). */
    async status(userId: string, p: TwilioCallParams): Promise<'finished' | 'ignored' | 'already_finished' | 'unknown_call'> {
      const status = p.CallStatus ?? '';
      if (!FINAL_STATUSES.has(status)) return 'ignored';
      const call = await deps.calls.getBySid(userId, p.CallSid ?? '');
      if (!call) {
        onInfo('Voice: status callback for an unknown call', { userId, callSid: p.CallSid, status });
        return 'unknown_call';
      }
      if (call.status !== 'active') return 'already_finished';
      const seconds = Math.max(0, intParam(p.CallDuration) ?? 0);
      const failed = status !== 'completed';
      // Calls refused over the plan's minutes are not counted (nothing was reserved for them).
      const refused = call.endReason === 'usage_limit';
      const billed = failed || refused ? 0 : Math.ceil(seconds / 60);
      const end: CallEnd = {
        status: failed ? 'failed' : call.endedByUs ? 'completed' : 'hung_up',
        endedAt: iso(),
        seconds,
        endReason: failed ? (status === 'canceled' ? 'caller' : 'error') : call.endedByUs ? (call.endReason ?? 'goodbye') : 'caller',
        billedMinutes: billed,
      };
      const finished = await endCall(deps, userId, call, end);
      if (!finished) return 'already_finished';
      return 'finished';
    },

    /**
     * The recording status callback: a completed recording is stored on its call. The recording of
     * a call erased meanwhile (issue 33) is deleted at Twilio instead, and nothing is stored.
     */
    async recording(userId: string, p: TwilioCallParams): Promise<'stored' | 'ignored' | 'unknown_call' | 'erased' | 'erase_failed'> {
      if ((p.RecordingStatus ?? 'completed') !== 'completed' || !p.RecordingSid || !p.RecordingUrl) return 'ignored';
      const call = await deps.calls.getBySid(userId, p.CallSid ?? '');
      if (!call) {
        if (!deps.erasedCalls || !p.CallSid || !(await deps.erasedCalls.isErased(userId, p.CallSid))) return 'unknown_call';
        try {
          await deps.erasedCalls.deleteRecording(userId, p.RecordingSid);
          return 'erased';
        } catch (error) {
          // Twilio does not retry this callback: the sid (Twilio's id, no personal data) is logged for a manual delete.
          onError('Voice: an erased call’s recording could not be deleted at Twilio', error, { userId, callSid: p.CallSid, recordingSid: p.RecordingSid });
          return 'erase_failed';
        }
      }
      await deps.calls.setRecording(userId, call.id, { sid: p.RecordingSid, url: p.RecordingUrl, durationSec: intParam(p.RecordingDuration) ?? 0 });
      return 'stored';
    },
  };
}

export type CallLoop = ReturnType<typeof createCallLoop>;
