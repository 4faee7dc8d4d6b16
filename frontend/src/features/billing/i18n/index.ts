/**
 * The billing screens' strings (en, es), registered with i18next when a billing screen loads, so
 * the login route does not carry them. Import this module from every billing entry point.
 */
import i18n from '../../../i18n';
import en from './en.json';
import es from './es.json';
/** Server texts of the billing calls (messages, plan descriptions and features), by English text. */
import esServer from './es-server.json';

i18n.addResourceBundle('en', 'translation', { billing: en }, true, false);
i18n.addResourceBundle('es', 'translation', { billing: es }, true, false);
i18n.addResourceBundle('es', 'server', esServer, true, false);

export const billingStrings = { en, es };
