/**
 * The integrations screens' strings (top-level key `integrations`, en and es), registered with
 * i18next when an integrations or agents chunk loads, so the login route does not carry them.
 */
import i18n from '../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { integrations: en }, true, false);
i18n.addResourceBundle('es', 'translation', { integrations: es }, true, false);

export const integrationStrings = { en, es };
