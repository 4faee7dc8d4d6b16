/**
 * The privacy-jobs worker's half of a person's erasure and export (issue 33, domain/privacy/jobs.ts):
 * the parts of composition/privacy-parts.ts walked step by step, the job items, the next slice
 * queued before the function's timeout, the export's ZIP streamed to the uploads bucket, the
 * activity log's entry when done.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoJobAccountSettings } from '../adapters/dynamo/contact-jobs.js';
import { S3AgentFiles } from '../adapters/s3-agent-files.js';
import { openS3ZipExport, uploadsObjectReader } from '../adapters/s3-privacy-export.js';
import { privacyJobRunner as createRunner } from '../domain/privacy/jobs.js';
import { once } from '../lib/once.js';
import { workers } from '../routes.js';
import { activityLog } from './activity.js';
import { privacyJobs, sendPrivacyJob } from './privacy.js';
import { personDataParts } from './privacy-parts.js';
import { uploadsPresigner } from './user-view.js';

/** A slice stops this long before the worker's timeout (a step's last batch, the record and the re-queue fit in it). */
const SLICE_MARGIN_SECONDS = 60;

export const privacyJobRunner = once(() => {
  const settings = new DynamoJobAccountSettings(documentClient(), config().TABLE_NAME);
  return createRunner({
    jobs: privacyJobs(),
    parts: personDataParts(),
    queue: { send: (job) => sendPrivacyJob(job) },
    openExport: (key) => openS3ZipExport(uploadsPresigner(), key, { readObject: uploadsObjectReader(uploadsPresigner()) }),
    // An erased person's earlier export (a DELETE of an absent object is fine).
    deleteExport: (key) => new S3AgentFiles(uploadsPresigner()).delete(key),
    activity: activityLog(),
    language: async (accountId) => ((await settings.settings(accountId)).language === 'es' ? 'es' : 'en'),
    sliceMs: (workers['privacy-jobs'].timeout - SLICE_MARGIN_SECONDS) * 1000,
  });
});
