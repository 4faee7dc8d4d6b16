/**
 * The customer's WhatsApp messages about their booking (issue 30): the confirmation of each change
 * (booked, moved, cancelled — by the agent, the owner or the API) and the reminder before it.
 *
 * - Inside WhatsApp's 24-hour window (the customer's last message to the business, in the booking's
 *   conversation or their latest one) a text in the account's language: "Tu cita de Limpieza dental
 *   (Dra. García) está confirmada para el martes 3 de diciembre a las 10:30."
 * - Outside it, the approved template the owner chose in the booking settings
 *   (confirmationTemplate / reminderTemplate), its body parameters filled in this order — {{1}} the
 *   customer's name, {{2}} the service, {{3}} the staff member or room, {{4}} the date and time in
 *   words, {{5}} what happened ("confirmada", "cambiada", "cancelada") — or by name (customer_name,
 *   service, staff, date_time, status). None chosen: not sent, and the booking's record says why.
 * - Stored in the customer's open conversation like any outbound message (pending, then sent or
 *   failed with WhatsApp's words), counted against the plan's messages, never a takeover: the
 *   agent keeps answering, and reads the reminder when the customer replies to it.
 *
 * A change the customer just asked the agent for is confirmed too: the model's own reply may word
 * the time loosely, this message is the exact record (and the same path serves the owner's drag).
 * Once per change and per reminder (BookingCustomerMessageStore's claim); a send WhatsApp refused
 * for now is released and retried on the queue's schedule, its failed message removed so the
 * conversation shows the one that went out.
 */
import type { Booking, WhatsAppTemplateChoice } from '../../contract/bookings.js';
import { fillTemplate, TEMPLATE_MESSAGE_TYPE, type WhatsAppTemplate } from '../../contract/whatsapp-templates.js';
import { slotLabel } from '../bookings/labels.js';
import { customerMessageKey, type BookingCustomerMessageKind, type BookingCustomerMessageStore, type CustomerMessageOutcome } from '../bookings/customer-messages.js';
import type { BookingChange, BookingChangeListener, Bookings } from '../bookings/ports.js';
import { insideWindow } from '../conversations/service.js';
import type { ConversationRepository, MessageRepository, MessageUsage, ReplyChannels, StoredConversation, StoredMessage } from '../conversations/ports.js';
import { DomainError, LimitExceededError, PaymentRequiredError } from '../errors.js';
import { catalogue } from '../i18n/messages.js';
import { classifyProviderFailure, TransientError } from '../retry.js';
import type { OptOuts } from '../privacy/ports.js';

interface Words {
  created: (service: string, staff: string, when: string) => string;
  moved: (service: string, staff: string, when: string, before: string) => string;
  cancelled: (service: string, staff: string, when: string) => string;
  reminder: (service: string, staff: string, when: string) => string;
  status: Record<BookingCustomerMessageKind, string>;
}

/** The customer's texts; `when` is the slot label ("martes 3 de diciembre a las 10:30"). */
export const bookingMessageTexts = catalogue<Words>(
  {
    created: (service, staff, when) => `Your ${service} appointment (${staff}) is confirmed for ${when}.`,
    moved: (service, staff, when, before) => `Your ${service} appointment (${staff}) has moved to ${when} (it was ${before}).`,
    cancelled: (service, staff, when) => `Your ${service} appointment (${staff}) on ${when} is cancelled.`,
    reminder: (service, staff, when) => `Reminder: your ${service} appointment (${staff}) is on ${when}. Reply to this message if you need to change or cancel it.`,
    status: { created: 'confirmed', moved: 'moved', cancelled: 'cancelled', reminder: 'confirmed' },
  },
  {
    created: (service, staff, when) => `Tu cita de ${service} (${staff}) está confirmada para el ${when}.`,
    moved: (service, staff, when, before) => `Tu cita de ${service} (${staff}) ha cambiado: ahora es el ${when} (antes, el ${before}).`,
    cancelled: (service, staff, when) => `Tu cita de ${service} (${staff}) del ${when} está cancelada.`,
    reminder: (service, staff, when) => `Recordatorio: tienes cita de ${service} (${staff}) el ${when}. Responde a este mensaje si necesitas cambiarla o cancelarla.`,
    status: { created: 'confirmada', moved: 'cambiada', cancelled: 'cancelada', reminder: 'confirmada' },
  },
);

/** The customer's message about `booking` as free text. */
export function bookingMessageText(kind: BookingCustomerMessageKind, booking: Booking, language: unknown, before?: Pick<Booking, 'start'>): string {
  const t = bookingMessageTexts(language);
  const when = slotLabel(booking.start, language, booking.timeZone);
  if (kind === 'moved') return t.moved(booking.serviceName, booking.staffName, when, before ? slotLabel(before.start, language, booking.timeZone) : when);
  return t[kind](booking.serviceName, booking.staffName, when);
}

/** Template parameter names we fill, beside the numbered order {{1}}..{{5}}. */
const NAMED: Record<string, number> = { customer_name: 0, name: 0, service: 1, staff: 2, date_time: 3, when: 3, status: 4 };

