/**
 * Wires Web Push (issue 29 item 6, domain/notifications/push.ts): the devices and settings
 * (DynamoDB), the VAPID keys (Secrets Manager in AWS, VAPID_* locally), the web-push queue (SQS).
 * The API and the producers load no web-push library: only the worker (push-worker.ts) sends.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { SecretsManagerReader, secretsManagerService } from '../adapters/aws/secrets-manager.js';
import { DynamoPushDeviceRepository } from '../adapters/dynamo/push-devices.js';
import { cachedPushKeys } from '../adapters/push/vapid-keys.js';
import { createPushAlerts, createPushService, type PushJobQueue } from '../domain/notifications/push.js';
import { once } from '../lib/once.js';
import { jobQueue } from './queues.js';

export const pushDevices = once(() => new DynamoPushDeviceRepository(documentClient(), config().TABLE_NAME));

export const pushKeys = once(() => {
  const c = config();
  return cachedPushKeys({
    secretId: c.PUSH_SECRET_ID,
    reader: () => new SecretsManagerReader(secretsManagerService()),
    env: { publicKey: c.VAPID_PUBLIC_KEY, privateKey: c.VAPID_PRIVATE_KEY, subject: c.VAPID_SUBJECT },
  });
});

export const pushQueue = (): PushJobQueue => ({ enqueue: (jobs) => jobQueue().send('web-push', jobs) });

export const pushService = once(() => createPushService({ devices: pushDevices(), keys: pushKeys(), queue: pushQueue() }));

/** The alert sender's push: one web-push job per notification whose kind pushes. */
export const pushAlerts = once(() => createPushAlerts(pushQueue()));
