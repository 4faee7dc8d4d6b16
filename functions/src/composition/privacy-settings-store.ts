/** The account's privacy settings store (issue 33), shared by every writer that stamps retention, the notices and the opt-out words. */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoPrivacySettingsStore } from '../adapters/dynamo/privacy-settings.js';
import { accountCountry } from './account-country.js';
import { once } from '../lib/once.js';

export const privacySettingsStore = once(() => new DynamoPrivacySettingsStore(documentClient(), config().TABLE_NAME, accountCountry()));
