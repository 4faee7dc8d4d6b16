/**
 * The dashboard's strings (key `dashboard`; en and es), registered with i18next when the dashboard
 * chunk loads, so the login route does not carry them.
 */
import i18n from '../../../i18n';
import en from './en.json';
import es from './es.json';
// The getting-started checklist's strings load with the dashboard's.
import '../getting-started/i18n';

i18n.addResourceBundle('en', 'translation', { dashboard: en }, true, false);
i18n.addResourceBundle('es', 'translation', { dashboard: es }, true, false);

export const dashboardStrings = { en, es };
