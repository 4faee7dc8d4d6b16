/**
 * Integrations whose credentials went bad (issue 34 item 6): the one tracker every provider path
 * reports to (the AI connector's model calls, WhatsApp sends, Twilio REST calls). DynamoDB and the
 * logger only, so the voice relay and the webhooks can load it: the flag and its in-app
 * notification are one transaction (adapters/dynamo/integrations.ts).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoIntegrationRepository } from '../adapters/dynamo/integrations.js';
import { logger } from '../adapters/logger.js';
import { createIntegrationHealth } from '../domain/integrations/health.js';
import { newId } from '../lib/ids.js';
import { once } from '../lib/once.js';

export const integrationHealth = once(() =>
  createIntegrationHealth({
    store: new DynamoIntegrationRepository(documentClient(), config().TABLE_NAME),
    newId: (now) => newId(now),
    onError: (message, error, data) => logger.error(message, { ...data, error: error as Error }),
    onFlagged: (n, health) =>
      logger.warn('Integration needs attention: the owner was notified', { userId: n.userId, type: n.subjectId, reason: health.reason, code: health.code }),
  }),
);
