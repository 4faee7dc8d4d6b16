/**
 * The API-key checks of 'userOrApiKey' routes, before the route runs: no valid credentials → 401
 * (the authorizer lets them through, see auth/context.ts); an API key → its per-key fixed-window
 * rate limit (429 with Retry-After) and lastUsedAt, and a key deleted or regenerated since the
 * authorizer's cached lookup → 401. Only the groups serving such routes pass it to httpGroup
 * (the manifest's auth kind decides; httpGroup refuses to start without it), so no other
 * function bundles this wiring.
 */
import { apiKeyAccess } from '../composition/api-key-access.js';
import { httpMessages } from '../contract/account-texts.js';
import { API_KEY_LIMITS, apiKeyMessages } from '../contract/api-keys.js';
import { TooManyRequestsError } from '../domain/errors.js';
import { json, toErrorResponse, type ApiKeyGuard } from './handler.js';

export const apiKeyGuard: ApiKeyGuard = async (auth) => {
  if (auth.authType === 'none') {
    if (auth.reason === 'invalidKey') return json(401, { success: false, message: apiKeyMessages.invalid }, { 'www-authenticate': 'Bearer' });
    // As API Gateway's JWT authorizer answers a missing or invalid token on the 'user' routes.
    return json(401, { message: httpMessages.unauthorized }, { 'www-authenticate': 'Bearer' });
  }
  const decision = await apiKeyAccess().recordUse({
    userId: auth.sub,
    keyId: auth.keyId,
    keyHash: auth.keyHash,
    nowMs: Date.now(),
    max: API_KEY_LIMITS.requestsPerWindow,
    windowSeconds: API_KEY_LIMITS.windowSeconds,
  });
  if (decision.kind === 'invalid') return json(401, { success: false, message: apiKeyMessages.invalid }, { 'www-authenticate': 'Bearer' });
  if (decision.kind === 'limited') return toErrorResponse(new TooManyRequestsError(apiKeyMessages.rateLimited, decision.retryAfterSeconds));
  return undefined;
};
