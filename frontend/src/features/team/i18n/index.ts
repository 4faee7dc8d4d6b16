/** The team screens' strings (top-level key `team`, en and es), registered when their chunk loads. */
import i18n from '../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { team: en }, true, false);
i18n.addResourceBundle('es', 'translation', { team: es }, true, false);

export const teamStrings = { en, es };
