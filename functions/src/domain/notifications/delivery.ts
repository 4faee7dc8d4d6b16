/**
 * The e-mail and WhatsApp side of an escalation alert (issue 17): an e-mail to the account's
 * address when InboxSettings.alertByEmail (queued on the outbound-email queue, issue 34: it
 * waits for SES; alertTexts renders it when the worker sends it), and a WhatsApp text to alertWhatsappNumber through the
 * user's own WhatsApp connection when one is set; in the user's language (en/es). Never throws:
 * each failure is logged (Meta refuses a free-form text outside the 24-hour window: logged,
 * templates are another piece of work).
 *
 * Issue 32: called once per person's notification. The e-mail goes to that person (the worker
 * reads their address and language when it sends) unless they turned alert e-mails off in their
 * own alert settings, and the push to their devices; the WhatsApp
 * text to alertWhatsappNumber — the owner's own number, one per account — goes with the account's
 * own person's notification only, so it is sent once per escalation and only when the owner is
 * among the recipients (not for a conversation assigned to someone else).
 */
import type { InboxSettings } from '../../contract/inbox.js';
import { integrationHealthReasons, isIntegrationHealthReason, type IntegrationHealthReason } from '../../contract/integration-health.js';
import { isNoAnswerReason, type NoAnswerReason } from '../../contract/no-answer.js';
import type { NotificationKind } from '../../contract/notifications.js';
import { catalogue } from '../i18n/messages.js';
import type { OutboundEmails } from './emails.js';
import type { AlertSender, StoredNotification } from './ports.js';
import { escapeHtml } from '../../lib/html.js';

type Language = 'en' | 'es';

export interface AlertUser {
  email: string;
  language?: string;
}

export interface AlertSenderDeps<Credentials = unknown> {
  settings: { get(userId: string): Promise<Pick<InboxSettings, 'alertByEmail' | 'alertWhatsappNumber'>> };
  users: { get(userId: string): Promise<AlertUser | null> };
  /**
   * Issue 32: each person's own choice of alert e-mails (their alert settings, `email`), over the
   * account's alertByEmail (the business-wide switch). Absent: the account's switch alone.
   */
  preferences?: { get(userId: string, personId: string): Promise<{ email: boolean }> };
  /** The outbound-email queue (issue 34): the alert's e-mail is queued, then sent and retried by the outbound-email worker. */
  emails: Pick<OutboundEmails, 'queue'>;
  /** The user's own WhatsApp Business connection and a text send (a failed send throws). */
  whatsapp: {
    connection(userId: string): Promise<{ credentials: Credentials } | null>;
    sendText(credentials: Credentials, to: string, text: string): Promise<unknown>;
  };
  /**
   * Web Push (issue 29): queues the notification's push to its person's devices (the web-push
   * worker checks which events that person pushes and sends to each device). Absent: no push.
   */
  push?: { queue(notification: StoredNotification): Promise<void> };
  /** The app's public origin (links in the alert). */
  appUrl: string;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
  onInfo?: (message: string, data?: Record<string, unknown>) => void;
}

const LABELS: Record<Language, { subject: Record<NotificationKind, (name: string) => string>; reason: string; open: Record<NotificationKind, string>; unknown: string }> = {
  en: {
    subject: {
      conversation_escalated: (n) => `Conversation escalated: ${n}`,
      call_escalated: (n) => `Call escalated: ${n}`,
      integration_needs_attention: (n) => `${n} needs attention`,
      messages_waiting: () => 'Customer messages were not answered',
    },
    reason: 'Reason',
    open: { conversation_escalated: 'Open the conversation', call_escalated: 'Open the call', integration_needs_attention: 'Open Integrations', messages_waiting: 'Answer waiting messages' },
    unknown: 'Unknown contact',
  },
  es: {
    subject: {
      conversation_escalated: (n) => `Conversación escalada: ${n}`,
      call_escalated: (n) => `Llamada escalada: ${n}`,
      integration_needs_attention: (n) => `${n} requiere atención`,
      messages_waiting: () => 'Mensajes de clientes sin responder',
    },
    reason: 'Motivo',
    open: { conversation_escalated: 'Abrir la conversación', call_escalated: 'Abrir la llamada', integration_needs_attention: 'Abrir Integraciones', messages_waiting: 'Responder mensajes pendientes' },
    unknown: 'Contacto desconocido',
  },
};

