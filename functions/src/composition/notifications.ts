/**
 * Wires the escalation alerts that send at once: the in-app notification (DynamoDB) plus the
 * e-mail (queued on the outbound-email queue, issue 34: no SES client here) and the WhatsApp text
 * through the user's connection — for the conversations API,
 * the inbound worker and the call-summary worker. The voice webhook and relay only write the
 * notification (notification-store.ts): their alert is sent by the call-summary worker when the
 * call ends (no SES client, nor the texts, in the latency- and size-bound voice bundles).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { logger } from '../adapters/logger.js';
import { createAlertSender } from '../domain/notifications/delivery.js';
import { once } from '../lib/once.js';
import { inboxSettingsRepository } from './conversations.js';
import { graphClient, whatsappCredentials } from './whatsapp.js';
import { escalationAlertsWith } from './notification-store.js';
import { notificationRecipients } from './notification-recipients.js';
import { outboundEmails } from './outbound-email.js';
import { pushAlerts, pushDevices } from './push.js';

const alertSender = once(() =>
  createAlertSender({
    settings: inboxSettingsRepository(),
    users: new DynamoUserRepository(documentClient(), config().TABLE_NAME),
    // Issue 32: each person's own choice of alert e-mails (their alert settings).
    preferences: { get: (userId, personId) => pushDevices().settings(userId, personId) },
    emails: outboundEmails(),
    whatsapp: { connection: whatsappCredentials, sendText: (creds, to, text) => graphClient().sendText(creds, to, text) },
    // Issue 29: the push to the recipient's devices, queued (the web-push worker sends it).
    push: pushAlerts(),
    appUrl: config().APP_URL,
    onError: (message, error, data) => logger.warn(message, { ...data, error: error as Error }),
    onInfo: (message, data) => logger.info(message, { ...data }),
  }),
);

/** Escalation alerts that also send the e-mail/WhatsApp alert at once, to each of the account's people concerned (issue 32). */
export const escalationAlerts = once(() => escalationAlertsWith(alertSender(), notificationRecipients()));
