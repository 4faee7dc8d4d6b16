/**
 * Wires the booking-events worker (issue 30): what follows a booking's change, and the reminders
 * the booking-reminders schedule found due.
 *
 * ## Adding a listener
 *
 * A feature that must act on every booking change (a calendar sync, counters, a webhook…):
 * 1. write a `BookingChangeListener` (domain/bookings/ports.ts) in its domain area: `name` (in the
 *    logs) and `handle(userId, change)`. It must be idempotent — a change can reach it twice (a
 *    queue retry re-runs every listener when any one failed) — and order-proof: changes of one
 *    booking may arrive out of order, so read the booking as it is now (`bookings().get`) when the
 *    current state matters. Throw to be retried on the queue's schedule (domain/retry.ts); return
 *    for anything retrying cannot fix;
 * 2. add it to `bookingChangeListeners()` below (one line, built with its own composition);
 * 3. add what it touches to `needs` of workers['booking-events'] in routes.ts (the grants).
 * Listeners run in the list's order, each even when an earlier one failed (change-runner.ts).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoConversationRepository } from '../adapters/dynamo/conversations.js';
import { DynamoMessageRepository } from '../adapters/dynamo/messages.js';
import { DynamoReminderStore } from '../adapters/dynamo/booking-reminders.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { logger } from '../adapters/logger.js';
import { contactLinker } from '../domain/bookings/customers.js';
import { ownerEmailListener } from '../domain/bookings/owner-email.js';
import type { BookingChangeListener } from '../domain/bookings/ports.js';
import { reminderScheduler, sendDueReminder } from '../domain/bookings/reminders.js';
import { NotFoundError } from '../domain/errors.js';
import { createBookingMessages } from '../domain/whatsapp/booking-messages.js';
import { createWhatsAppReplyChannels } from '../domain/whatsapp/reply-channel.js';
import { newId } from '../lib/ids.js';
import { once } from '../lib/once.js';
import { bookingOutcomes } from './booking-outcomes.js';
import { customerMessageRecords } from './booking-customer-messages.js';
import { bookingCustomers, bookings, bookingStore } from './bookings.js';
import { bookingTimeline } from './contact-timeline.js';
import { googleCalendarListener } from './google-calendar.js';
import { integrationHealthWithEmail } from './integration-health-email.js';
import { outboundEmails } from './outbound-email.js';
import { optOutStore } from './opt-out-store.js';
import { privacySettingsStore } from './privacy-settings-store.js';
import { usageService } from './usage.js';
import { graphClient, whatsappCredentials } from './whatsapp.js';

const isNotFound = (error: unknown) => error instanceof NotFoundError;
const onError = (message: string, error: unknown, data?: Record<string, unknown>) => logger.error(message, { ...data, error: error as Error });

/** The customer-message records and the owner's change notices (one adapter, BKMSG# / BKMAIL# items). */
export const bookingMessageStore = customerMessageRecords;
export const reminderStore = once(() => new DynamoReminderStore(documentClient(), config().TABLE_NAME));

const conversations = once(() => {
  const messages = new DynamoMessageRepository(documentClient(), config().TABLE_NAME, Date.now, false, privacySettingsStore());
  return { messages, conversations: new DynamoConversationRepository(documentClient(), config().TABLE_NAME, messages) };
});

/** The customer's WhatsApp confirmations and reminders (domain/whatsapp/booking-messages.ts). */
export const customerBookingMessages = once(() => {
  const { messages, conversations: repository } = conversations();
  return createBookingMessages({
    bookings: bookings(),
    users: new DynamoUserRepository(documentClient(), config().TABLE_NAME),
    channels: createWhatsAppReplyChannels({ connection: whatsappCredentials, graph: graphClient(), health: integrationHealthWithEmail() }),
    conversations: repository,
    latestConversation: (userId, waId) => repository.latestFor(userId, waId),
    messages,
    usage: usageService(),
    records: bookingMessageStore(),
    // Issue 33: an opted-out customer is not messaged (the booking's record says why).
    optOuts: optOutStore(),
    isNotFound,
    newId: (now) => newId(now),
    onError,
  });
});

/** Every listener of a booking change, in order (see "Adding a listener" above). */
export const bookingChangeListeners = once((): BookingChangeListener[] => [
  // The customer's contact, found or created by phone, for a booking the agent made (its core has no contacts: agent-bookings.ts).
  contactLinker({ customers: bookingCustomers(), bookings: bookings(), store: bookingStore(), isNotFound }),
  // The customer's WhatsApp confirmation (created, moved, cancelled).
  customerBookingMessages().confirmation(),
  // The reminder item follows the booking (moved with it, dropped when cancelled).
  reminderScheduler({ bookings: bookings(), store: reminderStore(), isNotFound }),
  // The owner's e-mail for the agent's changes (settings.emailOwner), through the outbound-email queue.
  ownerEmailListener({ bookings: bookings(), notices: bookingMessageStore(), emails: outboundEmails() }),
  // The dashboard's "bookings made by the agent" counters (domain/bookings/outcomes.ts).
  bookingOutcomes(),
  // The customer's contact timeline: booked, moved, cancelled (domain/bookings/contact-timeline.ts).
  bookingTimeline(),
  // The booking as an event in the owner's Google Calendar (domain/bookings/google-calendar.ts).
  googleCalendarListener(),
]);

/** A due reminder, sent once if the booking is still as it was (domain/bookings/reminders.ts). */
export const dueReminder = (userId: string, reminder: { bookingId: string; start: string; at?: string }, finalAttempt: boolean) =>
  sendDueReminder({ bookings: bookings(), store: reminderStore(), isNotFound, send: (u, booking) => customerBookingMessages().reminder(u, booking, { finalAttempt }) }, userId, reminder);

export { onError as bookingEventsError };
