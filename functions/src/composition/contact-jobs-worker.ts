/**
 * Wires the worker half of the contacts CSV jobs (issue 19) for the contacts-jobs worker: the job
 * records and bulk contact writes (DynamoDB), the files (uploads bucket), the queue (SQS, for the
 * next slice), and the contacts' own ports (directory reads, plan usage, conversation unlinking on undo).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoContactBulkWriter } from '../adapters/dynamo/contact-bulk.js';
import { DynamoContactJobStore } from '../adapters/dynamo/contact-jobs.js';
import { DynamoWhatsAppCustomers } from '../adapters/dynamo/whatsapp-customers.js';
import { logger } from '../adapters/logger.js';
import { S3ContactFiles } from '../adapters/s3-contact-files.js';
import { contactContext } from '../domain/contacts/context.js';
import { contactCsvJobWorker } from '../domain/contacts/csv-job-worker.js';
import { once } from '../lib/once.js';
import { workers } from '../routes.js';
import { accountCountry } from './account-country.js';
import { contactRepository } from './contacts.js';
import { jobQueue } from './queues.js';
import { usageService } from './usage.js';
import { uploadsPresigner } from './user-view.js';

/** A slice stops taking new batches this long before the worker's timeout (a batch, the report and the re-queue fit in it). */
const SLICE_MARGIN_SECONDS = 60;

export const contactJobWorker = once(() => {
  const db = documentClient();
  const table = config().TABLE_NAME;
  const ctx = contactContext({
    contacts: contactRepository(),
    usage: usageService(),
    links: new DynamoWhatsAppCustomers(db, table),
    defaultCountry: config().CONTACTS_DEFAULT_COUNTRY,
    accountCountry: accountCountry(),
    onError: (message, error) => logger.error(message, { error: error as Error }),
  });
  return contactCsvJobWorker(ctx, {
    jobs: new DynamoContactJobStore(db, table),
    files: new S3ContactFiles(uploadsPresigner()),
    queue: { enqueue: (job) => jobQueue().send('contacts-jobs', [job]) },
    bulk: new DynamoContactBulkWriter(db, table),
    sliceMs: (workers['contacts-jobs'].timeout - SLICE_MARGIN_SECONDS) * 1000,
  });
});
