/**
 * Wires a person's lookup, erasure and export (issue 33, domain/privacy): the API half
 * (privacyService, for handlers/privacy.ts); the privacy-jobs worker's half is privacy-worker.ts
 * (the ZIP writer stays out of the API bundle).
 * The person's data is walked through the parts of composition/privacy-parts.ts; jobs are items
 * of the table (adapters/dynamo/privacy-jobs.ts); an export is a ZIP streamed to the uploads
 * bucket under an expiring prefix, downloaded through a short-lived presigned link.
 */
import { config } from '../config.js';
import type { PrivacyJob } from '../contract/jobs.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoApiKeyRepository } from '../adapters/dynamo/api-keys.js';
import { DynamoPrivacyJobs } from '../adapters/dynamo/privacy-jobs.js';
import { attachmentDisposition } from '../adapters/s3-agent-files.js';
import { createPrivacyService, type PrivacyApi, type RequestActor } from '../domain/privacy/service.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { contactRepository } from './contacts.js';
import { personDataParts } from './privacy-parts.js';
import { jobQueue } from './queues.js';
import { teamMembers, teamRepository } from './team-members.js';
import { uploadsPresigner } from './user-view.js';

export type { PrivacyApi, RequestActor };

export const privacyJobs = once(() => new DynamoPrivacyJobs(documentClient(), config().TABLE_NAME));
export const sendPrivacyJob = (job: PrivacyJob) => jobQueue().send('privacy-jobs', [job]);

export const privacyService = once((): PrivacyApi => {
  const apiKeys = new DynamoApiKeyRepository(documentClient(), config().TABLE_NAME);
  return createPrivacyService({
    contacts: contactRepository(),
    accountCountry: accountCountry(),
    members: teamMembers(),
    parts: personDataParts(),
    jobs: privacyJobs(),
    queue: { send: (job) => sendPrivacyJob(job) },
    async actorName(accountId, actor) {
      if (actor.kind === 'apiKey') return (await apiKeys.list(accountId)).find((k) => k.id === actor.id)?.name ?? '';
      return (await teamRepository().names(accountId, [actor.id])).get(actor.id)?.name ?? '';
    },
    downloadUrl: (key, fileName, expiresInSeconds) =>
      uploadsPresigner().downloadUrl(key, { contentDisposition: attachmentDisposition(fileName), contentType: 'application/zip' }, { expiresInSeconds }),
  });
});
