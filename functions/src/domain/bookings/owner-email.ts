/**
 * The owner's e-mail about a booking the agent made, moved or cancelled (issue 30, booking settings
 * `emailOwner`), in the owner's language, through the outbound-email queue like every e-mail to
 * the owner (domain/notifications/emails.ts: queued, sent by the outbound-email worker, retried
 * while SES fails, sent once).
 *
 * Each change gets its own small record (what happened, to whom, when: the e-mail's subject, and
 * where its delivery state lives), written once, so a change handled twice queues one e-mail and
 * the e-mail, rendered when it is sent, tells that change even after later ones.
 * Adapter: adapters/dynamo/booking-messages.ts (BKMAIL# items).
 */
import type { Booking, BookingChannel } from '../../contract/bookings.js';
import { escapeHtml } from '../../lib/html.js';
import { catalogue } from '../i18n/messages.js';
import { slotLabel } from './labels.js';
import type { BookingChange, BookingChangeListener, Bookings } from './ports.js';

/** What the e-mail tells: one change of one booking, as it was then. */
export interface BookingChangeNotice {
  userId: string;
  /** The e-mail's subject id (changeNoticeId). */
  id: string;
  bookingId: string;
  kind: 'created' | 'moved' | 'cancelled';
  serviceName: string;
  staffName: string;
  start: string;
  beforeStart: string | null;
  timeZone: string;
  customerName: string;
  customerPhone: string;
  /** Where the change was made. */
  channel: BookingChannel;
  at: string;
}

export interface BookingChangeNoticeStore {
  /** Writes the notice unless it exists (false then). */
  putOnce(notice: BookingChangeNotice): Promise<boolean>;
  get(userId: string, id: string): Promise<BookingChangeNotice | null>;
}

/** The outbound-email producer (composition/outbound-email.ts outboundEmails()), kind 'booking-change'. */
export interface OwnerEmailQueue {
  queue(ref: { kind: 'booking-change'; userId: string; subjectId: string }): Promise<unknown>;
}

/** One id per change: the booking and its version (each stored change moves updatedAt). */
export const changeNoticeId = (change: BookingChange): string => `${change.booking._id}_${change.kind}_${Date.parse(change.booking.updatedAt) || change.booking.updatedAt}`;

export function ownerEmailListener(deps: { bookings: Pick<Bookings, 'settings'>; notices: BookingChangeNoticeStore; emails: OwnerEmailQueue; now?: () => number }): BookingChangeListener {
  return {
    name: 'owner-email',
    async handle(userId: string, change: BookingChange): Promise<void> {
      // The agent's changes only: the owner made their own, and a status (completed, no-show) is theirs too.
      if (change.actor.by !== 'agent' || change.kind === 'status') return;
      if (!(await deps.bookings.settings(userId)).emailOwner) return;
      const b: Booking = change.booking;
      const notice: BookingChangeNotice = {
        userId,
        id: changeNoticeId(change),
        bookingId: b._id,
        kind: change.kind,
        serviceName: b.serviceName,
        staffName: b.staffName,
        start: b.start,
        beforeStart: change.kind === 'moved' ? (change.before?.start ?? null) : null,
        timeZone: b.timeZone,
        customerName: b.customer.name,
        customerPhone: b.customer.phone,
        // Where the agent made this change (a booking made on the calendar may be cancelled on WhatsApp).
        channel: change.actor.channel,
        at: new Date((deps.now ?? Date.now)()).toISOString(),
      };
      await deps.notices.putOnce(notice);
      // Idempotent per subject: a retried change puts the same send back at most (emails.ts).
      await deps.emails.queue({ kind: 'booking-change', userId, subjectId: notice.id });
    },
  };
}

interface Texts {
  subject: Record<BookingChangeNotice['kind'], (customer: string, service: string, when: string) => string>;
  intro: Record<BookingChangeNotice['kind'], string>;
  customer: string;
  service: string;
  staff: string;
  when: string;
  before: string;
  channel: string;
  channels: Record<BookingChannel, string>;
  open: string;
}

