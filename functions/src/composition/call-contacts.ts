/**
 * Wires apply-contact (GET …/apply-contact/preview, POST /api/voice-conversations/{id}/apply-contact
 * and …/undo), served by the contacts route group: the contacts service (phone rules, plan limit,
 * search tokens), the call items and the undo records.
 */
import { randomBytes } from 'node:crypto';
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoApplyUndoStore } from '../adapters/dynamo/apply-contact-undo.js';
import { DynamoCallItems } from '../adapters/dynamo/voice-calls.js';
import { toE164 } from '../domain/contacts/text.js';
import { createApplyContact } from '../domain/voice/apply-contact.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { contactRepository, contactService } from './contacts.js';

export const applyCallContact = once(() =>
  createApplyContact({
    // The call items alone (composition/voice.ts would bring the voice settings and their schemas, the repository its create and list).
    calls: new DynamoCallItems(documentClient(), config().TABLE_NAME),
    undos: new DynamoApplyUndoStore(documentClient(), config().TABLE_NAME),
    newToken: () => randomBytes(18).toString('base64url'),
    contacts: {
      async existing(userId, ids) {
        return new Set((await contactRepository().getMany(userId, ids)).map((x) => x.id));
      },
      async idByPhone(userId, phone) {
        return (await contactRepository().phoneOwners(userId, [phone])).get(phone) ?? null;
      },
      async get(userId, id) {
        const stored = await contactRepository().get(userId, id);
        return stored ? contactService().get(userId, id) : null;
      },
      create: (userId, input) => contactService().create(userId, input, 'manual', 'call'),
      patch: (userId, id, change) => contactService().patch(userId, id, change),
      removeIf: (userId, id, guard) => contactService().removeIf(userId, id, guard),
      toE164: async (userId, input) => toE164(input, await accountCountry()(userId)),
    },
  }),
);
