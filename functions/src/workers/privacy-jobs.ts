/**
 * privacy-jobs consumer (issue 33), one job per message: a person's erasure or export
 * (domain/privacy/jobs.ts), the account's deletion (composition/account-deletion-worker.ts), or its stored
 * data re-dated to a new retention (composition/retention-restamp-worker.ts).
 *
 * A failure is retried by the queue (each step is idempotent: a retry goes on from the first
 * unfinished one). On the job's last try a person's job that fails again is marked failed with a
 * reason the owner reads (its lock released, so the owner can ask again) and acknowledged; the
 * give-up delivery (every try died: a crash, a timeout) marks it failed the same way.
 */
import { accountDeletionWorker } from '../composition/account-deletion-worker.js';
import { privacyJobRunner } from '../composition/privacy-worker.js';
import { retentionRestampWorker } from '../composition/retention-restamp-worker.js';
import { logger } from '../adapters/logger.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker(
  'privacy-jobs',
  async (job, _record, delivery) => {
    const startedAtMs = Date.now();
    if (job.kind === 'accountDeletion') return accountDeletionWorker().run(job, startedAtMs);
    if (job.kind === 'retention') return void (await retentionRestampWorker().run(job, startedAtMs));
    try {
      await privacyJobRunner().run(job, startedAtMs);
    } catch (error) {
      if (!delivery.finalAttempt) throw error;
      logger.error('Privacy job failed on its last try', { jobId: job.jobId, error: error as Error });
      await privacyJobRunner().fail(job);
    }
  },
  {
    giveUp: async (job) => {
      if (job.kind === 'person') await privacyJobRunner().fail(job);
    },
  },
);
