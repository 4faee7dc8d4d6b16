/**
 * web-push consumer (issue 29 item 6): a notification's job fans out to one job per subscribed
 * device (when the owner pushes that event); a device's job sends the push in the owner's language
 * (domain/notifications/push.ts). A gone subscription (404/410) is removed; while the push service
 * fails the message comes back on the retry schedule; after the last try it is logged.
 */
import { logger } from '../adapters/logger.js';
import { pushWorkerDeps } from '../composition/push-worker.js';
import { runPushJob } from '../domain/notifications/push.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker('web-push', async (job, record, { receiveCount, finalAttempt }) => {
  const outcome = await runPushJob(pushWorkerDeps(), job, { finalAttempt });
  logger.info('web-push processed', { messageId: record.messageId, userId: job.userId, notificationId: job.notificationId, deviceId: job.deviceId, test: job.test === true, receiveCount, outcome });
});
