/** The saved replies' server texts (savedReplyMessages) in the UI language. */
import { savedReplyMessages } from '@agentdesk/functions/contract';
import { contractTexts } from '../../../i18n/contractTexts';
import { savedReplyStrings } from './i18n';

const texts = contractTexts([{ prefix: 'savedReplies.messages', contract: savedReplyMessages, keys: savedReplyStrings.en.messages }]);

/** A server text in the UI language. */
export const translateSavedReplyText = texts.translate;

/** The server's message (translated) when there is one, else the fallback. */
export const savedReplyErrorText = texts.errorText;
