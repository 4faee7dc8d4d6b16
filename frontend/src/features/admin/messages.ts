/** The admin page's server texts (voiceMessages) in the UI language. */
import { voiceMessages } from '@agentdesk/functions/contract';
import { contractTexts } from '../../i18n/contractTexts';
import { adminStrings } from './i18n';

const texts = contractTexts([{ prefix: 'admin.messages', contract: voiceMessages, keys: adminStrings.en.messages }]);

/** A server text in the UI language. */
export const translateAdminText = texts.translate;

/** The server's message (translated) when there is one, else the fallback. */
export const adminErrorText = texts.errorText;
