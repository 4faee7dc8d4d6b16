/**
 * The retention re-stamp job (issue 33; domain/privacy/retention-restamp.ts), for the privacy-jobs
 * worker: the table's Queries and conditional UpdateItems, the media objects' tags
 * (ListObjectsV2 + PutObjectTagging over fetch), the settings read without the store's minute cache
 * (a change just made applies at once), the next slice queued before the timeout.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoPrivacySettingsStore } from '../adapters/dynamo/privacy-settings.js';
import { DynamoRetentionRestamp } from '../adapters/dynamo/retention-restamp.js';
import { logger } from '../adapters/logger.js';
import { S3RetentionTagger } from '../adapters/s3-object-tags.js';
import { WHATSAPP_MEDIA_PREFIX } from '../contract/whatsapp-media.js';
import { createRetentionRestamp } from '../domain/privacy/retention-restamp.js';
import { once } from '../lib/once.js';
import { workers } from '../routes.js';
import { accountCountry } from './account-country.js';
import { sendRetentionJobs } from './retention-restamp.js';

/** A slice stops taking new pages this long before the worker's timeout (a page and the re-queue fit in it). */
const SLICE_MARGIN_SECONDS = 60;

export const retentionRestampWorker = /* @__PURE__ */ once(() => {
  const c = config();
  const db = documentClient();
  return createRetentionRestamp({
    store: new DynamoRetentionRestamp(db, c.TABLE_NAME),
    media: new S3RetentionTagger({ bucket: c.UPLOADS_BUCKET, region: c.AWS_REGION, endpoint: c.S3_ENDPOINT }),
    mediaPrefix: (accountId) => `${WHATSAPP_MEDIA_PREFIX}${accountId}/`,
    // A store per read: its minute cache would hand a worker that read the settings just before a change the old days.
    retention: async (accountId) => (await new DynamoPrivacySettingsStore(db, c.TABLE_NAME, accountCountry()).get(accountId)).retention,
    queue: { send: (job) => sendRetentionJobs([job]) },
    sliceMs: (workers['privacy-jobs'].timeout - SLICE_MARGIN_SECONDS) * 1000,
    log: logger,
  });
});
