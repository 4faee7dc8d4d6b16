/**
 * The Message Hub's strings (top-level key `messageHub`, en and es), registered with i18next when
 * the messages chunk loads, so the login route does not carry them. `server` holds the Spanish of
 * the WhatsApp contract's texts the hub can receive, keyed like `whatsappMessages`.
 */
import { whatsappMessages } from '@agentdesk/functions/contract';
import i18n from '../../../i18n';
import { contractTexts } from '../../../i18n/contractTexts';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { messageHub: en }, true, false);
i18n.addResourceBundle('es', 'translation', { messageHub: es }, true, false);

export const messageHubStrings = { en, es };

const texts = contractTexts([{ prefix: 'messageHub.server', contract: whatsappMessages, keys: en.server }]);

/** A WhatsApp contract text (a server message, a message's failure reason) in the UI language. */
export const translateHubText = texts.translate;

/** The server's message for a failed call (translated when known), else the spec's fallback. */
export const hubErrorText = texts.errorText;
