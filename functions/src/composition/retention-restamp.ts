/**
 * Wires the retention re-stamp (issue 33; domain/privacy/retention-restamp.ts):
 * - queueRetentionRestamp(): a `retention` job on the privacy-jobs queue (PUT /api/privacy/settings
 *   when a retention changed; functions/scripts/stamp-retention.ts for every account);
 * - the job itself: composition/retention-restamp-worker.ts (the privacy-jobs worker's bundle only);
 * - ownerAccounts(): of some user ids, the accounts (a member's PERSON#/MEMBERSHIP pointer names another).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { batchGetItems } from '../adapters/dynamo/batch.js';
import { MEMBERSHIP_SK, personPk } from '../adapters/dynamo/memberships.js';
import type { RetentionRestampJob } from '../contract/jobs.js';
import { jobQueue } from './queues.js';

export const sendRetentionJobs = (jobs: RetentionRestampJob[]) => jobQueue().send('privacy-jobs', jobs);

/** Queues the re-stamp of one account's stored data (from its first page). */
export const queueRetentionRestamp = (accountId: string) => sendRetentionJobs([{ kind: 'retention', accountId }]);

/** Queues the re-stamps of several accounts (the operators' script). */
export const queueRetentionRestamps = (accountIds: readonly string[]) => sendRetentionJobs(accountIds.map((accountId) => ({ kind: 'retention', accountId })));

/** The ids of `userIds` that are accounts: no membership pointer, or one naming their own account (BatchGetItem, 100 a request). */
export async function ownerAccounts(userIds: readonly string[]): Promise<string[]> {
  const unique = [...new Set(userIds)];
  const pointers = await batchGetItems(
    documentClient(),
    config().TABLE_NAME,
    unique.map((id) => ({ pk: personPk(id), sk: MEMBERSHIP_SK })),
    { consistentRead: true, projection: { ProjectionExpression: 'pk, #account', ExpressionAttributeNames: { '#account': 'accountId' } } },
  );
  const memberOf = new Map(pointers.map((p) => [String(p.pk).slice(personPk('').length), String(p.accountId)]));
  return unique.filter((id) => !memberOf.has(id) || memberOf.get(id) === id);
}
