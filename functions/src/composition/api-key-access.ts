/**
 * The per-request API-key access (hash lookup, per-key window + lastUsedAt): GetItem/UpdateItem
 * only. http/handler.ts imports it lazily for requests made with an API key.
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoApiKeyAccess } from '../adapters/dynamo/api-key-access.js';
import { once } from '../lib/once.js';

export const apiKeyAccess = once(() => new DynamoApiKeyAccess(documentClient(), config().TABLE_NAME));
