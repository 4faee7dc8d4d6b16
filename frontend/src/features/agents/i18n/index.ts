/**
 * The agents list, agent detail and detail-tab strings (keys `agents`, `agentTabs`; en and es), registered with
 * i18next when an agents chunk loads, so the login route does not carry them. The API texts the
 * agent screens show (agents and integrations contract messages) live in shared/apiTexts.
 */
import i18n from '../../../i18n';
import en from './en.json';
import es from './es.json';
// The detail tabs keep their strings beside them (top-level key `agentTabs`).
import tabsEn from '../tabs/i18n.en.json';
import tabsEs from '../tabs/i18n.es.json';

i18n.addResourceBundle('en', 'translation', { agents: en, ...tabsEn }, true, false);
i18n.addResourceBundle('es', 'translation', { agents: es, ...tabsEs }, true, false);

export const agentStrings = { en, es };
