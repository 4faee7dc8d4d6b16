/**
 * Voice contract (SPEC §2 Voice call logs, Voice conversation detail, Voice settings, Integrations
 * (Twilio Voice); §3 Voice conversation, Voice settings, Voice catalogue; §4 call and phone-request
 * states; §5; §7 Voice; §8 Voice; §9 voice defaults and catalogue). Browser-safe: no Node imports.
 */
import * as z from 'zod/mini';
import { E164_RE, voiceMessages } from './voice-messages.js';
import { looksLikePhone } from './phone.js';
import { MAX_ADDITIONAL_LANGUAGES, VOICE_LIMITS, callLanguages } from './voice-limits.js';
import './zod-locale.js';
import { isHttpUrl } from './urls.js';
import type { EmailDelivery } from './email-delivery.js';

// ---------------------------------------------------------------------------------------------
// Messages (SPEC §8 Voice, §5, and the server's own texts): in voice-messages.ts, so a bundle that
// only needs the texts does not carry the schemas below.

export { E164_RE, voiceMessages };
// In their own module so the voice-relay bundle (400 KB budget) has them without the schemas below.
export { MAX_ADDITIONAL_LANGUAGES, VOICE_LIMITS, callLanguages };

// ---------------------------------------------------------------------------------------------
// Catalogue, settings shape and defaults (SPEC §9): in voice-catalogue.ts, so the call loop's
// bundle (voice-webhook, 300 KB budget) has them without the schemas below.

export * from './voice-catalogue.js';
import {
  CONVERSATION_MODES,
  PHONE_REQUEST_STATUSES,
  SUMMARY_METHODS,
  VOICE_CATALOGUE,
  VOICE_DEFAULTS,
  VOICE_LANGUAGES,
  type ConversationMode,
  type PhoneNumberRequest,
  type SummaryMethod,
} from './voice-catalogue.js';

const messageField = (label: string) =>
  z
    .string({ error: voiceMessages.messageRequired(label) })
    .check(z.trim(), z.minLength(1, voiceMessages.messageRequired(label)), z.maxLength(VOICE_LIMITS.message, voiceMessages.messageTooLong(label)));

/** SPEC §5: numeric fields parsed as numbers (a form may send "1.2"). */
const numberIn = (label: string, [min, max]: readonly [number, number], message: string) =>
  z.pipe(
    z.union([z.number({ error: voiceMessages.numberInvalid(label) }), z.string({ error: voiceMessages.numberInvalid(label) })]),
    z.transform((v) => (typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v))),
  ).check(z.refine((n: number) => Number.isFinite(n) && n >= min && n <= max, message));

/**
 * PUT /api/voice-settings: the whole object (SPEC §7); `phoneNumber` and the secret hint, when
 * sent back, are ignored. Premium or unknown voices are refused (SPEC §5).
 */
