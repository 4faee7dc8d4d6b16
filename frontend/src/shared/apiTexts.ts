/**
 * The integrations, agents, WhatsApp and Twilio API texts (validation and server messages) in the
 * UI language, for every screen that calls those APIs (integrations dialogs, agent pages). The
 * Spanish lives in shared/i18n/apiTexts.*.json under `integrations.messages` /
 * `integrations.whatsapp.messages` / `integrations.twilio.messages` / `agents.messages`, keyed like
 * the contract's message objects; texts without a translation go to the app's translateMessage.
 */
import type { FieldError } from 'react-hook-form';
import { agentMessages, integrationMessages, voiceMessages, whatsappMessages } from '@agentdesk/functions/contract';
import i18n from '../i18n';
import { contractTexts } from '../i18n/contractTexts';
import { fieldProps } from './forms';
import en from './i18n/apiTexts.en.json';
import es from './i18n/apiTexts.es.json';

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('es', 'translation', es, true, false);

export const apiTextStrings = { en, es };

const texts = contractTexts([
  { prefix: 'integrations.messages', contract: integrationMessages, keys: en.integrations.messages },
  { prefix: 'agents.messages', contract: agentMessages, keys: en.agents.messages },
  { prefix: 'integrations.whatsapp.messages', contract: whatsappMessages, keys: en.integrations.whatsapp.messages },
  { prefix: 'integrations.twilio.messages', contract: voiceMessages, keys: en.integrations.twilio.messages },
]);

/** A contract text (English) in the UI language. */
export const translateContractText = texts.translate;

/** The server's message for a failed call (translated when known), else the caller's fallback. */
export const apiErrorText = texts.errorText;

/**
 * The server's message when it is one of the contract's known texts (validation, model errors),
 * translated; otherwise the caller's fallback (SPEC §8 texts for everything unexpected).
 */
export const knownErrorText = texts.knownErrorText;

/** fieldProps() with these contract texts translated. */
export function contractFieldProps(error: FieldError | undefined, hint?: string) {
  return fieldProps(error, hint, translateContractText);
}
