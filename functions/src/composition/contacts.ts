/**
 * Wires the contacts group: DynamoDB only (contacts, counters, search tokens, usage reservations,
 * and the WhatsApp conversations: unlinked when their contact is deleted, read by Import from WhatsApp).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoContactRepository } from '../adapters/dynamo/contacts.js';
import { DynamoJobAccountSettings } from '../adapters/dynamo/contact-jobs.js';
import { DynamoWhatsAppCustomers } from '../adapters/dynamo/whatsapp-customers.js';
import { logger } from '../adapters/logger.js';
import { createContactService } from '../domain/contacts/service.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { optOutStore } from './opt-out-store.js';
import { usageService } from './usage.js';

export const contactRepository = once(() => new DynamoContactRepository(documentClient(), config().TABLE_NAME));

/** The WhatsApp customers' pointers only (not the whole conversation repository: bundle size). */
const whatsappCustomers = once(() => new DynamoWhatsAppCustomers(documentClient(), config().TABLE_NAME));

/** The profile's language and time zone (the export's words and dates). */
const accountSettings = once(() => new DynamoJobAccountSettings(documentClient(), config().TABLE_NAME));

export const contactService = once(() =>
  createContactService({
    contacts: contactRepository(),
    usage: usageService(),
    // Deleting a contact keeps its conversations and clears their contactId (voice calls: not built yet).
    links: whatsappCustomers(),
    whatsapp: whatsappCustomers(),
    defaultCountry: config().CONTACTS_DEFAULT_COUNTRY,
    accountCountry: accountCountry(),
    accountLocale: (userId) => accountSettings().settings(userId),
    onError: (message, error) => logger.error(message, { error: error as Error }),
    // Issue 33: the contact shows a customer's opt-out.
    optOuts: optOutStore(),
  }),
);