/** The template's body parameters for `booking`, in its placeholder order; null when it asks for one we cannot fill. */
export function templateParameters(template: Pick<WhatsAppTemplate, 'parameters'>, kind: BookingCustomerMessageKind, booking: Booking, language: unknown): string[] | null {
  const values = [booking.customer.name, booking.serviceName, booking.staffName, slotLabel(booking.start, language, booking.timeZone), bookingMessageTexts(language).status[kind]];
  const out: string[] = [];
  for (const p of template.parameters) {
    const index = /^\d+$/.test(p) ? Number(p) - 1 : NAMED[p.toLowerCase()];
    const value = index === undefined ? undefined : values[index];
    if (!value) return null;
    out.push(value);
  }
  return out;
}

export interface BookingMessagesDeps {
  bookings: Pick<Bookings, 'get' | 'settings'>;
  /** The account's language for the texts. */
  users: { get(userId: string): Promise<{ language?: string } | null> };
  channels: ReplyChannels;
  conversations: Pick<ConversationRepository, 'findOrOpen' | 'get' | 'touch'>;
  /** The customer's latest conversation by WhatsApp id (any status), without opening one: their last message counts for the window. */
  latestConversation(userId: string, waId: string): Promise<StoredConversation | null>;
  messages: Pick<MessageRepository, 'insertOutbound' | 'markSent' | 'markFailed' | 'remove'>;
  usage: MessageUsage;
  records: BookingCustomerMessageStore;
  /** Issue 33: a customer who opted out gets no confirmations or reminders (recorded as not sent, 'opted_out'); absent = none checked. */
  optOuts?: Pick<OptOuts, 'get'>;
  isNotFound(error: unknown): boolean;
  /** 26-character time-sortable id. */
  newId(now: number): string;
  now?: () => number;
  onError?: (message: string, error: unknown, data?: Record<string, unknown>) => void;
}

const digits = (phone: string) => phone.replace(/\D/g, '');

