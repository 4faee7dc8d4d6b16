/**
 * API keys of the signed-in user: list, create (shown once), regenerate (new secret, same id,
 * the old key stops working at once), delete. Only the hash and a short prefix are stored.
 */
import { API_KEY_LIMITS, apiKeyMessages, type ApiKeyView, type CreatedApiKey } from '../../contract/api-keys.js';
import { LimitExceededError, NotFoundError } from '../errors.js';
import { isId, newId } from '../../lib/ids.js';
import type { ApiKeyRepository, StoredApiKey } from './ports.js';
import { newApiKey } from './secret.js';

export interface ApiKeyServiceDeps {
  keys: ApiKeyRepository;
  now?: () => number;
}

export const toApiKeyView = (k: StoredApiKey): ApiKeyView => ({
  _id: k.id,
  name: k.name,
  prefix: k.prefix,
  createdAt: k.createdAt,
  lastUsedAt: k.lastUsedAt,
});

export function createApiKeyService(deps: ApiKeyServiceDeps) {
  const now = deps.now ?? Date.now;

  async function load(userId: string, id: string): Promise<StoredApiKey> {
    const key = isId(id) ? await deps.keys.get(userId, id) : null;
    if (!key) throw new NotFoundError(apiKeyMessages.notFound);
    return key;
  }

  return {
    async list(userId: string): Promise<ApiKeyView[]> {
      return (await deps.keys.list(userId)).map(toApiKeyView);
    },

    async create(userId: string, name: string): Promise<CreatedApiKey> {
      const at = now();
      const secret = newApiKey();
      const stored: StoredApiKey = {
        id: newId(at),
        userId,
        name,
        prefix: secret.prefix,
        keyHash: secret.keyHash,
        createdAt: new Date(at).toISOString(),
        lastUsedAt: null,
      };
      const outcome = await deps.keys.create(stored, API_KEY_LIMITS.perUser);
      if (outcome === 'tooMany') throw new LimitExceededError(apiKeyMessages.tooMany);
      return { apiKey: toApiKeyView(stored), key: secret.key };
    },

    async regenerate(userId: string, id: string): Promise<CreatedApiKey> {
      for (let attempt = 0; attempt < 3; attempt++) {
        const before = await load(userId, id);
        const secret = newApiKey();
        if (await deps.keys.replaceSecret(userId, id, { keyHash: before.keyHash }, { keyHash: secret.keyHash, prefix: secret.prefix })) {
          return { apiKey: toApiKeyView({ ...before, prefix: secret.prefix, keyHash: secret.keyHash }), key: secret.key };
        }
      }
      throw new NotFoundError(apiKeyMessages.notFound);
    },

    async remove(userId: string, id: string): Promise<void> {
      const before = await load(userId, id);
      if (!(await deps.keys.remove(userId, id, before.keyHash))) throw new NotFoundError(apiKeyMessages.notFound);
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
