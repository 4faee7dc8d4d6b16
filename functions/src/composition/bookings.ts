/**
 * Wires the bookings core (issue 30): the DynamoDB store, the contact directory (the customer
 * found or created by phone through the contacts service), the profile's zone, country and
 * language. `events` (the booking-events queue) and `externalBusy` (Google Calendar free/busy)
 * are optional ports, wired here when those exist.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoBookingStore } from '../adapters/dynamo/bookings.js';
import { DynamoJobAccountSettings } from '../adapters/dynamo/contact-jobs.js';
import { logger } from '../adapters/logger.js';
import { createBookingCustomers } from '../domain/bookings/customers.js';
import type { Bookings } from '../domain/bookings/ports.js';
import { createBookings, type BookingsDeps } from '../domain/bookings/service.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { contactRepository, contactService } from './contacts.js';
import { googleBusyTimes } from './google-calendar.js';
import { bookingEvents } from './queues.js';

export const bookingStore = once(() => new DynamoBookingStore(documentClient(), config().TABLE_NAME));

/** The profile's language, country and time zone (one GetItem, projected). */
const accountSettings = once(() => new DynamoJobAccountSettings(documentClient(), config().TABLE_NAME));

/** What the core is wired with (the bookings bench builds a loader from it without the events queue). */
export const bookingDeps = once(
  (): BookingsDeps => ({
    store: bookingStore(),
    customers: createBookingCustomers({
      accountCountry: (userId) => accountCountry()(userId),
      contactByPhone: async (userId, phone) => (await contactRepository().phoneOwners(userId, [phone])).get(phone) ?? null,
      createContact: async (userId, contact) => (await contactService().create(userId, { ...contact, email: '', customFields: {} }))._id,
    }),
    // A profile that never chose a country reads phones in the deployment's default one (as the contacts do).
    account: async (userId) => {
      const account = await accountSettings().settings(userId);
      return { ...account, country: account.country || config().CONTACTS_DEFAULT_COUNTRY };
    },
    // Google Calendar free/busy of the chosen calendars (a Google failure leaves availability without it).
    externalBusy: googleBusyTimes(),
    // Each stored change, on the booking-events queue (composition/booking-events.ts: confirmations, reminders, e-mail…).
    events: bookingEvents(),
    onError: (message, error) => logger.error(message, { error: error as Error }),
  }),
);

export const bookings = once((): Bookings => createBookings(bookingDeps()));
