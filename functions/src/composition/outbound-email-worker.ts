/**
 * Wires the outbound-email worker (issue 34 item 4): the delivery state, the account (address,
 * language, time zone at send time), each kind's renderer from its stored subject, and SES with
 * one request per try (the queue's schedule is the retry: adapters/aws/ses.ts sesSingleRequests).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { sesSingleRequests } from '../adapters/aws/ses.js';
import { DynamoBookingMessages } from '../adapters/dynamo/booking-messages.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { SesMailer } from '../adapters/mailer.js';
import { bookingChangeEmailRenderer } from '../domain/bookings/owner-email.js';
import { notificationEmailRenderer } from '../domain/notifications/alert-email.js';
import type { OutboundEmailWorkerDeps } from '../domain/notifications/emails.js';
import { invitationEmailRenderer } from '../domain/team/invitation-email.js';
import { handoffEmailRenderer, recordSummaryEmail, summaryEmailRenderer } from '../domain/voice/delivery.js';
import { logger } from '../adapters/logger.js';
import { once } from '../lib/once.js';
import { workers } from '../routes.js';
import { emailDeliveryStore } from './outbound-email.js';
import { notificationRepository } from './notification-store.js';
import { notificationRecipients } from './notification-recipients.js';
import { accountNameReader, teamRepository } from './team-members.js';
import { callRepository } from './voice.js';

export const outboundEmailWorkerDeps = once((): OutboundEmailWorkerDeps => {
  const c = config();
  return {
    store: emailDeliveryStore(),
    users: new DynamoUserRepository(documentClient(), c.TABLE_NAME),
    // Issue 32: a member's alert e-mail goes to them, while they are a member.
    members: notificationRecipients(),
    renderers: {
      notification: notificationEmailRenderer({ notifications: notificationRepository(), appUrl: c.APP_URL }),
      'call-summary': summaryEmailRenderer({ calls: callRepository(), appUrl: c.APP_URL }),
      'call-handoff': handoffEmailRenderer({ calls: callRepository(), appUrl: c.APP_URL }),
      // Issue 30: a booking the agent made, moved or cancelled (settings.emailOwner).
      'booking-change': bookingChangeEmailRenderer({ notices: new DynamoBookingMessages(documentClient(), c.TABLE_NAME), appUrl: c.APP_URL }),
      // Issue 32: an invitation, to the invitee's address in the language stored on it.
      'team-invitation': invitationEmailRenderer({ team: teamRepository(), accountName: accountNameReader(), appUrl: c.APP_URL }),
    },
    mailer: new SesMailer(sesSingleRequests(), c.MAIL_FROM),
    // The call's `deliveries` keep how each summary send ended (the API's history of deliveries).
    onSettled: { 'call-summary': recordSummaryEmail({ calls: callRepository() }) },
    onError: (message, error, data) => logger.error(message, { ...data, error: error as Error }),
    // A claim lasts as long as the try that made it can live.
    leaseMs: workers['outbound-email'].timeout * 1000,
  };
});
