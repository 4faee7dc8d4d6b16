/**
 * The bookings core as the first-contact functions use it (issue 30: the agent's booking tools
 * in the Gather call loop, the streamed relay, the Test Agent chat and the WhatsApp worker): the
 * store, the profile's zone, country and language, Google free/busy and the events queue, but
 * no contact directory and no phone parsing. The customer is the channel's number (E.164
 * already), and the booking-events worker links the booking's contact (contactLinker): the
 * contacts service, libphonenumber and its metadata (~80 KB) stay out of those bundles.
 * The owner's and the API's core (composition/bookings.ts) adds both.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoBookingStore } from '../adapters/dynamo/bookings.js';
import { DynamoJobAccountSettings } from '../adapters/dynamo/contact-jobs.js';
import { logger } from '../adapters/logger.js';
import type { Bookings } from '../domain/bookings/ports.js';
import { createBookings, type BookingsDeps } from '../domain/bookings/service.js';
import { once } from '../lib/once.js';
import { googleBusyTimes } from './google-calendar.js';
import { bookingEvents } from './queues.js';

export const bookingStore = /* @__PURE__ */ once(() => new DynamoBookingStore(documentClient(), config().TABLE_NAME));

/** The profile's language, country and time zone (one GetItem, projected). */
const accountSettings = /* @__PURE__ */ once(() => new DynamoJobAccountSettings(documentClient(), config().TABLE_NAME));

/** What every core is wired with (composition/bookings.ts adds the contacts). */
export const bookingCoreDeps = /* @__PURE__ */ once(
  (): BookingsDeps => ({
    store: bookingStore(),
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

export const agentBookings = /* @__PURE__ */ once((): Bookings => createBookings(bookingCoreDeps()));
