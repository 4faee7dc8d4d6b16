/**
 * The voice feature's ports (issue 7): stored calls, stored voice settings, and the Twilio
 * account. Adapters: adapters/dynamo/voice-calls.ts, adapters/dynamo/voice-settings.ts,
 * adapters/twilio/. Everything here belongs to one user (pk USER#{sub}).
 */
import type {
  CallStatus,
  CallSummary,
  CallTurn,
  PhoneNumberRequest,
  SummaryDeliveryAttempt,
  SummaryState,
  VoiceConversation,
  VoiceSettings,
} from '../../contract/voice.js';
import type { CallSummaryJob } from '../../contract/jobs.js';
import type { IntegrationHealth } from '../../contract/integration-health.js';
import type { StoredEmailDelivery } from '../notifications/email-view.js';

// ---------------------------------------------------------------------------------------------
// Calls

/** The settings a call ran with (a snapshot: later edits do not change a past call). */
export type CallSettingsSnapshot = Omit<VoiceSettings, 'phoneNumber' | 'summaryWebhookSecretHint'>;

export interface StoredCall extends Omit<VoiceConversation, '_id' | 'hasRecording' | 'summaryEmail'> {
  /** The summary e-mail's delivery (issue 34, domain/notifications/emails.ts), written by its producer and the outbound-email worker. */
  summaryEmail?: StoredEmailDelivery;
  /** A forwarded call's analysis so far (issue 34): its handoff notice e-mail is rendered from it when sent. */
  handoffSummary?: CallSummary | null;
  /** The handoff notice e-mail's delivery (issue 34). */
  handoffEmail?: StoredEmailDelivery;
  id: string;
  userId: string;
  settings: CallSettingsSnapshot;
  /** Silences in a row so far (reset by speech). */
  silences: number;
  /** Set when our TwiML ended the call (<Hangup> or <Dial>): then Twilio's 'completed' means we ended it. */
  endedByUs: boolean;
  recording: { sid: string; url: string; durationSec: number } | null;
  /** Minutes counted against the plan (set once, on the final status callback). */
  billedMinutes: number;
  /** Streamed calls (issue 28): the language the ConversationRelay session speaks and listens in, once a prompt switched it; absent = settings.language. */
  relayLanguage?: string;
}

export interface CallPage {
  items: StoredCall[];
  total: number;
}

/** A retried incoming webhook of a call whose caller's data was erased meanwhile: it is not stored again. */
export class ErasedCallError extends Error {
  constructor() {
    super('The call was erased');
  }
}

