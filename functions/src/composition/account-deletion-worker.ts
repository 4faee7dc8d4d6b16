/**
 * The account's deletion job (issue 33; domain/privacy/account-deletion.ts), for the privacy-jobs
 * worker's `accountDeletion` messages: Stripe (the official SDK), Cognito, Twilio, Google Calendar,
 * S3 (ListObjectsV2 + DeleteObjects), DynamoDB (Query + BatchWrite), SES (the mailer directly: the
 * outbound-email queue keeps its state in the account's partition, which is going). Apart from the
 * route's half (account-deletion.ts) so the privacy API bundle leaves all of this out.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { sesRequests } from '../adapters/aws/ses.js';
import { DynamoAccountItems } from '../adapters/dynamo/account-items.js';
import { DynamoGoogleConnectionRepository } from '../adapters/dynamo/google-calendar.js';
import { MEMBERSHIP_SK, personPk } from '../adapters/dynamo/memberships.js';
import { DeleteCommand } from '../adapters/aws/dynamo-document.js';
import { ignoreConditionFailure } from '../adapters/dynamo/conditions.js';
import { KNOWLEDGE_INDEX_PREFIX } from '../adapters/aws/index-snapshots.js';
import { logger } from '../adapters/logger.js';
import { SesMailer } from '../adapters/mailer.js';
import { S3PrefixDeleter } from '../adapters/s3-prefix-delete.js';
import { ATTACHMENT_STAGING_PREFIX, WHATSAPP_MEDIA_PREFIX } from '../contract/whatsapp-media.js';
import { INBOUND_BODY_PREFIX } from '../contract/jobs.js';
import { AGENT_FILES_PREFIX, UPLOAD_STAGING_PREFIX } from '../domain/agents/files.js';
import { CONTACT_JOB_FILES_PREFIX } from '../domain/contacts/job-ports.js';
import { PRIVACY_EXPORTS_PREFIX } from '../domain/privacy/jobs.js';
import { createAccountDeletion, type AccountDeletionJob } from '../domain/privacy/account-deletion.js';
import { classifyProviderFailure, classifySesFailure, LastingError } from '../domain/retry.js';
import { mapLimit } from '../lib/map-limit.js';
import { once } from '../lib/once.js';
import { workers } from '../routes.js';
import { requestDeps } from './account-deletion.js';

/** A run stops taking new work this long before the worker's timeout (a page, the record and the re-queue fit in it). */
const SLICE_MARGIN_SECONDS = 60;
const TWILIO_PARALLEL = 4;

/** Every uploads-bucket prefix of a user id (tenant first in every layout; avatars are per person). */
export function accountObjectPrefixes(userId: string): string[] {
  return [
    `${AGENT_FILES_PREFIX}${userId}/`,
    `${UPLOAD_STAGING_PREFIX}${AGENT_FILES_PREFIX}${userId}/`,
    `${ATTACHMENT_STAGING_PREFIX}${userId}/`,
    `${WHATSAPP_MEDIA_PREFIX}${userId}/`,
    `${KNOWLEDGE_INDEX_PREFIX}${userId}/`,
    `${CONTACT_JOB_FILES_PREFIX}${userId}/`,
    `${INBOUND_BODY_PREFIX}${userId}/`,
    `${PRIVACY_EXPORTS_PREFIX}${userId}/`,
    `avatars/${userId}/`,
  ];
}

const lasting = (error: unknown) => classifyProviderFailure(error) instanceof LastingError;

export const accountDeletionWorker = /* @__PURE__ */ once((): { run(job: AccountDeletionJob, startedAtMs: number): Promise<void> } => {
  // The heavy pieces are imported here, inside the worker's wiring only.
  return lazyWorker();
});

