/**
 * The voice contract's texts (validation and server messages, SPEC §8) in the UI language. Fixed
 * texts are keyed like `voiceMessages` under `voiceSettings.messages`; the per-field ones
 * ('Welcome message is required', 'Pitch must be a number') are rebuilt with the translated label.
 */
import { voiceMessages } from '@agentdesk/functions/contract';
import i18n from '../../../i18n';
import { serverMessageOf } from '../../../api/client';
import { contractTexts } from '../../../i18n/contractTexts';
import { voiceSettingsStrings } from './i18n';

const texts = contractTexts([{ prefix: 'voiceSettings.messages', contract: voiceMessages, keys: voiceSettingsStrings.en.messages }]);
const labelMessageByText = new Map<string, { name: string; label: string }>();
const labelMessages = ['messageRequired', 'messageTooLong', 'numberInvalid'] as const;
for (const label of Object.keys(voiceSettingsStrings.en.labels)) {
  for (const name of labelMessages) labelMessageByText.set(voiceMessages[name](label), { name, label });
}

/** A voice contract text (English) in the UI language; unknown texts go through the app's translator. */
export function translateVoiceText(text: string | undefined): string {
  const known = text ? labelMessageByText.get(text) : undefined;
  if (!known) return texts.translate(text);
  const label = i18n.t(`voiceSettings.labels.${known.label}`, { keySeparator: '.', defaultValue: known.label });
  return i18n.t(`voiceSettings.labelMessages.${known.name}`, { label });
}

/** Whether the text is one of the voice contract's own texts. */
export function isVoiceText(text: string | undefined): boolean {
  return texts.isKnown(text) || Boolean(text && labelMessageByText.has(text));
}

/** The server's message (translated) when it sent one, else the fallback (SPEC §8: server message preferred). */
export function serverOr(err: unknown, fallback: string): string {
  const server = serverMessageOf(err);
  return server ? translateVoiceText(server) : fallback;
}

/** The server's message only when it is a known contract text (a validation message), else the SPEC §8 fallback. */
export function knownOr(err: unknown, fallback: string): string {
  const server = serverMessageOf(err);
  return server && isVoiceText(server) ? translateVoiceText(server) : fallback;
}
