/** Wires the dashboard group: the dashboard read and the getting-started checklist over the single table (DynamoDB only). */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoContactNames } from '../adapters/dynamo/contact-names.js';
import { DynamoDashboardReader } from '../adapters/dynamo/dashboard.js';
import { DynamoGettingStartedStore } from '../adapters/dynamo/getting-started.js';
import { currencyForCountry } from '../domain/billing/currency.js';
import { createGettingStarted } from '../domain/dashboard/getting-started.js';
import { createDashboardService } from '../domain/dashboard/service.js';
import { once } from '../lib/once.js';

export const dashboardService = once(() =>
  createDashboardService({
    reader: new DynamoDashboardReader(documentClient(), config().TABLE_NAME),
    contactNames: new DynamoContactNames(documentClient(), config().TABLE_NAME),
    currencyOf: currencyForCountry,
  }),
);

export const gettingStarted = once(() => createGettingStarted({ store: new DynamoGettingStartedStore(documentClient(), config().TABLE_NAME) }));
