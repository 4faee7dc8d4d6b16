/** The Google Calendar card's strings (top-level key `googleCalendar`, en and es). */
import i18n from '../../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { googleCalendar: en }, true, false);
i18n.addResourceBundle('es', 'translation', { googleCalendar: es }, true, false);

export const googleCalendarStrings = { en, es };
