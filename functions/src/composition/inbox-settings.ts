/**
 * Wires GET/PUT /api/inbox-settings: the settings item and the WhatsApp integration record (only
 * its business number, to read an alert number typed without a prefix in its country). DynamoDB
 * only: no secret box, no Graph client.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoInboxSettingsRepository } from '../adapters/dynamo/inbox-settings.js';
import { DynamoIntegrationRepository } from '../adapters/dynamo/integrations.js';
import { createInboxSettingsService } from '../domain/conversations/inbox-settings.js';
import { WHATSAPP_INTEGRATION } from '../domain/whatsapp/integration.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';

export const inboxSettingsService = once(() => {
  const integrations = new DynamoIntegrationRepository(documentClient(), config().TABLE_NAME);
  return createInboxSettingsService({
    settings: new DynamoInboxSettingsRepository(documentClient(), config().TABLE_NAME),
    accountCountry: accountCountry(),
    businessNumber: async (userId) => {
      const phone = (await integrations.get(userId, WHATSAPP_INTEGRATION))?.settings.phoneNumber;
      return typeof phone === 'string' && phone ? phone : null;
    },
  });
});
