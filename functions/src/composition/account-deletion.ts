/**
 * Wires the account's deletion (issue 33; domain/privacy/account-deletion.ts): the route's half,
 * accountDeletionService() (POST /api/privacy/account-deletion): the team's items (who owns the
 * account now), the deletion item, the privacy-jobs queue. DynamoDB and SQS only. The job's half
 * (Stripe, Cognito, Twilio, Google Calendar, S3, SES) is account-deletion-worker.ts, a module of
 * its own so the privacy API bundle does not carry it (bundles are one file: a dynamic import
 * is inlined, and the modules it reaches keep their top-level code).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoAccountDeletions } from '../adapters/dynamo/account-deletions.js';
import { createAccountDeletionRequests, type AccountDeletionDeps } from '../domain/privacy/account-deletion.js';
import { once } from '../lib/once.js';
import { jobQueue } from './queues.js';
import { teamRepository } from './team-members.js';

export interface AccountDeletionApi {
  /** Check the caller is the owner, record the request and queue the deletion job. */
  request(accountId: string, personId: string): Promise<void>;
}

const deletions = once(() => new DynamoAccountDeletions(documentClient(), config().TABLE_NAME));

/** The route's dependencies; the worker adds the rest. */
export function requestDeps(): Pick<AccountDeletionDeps, 'deletions' | 'people' | 'queue'> {
  return {
    deletions: deletions(),
    people: {
      ownerId: async (accountId) => (await teamRepository().team(accountId)).ownerId,
      people: (accountId) => teamRepository().list(accountId),
    },
    queue: { enqueue: (job, delaySeconds) => jobQueue().send('privacy-jobs', [{ kind: 'accountDeletion', ...job }], delaySeconds) },
  };
}

export const accountDeletionService = once((): AccountDeletionApi => createAccountDeletionRequests(requestDeps()));
