/** The "no answer sent" strings (issue 34: markers, "Answer waiting messages"; key `noAnswer`, en and es), registered when the conversations chunk loads them. */
import i18n from '../../../../i18n';
import en from './en.json';
import es from './es.json';
import esServer from './es-server.json';

i18n.addResourceBundle('en', 'translation', { noAnswer: en }, true, false);
i18n.addResourceBundle('es', 'translation', { noAnswer: es }, true, false);
i18n.addResourceBundle('es', 'server', esServer, true, false);

export const noAnswerStrings = { en, es, esServer };
