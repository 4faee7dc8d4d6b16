/** Wires the business location (issue 31): the profile's API and the agent's send_location tool read the same item. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoBusinessLocationStore } from '../adapters/dynamo/business-location.js';
import { createBusinessLocations } from '../domain/account/business-location.js';
import { once } from '../lib/once.js';

export const businessLocationStore = once(() => new DynamoBusinessLocationStore(documentClient(), config().TABLE_NAME));

export const businessLocations = once(() => createBusinessLocations({ store: businessLocationStore() }));
