/**
 * The voice settings page's strings (top-level key `voiceSettings`, en and es), registered with
 * i18next when its chunk loads, so the login route does not carry them.
 */
import i18n from '../../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { voiceSettings: en }, true, false);
i18n.addResourceBundle('es', 'translation', { voiceSettings: es }, true, false);

export const voiceSettingsStrings = { en, es };