export interface CallRepository {
  /**
   * Creates the call unless one with this callSid exists (Twilio retried): returns the stored one
   * then. Throws ErasedCallError when the caller's data was erased since (issue 33: the CallSid's tombstone).
   */
  create(call: StoredCall): Promise<{ created: boolean; call: StoredCall }>;
  get(userId: string, id: string): Promise<StoredCall | null>;
  getBySid(userId: string, callSid: string): Promise<StoredCall | null>;
  /**
   * Appends turns only if the transcript still has `expectedCount` messages (one writer per turn:
   * a retried webhook finds the count moved and gets false). Also sets `silences`.
   */
  appendTurns(userId: string, id: string, expectedCount: number, turns: CallTurn[], silences: number): Promise<boolean>;
  /** Silence without speech: sets `silences` if it still equals `expected`. */
  setSilences(userId: string, id: string, expected: number, silences: number): Promise<boolean>;
  /** Our TwiML ends the call (goodbye, max duration, silence, forward, usage limit, error). */
  markEndedByUs(userId: string, id: string, endReason: NonNullable<StoredCall['endReason']>, escalation?: { reason: string }): Promise<void>;
  /** Records the hand-over to a human (the call may go on, or be forwarded). */
  markEscalated(userId: string, id: string, reason: string): Promise<void>;
  /**
   * The final status: only when the call is still 'active' (the first final callback wins).
   * Returns the updated call, or null when it had already finished.
   */
  finish(
    userId: string,
    id: string,
    end: { status: Exclude<CallStatus, 'active' | 'archived'>; endedAt: string; duration: number; endReason: NonNullable<StoredCall['endReason']>; billedMinutes: number },
  ): Promise<StoredCall | null>;
  /**
   * Active calls of every user started before `startedBefore` (ISO), oldest first, at most
   * `limit`: a Query of the active-calls index (an entry written with the call, removed by
   * finish), for the stale-call sweeper. Eventually consistent: finish() re-checks 'active'.
   */
  activeStartedBefore(startedBefore: string, limit: number): Promise<StoredCall[]>;
  setRecording(userId: string, id: string, recording: NonNullable<StoredCall['recording']>): Promise<void>;
  setSummary(userId: string, id: string, result: { summaryStatus: SummaryState; summary: CallSummary | null; summaryError?: string }): Promise<void>;
  addDelivery(userId: string, id: string, attempt: SummaryDeliveryAttempt): Promise<void>;
  /** Updates the contact reference (apply-contact). */
  setContact(userId: string, id: string, contact: StoredCall['contact']): Promise<void>;
  /**
   * Streamed calls (issue 16, issue 28): the ConversationRelay connection `connectionId` sent a
   * setup naming this call's CallSid at `at` (the frame's arrival, epoch ms). Recorded on the live
   * call so that only this connection's prompts after it take turns. False (nothing changes) when
   * the CallSid is another call's or the call is over.
   */
  bindRelaySetup(userId: string, id: string, setup: { callSid: string; connectionId: string; at: number }): Promise<boolean>;
  /**
   * Streamed calls: appends the caller's turn and the agent turn's placeholder at the end of the
   * transcript in one atomic write (whatever else is appended meanwhile), only for a live call
   * whose setup came from `connectionId` before the frame (`now`, its arrival), only when no later
   * frame took a turn already (frames are handled in their order), and unless it repeats the last
   * prompt (same `dedupKey` within `windowMs`) — except when `repeatOf` (that prompt's arrival) says
   * the caller said the same words again after its answer. `language` (when set) becomes the
   * session's language.
   *
   * Returns the placeholder's index (-1 when the transcript is full: nothing is stored) with the
   * session language before this turn; a repeat with the repeated prompt's slot and arrival; or
   * why nothing was taken: 'missing', 'ended', 'no-setup' (yet), 'stale' (a later frame went first).
   */
  claimRelayTurn(userId: string, id: string, input: RelayTurnClaim): Promise<RelayClaim>;
  /**
   * The answered agent turn into its slot, and the call's latency figures recomputed. A slot an
   * interrupt already corrected (setRelayHeard) keeps the heard text: only the latency is added.
   */
  setRelayAnswer(userId: string, id: string, slot: number, turn: CallTurn): Promise<void>;
  /** An interrupt after the answer was fully sent: the slot's content becomes what the caller heard. */
  setRelayHeard(userId: string, id: string, slot: number, heard: string): Promise<void>;
  /** Newest first; `search` = digits matched inside phoneNumber or internalNumber ('' = all). Items may omit `messages` (empty) but carry messageCount. */
  page(userId: string, input: { page: number; limit: number; search: string }): Promise<CallPage & { messageCounts: number[] }>;
}

/** One call's read and its contact (apply-contact): the repository without its create, list and sweep. */
export type CallItems = Pick<CallRepository, 'get' | 'setContact'>;
/** A call in progress, as the voice relay reads and updates it. */
export type LiveCallItems = CallItems & Pick<CallRepository, 'markEndedByUs' | 'markEscalated' | 'bindRelaySetup' | 'claimRelayTurn' | 'setRelayAnswer' | 'setRelayHeard'>;

/** A prompt's (or keypress's) claim of a turn on a streamed call (CallRepository.claimRelayTurn). */
export interface RelayTurnClaim {
  turns: [CallTurn, CallTurn];
  dedupKey: string;
  /** The frame's arrival (epoch ms). */
  now: number;
  windowMs: number;
  /** The connection the frame came on: its setup must be recorded. */
  connectionId: string;
  /** The session language from this turn on; undefined = unchanged. */
  language?: string;
  /** The same words again after the answer to the prompt that arrived then: not a repeated frame. */
  repeatOf?: number;
}

export type RelayClaim =
  /** `before`: the transcript as the claim found it, every earlier turn in it (this turn's history). */
  | { slot: number; previousLanguage: string | null; before: CallTurn[] }
  | { repeated: { slot: number; at: number } }
  | { refused: 'missing' | 'ended' | 'no-setup' | 'stale' };

