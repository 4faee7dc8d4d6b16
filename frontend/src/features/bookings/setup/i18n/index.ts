/** The bookings setup's strings (top-level key `bookingSetup`, en and es), registered when its chunk loads. */
import i18n from '../../../../i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { bookingSetup: en }, true, false);
i18n.addResourceBundle('es', 'translation', { bookingSetup: es }, true, false);

export const bookingSetupStrings = { en, es };