function lazyWorker(): { run(job: AccountDeletionJob, startedAtMs: number): Promise<void> } {
  let built: Promise<ReturnType<typeof createAccountDeletion>> | null = null;
  const build = async () => {
    const c = config();
    const db = documentClient();
    const items = new DynamoAccountItems(db, c.TABLE_NAME);
    const s3 = new S3PrefixDeleter({ bucket: c.UPLOADS_BUCKET, region: c.AWS_REGION, endpoint: c.S3_ENDPOINT });
    const [{ paymentGateway }, { subscriptionRepository }, { identityDeps }, { voiceIntegrationReader }, { twilioAccountApi }, { googleCalendar }] = await Promise.all([
      import('./stripe.js'),
      import('./billing-table.js'),
      import('./identity.js'),
      import('./twilio.js'),
      import('./twilio-integration.js'),
      import('./google-calendar.js'),
    ]);
    const identity = identityDeps().identity;
    return createAccountDeletion({
      ...requestDeps(),
      subscription: {
        async cancelNow(accountId) {
          const stored = await subscriptionRepository().get(accountId);
          // The paid routes close now: their gate reads this item on every request anyway, so a member's
          // access token, valid minutes after its login goes, writes nothing through them (no read added).
          // Before the cancel at Stripe: a stale write (thrown) retries the step with nothing cancelled yet.
          if (stored && stored.status !== 'canceled') {
            await subscriptionRepository().saveStatus(
              accountId,
              { status: 'canceled', providerStatus: stored.stripeStatus ?? 'canceled', created: stored.lastEventCreated ?? 0, updatedAt: new Date().toISOString() },
              stored.version,
            );
          }
          if (!stored?.stripeSubscriptionId || stored.ended) return false;
          const gateway = paymentGateway();
          const current = await gateway.retrieveSubscription(stored.stripeSubscriptionId);
          if (!current || current.providerStatus === 'canceled') return false;
          await gateway.cancelNow(stored.stripeSubscriptionId);
          return true;
        },
      },
      logins: {
        async remove(email) {
          if (!(await identity.findByEmail(email))) return false;
          await identity.signOutEverywhere(email);
          try {
            await identity.deleteUser(email);
          } catch (error) {
            // Deleted meanwhile (a concurrent run): the outcome wanted.
            if (await identity.findByEmail(email)) throw error;
          }
          return true;
        },
      },
      memberships: {
        async drop(personId, accountId) {
          await db
            .send(
              new DeleteCommand({
                TableName: c.TABLE_NAME,
                Key: { pk: personPk(personId), sk: MEMBERSHIP_SK },
                ConditionExpression: 'accountId = :a',
                ExpressionAttributeValues: { ':a': accountId },
              }),
            )
            .catch(ignoreConditionFailure);
        },
      },
      recordings: {
        async deleteAll(accountId, shouldYield) {
          const integration = await voiceIntegrationReader().get(accountId);
          let deleted = 0;
          for await (const page of items.callRecordings(accountId)) {
            if (!integration) {
              logger.warn('Account deletion: calls name recordings but the Twilio integration is gone; not deleted at Twilio', { accountId, recordings: page.length });
              break;
            }
            const creds = { accountSid: integration.accountSid, authToken: integration.authToken };
            await mapLimit(page, TWILIO_PARALLEL, async (r) => {
              try {
                await twilioAccountApi().deleteRecording(creds, r.recordingSid);
              } catch (error) {
                // Credentials the customer revoked at Twilio: nothing of ours can delete it any more.
                if (!lasting(error)) throw error;
                logger.warn('Account deletion: Twilio refused a recording deletion', { accountId, error: String(error) });
              }
              await items.forgetRecording(accountId, r.callId);
            });
            deleted += page.length;
            if (shouldYield()) return { deleted, done: false };
          }
          return { deleted, done: true };
        },
      },
      calendar: {
        async disconnect(accountId) {
          const connected = await new DynamoGoogleConnectionRepository(db, c.TABLE_NAME).get(accountId);
          // Forgets the connection and revokes the grant at Google (best effort, as the route's disconnect).
          await googleCalendar().disconnect(accountId);
          return !!connected;
        },
      },
      objects: {
        async deleteAll(accountId, personIds, shouldYield) {
          let deleted = 0;
          const subjects = [...new Set([accountId, ...personIds])];
          for (const prefix of subjects.flatMap(accountObjectPrefixes)) {
            const out = await s3.deleteUnder(prefix, shouldYield);
            deleted += out.deleted;
            if (!out.done) return { deleted, done: false };
          }
          return { deleted, done: true };
        },
      },
      items: {
        deleteAccount: (userId, shouldYield) => items.deleteAccount(userId, shouldYield),
        deleteEmail: (email) => items.deleteEmail(email),
      },
      mailer: new SesMailer(sesRequests(), c.MAIL_FROM),
      isLastingFailure: (error) => classifySesFailure(error) instanceof LastingError,
      sliceMs: (workers['privacy-jobs'].timeout - SLICE_MARGIN_SECONDS) * 1000,
      log: logger,
    });
  };
  return {
    async run(job, startedAtMs) {
      built ??= build();
      await (await built).run(job, startedAtMs);
    },
  };
}
