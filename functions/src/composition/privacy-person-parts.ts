/**
 * The calls, bookings and contact parts of a person's data (issue 33), wired for
 * composition/privacy-parts.ts: DynamoDB, the account's Twilio credentials (the integration's auth
 * token opened) with Twilio's REST API, the Google Calendar events, the reminders, and the contacts
 * domain's delete.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoReminderStore } from '../adapters/dynamo/booking-reminders.js';
import { DynamoJobAccountSettings } from '../adapters/dynamo/contact-jobs.js';
import { DynamoBookingsPart } from '../adapters/dynamo/privacy/bookings.js';
import { DynamoCallsPart } from '../adapters/dynamo/privacy/calls.js';
import { ContactPart } from '../adapters/dynamo/privacy/contact.js';
import { logger } from '../adapters/logger.js';
import type { PersonDataPart } from '../domain/privacy/ports.js';
import { contactService } from './contacts.js';
import { googleBookingEventDeleter } from './google-calendar.js';
import { optOutStore } from './opt-out-store.js';
import { voiceIntegrationReader } from './twilio.js';
import { twilioAccountApi } from './twilio-integration.js';

export const callsPart = (): PersonDataPart =>
  new DynamoCallsPart({
    db: documentClient(),
    tableName: config().TABLE_NAME,
    twilio: twilioAccountApi(),
    credentials: async (accountId) => {
      const integration = await voiceIntegrationReader().get(accountId);
      return integration ? { accountSid: integration.accountSid, authToken: integration.authToken } : null;
    },
    locale: new DynamoJobAccountSettings(documentClient(), config().TABLE_NAME),
    // Recordings stay at Twilio when the account removed its Twilio integration: nothing here can reach them.
    onUnreachable: (accountId, recordings) => logger.warn('Erasure: call recordings left at Twilio (no Twilio integration)', { accountId, recordings }),
  });

export const bookingsPart = (): PersonDataPart =>
  new DynamoBookingsPart({
    db: documentClient(),
    tableName: config().TABLE_NAME,
    reminders: new DynamoReminderStore(documentClient(), config().TABLE_NAME),
    deleteGoogleEvent: (accountId, bookingId) => googleBookingEventDeleter()(accountId, bookingId),
  });

export const contactPart = (): PersonDataPart => new ContactPart({ contacts: contactService(), optOuts: optOutStore() });
