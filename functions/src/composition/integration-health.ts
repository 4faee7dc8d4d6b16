/**
 * Integrations whose credentials went bad (issue 34 item 6): the tracker every provider path
 * reports to (the AI connector's model calls, WhatsApp sends, Twilio REST calls). The flag and its
 * in-app notification are one transaction (adapters/dynamo/integrations.ts).
 *
 * - integrationHealth(): DynamoDB and the logger only, so the voice relay and the webhooks can
 *   load it: the owner is told in the app.
 * - integrationHealthWithEmail() (integration-health-email.ts): also queues the notification's e-mail on the outbound-email
 *   queue when the owner gets alerts by e-mail (InboxSettings.alertByEmail), for the functions
 *   allowed to queue e-mail (routes.ts 'queue:outbound-email': the whatsapp-inbound worker and the
 *   conversations API, where a revoked WhatsApp token or a refused key shows first).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoIntegrationRepository } from '../adapters/dynamo/integrations.js';
import { logger } from '../adapters/logger.js';
import type { IntegrationHealth } from '../contract/integration-health.js';
import type { InboxSettingsRepository } from '../domain/conversations/ports.js';
import { createIntegrationHealth } from '../domain/integrations/health.js';
import type { OutboundEmails } from '../domain/notifications/emails.js';
import type { StoredNotification } from '../domain/notifications/ports.js';
import { newId } from '../lib/ids.js';
import { once } from '../lib/once.js';

interface EmailSide {
  settings: Pick<InboxSettingsRepository, 'get'>;
  emails: Pick<OutboundEmails, 'queue'>;
}

/** The tracker, with the e-mail side when `email` is given (integration-health-email.ts). */
export function integrationHealthTracker(email?: () => EmailSide) {
  return createIntegrationHealth({
    store: new DynamoIntegrationRepository(documentClient(), config().TABLE_NAME),
    newId: (now) => newId(now),
    onError: (message, error, data) => logger.error(message, { ...data, error: error as Error }),
    async onFlagged(n: StoredNotification, health: IntegrationHealth) {
      logger.warn('Integration needs attention: the owner was notified', { userId: n.userId, type: n.subjectId, reason: health.reason, code: health.code });
      if (!email) return;
      const { settings, emails } = email();
      if (!(await settings.get(n.userId)).alertByEmail) return;
      // Queued, not sent: it waits for SES; rendered from the notification when it is sent.
      await emails.queue({ kind: 'notification', userId: n.userId, subjectId: n.id });
    },
  });
}

/** The owner told in the app (any function). */
export const integrationHealth = once(() => integrationHealthTracker());

