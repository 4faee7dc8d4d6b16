/**
 * contacts-jobs consumer (issue 19): one CSV job per message (batch size 1): an import slice
 * (which queues the next one before the timeout), an undo, or an export (domain/contacts/csv-jobs.ts).
 * A job that fails for a reason the user can fix is marked failed with that reason, not retried.
 */
import { contactJobs } from '../composition/contact-jobs.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker('contacts-jobs', async (job) => {
  await contactJobs().run(job, Date.now());
});
