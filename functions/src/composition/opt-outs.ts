/** Customers' opt-outs (issue 33): the OPTOUT# items, and the owner's PUT /api/privacy/opt-out. */
import { isContactId } from '../domain/contacts/contact-id.js';
import { e164OrThrow } from '../domain/contacts/directory.js';
import { createOptOutService, type OptOutService } from '../domain/privacy/opt-outs.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { contactRepository } from './contacts.js';
import { optOutStore } from './opt-out-store.js';

export { optOutStore };

export type OptOutApi = Pick<OptOutService, 'setByOwner'>;

export const optOutService = once(
  (): OptOutApi =>
    createOptOutService({
      optOuts: optOutStore(),
      contactPhone: async (accountId, contactId) => (isContactId(contactId) ? ((await contactRepository().get(accountId, contactId))?.phoneNumber ?? null) : null),
      e164: async (accountId, typed) => e164OrThrow(typed, await accountCountry()(accountId)),
    }),
);
