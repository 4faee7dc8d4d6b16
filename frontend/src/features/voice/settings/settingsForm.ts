/**
 * The voice settings form (SPEC §2 Voice settings, §3, §5, §9) on the contract's PUT schema, so
 * the field messages are the server's: numeric fields are typed as text and sent as numbers, the
 * summary method 'disabled' is sent as null, premium voices are refused.
 */
import type * as z from 'zod/mini';
import {
  VOICE_CATALOGUE,
  VOICE_DEFAULTS,
  relayVoiceOf,
  voiceSettingsRequest,
  type ConversationMode,
  type SummaryMethod,
  type VoiceCatalogueEntry,
  type VoiceSettings,
  type VoiceSettingsInput,
} from '@agentdesk/functions/contract';

/** The summary method as the form's select holds it. */
export type SummaryMethodChoice = SummaryMethod | 'disabled';
export const SUMMARY_METHOD_CHOICES: readonly SummaryMethodChoice[] = ['disabled', 'email', 'whatsapp', 'webhook'];

/** What the form edits: every field of the PUT body, numbers as typed text. */
export interface VoiceSettingsFormValues {
  messageWelcome: string;
  messageNoInput: string;
  messageFallback: string;
  messageGoodbye: string;
  messageError: string;
  language: string;
  /** Issue 28: languages a streamed call may switch to. */
  additionalLanguages: string[];
  voice: string;
  speechRate: string;
  pitch: string;
  volume: string;
  enableRecording: boolean;
  maxCallDuration: string;
  summaryNotificationMethod: SummaryMethodChoice;
  summaryWebhookUrl: string;
  escalationForwardNumber: string;
  conversationMode: ConversationMode;
}

/** The form's resolver schema: the contract's PUT schema (its input accepts the typed text). */
export const voiceSettingsForm = voiceSettingsRequest;
export type VoiceSettingsFormOutput = z.output<typeof voiceSettingsRequest>;

/** The form's values from the stored settings (or the §9 defaults for anything missing). */
export function formFromSettings(settings: Partial<VoiceSettings> | null | undefined): VoiceSettingsFormValues {
  const s = { ...VOICE_DEFAULTS, ...(settings ?? {}) };
  return {
    messageWelcome: s.messageWelcome,
    messageNoInput: s.messageNoInput,
    messageFallback: s.messageFallback,
    messageGoodbye: s.messageGoodbye,
    messageError: s.messageError,
    language: s.language,
    additionalLanguages: [...(s.additionalLanguages ?? [])],
    voice: s.voice,
    speechRate: String(s.speechRate),
    pitch: String(s.pitch),
    volume: String(s.volume),
    enableRecording: Boolean(s.enableRecording),
    maxCallDuration: String(s.maxCallDuration),
    summaryNotificationMethod: s.summaryNotificationMethod ?? 'disabled',
    summaryWebhookUrl: s.summaryWebhookUrl ?? '',
    escalationForwardNumber: s.escalationForwardNumber ?? '',
    conversationMode: s.conversationMode ?? VOICE_DEFAULTS.conversationMode,
  };
}

/** The PUT body from the validated form: numbers as numbers, a disabled method as null. */
export function settingsBody(values: VoiceSettingsFormOutput): VoiceSettingsInput {
  return { ...values, summaryNotificationMethod: values.summaryNotificationMethod as SummaryMethod | null };
}

/** A forwarding number as people write it ("+34 612 34 56 78", "+34-612-345-678") in the E.164 form the server takes. */
export function compactPhone(value: string): string {
  return value.replace(/[\s().\-/]/g, '');
}

/** Validates typed values like the form does; the body, or the first message per field. */
export function parseForm(values: VoiceSettingsFormValues): { ok: true; body: VoiceSettingsInput } | { ok: false; errors: Record<string, string> } {
  const result = voiceSettingsRequest.safeParse({ ...values, escalationForwardNumber: compactPhone(values.escalationForwardNumber) });
  if (result.success) return { ok: true, body: settingsBody(result.data) };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? '');
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The catalogue split for the picker: included voices first, then premium (shown, not selectable). */
export function voiceOptions(): { included: VoiceCatalogueEntry[]; premium: VoiceCatalogueEntry[] } {
  return {
    included: VOICE_CATALOGUE.filter((v) => v.included),
    premium: VOICE_CATALOGUE.filter((v) => !v.included),
  };
}

export function voiceById(id: string): VoiceCatalogueEntry | undefined {
  return VOICE_CATALOGUE.find((v) => v.id === id);
}

/**
 * The catalogue key of a voice's name and description (voiceSettings.voices.<key>): its id without
 * dots, which i18next reads as nesting. Issue 29: an owner sees "Voz femenina 1 · Clara y neutra",
 * not the provider's "Standard A" and an English description.
 */
export function voiceKey(id: string): string {
  return id.replace(/\./g, '_');
}

/** Whether real-time calls can use the voice (Twilio ConversationRelay speaks it); other voices keep the classic mode. */
export function voiceCanStream(voiceId: string): boolean {
  return relayVoiceOf(voiceId) !== null;
}

/** Whether the chosen voice speaks another language than the one callers are understood in (e.g. an es-ES voice with en-US). */
export function voiceLanguageMismatch(voiceId: string, language: string): boolean {
  const voice = voiceById(voiceId);
  if (!voice) return false;
  return voice.language.slice(0, 2) !== language.slice(0, 2);
}
