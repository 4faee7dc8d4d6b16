/**
 * The outbound e-mail producer (issue 34 item 4, domain/notifications/emails.ts): the delivery
 * state on the subject's item (DynamoDB) and the outbound-email queue (SQS). No SES client: a
 * function that only queues e-mails needs 'queue:outbound-email' and 'table:write', not 'mail'.
 *
 *     await outboundEmails().queue({ kind: 'notification', userId, subjectId: notification.id });
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoEmailDeliveryStore } from '../adapters/dynamo/email-deliveries.js';
import { logger } from '../adapters/logger.js';
import { createOutboundEmails } from '../domain/notifications/emails.js';
import { newId } from '../lib/ids.js';
import { once } from '../lib/once.js';
import { jobQueue } from './queues.js';

export const emailDeliveryStore = once(() => new DynamoEmailDeliveryStore(documentClient(), config().TABLE_NAME));

export const outboundEmails = once(() =>
  createOutboundEmails({
    store: emailDeliveryStore(),
    queue: { enqueue: (job) => jobQueue().send('outbound-email', [job]) },
    newId: (now) => newId(now),
    onError: (message, error, data) => logger.error(message, { ...data, error: error as Error }),
  }),
);
