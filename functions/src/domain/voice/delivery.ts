/**
 * Sends a finished call's AI analysis where the user asked (voice settings'
 * summaryNotificationMethod):
 * - email (issue 34): queued on the outbound-email queue (domain/notifications/emails.ts) by the
 *   call-summary job, never sent from here: the outbound-email worker renders it with
 *   summaryEmailRenderer when it sends, to the account's address at that time, retrying while SES
 *   fails, and keeps its state on the call (`summaryEmail`: the call page shows it, and Resend);
 *   how each send ended is added to `deliveries` (recordSummaryEmail).
 *
 * WhatsApp and webhook record every attempt on the call (CallRepository.addDelivery; the call
 * detail lists them):
 * - whatsapp: a text from the user's own WhatsApp Business number to the phone number of their
 *   profile, one attempt. Meta only delivers free-form text within 24 hours of the recipient's
 *   last message to that business number (error 131047 otherwise): the attempt then fails with
 *   a reason that says so (a message template would be needed).
 * - webhook: POST of SummaryWebhookPayload (JSON) through the outbound guard, signed
 *   `X-AgentDesk-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, up to
 *   SUMMARY_WEBHOOK_ATTEMPTS attempts with exponential backoff (base, 2×base, …). A URL the
 *   guard refuses is not retried. Any 2xx is a success.
 *
 * The handoff notice (issue 16, warm transfer): while a streamed call is being forwarded, the
 * owner gets the reason, the analysis so far (when there is one) and the conversation so far, by
 * WhatsApp when that is their summary method (notifyHandoff), else by e-mail (issue 34: queued
 * like the summary, rendered by handoffEmailRenderer from the call and its stored analysis so far).
 * It is a heads-up for whoever picks up, not the call's summary: it is not recorded among the
 * summary's delivery attempts.
 */
import { createHmac } from 'node:crypto';
import type { Language } from '../../contract/auth.js';
import {
  SUMMARY_SIGNATURE_HEADER,
  SUMMARY_WEBHOOK_ATTEMPTS,
  type CallSummary,
  type SummaryDeliveryAttempt,
  type SummaryMethod,
  type SummaryWebhookPayload,
} from '../../contract/voice.js';
import { catalogue, enumWords, formatDateTime } from '../i18n/messages.js';
import type { EmailRef, EmailRenderer, SettledEmail } from '../notifications/emails.js';
import type { CallRepository, StoredCall } from './ports.js';
import { toVoiceConversation } from './view.js';
import { deliveryReasons } from '../../contract/server-texts.js';
import { escapeHtml } from '../../lib/html.js';

/** Failure reasons, written for the user (contract texts: the call detail shows them in the user's language). */
export { deliveryReasons };

/** Meta's re-engagement error: more than 24 hours since the recipient's last message. */
export const META_WINDOW_CLOSED = 131047;

export interface DeliveryUser {
  email: string;
  name: string;
  /** Profile phone (E.164 or ''). */
  phoneNumber: string;
  language: Language;
  /** IANA zone the e-mail's times are written in (profile `timeZone`; absent = UTC). */
  timeZone?: string;
}

/** The answer of one webhook POST; never throws. `permanent`: retrying cannot help (the guard refused the URL). */
export type WebhookPostResult = { ok: true; status: number } | { ok: false; status?: number; error: string; permanent?: boolean };

/**
 * The user's own WhatsApp Business number, as voice sends from it: the connection is opaque here
 * (voice does not depend on the whatsapp domain; composition/call-summary.ts wires its connection
 * and Graph client). A failed send throws; Meta's error `code` tells the closed 24-hour window.
 */
export interface SummaryWhatsApp<Credentials> {
  connection(userId: string): Promise<{ credentials: Credentials } | null>;
  sendText(credentials: Credentials, to: string, text: string): Promise<unknown>;
}

export interface DeliveryDeps<Credentials = unknown> {
  calls: Pick<CallRepository, 'addDelivery'>;
  users: { get(userId: string): Promise<DeliveryUser | null> };
  whatsapp: SummaryWhatsApp<Credentials>;
  webhook: { post(url: string, body: string, headers: Record<string, string>): Promise<WebhookPostResult> };
  /** The user's summary webhook signing secret (created on first use). */
  signingSecret(userId: string): Promise<string>;
  /** The app's public origin (links to the call detail). */
  appUrl: string;
  /** First webhook retry delay; doubles each time. */
  retryBaseMs: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
  onError?: (message: string, error: unknown) => void;
}

export type HandoffChannel = 'email' | 'whatsapp';
export type HandoffNoticeResult = { ok: true } | { ok: false; error: string };

export interface DeliveryTarget {
  method: SummaryMethod;
  webhookUrl: string;
}

// ---------------------------------------------------------------------------------------------
// Texts

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

