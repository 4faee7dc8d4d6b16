/**
 * The notification store (DynamoDB only) and escalation alerts without a sender: what the voice
 * webhook and the voice relay load (their alert's e-mail/WhatsApp goes from the call-summary
 * worker when the call ends; the relay must not load zod nor the alert texts). Without the
 * account's people either (issue 32: the webhook writes the account's own person's notification;
 * the call-summary worker, which has them, writes each member's when the call ends — raise.ts).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoNotificationRepository } from '../adapters/dynamo/notifications.js';
import { logger } from '../adapters/logger.js';
import type { AlertSender, Recipients } from '../domain/notifications/ports.js';
import { createEscalationAlerts } from '../domain/notifications/raise.js';
import { newId } from '../lib/ids.js';
import { once } from '../lib/once.js';

export const notificationRepository = once(() => new DynamoNotificationRepository(documentClient(), config().TABLE_NAME));

export function escalationAlertsWith(sender?: AlertSender, recipients?: Recipients) {
  return createEscalationAlerts({
    notifications: notificationRepository(),
    ...(sender ? { sender } : {}),
    ...(recipients ? { recipients } : {}),
    newId: (now) => newId(now),
    onError: (message, error, data) => logger.error(message, { ...data, error: error as Error }),
  });
}

/** The in-app notification only (the voice webhook and relay). */
export const notificationsOnly = once(() => escalationAlertsWith());
