/** The calendar feed panel's strings (top-level key `bookingFeed`, en and es), registered when its chunk loads. */
import i18n from '../../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { bookingFeed: en }, true, false);
i18n.addResourceBundle('es', 'translation', { bookingFeed: es }, true, false);

export const bookingFeedStrings = { en, es };
