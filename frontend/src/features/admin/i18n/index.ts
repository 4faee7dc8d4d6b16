/** The admin page's strings (top-level key `admin`, en and es), registered when its chunk loads. */
import i18n from '../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { admin: en }, true, false);
i18n.addResourceBundle('es', 'translation', { admin: es }, true, false);

export const adminStrings = { en, es };
