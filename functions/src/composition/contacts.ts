/** Wires the contacts group: DynamoDB only (contacts, counters, search tokens, usage reservations). */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoContactRepository } from '../adapters/dynamo/contacts.js';
import { logger } from '../adapters/logger.js';
import { createContactService } from '../domain/contacts/service.js';
import type { ContactLinks } from '../domain/contacts/ports.js';
import { once } from '../lib/once.js';
import { usageService } from './usage.js';

/**
 * Conversations and voice calls do not exist yet. When they do, this becomes their adapter:
 * deleting a contact keeps its conversations and calls and clears their `contactId`
 * (a Query on their by-contact index, then UpdateItem REMOVE contactId on each).
 */
const noLinksYet: ContactLinks = { unlinkContact: async () => undefined };

export const contactRepository = once(() => new DynamoContactRepository(documentClient(), config().TABLE_NAME));

export const contactService = once(() =>
  createContactService({
    contacts: contactRepository(),
    usage: usageService(),
    links: noLinksYet,
    defaultCountry: config().CONTACTS_DEFAULT_COUNTRY,
    onError: (message, error) => logger.error(message, { error: error as Error }),
  }),
);
