/**
 * Wires the API half of the contacts CSV jobs (issue 19) for the contact-jobs route group: the job
 * records (DynamoDB), the files (uploads bucket through presigned URLs) and the queue (SQS). The
 * worker's wiring (contact repository, plan usage, bulk writes) is contact-jobs-worker.ts: the API
 * function does not carry it.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoContactJobStore, DynamoJobAccountSettings } from '../adapters/dynamo/contact-jobs.js';
import { S3ContactFiles } from '../adapters/s3-contact-files.js';
import { contactCsvJobs } from '../domain/contacts/csv-jobs.js';
import { once } from '../lib/once.js';
import { jobQueue } from './queues.js';
import { uploadsPresigner } from './user-view.js';

export const contactJobs = once(() => {
  const db = documentClient();
  const table = config().TABLE_NAME;
  return contactCsvJobs({
    jobs: new DynamoContactJobStore(db, table),
    files: new S3ContactFiles(uploadsPresigner()),
    queue: { enqueue: (job) => jobQueue().send('contacts-jobs', [job]) },
    account: new DynamoJobAccountSettings(db, table),
    defaultCountry: config().CONTACTS_DEFAULT_COUNTRY,
  });
});
