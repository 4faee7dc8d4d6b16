/**
 * The Message Hub's strings (top-level key `messageHub`, en and es), registered with i18next when
 * the messages chunk loads, so the login route does not carry them. `server` holds the Spanish of
 * the WhatsApp contract's texts the hub can receive, keyed like `whatsappMessages`.
 */
import { whatsappMessages } from '@agentdesk/functions/contract';
import i18n, { translateMessage } from '../../../i18n';
import { ApiError } from '../../../api/client';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { messageHub: en }, true, false);
i18n.addResourceBundle('es', 'translation', { messageHub: es }, true, false);

export const messageHubStrings = { en, es };

const keyByText = new Map<string, string>();
for (const key of Object.keys(en.server)) {
  const text = (whatsappMessages as Record<string, unknown>)[key];
  if (typeof text === 'string') keyByText.set(text, `messageHub.server.${key}`);
}

/** A WhatsApp contract text (a server message, a message's failure reason) in the UI language. */
export function translateHubText(text: string | undefined): string {
  if (!text) return '';
  const key = keyByText.get(text);
  return key ? i18n.t(key) : translateMessage(text);
}

/** The server's message for a failed call (translated when known), else the spec's fallback. */
export function hubErrorText(err: unknown, fallback: string): string {
  const server = err instanceof ApiError ? err.serverMessage : undefined;
  return server ? translateHubText(server) : fallback;
}
