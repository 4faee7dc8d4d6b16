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
// Catalogue and defaults (SPEC §9)

export const VOICE_LANGUAGES = ['en-US', 'en-GB', 'es-ES', 'es-MX'] as const;
export type VoiceLanguage = (typeof VOICE_LANGUAGES)[number];

export interface VoiceCatalogueEntry {
  id: string;
  name: string;
  gender: 'female' | 'male';
  language: VoiceLanguage;
  provider: 'google' | 'amazon-polly';
  description: string;
  /** false = premium: shown, never selectable (SPEC §5), refused by the server. */
  included: boolean;
}

/** SPEC §9: the default voice and the included voices, then the premium ones. */
export const VOICE_CATALOGUE: readonly VoiceCatalogueEntry[] = [
  { id: 'Google.es-ES-Standard-A', name: 'Standard A', gender: 'female', language: 'es-ES', provider: 'google', description: 'Spanish (Spain), clear standard voice', included: true },
  { id: 'Google.es-ES-Standard-C', name: 'Celia', gender: 'female', language: 'es-ES', provider: 'google', description: 'Spanish (Spain), warm and friendly', included: true },
  { id: 'Polly.Conchita', name: 'Conchita', gender: 'female', language: 'es-ES', provider: 'amazon-polly', description: 'Spanish (Spain), calm', included: true },
  { id: 'Polly.Lucia', name: 'Lucia', gender: 'female', language: 'es-ES', provider: 'amazon-polly', description: 'Spanish (Spain), bright', included: true },
  { id: 'Polly.Enrique', name: 'Enrique', gender: 'male', language: 'es-ES', provider: 'amazon-polly', description: 'Spanish (Spain), deep', included: true },
  { id: 'Polly.Emma', name: 'Emma', gender: 'female', language: 'en-GB', provider: 'amazon-polly', description: 'English (UK), friendly', included: true },
  { id: 'Polly.Brian', name: 'Brian', gender: 'male', language: 'en-GB', provider: 'amazon-polly', description: 'English (UK), composed', included: true },
  { id: 'Google.es-ES-Chirp3-HD-Leda', name: 'Leda (HD)', gender: 'female', language: 'es-ES', provider: 'google', description: 'Spanish (Spain), natural HD voice', included: false },
  { id: 'Google.es-ES-Chirp3-HD-Charon', name: 'Charon (HD)', gender: 'male', language: 'es-ES', provider: 'google', description: 'Spanish (Spain), natural HD voice', included: false },
  { id: 'Google.es-ES-Chirp3-HD-Orus', name: 'Orus (HD)', gender: 'male', language: 'es-ES', provider: 'google', description: 'Spanish (Spain), natural HD voice', included: false },
];

/**
 * How a call is carried (issue 16): 'streaming' = Twilio ConversationRelay over our WebSocket API
 * (the answer is spoken while the model writes it, the caller can interrupt); 'gather' = the
 * <Gather>/<Say> loop (each turn waits for the whole answer). Streaming is used only for voices
 * ConversationRelay can speak (RELAY_VOICES); other voices fall back to 'gather'.
 */
export const CONVERSATION_MODES = ['streaming', 'gather'] as const;
export type ConversationMode = (typeof CONVERSATION_MODES)[number];

export interface RelayVoice {
  ttsProvider: 'Google' | 'Amazon';
  /** The voice as ConversationRelay names it. */
  voice: string;
}

/**
 * The catalogue voices ConversationRelay can speak (its ttsProvider + voice attributes). Google
 * voices keep their Cloud TTS name; Amazon takes only Polly's neural/generative voices, named
 * `<Name>-Neural`: Conchita and Enrique exist only as standard voices, so they stay on <Gather>.
 */
export const RELAY_VOICES: Readonly<Record<string, RelayVoice>> = {
  'Google.es-ES-Standard-A': { ttsProvider: 'Google', voice: 'es-ES-Standard-A' },
  'Google.es-ES-Standard-C': { ttsProvider: 'Google', voice: 'es-ES-Standard-C' },
  'Polly.Lucia': { ttsProvider: 'Amazon', voice: 'Lucia-Neural' },
  'Polly.Emma': { ttsProvider: 'Amazon', voice: 'Emma-Neural' },
  'Polly.Brian': { ttsProvider: 'Amazon', voice: 'Brian-Neural' },
  'Google.es-ES-Chirp3-HD-Leda': { ttsProvider: 'Google', voice: 'es-ES-Chirp3-HD-Leda' },
  'Google.es-ES-Chirp3-HD-Charon': { ttsProvider: 'Google', voice: 'es-ES-Chirp3-HD-Charon' },
  'Google.es-ES-Chirp3-HD-Orus': { ttsProvider: 'Google', voice: 'es-ES-Chirp3-HD-Orus' },
};

