/**
 * The calendar page's strings (top-level key `bookingsCalendar`, en and es), registered with
 * i18next when its chunk loads, so the login route does not carry them.
 */
import i18n from '../../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { bookingsCalendar: en }, true, false);
i18n.addResourceBundle('es', 'translation', { bookingsCalendar: es }, true, false);

export const bookingsCalendarStrings = { en, es };