export function createBookingMessages(deps: BookingMessagesDeps) {
  const now = deps.now ?? Date.now;
  const onError = deps.onError ?? (() => undefined);

  /** Sends one message about `booking` once per `key` (the claim); see the module comment. */
  async function send(userId: string, booking: Booking, kind: BookingCustomerMessageKind, version: string, before?: Booking, options: { finalAttempt?: boolean } = {}): Promise<CustomerMessageOutcome> {
    const key = customerMessageKey(kind, version);
    const at = () => new Date(now()).toISOString();
    if (!(await deps.records.claim(userId, booking._id, key, kind, at()))) return { state: 'duplicate' };
    const notSent = async (reason: Extract<CustomerMessageOutcome, { state: 'not_sent' }>['reason']): Promise<CustomerMessageOutcome> => {
      await deps.records.settle(userId, booking._id, key, { state: 'not_sent', reason, error: null, via: null, conversationId: null, at: at() });
      return { state: 'not_sent', reason };
    };

    const waId = digits(booking.customer.phone);
    if (waId.length < 6) return notSent('no_whatsapp_number');
    const channel = await deps.channels.forUser(userId);
    if (!channel) return notSent('whatsapp_not_connected');
    const [settings, user, named, latest, optedOut] = await Promise.all([
      deps.bookings.settings(userId),
      deps.users.get(userId),
      booking.conversationId ? deps.conversations.get(userId, booking.conversationId) : Promise.resolve(null),
      deps.latestConversation(userId, waId),
      // Beside the other reads: no extra round trip.
      deps.optOuts ? deps.optOuts.get(userId, `+${waId}`) : null,
    ]);
    if (optedOut) return notSent('opted_out');
    const language = user?.language;
    const lastInbound = [named?.lastInboundAt, latest?.lastInboundAt].filter((t): t is string => !!t).sort().at(-1) ?? null;

    // Inside the window: text; outside: the chosen template, or nothing.
    let outgoing: { type: string; body: string; via: 'text' | 'template'; send: (to: string, reference: string) => Promise<{ messageId: string }> };
    if (insideWindow(lastInbound, new Date(now()))) {
      const body = bookingMessageText(kind, booking, language, before);
      outgoing = { type: 'chat', body, via: 'text', send: (to, reference) => channel.sendText(to, body, { reference }) };
    } else {
      const choice: WhatsAppTemplateChoice | null = kind === 'reminder' ? settings.reminderTemplate : settings.confirmationTemplate;
      if (!choice) return notSent('no_template');
      const { sendTemplate } = channel;
      const template = sendTemplate && channel.listTemplates ? (await channel.listTemplates()).find((t) => t.name === choice.name && t.language === choice.language) : undefined;
      const parameters = template ? templateParameters(template, kind, booking, language) : null;
      if (!template || !sendTemplate || !parameters) return notSent('template_not_approved');
      outgoing = {
        type: TEMPLATE_MESSAGE_TYPE,
        body: fillTemplate(template.body, parameters),
        via: 'template',
        send: (to, reference) => sendTemplate.call(channel, to, { name: template.name, language: template.language, parameters, parameterNames: template.parameters, reference }),
      };
    }

    try {
      await deps.usage.reserve(userId, 'messages');
    } catch (error) {
      if (error instanceof LimitExceededError || error instanceof PaymentRequiredError) return notSent('plan_limit');
      await deps.records.release(userId, booking._id, key);
      throw error;
    }

    let conversation: StoredConversation;
    let message: StoredMessage;
    try {
      const stamp = at();
      ({ conversation } = await deps.conversations.findOrOpen(
        userId,
        { waId, phone: booking.customer.phone, name: booking.customer.name, contactId: booking.customer.contactId ?? '', phoneNumberId: channel.phoneNumberId },
        stamp,
      ));
      message = {
        id: `${conversation.id}-${deps.newId(now())}`,
        conversationId: conversation.id,
        waMessageId: '',
        contactId: conversation.contactId,
        type: outgoing.type,
        hasMedia: false,
        fromMe: true,
        from: channel.phoneNumber,
        to: booking.customer.phone,
        phoneNumberId: { id: channel.phoneNumberId, name: channel.phoneNumber },
        status: 'pending',
        timestamp: stamp,
        body: outgoing.body,
        // Written by the product for the agent's side of the conversation: no takeover (a person's reply would pause the AI).
        sentBy: 'agent',
        createdAt: stamp,
      };
      await deps.messages.insertOutbound(userId, message);
      await deps.conversations
        .touch(userId, conversation.id, {
          lastMessage: { type: outgoing.type === 'chat' ? 'text' : outgoing.type, fromMe: true, content: outgoing.body, body: outgoing.body, timestamp: stamp, createdAt: stamp },
          lastMessageAt: stamp,
          messageCountDelta: 1,
        })
        .catch((error: unknown) => onError('Booking message: conversation not touched', error, { userId, bookingId: booking._id }));
    } catch (error) {
      // Nothing was sent: the next try starts again.
      await deps.usage.release(userId, 'messages').catch((e: unknown) => onError('usage release failed', e));
      await deps.records.release(userId, booking._id, key);
      throw error;
    }

    try {
      const { messageId } = await outgoing.send(waId, message.id);
      await deps.messages.markSent(userId, message.id, messageId);
      await deps.records.settle(userId, booking._id, key, { state: 'sent', reason: null, error: null, via: outgoing.via, conversationId: conversation.id, at: at() });
      return { state: 'sent', via: outgoing.via };
    } catch (error) {
      await deps.usage.release(userId, 'messages').catch((e: unknown) => onError('usage release failed', e));
      // WhatsApp unavailable or limiting for now (503, 429, no connection): removed and released, the
      // queue retries the whole send. A send whose answer was lost (504) may have reached the customer: not again.
      const forNow = error instanceof DomainError ? error.status === 503 || error.status === 429 : classifyProviderFailure(error) instanceof TransientError;
      if (forNow && !options.finalAttempt) {
        await deps.messages.remove(userId, message.id).catch((e: unknown) => onError('Booking message: failed try not removed', e));
        await deps.records.release(userId, booking._id, key);
        throw error;
      }
      const words = error instanceof DomainError ? error.message : 'WhatsApp did not take the message';
      await deps.messages.markFailed(userId, message.id, words).catch((e: unknown) => onError('markFailed failed', e));
      await deps.records.settle(userId, booking._id, key, { state: 'failed', reason: null, error: words, via: outgoing.via, conversationId: conversation.id, at: at() });
      return { state: 'failed', error: words };
    }
  }

  /** The booking as it is now; null when it is gone. */
  async function current(userId: string, bookingId: string): Promise<Booking | null> {
    try {
      return await deps.bookings.get(userId, bookingId);
    } catch (error) {
      if (deps.isNotFound(error)) return null;
      throw error;
    }
  }

  return {
    /** The confirmation listener: created, moved, cancelled (a status such as completed or no-show tells the customer nothing). */
    confirmation(): BookingChangeListener {
      return {
        name: 'confirmation',
        async handle(userId: string, change: BookingChange, delivery?: { finalAttempt: boolean }): Promise<void> {
          if (change.kind === 'status') return;
          const now = await current(userId, change.booking._id);
          // Changed again since (moved, cancelled): that change's own confirmation tells the latest, this one would mislead.
          if (!now || now.status !== change.booking.status || now.start !== change.booking.start || now.staffId !== change.booking.staffId) return;
          // The contact as linked now: an agent's booking gets it in this worker (contactLinker runs first), after the change was told.
          const booking = now.customer.contactId && !change.booking.customer.contactId ? { ...change.booking, customer: { ...change.booking.customer, contactId: now.customer.contactId } } : change.booking;
          await send(userId, booking, change.kind, change.booking.updatedAt, change.before, { finalAttempt: delivery?.finalAttempt ?? false });
        },
      };
    },
    /** The reminder of a confirmed booking (the worker checked it is due and current). */
    reminder: (userId: string, booking: Booking, options?: { finalAttempt?: boolean }) => send(userId, booking, 'reminder', booking.start, undefined, options),
    send,
  };
}

export type BookingMessages = ReturnType<typeof createBookingMessages>;