const LABELS = catalogue(
  {
    subject: (from: string, duration: string) => `Call summary: ${from} (${duration})`,
    intro: (from: string, at: string, duration: string) => `Call from ${from} on ${at}, ${duration} long.`,
    summary: 'Summary',
    actions: 'Action points',
    none: 'None',
    sentiment: 'Sentiment',
    urgency: 'Urgency',
    tone: 'Tone',
    contact: 'Contact data',
    booking: 'Booking',
    people: 'people',
    open: 'Open the call',
    unknown: 'an unknown number',
  },
  {
    subject: (from: string, duration: string) => `Resumen de llamada: ${from} (${duration})`,
    intro: (from: string, at: string, duration: string) => `Llamada de ${from} el ${at}, duración ${duration}.`,
    summary: 'Resumen',
    actions: 'Acciones',
    none: 'Ninguna',
    sentiment: 'Sentimiento',
    urgency: 'Urgencia',
    tone: 'Tono',
    contact: 'Datos de contacto',
    booking: 'Reserva',
    people: 'personas',
    open: 'Abrir la llamada',
    unknown: 'un número desconocido',
  },
);

interface SummaryText {
  subject: string;
  lines: string[];
  link: string;
}

function summaryText(call: StoredCall, summary: CallSummary, language: Language, appUrl: string, timeZone?: string): SummaryText {
  const l = LABELS(language);
  const words = enumWords(language);
  const from = call.contact?.name ? `${call.contact.name} (${call.phoneNumber})` : call.phoneNumber || l.unknown;
  const duration = formatDuration(call.duration);
  const at = formatDateTime(call.createdAt, language, timeZone);
  const contact = Object.values(summary.contactExtracted).filter((v) => v.trim() !== '').join(' · ');
  const b = summary.bookingExtracted;
  const booking = [b.from, b.to && `→ ${b.to}`, b.numberOfPeople !== null ? `${b.numberOfPeople} ${l.people}` : '', b.note]
    .filter((v) => v && String(v).trim() !== '')
    .join(' ');
  const lines = [
    l.intro(from, at, duration),
    '',
    `${l.summary}: ${summary.quickSummary}`,
    '',
    `${l.actions}:`,
    ...(summary.actionPoints.length ? summary.actionPoints.map((a) => `- ${a}`) : [`- ${l.none}`]),
    '',
    `${l.sentiment}: ${words.sentiment[summary.sentiment]} · ${l.urgency}: ${words.urgency[summary.urgency]} · ${l.tone}: ${summary.tone}`,
    ...(contact ? [`${l.contact}: ${contact}`] : []),
    ...(booking ? [`${l.booking}: ${booking}`] : []),
  ];
  return { subject: l.subject(from, duration), lines, link: `${appUrl.replace(/\/+$/, '')}/voice-conversations/${call.id}` };
}


