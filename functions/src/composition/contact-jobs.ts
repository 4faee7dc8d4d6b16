/**
 * Wires the contacts CSV jobs (issue 19) for the contact-jobs route group and the contacts-jobs
 * worker: the job records and bulk contact writes (DynamoDB), the files (uploads bucket through
 * presigned URLs), the queue (SQS), and the contacts' own ports (directory reads, plan usage,
 * conversation unlinking on undo).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoContactBulkWriter } from '../adapters/dynamo/contact-bulk.js';
import { DynamoContactJobStore, DynamoJobAccountSettings } from '../adapters/dynamo/contact-jobs.js';
import { DynamoWhatsAppCustomers } from '../adapters/dynamo/whatsapp-customers.js';
import { logger } from '../adapters/logger.js';
import { S3ContactFiles } from '../adapters/s3-contact-files.js';
import { contactContext } from '../domain/contacts/context.js';
import { contactCsvJobs } from '../domain/contacts/csv-jobs.js';
import { once } from '../lib/once.js';
import { accountCountry } from './account-country.js';
import { workers } from '../routes.js';
import { contactRepository } from './contacts.js';
import { jobQueue } from './queues.js';
import { usageService } from './usage.js';
import { uploadsPresigner } from './user-view.js';

/** A slice stops taking new batches this long before the worker's timeout (a batch, the report and the re-queue fit in it). */
const SLICE_MARGIN_SECONDS = 60;

export const contactJobs = once(() => {
  const db = documentClient();
  const table = config().TABLE_NAME;
  const whatsappCustomers = new DynamoWhatsAppCustomers(db, table);
  const ctx = contactContext({
    contacts: contactRepository(),
    usage: usageService(),
    links: whatsappCustomers,
    defaultCountry: config().CONTACTS_DEFAULT_COUNTRY,
    accountCountry: accountCountry(),
    onError: (message, error) => logger.error(message, { error: error as Error }),
  });
  return contactCsvJobs(ctx, {
    jobs: new DynamoContactJobStore(db, table),
    files: new S3ContactFiles(uploadsPresigner()),
    queue: { enqueue: (job) => jobQueue().send('contacts-jobs', [job]) },
    account: new DynamoJobAccountSettings(db, table),
    bulk: new DynamoContactBulkWriter(db, table),
    sliceMs: (workers['contacts-jobs'].timeout - SLICE_MARGIN_SECONDS) * 1000,
  });
});
