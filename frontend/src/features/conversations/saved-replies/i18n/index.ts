/** The saved replies' strings (top-level key `savedReplies`, en and es), registered when the conversations chunk loads them. */
import i18n from '../../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { savedReplies: en }, true, false);
i18n.addResourceBundle('es', 'translation', { savedReplies: es }, true, false);

export const savedReplyStrings = { en, es };
