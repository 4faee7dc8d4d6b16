/**
 * contacts-jobs consumer (issue 19): one CSV job per message (batch size 1): an import slice
 * (which queues the next one before the timeout), an undo, or an export (domain/contacts/csv-job-worker.ts).
 * A job that fails for a reason the user can fix is marked failed with that reason, not retried.
 */
import { contactJobWorker } from '../composition/contact-jobs-worker.js';
import { sqsWorker } from './sqs-worker.js';

export const handler = sqsWorker('contacts-jobs', async (job) => {
  await contactJobWorker().run(job, Date.now());
});
