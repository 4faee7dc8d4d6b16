/**
 * Contract texts of the integrations and agents calls (validation and server messages) in the UI
 * language. The Spanish lives under `integrations.messages` / `integrations.whatsapp.messages` / `integrations.twilio.messages` /
 * `agents.messages` keyed like the contract's message objects; texts without a translation are shown as they are.
 */
import type { FieldError } from 'react-hook-form';
import { agentMessages, integrationMessages, voiceMessages, whatsappMessages } from '@agentdesk/functions/contract';
import i18n, { translateMessage } from '../../i18n';
import { ApiError } from '../../api/client';
import { agentStrings } from '../agents/i18n';
import { integrationStrings } from './i18n';

const keyByText = new Map<string, string>();
function register(prefix: string, contract: Record<string, unknown>, translated: Record<string, string>) {
  for (const key of Object.keys(translated)) {
    const text = contract[key];
    if (typeof text === 'string' && !keyByText.has(text)) keyByText.set(text, `${prefix}.${key}`);
  }
}
register('integrations.messages', integrationMessages, integrationStrings.en.messages);
register('agents.messages', agentMessages, agentStrings.en.messages);
register('integrations.whatsapp.messages', whatsappMessages, integrationStrings.en.whatsapp.messages);
register('integrations.twilio.messages', voiceMessages, integrationStrings.en.twilio.messages);

/** A contract text (English) in the UI language. */
export function translateContractText(text: string | undefined): string {
  if (!text) return '';
  const key = keyByText.get(text);
  return key ? i18n.t(key) : translateMessage(text);
}

/** The server's message for a failed call (translated when known), else the caller's fallback. */
export function apiErrorText(err: unknown, fallback: string): string {
  const server = err instanceof ApiError ? err.serverMessage : undefined;
  return server ? translateContractText(server) : fallback;
}

/**
 * The server's message when it is one of the contract's known texts (validation, model errors),
 * translated; otherwise the caller's fallback (SPEC §8 texts for everything unexpected).
 */
export function knownErrorText(err: unknown, fallback: string): string {
  const server = err instanceof ApiError ? err.serverMessage : undefined;
  return server && keyByText.has(server) ? translateContractText(server) : fallback;
}

/** TextField props for a form error (translated), else an optional hint. */
export function fieldProps(error: FieldError | undefined, hint?: string): { error: boolean; helperText: string | undefined } {
  if (error?.message) return { error: true, helperText: translateContractText(error.message) };
  return { error: false, helperText: hint };
}
