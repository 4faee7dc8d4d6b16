/** The team screens' server texts (teamMessages) in the UI language: server.es.json carries their Spanish. */
import { teamMessages } from '@agentdesk/functions/contract';
import { errorText } from '../../api/client';
import { translateMessage } from '../../i18n';
// The invitation page is public: it loads the server texts' Spanish itself (the app shell does for the rest).
import '../../i18n/serverTexts';

/** The server's message for a failed call, translated, else the fallback. */
export const teamErrorText = (err: unknown, fallback: string): string => translateMessage(errorText(err, fallback));

/** A server text (a success message) in the UI language. */
export const teamText = (text: string | undefined, fallback: string): string => (text ? translateMessage(text) : fallback);

/** Whether the server's message is teamMessages.seatsFull (whatever the seat count). */
export function isSeatsFull(message: string | undefined): boolean {
  if (!message) return false;
  const [before = '', after = ''] = teamMessages.seatsFull('\u0000').split('\u0000');
  return message.startsWith(before) && message.endsWith(after) && message.length > before.length + after.length;
}
