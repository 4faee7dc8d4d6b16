/**
 * The agents list and agent detail strings (top-level key `agents`, en and es), registered with
 * i18next when an agents chunk loads, so the login route does not carry them. The agent screens
 * also show integration texts (AI improve, the ChatGPT requirement), so those come along.
 */
import i18n from '../../../i18n';
import '../../integrations/i18n';
import en from './en.json';
import es from './es.json';

i18n.addResourceBundle('en', 'translation', { agents: en }, true, false);
i18n.addResourceBundle('es', 'translation', { agents: es }, true, false);

export const agentStrings = { en, es };