/** An integration's needs-attention reason in words (issue 34; the UI's are in frontend/src/i18n/server.es.json). */
const integrationReasonWords = catalogue<Readonly<Record<IntegrationHealthReason, string>>>(integrationHealthReasons, {
  whatsapp_token_invalid: 'El token de acceso de WhatsApp ha caducado o fue revocado.',
  whatsapp_permission_missing: 'Al token de acceso de WhatsApp le falta un permiso que necesita, o se lo quitaron.',
  whatsapp_account_locked: 'Meta bloqueó o restringió la cuenta de WhatsApp Business, así que no se puede enviar ningún mensaje.',
  openai_key_invalid: 'OpenAI rechazó la clave de API: es incorrecta, o fue eliminada o revocada.',
  openai_permission_missing: 'OpenAI no permite usar el modelo con esta clave de API (su proyecto, sus permisos o el país).',
  openai_quota_exhausted: 'La cuenta de OpenAI se ha quedado sin crédito o alcanzó su límite de gasto.',
  twilio_credentials_invalid: 'Twilio rechazó el Account SID o el auth token: puede que el token se haya cambiado.',
});

/** Why customers' messages were not answered (issue 34, messages_waiting; the UI's are in the notifications' i18n). */
const noAnswerWords = catalogue<Readonly<Record<NoAnswerReason, string>>>(
  {
    unavailable: 'The AI model could not be reached, so the agent sent no answer. When it is back, answer the waiting messages from Conversations.',
    credentials: 'The AI provider refused the API key, so the agent sent no answer. Fix the key in Integrations, then answer the waiting messages from Conversations.',
    permission: 'The API key may not use the AI model, so the agent sent no answer. Check the ChatGPT integration, then answer the waiting messages from Conversations.',
    not_found: 'The AI model was not found, so the agent sent no answer. Choose another model in Integrations, then answer the waiting messages from Conversations.',
    invalid_request: 'The AI model refused the request, so the agent sent no answer. Answer the waiting messages from Conversations.',
    whatsapp_unavailable: "WhatsApp was unavailable, so the agent's replies were not sent. When it is back, answer the waiting messages from Conversations to send them.",
    taken_over: 'A customer wrote while a person was answering and got no reply. Answer the waiting messages from Conversations.',
  },
  {
    unavailable: 'No se pudo contactar con el modelo de IA, así que el agente no envió respuesta. Cuando vuelva, responde los mensajes pendientes desde Conversaciones.',
    credentials: 'El proveedor de IA rechazó la clave de API, así que el agente no envió respuesta. Corrige la clave en Integraciones y responde los mensajes pendientes desde Conversaciones.',
    permission: 'La clave de API no puede usar el modelo de IA, así que el agente no envió respuesta. Revisa la integración de ChatGPT y responde los mensajes pendientes desde Conversaciones.',
    not_found: 'No se encontró el modelo de IA, así que el agente no envió respuesta. Elige otro modelo en Integraciones y responde los mensajes pendientes desde Conversaciones.',
    invalid_request: 'El modelo de IA rechazó la petición, así que el agente no envió respuesta. Responde los mensajes pendientes desde Conversaciones.',
    whatsapp_unavailable: 'WhatsApp no estaba disponible, así que las respuestas del agente no se enviaron. Cuando vuelva, responde los mensajes pendientes desde Conversaciones para enviarlas.',
    taken_over: 'Un cliente escribió mientras atendía una persona y no recibió respuesta. Responde los mensajes pendientes desde Conversaciones.',
  },
);

