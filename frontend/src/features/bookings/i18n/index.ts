/** The bookings contract's texts (top-level key `bookings`, en and es): `messages` keyed like bookingMessages, `templates` its texts with values. */
import i18n from '../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { bookings: en }, true, false);
i18n.addResourceBundle('es', 'translation', { bookings: es }, true, false);

export const bookingStrings = { en, es };
