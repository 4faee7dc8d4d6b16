/** Wires the API keys: the DynamoDB repository and the service (the /api/api-keys routes). */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoApiKeyRepository } from '../adapters/dynamo/api-keys.js';
import { createApiKeyService } from '../domain/api-keys/service.js';
import { once } from '../lib/once.js';

export const apiKeyRepository = once(() => new DynamoApiKeyRepository(documentClient(), config().TABLE_NAME));

export const apiKeyService = once(() => createApiKeyService({ keys: apiKeyRepository() }));