/** How ConversationRelay speaks a catalogue voice; null = it cannot (the call uses <Gather>). */
export const relayVoiceOf = (voiceId: string): RelayVoice | null => (Object.hasOwn(RELAY_VOICES, voiceId) ? RELAY_VOICES[voiceId]! : null);

/**
 * Issue 28: the voice ConversationRelay speaks a language the agent also answers in (a
 * <Language> of the noun), when the chosen voice speaks another one. Amazon Polly's neural voices,
 * named like RELAY_VOICES' (`<Name>-Neural`).
 */
export const RELAY_LANGUAGE_VOICES: Readonly<Record<VoiceLanguage, RelayVoice>> = {
  'es-ES': { ttsProvider: 'Amazon', voice: 'Lucia-Neural' },
  'es-MX': { ttsProvider: 'Amazon', voice: 'Mia-Neural' },
  'en-US': { ttsProvider: 'Amazon', voice: 'Joanna-Neural' },
  'en-GB': { ttsProvider: 'Amazon', voice: 'Emma-Neural' },
};

export const SUMMARY_METHODS = ['email', 'whatsapp', 'webhook'] as const;
export type SummaryMethod = (typeof SUMMARY_METHODS)[number];

export const PHONE_REQUEST_STATUSES = ['pending', 'approved', 'rejected', 'assigned'] as const;
export type PhoneRequestStatus = (typeof PHONE_REQUEST_STATUSES)[number];

export interface PhoneNumberRequest {
  requested: boolean;
  status: PhoneRequestStatus | null;
  requestedAt: string | null;
  assignedAt: string | null;
  notes: string;
  /** E.164, once assigned. */
  number: string | null;
  /** Why an admin rejected the request (beyond the spec). */
  rejectionReason?: string | null;
}

/** SPEC §3 Voice settings; `phoneNumber` is read-only through PUT (request-phone and the admin change it). */
export interface VoiceSettings {
  messageWelcome: string;
  messageNoInput: string;
  messageFallback: string;
  messageGoodbye: string;
  messageError: string;
  language: VoiceLanguage;
  /**
   * Beyond the spec (issue 28): languages the agent also answers streamed calls in. When a caller
   * speaks one of them (ConversationRelay's prompt.lang), the call switches its voice and speech
   * recognition to it and the agent answers in it. [] = the main language only.
   */
  additionalLanguages: VoiceLanguage[];
  voice: string;
  speechRate: number;
  pitch: number;
  volume: number;
  enableRecording: boolean;
  /** Seconds. */
  maxCallDuration: number;
  /** null = disabled. */
  summaryNotificationMethod: SummaryMethod | null;
  summaryWebhookUrl: string;
  /** Beyond the spec: E.164 a call is <Dial>ed to when the agent hands over; '' = none. */
  escalationForwardNumber: string;
  /** Beyond the spec (issue 16): streaming (ConversationRelay) or the <Gather> fallback. */
  conversationMode: ConversationMode;
  phoneNumber: PhoneNumberRequest;
  /** Beyond the spec: hint of the webhook signing secret ('whsec_…a1b2'), null before one exists. */
  summaryWebhookSecretHint: string | null;
}

export const EMPTY_PHONE_REQUEST: PhoneNumberRequest = {
  requested: false,
  status: null,
  requestedAt: null,
  assignedAt: null,
  notes: '',
  number: null,
  rejectionReason: null,
};

/** SPEC §9 defaults (language es-ES, so the texts are Spanish). */
export const VOICE_DEFAULTS: Omit<VoiceSettings, 'phoneNumber' | 'summaryWebhookSecretHint'> = {
  messageWelcome: 'Hola, gracias por llamar. ¿En qué puedo ayudarle?',
  messageNoInput: 'No le he oído. ¿Puede repetirlo, por favor?',
  messageFallback: 'Le paso con una persona de nuestro equipo. Un momento, por favor.',
  messageGoodbye: 'Gracias por llamar. ¡Hasta pronto!',
  messageError: 'Lo siento, ha ocurrido un problema. Por favor, inténtelo de nuevo más tarde.',
  language: 'es-ES',
  additionalLanguages: [],
  voice: 'Google.es-ES-Standard-A',
  speechRate: 1,
  pitch: 1,
  volume: 1,
  enableRecording: false,
  maxCallDuration: 300,
  summaryNotificationMethod: null,
  summaryWebhookUrl: '',
  escalationForwardNumber: '',
  conversationMode: 'streaming',
};


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
