/** The API keys page's server texts (apiKeyMessages) in the UI language. */
import { apiKeyMessages } from '@agentdesk/functions/contract';
import i18n, { translateMessage } from '../../i18n';
import { ApiError } from '../../api/client';
import { apiKeyStrings } from './i18n';

const keyByText = new Map<string, string>();
for (const key of Object.keys(apiKeyStrings.en.messages)) {
  const text = (apiKeyMessages as Record<string, unknown>)[key];
  if (typeof text === 'string') keyByText.set(text, `apiKeys.messages.${key}`);
}

/** A server text in the UI language. */
export function translateApiKeyText(text: string | undefined): string {
  if (!text) return '';
  const key = keyByText.get(text);
  return key ? i18n.t(key) : translateMessage(text);
}

/** The server's message (translated) when there is one, else the fallback. */
export function apiKeyErrorText(err: unknown, fallback: string): string {
  const server = err instanceof ApiError ? err.serverMessage : undefined;
  return server ? translateApiKeyText(server) : fallback;
}
