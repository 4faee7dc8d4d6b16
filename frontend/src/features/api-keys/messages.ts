/** The API keys page's server texts (apiKeyMessages) in the UI language. */
import { apiKeyMessages } from '@agentdesk/functions/contract';
import { contractTexts } from '../../i18n/contractTexts';
import { apiKeyStrings } from './i18n';

const texts = contractTexts([{ prefix: 'apiKeys.messages', contract: apiKeyMessages, keys: apiKeyStrings.en.messages }]);

/** A server text in the UI language. */
export const translateApiKeyText = texts.translate;

/** The server's message (translated) when there is one, else the fallback. */
export const apiKeyErrorText = texts.errorText;