// ---------------------------------------------------------------------------------------------
// Voice settings

export interface StoredVoiceSettings extends Omit<VoiceSettings, 'summaryWebhookSecretHint'> {
  /** Sealed (SecretBox) HMAC key of summary webhooks; null before first use. */
  webhookSecret: string | null;
  /** Last 4 characters of the secret, for the masked hint. */
  webhookSecretLast4: string | null;
  updatedAt: string;
}

export interface VoiceSettingsRepository {
  get(userId: string): Promise<StoredVoiceSettings | null>;
  /** Whole object (PUT, reset); keeps phoneNumber and the webhook secret as stored. */
  putSettings(userId: string, settings: Omit<StoredVoiceSettings, 'phoneNumber' | 'webhookSecret' | 'webhookSecretLast4'>): Promise<StoredVoiceSettings>;
  setWebhookSecret(userId: string, sealed: string, last4: string): Promise<void>;
  /**
   * Replaces the phone request if its current status is one of `expectedStatuses` (null = none
   * yet). False when it was not (a concurrent change, or the wrong state).
   */
  setPhoneRequest(userId: string, request: PhoneNumberRequest, expectedStatuses: ReadonlyArray<PhoneNumberRequest['status']>): Promise<boolean>;
  /** Every user's request with one of these statuses (admin), newest first. */
  listPhoneRequests(statuses: ReadonlyArray<NonNullable<PhoneNumberRequest['status']>>): Promise<Array<{ userId: string; request: PhoneNumberRequest }>>;
}

// ---------------------------------------------------------------------------------------------
// Twilio

export interface TwilioCredentials {
  accountSid: string;
  authToken: string;
}

export type TwilioErrorKind = 'auth' | 'not_found' | 'unavailable';

/** A failed Twilio REST call, classified; `message` is for logs only (user texts: voiceMessages). */
export class TwilioError extends Error {
  constructor(
    readonly kind: TwilioErrorKind,
    message: string,
    readonly status?: number,
    /** Twilio's error code (20003 Authenticate…), when its answer named one. */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'TwilioError';
  }
}

/** Twilio's REST API (the official `twilio` SDK; base URL configurable for the local fake). */
export interface TwilioAccountApi {
  fetchAccount(creds: TwilioCredentials): Promise<{ friendlyName: string; status: string }>;
  /** The IncomingPhoneNumber sid of an E.164 number in the account, or null. */
  findNumber(creds: TwilioCredentials, phoneNumber: string): Promise<string | null>;
  /** Points the number's voice URL (POST) and status callback (POST) at ours. */
  configureNumber(creds: TwilioCredentials, numberSid: string, urls: { voiceUrl: string; statusCallback: string }): Promise<void>;
  /** Deletes a recording at Twilio (issue 33: erasure, retention). Already gone (404) is success. */
  deleteRecording(creds: TwilioCredentials, recordingSid: string): Promise<void>;
  /** Ends a live call (Status=completed). A call already over or unknown is success. */
  endCall(creds: TwilioCredentials, callSid: string): Promise<void>;
  /** A recording's audio (MP3), streamed (issue 33: a person's export); null when Twilio no longer has it. */
  recordingAudio(creds: TwilioCredentials, recordingSid: string): Promise<AsyncIterable<Uint8Array> | null>;
}

/** The Twilio integration as the call loop and the recording proxy need it (auth token opened). */
export interface VoiceIntegration {
  accountSid: string;
  authToken: string;
  phoneNumber: string;
  isActive: boolean;
  /** Set while the integration needs attention (issue 34): a REST call that works with these credentials clears it. */
  health?: IntegrationHealth;
}

export interface VoiceIntegrationReader {
  get(userId: string): Promise<VoiceIntegration | null>;
}

// ---------------------------------------------------------------------------------------------
// Post-call work

/** One message on the call-summary queue (schema: contract/jobs.ts): analyse this call and deliver its summary. */
export type { CallSummaryJob };

export interface CallSummaryQueue {
  enqueue(job: CallSummaryJob): Promise<void>;
}

/** Where a forwarded call's analysis so far is kept for its handoff notice e-mail (issue 34; the call item). */
export interface HandoffAnalyses {
  setHandoffSummary(userId: string, id: string, summary: CallSummary | null): Promise<void>;
}
