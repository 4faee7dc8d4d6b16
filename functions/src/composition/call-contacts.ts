/**
 * Wires apply-contact (POST /api/voice-conversations/{id}/apply-contact), served by the contacts
 * route group: the contacts service (phone rules, plan limit, search tokens) and the call items.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoCallRepository } from '../adapters/dynamo/voice-calls.js';
import { createApplyContact } from '../domain/voice/apply-contact.js';
import { once } from '../lib/once.js';
import { contactRepository, contactService } from './contacts.js';

export const applyCallContact = once(() =>
  createApplyContact({
    // The call repository alone (composition/voice.ts would bring the voice settings and their schemas).
    calls: new DynamoCallRepository(documentClient(), config().TABLE_NAME),
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
      create: (userId, input) => contactService().create(userId, { ...input, customFields: {} }),
      update: (userId, id, input) => contactService().update(userId, id, input),
    },
  }),
);
