/** The bell's strings (key `notifications`; en and es), registered when the app shell loads. */
import i18n from '../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { notifications: en }, true, false);
i18n.addResourceBundle('es', 'translation', { notifications: es }, true, false);

export const notificationStrings = { en, es };

// Web Push (issue 29): its own files, registered with the bell's.
export { pushStrings } from './push';
