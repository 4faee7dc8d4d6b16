/** Wires the web-push worker (issue 29): devices, notifications, the owner's language, and the sender (web-push + the outbound guard). */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { logger } from '../adapters/logger.js';
import { guardedFetch } from '../adapters/outbound/guarded-fetch.js';
import { createWebPushSender } from '../adapters/push/web-push-sender.js';
import type { PushWorkerDeps } from '../domain/notifications/push.js';
import { once } from '../lib/once.js';
import { notificationRepository } from './notification-store.js';
import { notificationRecipients } from './notification-recipients.js';
import { pushDevices, pushKeys, pushQueue } from './push.js';

export const pushWorkerDeps = once(
  (): PushWorkerDeps => ({
    devices: pushDevices(),
    notifications: notificationRepository(),
    users: new DynamoUserRepository(documentClient(), config().TABLE_NAME),
    // Issue 32: a member's push goes while they are a member, in their language.
    members: notificationRecipients(),
    sender: createWebPushSender({ keys: pushKeys(), fetch: guardedFetch }),
    queue: pushQueue(),
    appUrl: config().APP_URL,
    onInfo: (message, data) => logger.info(message, { ...data }),
    onError: (message, error, data) => logger.warn(message, { ...data, error: error as Error }),
  }),
);