export const voiceSettingsRequest = z
  .object({
    messageWelcome: messageField('Welcome message'),
    messageNoInput: messageField('No-input message'),
    messageFallback: messageField('Fallback message'),
    messageGoodbye: messageField('Goodbye message'),
    messageError: messageField('Error message'),
    language: z.enum(VOICE_LANGUAGES, { error: voiceMessages.languageInvalid }),
    additionalLanguages: z._default(
      z
        .array(z.enum(VOICE_LANGUAGES, { error: voiceMessages.additionalLanguageInvalid }), { error: voiceMessages.additionalLanguageInvalid })
        .check(z.maxLength(MAX_ADDITIONAL_LANGUAGES, voiceMessages.additionalLanguagesTooMany)),
      [],
    ),
    voice: z.string({ error: voiceMessages.voiceInvalid }).check(
      z.refine((v) => VOICE_CATALOGUE.some((e) => e.id === v), voiceMessages.voiceInvalid),
      z.refine((v) => VOICE_CATALOGUE.find((e) => e.id === v)?.included !== false, voiceMessages.premiumVoice),
    ),
    speechRate: numberIn('Speech rate', VOICE_LIMITS.speechRate, voiceMessages.speechRateRange),
    pitch: numberIn('Pitch', VOICE_LIMITS.pitch, voiceMessages.pitchRange),
    volume: numberIn('Volume', VOICE_LIMITS.volume, voiceMessages.volumeRange),
    enableRecording: z._default(z.boolean(), false),
    maxCallDuration: numberIn('Max call duration', VOICE_LIMITS.maxCallDuration, voiceMessages.maxCallDurationRange).check(
      z.refine((n: number) => Number.isInteger(n), voiceMessages.maxCallDurationRange),
    ),
    /** null, '' or 'disabled' = disabled. */
    summaryNotificationMethod: z.pipe(
      z.nullish(z.string({ error: voiceMessages.methodInvalid })),
      z.transform((v) => (v === undefined || v === null || v === '' || v === 'disabled' ? null : v)),
    ).check(z.refine((v) => v === null || (SUMMARY_METHODS as readonly string[]).includes(v), voiceMessages.methodInvalid)),
    summaryWebhookUrl: z._default(z.string().check(z.trim(), z.maxLength(2000, voiceMessages.webhookUrlInvalid)), ''),
    escalationForwardNumber: z._default(
      z.string().check(z.trim(), z.refine((v) => v === '' || E164_RE.test(v), voiceMessages.forwardNumberInvalid)),
      '',
    ),
    conversationMode: z._default(z.enum(CONVERSATION_MODES, { error: voiceMessages.conversationModeInvalid }), VOICE_DEFAULTS.conversationMode),
  })
  .check(
    z.refine((s) => s.summaryWebhookUrl === '' || isHttpUrl(s.summaryWebhookUrl), { message: voiceMessages.webhookUrlInvalid, path: ['summaryWebhookUrl'] }),
    z.refine((s) => s.summaryNotificationMethod !== 'webhook' || s.summaryWebhookUrl !== '', { message: voiceMessages.webhookUrlRequired, path: ['summaryWebhookUrl'] }),
    z.refine((s) => !s.additionalLanguages.includes(s.language) && new Set(s.additionalLanguages).size === s.additionalLanguages.length, {
      message: voiceMessages.additionalLanguageRepeated,
      path: ['additionalLanguages'],
    }),
  );
export type VoiceSettingsInput = Omit<z.infer<typeof voiceSettingsRequest>, 'summaryNotificationMethod'> & {
  summaryNotificationMethod: SummaryMethod | null;
};

/** POST /api/voice-settings/request-phone. */
export const phoneRequestInput = z.object({
  notes: z._default(z.string().check(z.trim(), z.maxLength(VOICE_LIMITS.notes, voiceMessages.notesTooLong)), ''),
});

/** GET /api/voice-settings/webhook-secret (reveal; created on first use) and POST …/rotate: data. */
export interface WebhookSecretView {
  secret: string;
}

// ---------------------------------------------------------------------------------------------
// Twilio Voice integration (SPEC §5, §7: POST /api/integrations/twilio-voice/setup and /test)

export const twilioSetupRequest = z.object({
  accountSid: z
    .string({ error: voiceMessages.accountSidRequired })
    .check(z.trim(), z.minLength(1, voiceMessages.accountSidRequired), z.regex(/^AC[0-9a-fA-F]{32}$/, voiceMessages.accountSidInvalid)),
  /** '' or '***' on an edit keeps the stored token. */
  authToken: z._default(z.string().check(z.trim(), z.maxLength(200)), ''),
  phoneNumber: z
    .string({ error: voiceMessages.phoneNumberRequired })
    // Typed as at home or with its country code: the server reads it in the account's country (issue 19).
    .check(z.trim(), z.minLength(1, voiceMessages.phoneNumberRequired), z.refine(looksLikePhone, voiceMessages.phoneNumberInvalid)),
});
export type TwilioSetupInput = z.infer<typeof twilioSetupRequest>;