/** A notification's reason as the owner reads it: an escalation's as written, an integration's and unanswered messages' in words. */
export function reasonText(n: Pick<StoredNotification, 'kind' | 'reason'>, language: string | undefined): string {
  if (n.kind === 'messages_waiting' && isNoAnswerReason(n.reason)) return noAnswerWords(language)[n.reason];
  return n.kind === 'integration_needs_attention' && isIntegrationHealthReason(n.reason) ? integrationReasonWords(language)[n.reason] : n.reason;
}


/** Where the alert's link opens the subject in the app. */
export function alertLink(appUrl: string, n: Pick<StoredNotification, 'kind' | 'subjectId'>): string {
  const base = appUrl.replace(/\/+$/, '');
  if (n.kind === 'integration_needs_attention') return `${base}/integrations`;
  // The board with its "Answer waiting messages" banner (issue 34).
  if (n.kind === 'messages_waiting') return `${base}/conversations?waiting=1`;
  return n.kind === 'call_escalated' ? `${base}/voice-conversations/${encodeURIComponent(n.subjectId)}` : `${base}/conversations?open=${encodeURIComponent(n.subjectId)}`;
}

export function alertTexts(n: StoredNotification, language: string | undefined, appUrl: string) {
  const l = LABELS[language === 'es' ? 'es' : 'en'];
  const name = n.contactName.trim() || l.unknown;
  const subject = l.subject[n.kind](name);
  const link = alertLink(appUrl, n);
  const reasonLine = `${l.reason}: ${reasonText(n, language)}`;
  const open = l.open[n.kind];
  const text = [subject, '', reasonLine, '', `${open}: ${link}`, '', 'AgentDesk'].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">
<p style="margin:4px 0"><strong>${escapeHtml(subject)}</strong></p>
<p style="margin:4px 0">${escapeHtml(reasonLine)}</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(open)}</a></p>
<p>AgentDesk</p>
</body></html>`;
  const whatsapp = [`*${subject}*`, reasonLine, '', link].join('\n').slice(0, 4000);
  return { subject, text, html, whatsapp };
}

export function createAlertSender<Credentials>(deps: AlertSenderDeps<Credentials>): AlertSender {
  const onError = deps.onError ?? (() => undefined);
  const onInfo = deps.onInfo ?? (() => undefined);
  return {
    async send(n) {
      const data = { userId: n.userId, ...(n.personId ? { personId: n.personId } : {}), notificationId: n.id, kind: n.kind };
      // A member's notification (issue 32): their e-mail and push; the account's own person's: as before.
      const member = n.personId !== undefined && n.personId !== n.userId;
      try {
        const [settings, user] = await Promise.all([deps.settings.get(n.userId), member ? null : deps.users.get(n.userId)]);
        const email = async () => {
          if (!settings.alertByEmail) return;
          if (deps.preferences && !(await deps.preferences.get(n.userId, n.personId ?? n.userId)).email) return;
          if (member) return void (await deps.emails.queue({ kind: 'notification', userId: n.userId, subjectId: n.id, personId: n.personId! }));
          if (!user?.email) return onInfo('Escalation alert: the account has no e-mail address', data);
          // Queued, not sent: it waits for SES (rendered from the notification when it is sent).
          await deps.emails.queue({ kind: 'notification', userId: n.userId, subjectId: n.id });
        };
        const whatsapp = async () => {
          const to = member ? '' : settings.alertWhatsappNumber.replace(/\D/g, '');
          if (!to) return;
          const texts = alertTexts(n, user?.language, deps.appUrl);
          const connection = await deps.whatsapp.connection(n.userId);
          if (!connection) return onInfo('Escalation alert: no WhatsApp connection to send the alert from', data);
          await deps.whatsapp.sendText(connection.credentials, to, texts.whatsapp);
        };
        const push = async () => deps.push?.queue(n);
        const results = await Promise.allSettled([email(), whatsapp(), push()]);
        results.forEach((r, i) => {
          if (r.status === 'rejected') onError(`Escalation alert by ${['e-mail', 'WhatsApp', 'Web Push'][i]} failed`, r.reason, data);
        });
      } catch (error) {
        onError('Escalation alert could not be sent', error, data);
      }
    },
  };
}
