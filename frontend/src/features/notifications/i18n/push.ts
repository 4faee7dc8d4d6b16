/** The Web Push strings (issue 29; key `notifications.push`, en and es) and the push API's server texts in Spanish. */
import i18n from '../../../i18n';
import en from './push.en.json';
import es from './push.es.json';
import esServer from './push.server.es.json';

i18n.addResourceBundle('en', 'translation', { notifications: { push: en } }, true, false);
i18n.addResourceBundle('es', 'translation', { notifications: { push: es } }, true, false);
i18n.addResourceBundle('es', 'server', esServer, true, false);

export const pushStrings = { en, es, esServer };
