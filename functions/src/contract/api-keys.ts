/**
 * API keys and the public API (SPEC §7 API keys; issue 8). Browser-safe: no Node imports.
 *
 * A key is `ak_` + 43 base64url characters (32 random bytes). It is shown in full exactly once
 * (create, regenerate); the server keeps only its SHA-256 and the first API_KEY_PREFIX_LENGTH
 * characters. `Authorization: Bearer <key>` or `x-api-key: <key>` reaches the routes whose
 * manifest auth is 'userOrApiKey'; any other route answers 403 apiKeyMessages.routeNotAllowed.
 */
import * as z from 'zod/mini';
import './zod-locale.js';

export const API_KEY_PREFIX = 'ak_';
export const API_KEY_PREFIX_LENGTH = 10;
export const API_KEY_LIMITS = {
  name: 50,
  /** Keys per user. */
  perUser: 20,
  /** Requests per key per window (fixed window). */
  requestsPerWindow: 60,
  windowSeconds: 60,
} as const;

export const apiKeyMessages = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be ${API_KEY_LIMITS.name} characters or less`,
  tooMany: `You can have at most ${API_KEY_LIMITS.perUser} API keys`,
  notFound: 'API key not found',
  created: 'API key created. Copy it now: it will not be shown again.',
  regenerated: 'API key regenerated. Copy it now: the old key no longer works.',
  deleted: 'API key deleted successfully',
  /** 401: missing, unknown, deleted or regenerated key. */
  invalid: 'Invalid API key',
  /** 403: a valid key on a route that is not part of the public API. */
  routeNotAllowed: 'API keys cannot be used for this route',
  /** 429 (with Retry-After). */
  rateLimited: `Rate limit exceeded: at most ${API_KEY_LIMITS.requestsPerWindow} requests per minute per API key`,
} as const;

/** One key as listed (never the key itself). */
export interface ApiKeyView {
  _id: string;
  name: string;
  /** The first API_KEY_PREFIX_LENGTH characters, e.g. 'ak_Xy12ab…' shown as-is. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** data of POST /api/api-keys and PUT /api/api-keys/{id}/regenerate: the only time `key` is returned. */
export interface CreatedApiKey {
  apiKey: ApiKeyView;
  key: string;
}

export const createApiKeyRequest = z.object({
  name: z
    .string({ error: apiKeyMessages.nameRequired })
    .check(z.trim(), z.minLength(1, apiKeyMessages.nameRequired), z.maxLength(API_KEY_LIMITS.name, apiKeyMessages.nameTooLong)),
});
