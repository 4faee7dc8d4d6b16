/**
 * Voice limits (SPEC §5, §9 and the call loop's bounds) and the call languages, apart from
 * contract/voice.ts so a bundle that only needs them (the voice-relay WebSocket function) does not
 * carry the settings schemas.
 */
export const VOICE_LIMITS = {
  message: 500,
  notes: 500,
  speechRate: [0.5, 2],
  pitch: [0.5, 2],
  volume: [0, 2],
  maxCallDuration: [30, 3600],
  /** SPEC §9: call logs page size. */
  pageSize: 20,
  /** Seconds a gather waits for speech to start (Twilio's <Gather timeout>). */
  gatherTimeout: 5,
  /** Silences in a row before the goodbye (issue 7). */
  silencesBeforeHangup: 2,
  /** Bound of one agent turn on a call (model + tools), well inside Twilio's 15 s. */
  turnMs: 8_000,
} as const;

/** At most this many languages besides the main one (issue 28; each is declared in the TwiML). */
export const MAX_ADDITIONAL_LANGUAGES = 3;

/** The languages a streamed call can be answered in (issue 28): the main one first, then the additional ones, deduplicated. */
export function callLanguages(s: { language: string; additionalLanguages?: readonly string[] | null }): string[] {
  return [...new Set([s.language, ...(s.additionalLanguages ?? [])])];
}

/**
 * The transcription language of a streamed call that can switch languages (issue 28): Deepgram's
 * automatic language detection. Its prompts carry the detected language's primary tag only ("en",
 * not "en-US"), and a switch changes the voice while recognition stays on detection.
 */
export const DETECT_LANGUAGE = 'multi';
