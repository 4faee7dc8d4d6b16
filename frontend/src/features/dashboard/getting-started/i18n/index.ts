/**
 * The getting-started checklist's strings (key `gettingStarted`; en and es), registered with the
 * dashboard's, plus the Spanish of its one server message (the PUT body's validation text).
 */
import i18n from '../../../../i18n';
import { gettingStartedMessages } from '@agentdesk/functions/contract';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { gettingStarted: en }, true, false);
i18n.addResourceBundle('es', 'translation', { gettingStarted: es }, true, false);
i18n.addResourceBundle('es', 'server', { [gettingStartedMessages.hiddenInvalid]: 'Oculto debe ser verdadero o falso' }, true, false);

export const gettingStartedStrings = { en, es };
