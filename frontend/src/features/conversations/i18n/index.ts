/**
 * The conversations board's strings (key `conversations`; en and es), registered with i18next when
 * the conversations chunk loads, so the login route does not carry them; plus Spanish for the
 * conversation calls' fixed server messages (namespace `server`, keyed by the English text).
 */
import i18n from '../../../i18n';
import en from './en.json';
import es from './es.json';
import esServer from './es-server.json';

i18n.addResourceBundle('en', 'translation', { conversations: en }, true, false);
i18n.addResourceBundle('es', 'translation', { conversations: es }, true, false);
i18n.addResourceBundle('es', 'server', esServer, true, false);

export const conversationStrings = { en, es, esServer };
