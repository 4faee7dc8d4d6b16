/**
 * Contract texts of the integrations and agents calls (validation and server messages) in the UI
 * language. The Spanish lives under `integrations.messages` / `integrations.whatsapp.messages` / `integrations.twilio.messages` /
 * `agents.messages` keyed like the contract's message objects; texts without a translation are shown as they are.
 */
import type { FieldError } from 'react-hook-form';
import { agentMessages, integrationMessages, voiceMessages, whatsappMessages } from '@agentdesk/functions/contract';
import { contractTexts } from '../../i18n/contractTexts';
import { agentStrings } from '../agents/i18n';
import { integrationStrings } from './i18n';

const texts = contractTexts([
  { prefix: 'integrations.messages', contract: integrationMessages, keys: integrationStrings.en.messages },
  { prefix: 'agents.messages', contract: agentMessages, keys: agentStrings.en.messages },
  { prefix: 'integrations.whatsapp.messages', contract: whatsappMessages, keys: integrationStrings.en.whatsapp.messages },
  { prefix: 'integrations.twilio.messages', contract: voiceMessages, keys: integrationStrings.en.twilio.messages },
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

/** TextField props for a form error (translated), else an optional hint. */
export function fieldProps(error: FieldError | undefined, hint?: string): { error: boolean; helperText: string | undefined } {
  if (error?.message) return { error: true, helperText: translateContractText(error.message) };
  return { error: false, helperText: hint };
}
