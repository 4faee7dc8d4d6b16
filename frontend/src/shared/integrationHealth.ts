/**
 * An integration that needs attention (issue 34: its credentials were refused) and a message that
 * failed for it, as every screen says them: the reason in the UI language (the server's English
 * sentence, contract integrationHealthReasons, translated through the `server` namespace), the
 * provider's code ("Meta: 190") and how to fix it (en/es here). Used by the integrations page, the
 * conversation's failed messages and the notification bell.
 */
import {
  HEALTH_REASON_INTEGRATION,
  INTEGRATION_PROVIDERS,
  integrationHealthReasons,
  isIntegrationHealthReason,
  type ConversationMessage,
  type IntegrationHealthReason,
} from '@agentdesk/functions/contract';
import i18n, { serverText, translateMessage } from '../i18n';
import en from './i18n/integrationHealth.en.json';
import es from './i18n/integrationHealth.es.json';

i18n.addResourceBundle('en', 'translation', en, true, false);
i18n.addResourceBundle('es', 'translation', es, true, false);

export const integrationHealthStrings = { en, es };

/** The reason in words, in the UI language (a key it does not know: as it came). */
export function healthReasonText(reason: string): string {
  return isIntegrationHealthReason(reason) ? serverText(integrationHealthReasons[reason]) : reason;
}

/** What to do about it, in the UI language. */
export function healthFixText(reason: IntegrationHealthReason): string {
  return i18n.t(`integrationHealth.fix.${reason}`);
}

/** "Meta: 190 — El token de acceso de WhatsApp ha caducado o fue revocado." */
export function healthLine(reason: IntegrationHealthReason, code: string | undefined): string {
  const words = healthReasonText(reason);
  if (!code) return words;
  const provider = INTEGRATION_PROVIDERS[HEALTH_REASON_INTEGRATION[reason]];
  return `${i18n.t('integrationHealth.providerCode', { provider, code })} — ${words}`;
}

/**
 * Why an outgoing WhatsApp message failed, in the UI language: refused credentials as the reason
 * with Meta's code ("Meta: 190 — …"), another refusal as its text with Meta's code when it had one.
 */
export function sendFailureText(message: Pick<ConversationMessage, 'error' | 'errorCode' | 'errorReason'>): string {
  if (message.errorReason) return healthLine(message.errorReason, message.errorCode);
  const text = translateMessage(message.error);
  return message.errorCode ? `${INTEGRATION_PROVIDERS['whatsapp-business']}: ${message.errorCode} — ${text}` : text;
}