const emailTexts = catalogue<Texts>(
  {
    subject: {
      created: (c, s, w) => `New booking: ${c}, ${s}, ${w}`,
      moved: (c, s, w) => `Booking moved: ${c}, ${s}, now ${w}`,
      cancelled: (c, s, w) => `Booking cancelled: ${c}, ${s}, ${w}`,
    },
    intro: { created: 'Your agent booked an appointment.', moved: 'Your agent moved an appointment.', cancelled: 'Your agent cancelled an appointment.' },
    customer: 'Customer',
    service: 'Service',
    staff: 'With',
    when: 'When',
    before: 'Before',
    channel: 'Through',
    channels: { whatsapp: 'WhatsApp', voice: 'a phone call', chat: 'the test chat', dashboard: 'the calendar', api: 'the API' },
    open: 'Open the calendar',
  },
  {
    subject: {
      created: (c, s, w) => `Nueva cita: ${c}, ${s}, ${w}`,
      moved: (c, s, w) => `Cita cambiada: ${c}, ${s}, ahora el ${w}`,
      cancelled: (c, s, w) => `Cita cancelada: ${c}, ${s}, ${w}`,
    },
    intro: { created: 'Tu agente ha reservado una cita.', moved: 'Tu agente ha cambiado una cita.', cancelled: 'Tu agente ha cancelado una cita.' },
    customer: 'Cliente',
    service: 'Servicio',
    staff: 'Con',
    when: 'Cuándo',
    before: 'Antes',
    channel: 'Por',
    channels: { whatsapp: 'WhatsApp', voice: 'una llamada', chat: 'el chat de prueba', dashboard: 'el calendario', api: 'la API' },
    open: 'Abrir el calendario',
  },
);

/** The e-mail of one notice in `language`. */
export function bookingChangeEmail(notice: BookingChangeNotice, language: unknown, appUrl: string): { subject: string; text: string; html: string } {
  const t = emailTexts(language);
  const when = slotLabel(notice.start, language, notice.timeZone);
  const customer = notice.customerName || notice.customerPhone;
  const subject = t.subject[notice.kind](customer, notice.serviceName, when);
  const rows: Array<[string, string]> = [
    [t.customer, notice.customerPhone && notice.customerName ? `${notice.customerName} (${notice.customerPhone})` : customer],
    [t.service, notice.serviceName],
    [t.staff, notice.staffName],
    [t.when, when],
    ...(notice.beforeStart ? ([[t.before, slotLabel(notice.beforeStart, language, notice.timeZone)]] as Array<[string, string]>) : []),
    [t.channel, t.channels[notice.channel] ?? notice.channel],
  ];
  const link = `${appUrl.replace(/\/$/, '')}/bookings?booking=${encodeURIComponent(notice.bookingId)}`;
  const text = [t.intro[notice.kind], '', ...rows.map(([k, v]) => `${k}: ${v}`), '', `${t.open}: ${link}`, '', 'AgentDesk'].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222">
<p style="margin:4px 0"><strong>${escapeHtml(t.intro[notice.kind])}</strong></p>
${rows.map(([k, v]) => `<p style="margin:4px 0">${escapeHtml(k)}: ${escapeHtml(v)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}">${escapeHtml(t.open)}</a></p>
<p>AgentDesk</p>
</body></html>`;
  return { subject, text, html };
}

/** Renders kind 'booking-change' when the outbound-email worker sends it; null when the notice is gone. */
export function bookingChangeEmailRenderer(deps: { notices: Pick<BookingChangeNoticeStore, 'get'>; appUrl: string }) {
  return async (ref: { userId: string; subjectId: string }, owner: { language: string }) => {
    const notice = await deps.notices.get(ref.userId, ref.subjectId);
    return notice ? bookingChangeEmail(notice, owner.language, deps.appUrl) : null;
  };
}
