/** The account's country for phone numbers typed without a prefix; CONTACTS_DEFAULT_COUNTRY is only the fallback. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { dynamoAccountCountry } from '../adapters/dynamo/account-country.js';
import { once } from '../lib/once.js';

export const accountCountry = once(() => dynamoAccountCountry(documentClient(), config().TABLE_NAME, config().CONTACTS_DEFAULT_COUNTRY));
