/**
 * The voice catalogue, the settings' shape and their defaults (SPEC §9), without zod: what the
 * call loop and the voice settings' storage read. Re-exported by voice.ts (the request schemas).
 */
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

