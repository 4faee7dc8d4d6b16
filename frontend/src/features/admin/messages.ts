/** The admin page's server texts (voiceMessages) in the UI language. */
import { voiceMessages } from '@agentdesk/functions/contract';
import i18n, { translateMessage } from '../../i18n';
import { ApiError } from '../../api/client';
import { adminStrings } from './i18n';

const keyByText = new Map<string, string>();
for (const key of Object.keys(adminStrings.en.messages)) {
  const text = (voiceMessages as Record<string, unknown>)[key];
  if (typeof text === 'string') keyByText.set(text, `admin.messages.${key}`);
}

/** A server text in the UI language. */
export function translateAdminText(text: string | undefined): string {
  if (!text) return '';
  const key = keyByText.get(text);
  return key ? i18n.t(key) : translateMessage(text);
}

/** The server's message (translated) when there is one, else the fallback. */
export function adminErrorText(err: unknown, fallback: string): string {
  const server = err instanceof ApiError ? err.serverMessage : undefined;
  return server ? translateAdminText(server) : fallback;
}
