/** The API keys page's strings (top-level key `apiKeys`, en and es), registered when its chunk loads. */
import i18n from '../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { apiKeys: en }, true, false);
i18n.addResourceBundle('es', 'translation', { apiKeys: es }, true, false);

export const apiKeyStrings = { en, es };
