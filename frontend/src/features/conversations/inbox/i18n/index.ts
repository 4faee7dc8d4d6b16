/** The inbox strings (issue 17: who answers, assignment, unread, inbox settings; key `inbox`, en and es), registered when the conversations chunk loads them. */
import i18n from '../../../../i18n';
import en from './en.json';
import es from './es.json';
import esServer from './es-server.json';

i18n.addResourceBundle('en', 'translation', { inbox: en }, true, false);
i18n.addResourceBundle('es', 'translation', { inbox: es }, true, false);
i18n.addResourceBundle('es', 'server', esServer, true, false);

export const inboxStrings = { en, es, esServer };
