/**
 * The voice contract's texts (validation and server messages, SPEC §8) in the UI language. Fixed
 * texts are keyed like `voiceMessages` under `voiceSettings.messages`; the per-field ones
 * ('Welcome message is required', 'Pitch must be a number') are rebuilt with the translated label.
 */
import { voiceMessages } from '@agentdesk/functions/contract';
import i18n, { translateMessage } from '../../../i18n';
import { ApiError } from '../../../api/client';
import { voiceSettingsStrings } from './i18n';

const keyByText = new Map<string, { key: string; label?: string }>();
for (const key of Object.keys(voiceSettingsStrings.en.messages)) {
  const text = (voiceMessages as Record<string, unknown>)[key];
  if (typeof text === 'string') keyByText.set(text, { key: `voiceSettings.messages.${key}` });
}
const labelMessages = ['messageRequired', 'messageTooLong', 'numberInvalid'] as const;
for (const label of Object.keys(voiceSettingsStrings.en.labels)) {
  for (const name of labelMessages) {
    keyByText.set(voiceMessages[name](label), { key: `voiceSettings.labelMessages.${name}`, label });
  }
}

/** A voice contract text (English) in the UI language; unknown texts go through the app's translator. */
export function translateVoiceText(text: string | undefined): string {
  if (!text) return '';
  const known = keyByText.get(text);
  if (!known) return translateMessage(text);
  if (!known.label) return i18n.t(known.key);
  const label = i18n.t(`voiceSettings.labels.${known.label}`, { keySeparator: '.', defaultValue: known.label });
  return i18n.t(known.key, { label });
}

/** Whether the text is one of the voice contract's own texts. */
export function isVoiceText(text: string | undefined): boolean {
  return Boolean(text && keyByText.has(text));
}

/** The server's message (translated) when it sent one, else the fallback (SPEC §8: server message preferred). */
export function serverOr(err: unknown, fallback: string): string {
  const server = err instanceof ApiError ? err.serverMessage : undefined;
  return server ? translateVoiceText(server) : fallback;
}

/** The server's message only when it is a known contract text (a validation message), else the SPEC §8 fallback. */
export function knownOr(err: unknown, fallback: string): string {
  const server = err instanceof ApiError ? err.serverMessage : undefined;
  return server && isVoiceText(server) ? translateVoiceText(server) : fallback;
}
