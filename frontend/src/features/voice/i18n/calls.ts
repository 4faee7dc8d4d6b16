/**
 * The call log and call detail strings (key `voiceCalls`; en and es), registered with i18next when a
 * call-log chunk loads, so the login route does not carry them; plus Spanish for the call logs'
 * fixed server messages (namespace `server`, keyed by the English text). The voice settings
 * screens register their own key beside this one.
 */
import i18n from '../../../i18n';
import en from './calls.en.json';
import es from './calls.es.json';
import esServer from './calls.es-server.json';

i18n.addResourceBundle('en', 'translation', { voiceCalls: en }, true, false);
i18n.addResourceBundle('es', 'translation', { voiceCalls: es }, true, false);
i18n.addResourceBundle('es', 'server', esServer, true, false);

export const voiceCallStrings = { en, es, esServer };