function emailOf(t: SummaryText, open: string) {
  const text = [...t.lines, '', `${open}: ${t.link}`, '', 'AgentDesk'].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">
${t.lines.map((line) => (line === '' ? '' : `<p style="margin:4px 0">${escapeHtml(line)}</p>`)).join('\n')}
<p><a href="${escapeHtml(t.link)}">${escapeHtml(open)}</a></p>
<p>AgentDesk</p>
</body></html>`;
  return { subject: t.subject, text, html };
}

/** WhatsApp text (4096 characters at most). */
function whatsAppOf(t: SummaryText): string {
  const text = [`*${t.subject}*`, ...t.lines, '', t.link].join('\n');
  return text.length > 4000 ? `${text.slice(0, 3990)}…\n${t.link}` : text;
}

/** `timeZone`: the reader's profile zone the call's time is written in (absent = UTC). */
export function summaryEmail(call: StoredCall, summary: CallSummary, language: Language, appUrl: string, timeZone?: string) {
  return emailOf(summaryText(call, summary, language, appUrl, timeZone), LABELS(language).open);
}

/**
 * Renders a call's summary e-mail when the outbound-email worker sends it (kind 'call-summary'):
 * the stored summary in the owner's language and time zone; null when the call or its completed
 * summary is gone.
 */
export function summaryEmailRenderer(deps: { calls: Pick<CallRepository, 'get'>; appUrl: string }): EmailRenderer {
  return async (ref, owner) => {
    const call = await deps.calls.get(ref.userId, ref.subjectId);
    if (!call?.summary || call.summaryStatus !== 'completed') return null;
    return summaryEmail(call, call.summary, owner.language, deps.appUrl, owner.timeZone);
  };
}

/**
 * How a summary e-mail ended, recorded among the call's summary deliveries (the API's
 * `deliveries` keep one entry per send: attempt n = the n-th send, Resends included).
 */
export function recordSummaryEmail(deps: { calls: Pick<CallRepository, 'addDelivery'> }) {
  return (ref: EmailRef, outcome: SettledEmail): Promise<void> =>
    deps.calls.addDelivery(ref.userId, ref.subjectId, {
      method: 'email',
      attempt: outcome.resends + 1,
      at: outcome.at,
      ok: outcome.state === 'sent',
      ...(outcome.state === 'failed' ? { error: outcome.reason === 'no_address' ? deliveryReasons.noEmail : deliveryReasons.emailFailed } : {}),
    });
}

/**
 * Renders a forwarded call's handoff notice e-mail when the outbound-email worker sends it (kind
 * 'call-handoff'): the call with the analysis so far stored for it, in the owner's language; null
 * when the call is gone.
 */
export function handoffEmailRenderer(deps: { calls: Pick<CallRepository, 'get'>; appUrl: string }): EmailRenderer {
  return async (ref, owner) => {
    const call = await deps.calls.get(ref.userId, ref.subjectId);
    return call ? handoffEmail(call, call.handoffSummary ?? null, owner.language, deps.appUrl) : null;
  };
}

/** WhatsApp text (4096 characters at most). */
export function summaryWhatsAppText(call: StoredCall, summary: CallSummary, language: Language, appUrl: string, timeZone?: string): string {
  return whatsAppOf(summaryText(call, summary, language, appUrl, timeZone));
}

// ---------------------------------------------------------------------------------------------
// The handoff notice

const HANDOFF_LABELS = catalogue(
  {
    subject: (from: string) => `Call being transferred to you: ${from}`,
    intro: (from: string, to: string) => `The AI agent is transferring a call from ${from} to ${to} now.`,
    reason: 'Reason',
    summary: 'Summary so far',
    actions: 'Action points',
    urgency: 'Urgency',
    transcript: 'Conversation so far',
    caller: 'Caller',
    agent: 'Agent',
    open: 'Open the call',
    unknown: 'an unknown number',
  },
  {
    subject: (from: string) => `Llamada transferida a usted: ${from}`,
    intro: (from: string, to: string) => `El agente de IA está transfiriendo ahora una llamada de ${from} a ${to}.`,
    reason: 'Motivo',
    summary: 'Resumen hasta ahora',
    actions: 'Acciones',
    urgency: 'Urgencia',
    transcript: 'Conversación hasta ahora',
    caller: 'Cliente',
    agent: 'Agente',
    open: 'Abrir la llamada',
    unknown: 'un número desconocido',
  },
);

/** Characters of the conversation a notice carries (the newest turns when longer). */
export const HANDOFF_TRANSCRIPT_MAX_CHARS = 2_500;

function handoffText(call: StoredCall, summary: CallSummary | null, language: Language, appUrl: string): SummaryText {
  const l = HANDOFF_LABELS(language);
  const from = call.contact?.name ? `${call.contact.name} (${call.phoneNumber})` : call.phoneNumber || l.unknown;
  let transcript = call.messages.map((t) => `${t.role === 'user' ? l.caller : l.agent}: ${t.content.replace(/\s+/g, ' ').trim()}`).join('\n');
  if (transcript.length > HANDOFF_TRANSCRIPT_MAX_CHARS) transcript = `[…] ${transcript.slice(transcript.length - HANDOFF_TRANSCRIPT_MAX_CHARS)}`;
  const lines = [
    l.intro(from, call.settings.escalationForwardNumber || '—'),
    ...(call.escalationReason ? [`${l.reason}: ${call.escalationReason}`] : []),
    ...(summary
      ? [
          '',
          `${l.summary}: ${summary.quickSummary}`,
          ...(summary.actionPoints.length ? [`${l.actions}:`, ...summary.actionPoints.map((a) => `- ${a}`)] : []),
          `${l.urgency}: ${enumWords(language).urgency[summary.urgency]}`,
        ]
      : []),
    '',
    `${l.transcript}:`,
    ...transcript.split('\n'),
  ];
  return { subject: l.subject(from), lines, link: `${appUrl.replace(/\/+$/, '')}/voice-conversations/${call.id}` };
}

export function handoffEmail(call: StoredCall, summary: CallSummary | null, language: Language, appUrl: string) {
  return emailOf(handoffText(call, summary, language, appUrl), HANDOFF_LABELS(language).open);
}

export function handoffWhatsAppText(call: StoredCall, summary: CallSummary | null, language: Language, appUrl: string): string {
  return whatsAppOf(handoffText(call, summary, language, appUrl));
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` */
export function signSummaryBody(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}

export function webhookPayload(call: StoredCall): SummaryWebhookPayload {
  const { deliveries: _d, summaryStatus: _s, summaryError: _e, summaryEmail: _m, ...view } = toVoiceConversation(call);
  return { event: 'call.summary', call: view };
}

// ---------------------------------------------------------------------------------------------
// Delivery

export function createSummaryDelivery<Credentials>(deps: DeliveryDeps<Credentials>) {
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  async function record(call: StoredCall, attempt: Omit<SummaryDeliveryAttempt, 'at'>): Promise<SummaryDeliveryAttempt> {
    const full: SummaryDeliveryAttempt = { ...attempt, at: now().toISOString() };
    await deps.calls.addDelivery(call.userId, call.id, full);
    return full;
  }

  async function whatsapp(call: StoredCall, summary: CallSummary, user: DeliveryUser | null): Promise<SummaryDeliveryAttempt[]> {
    const fail = async (error: string) => [await record(call, { method: 'whatsapp', attempt: 1, ok: false, error })];
    const to = (user?.phoneNumber ?? '').replace(/\D/g, '');
    if (!to) return fail(deliveryReasons.noProfilePhone);
    const connection = await deps.whatsapp.connection(call.userId);
    if (!connection) return fail(deliveryReasons.noWhatsApp);
    try {
      await deps.whatsapp.sendText(connection.credentials, to, summaryWhatsAppText(call, summary, user?.language ?? 'en', deps.appUrl, user?.timeZone));
      return [await record(call, { method: 'whatsapp', attempt: 1, ok: true })];
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === META_WINDOW_CLOSED) return fail(deliveryReasons.whatsappWindow);
      deps.onError?.('call summary WhatsApp send failed', error);
      const detail = error instanceof Error && error.name === 'GraphError' ? error.message : deliveryReasons.tryLater;
      return fail(deliveryReasons.whatsappFailed(detail));
    }
  }

  async function webhook(call: StoredCall, url: string): Promise<SummaryDeliveryAttempt[]> {
    if (!url) return [await record(call, { method: 'webhook', attempt: 1, ok: false, error: deliveryReasons.noWebhookUrl })];
    const body = JSON.stringify(webhookPayload(call));
    const secret = await deps.signingSecret(call.userId);
    const attempts: SummaryDeliveryAttempt[] = [];
    for (let n = 1; n <= SUMMARY_WEBHOOK_ATTEMPTS; n++) {
      const signature = signSummaryBody(secret, body, Math.floor(now().getTime() / 1000));
      const result = await deps.webhook.post(url, body, {
        'content-type': 'application/json',
        'user-agent': 'AgentDesk-Webhooks/1.0',
        [SUMMARY_SIGNATURE_HEADER]: signature,
      });
      if (result.ok) {
        attempts.push(await record(call, { method: 'webhook', attempt: n, ok: true, status: result.status }));
        break;
      }
      attempts.push(
        await record(call, {
          method: 'webhook',
          attempt: n,
          ok: false,
          ...(result.status !== undefined ? { status: result.status } : {}),
          error: result.error,
        }),
      );
      if (result.permanent) break;
      if (n < SUMMARY_WEBHOOK_ATTEMPTS) await sleep(deps.retryBaseMs * 2 ** (n - 1));
    }
    return attempts;
  }

  /** The handoff notice by WhatsApp (by e-mail it is queued: processHandoffNotice); never throws (the outcome is for the logs). */
  async function notifyHandoff(call: StoredCall, summary: CallSummary | null): Promise<HandoffNoticeResult> {
    const user = await deps.users.get(call.userId);
    const language = user?.language ?? 'en';
    try {
      const to = (user?.phoneNumber ?? '').replace(/\D/g, '');
      if (!to) return { ok: false, error: deliveryReasons.noProfilePhone };
      const connection = await deps.whatsapp.connection(call.userId);
      if (!connection) return { ok: false, error: deliveryReasons.noWhatsApp };
      await deps.whatsapp.sendText(connection.credentials, to, handoffWhatsAppText(call, summary, language, deps.appUrl));
      return { ok: true };
    } catch (error) {
      deps.onError?.('handoff notice by WhatsApp failed', error);
      if ((error as { code?: unknown }).code === META_WINDOW_CLOSED) return { ok: false, error: deliveryReasons.whatsappWindow };
      return { ok: false, error: deliveryReasons.whatsappFailed(deliveryReasons.tryLater) };
    }
  }

  return {
    notifyHandoff,
    /** Sends the summary of a call with summaryStatus 'completed' by WhatsApp or webhook; returns the recorded attempts. */
    async deliver(call: StoredCall, summary: CallSummary, target: DeliveryTarget & { method: Exclude<SummaryMethod, 'email'> }): Promise<SummaryDeliveryAttempt[]> {
      const withSummary: StoredCall = { ...call, summary, summaryStatus: 'completed' };
      switch (target.method) {
        case 'whatsapp':
          return whatsapp(withSummary, summary, await deps.users.get(call.userId));
        case 'webhook':
          return webhook(withSummary, target.webhookUrl);
      }
    },
  };
}

export type SummaryDelivery = ReturnType<typeof createSummaryDelivery>;