/** data of a successful setup: the URL Twilio must call (SPEC §7), and whether the number was pointed at it. */
export interface TwilioSetupResult {
  webhookUrl: string;
  statusCallbackUrl: string;
  /** true when setup configured the number's voice URL and status callback through Twilio's REST API. */
  numberConfigured: boolean;
  /** Why it could not (then the user sets both URLs in the Twilio console). */
  numberConfigError?: string;
}

export interface TwilioTestResult {
  accountName: string;
  accountStatus: string;
  numberFound: boolean;
}

// ---------------------------------------------------------------------------------------------
// Voice conversations (SPEC §3 Voice conversation, §4 Call status, §7 Voice)

export const CALL_STATUSES = ['active', 'completed', 'hung_up', 'failed', 'archived'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export const SENTIMENTS = ['positive', 'negative', 'mixed', 'neutral'] as const;
export const URGENCIES = ['critical', 'high', 'medium', 'low'] as const;

export interface CallTurn {
  role: 'user' | 'agent';
  /** For an interrupted agent turn: what the caller heard before speaking over it. */
  content: string;
  /** ISO. */
  at: string;
  /** Twilio's speech confidence 0..1 for user turns; null for agent turns. */
  confidence: number | null;
  /**
   * Agent turns of streamed calls (issue 16): ms from the caller's prompt reaching us to the first
   * and to the last text token we sent. Absent on <Gather> calls and on the welcome.
   */
  latency?: TurnLatency;
  /** Agent turns the caller spoke over (ConversationRelay interrupt); content = what was heard. */
  interrupted?: boolean;
}

export interface TurnLatency {
  firstTokenMs: number;
  lastTokenMs: number;
}

/** Per-call figures of the streamed turns' first-token latency (null when the call has none). */
export interface CallLatencyStats {
  turns: number;
  p50Ms: number;
  p95Ms: number;
}

/** The structured analysis the call-summary worker asks the model for (SPEC §3 summary). */
export const callSummarySchema = z.object({
  quickSummary: z.string().check(z.minLength(1)),
  actionPoints: z.array(z.string()),
  sentiment: z.enum(SENTIMENTS),
  urgency: z.enum(URGENCIES),
  tone: z.string(),
  contactExtracted: z.object({ name: z.string(), phone: z.string(), email: z.string(), web: z.string() }),
  bookingExtracted: z.object({ from: z.string(), to: z.string(), numberOfPeople: z.nullable(z.number()), note: z.string() }),
});
export type CallSummary = z.infer<typeof callSummarySchema>;

/** Where the summary went; one entry per attempt (visible in the call detail). */
export interface SummaryDeliveryAttempt {
  method: SummaryMethod;
  attempt: number;
  /** ISO. */
  at: string;
  ok: boolean;
  /** HTTP status of the webhook answer, when there was one. */
  status?: number;
  /** Why it failed, written for the user. */
  error?: string;
}

export type SummaryState = 'pending' | 'completed' | 'failed' | 'skipped';

export interface VoiceConversation {
  _id: string;
  callSid: string;
  status: CallStatus;
  /** The caller (E.164). */
  phoneNumber: string;
  /** The business number called. */
  internalNumber: string;
  contact: { _id: string | null; name: string; phoneNumber: string } | null;
  /** Milliseconds (0 while active). */
  duration: number;
  createdAt: string;
  endedAt: string | null;
  voiceSettings: { name: string; description: string; language: string };
  messages: CallTurn[];
  summary: CallSummary | null;
  /** Beyond the spec: the analysis's progress and why it failed. */
  summaryStatus: SummaryState;
  summaryError?: string;
  deliveries: SummaryDeliveryAttempt[];
  /**
   * Issue 34: where the summary e-mail stands (summaries sent by e-mail go through the
   * outbound-email queue: queued, sending, sent, retrying, failed + reason); null when the summary
   * was not e-mailed. POST /api/voice-conversations/{id}/resend-summary sends it again.
   */
  summaryEmail?: EmailDelivery | null;
  /** The agent that answered (voiceSettings.name is the agent's name too). */
  agent: { _id: string; name: string } | null;
  escalated: boolean;
  escalationReason?: string;
  /** true when a recording exists: GET /api/voice-conversations/{id}/recording streams it. */
  hasRecording: boolean;
  /**
   * Issue 33: the recording was deleted (at Twilio) when the account's retention for recordings
   * ended: the call shows "Recording deleted after {days} days". Absent otherwise.
   */
  recordingDeleted?: { at: string; days: number };
  /** How the call was carried (issue 16); calls stored before it are 'gather'. */
  conversationMode: ConversationMode;
  /** First-token latency of the call's streamed agent turns (p50/p95), null without any. */
  latency: CallLatencyStats | null;
  /** Who ended the call or why it ended (beyond the spec); 'stale': closed by the sweeper, Twilio's final status never came. */
  endReason?: 'goodbye' | 'caller' | 'max_duration' | 'silence' | 'usage_limit' | 'error' | 'forwarded' | 'stale';
}

/** One row of GET /api/voice-conversations (no transcript). */
export type VoiceConversationListItem = Omit<VoiceConversation, 'messages' | 'summary' | 'deliveries' | 'summaryEmail'> & { messageCount: number };

export interface CallLogPagination {
  currentPage: number;
  totalPages: number;
  totalItems: number;
  limit: number;
}

/** GET /api/voice-conversations: data {conversations, pagination} (SPEC §7). */
export interface VoiceConversationList {
  conversations: VoiceConversationListItem[];
  pagination: CallLogPagination;
}

const pageParam = z._default(
  z.pipe(z.string(), z.transform(Number)).check(z.refine((n) => Number.isInteger(n) && n >= 1, voiceMessages.pageInvalid)),
  1,
);

export const listCallsQuery = z.object({
  page: pageParam,
  limit: z._default(
    z.pipe(z.string(), z.transform(Number)).check(z.refine((n) => Number.isInteger(n) && n >= 1 && n <= 100, voiceMessages.limitInvalid)),
    VOICE_LIMITS.pageSize,
  ),
  /** Digits of the caller's or the business number; other characters are ignored. */
  search: z._default(z.string().check(z.trim(), z.maxLength(40)), ''),
});
export type ListCallsQuery = z.infer<typeof listCallsQuery>;

// ---------------------------------------------------------------------------------------------
// Admin: phone-number requests (SPEC §6)

export interface PhoneRequestAdminView {
  userId: string;
  userName: string;
  userEmail: string;
  request: PhoneNumberRequest;
}

export const adminListQuery = z.object({
  /** '' = every status. */
  status: z._default(z.enum(['', ...PHONE_REQUEST_STATUSES]), ''),
});

export const adminRejectRequest = z.object({
  reason: z._default(z.string().check(z.trim(), z.maxLength(500, voiceMessages.reasonTooLong)), ''),
});

export const adminAssignRequest = z.object({
  number: z
    .string({ error: voiceMessages.assignedNumberInvalid })
    .check(z.trim(), z.regex(E164_RE, voiceMessages.assignedNumberInvalid)),
});

// ---------------------------------------------------------------------------------------------
// Summary webhook (README "Verifying summary webhooks")

/**
 * Every summary webhook POST carries `X-AgentDesk-Signature: t=<unix seconds>,v1=<hex>` where
 * hex = HMAC-SHA256(signing secret, `${t}.${raw body}`). The secret is revealed on the voice
 * settings page (GET /api/voice-settings/webhook-secret) and can be rotated.
 */
export const SUMMARY_SIGNATURE_HEADER = 'X-AgentDesk-Signature';
export const SUMMARY_WEBHOOK_ATTEMPTS = 3;

/** The JSON body POSTed to the summary webhook. */
export interface SummaryWebhookPayload {
  event: 'call.summary';
  call: Omit<VoiceConversation, 'deliveries' | 'summaryStatus' | 'summaryError' | 'summaryEmail'>;
}
