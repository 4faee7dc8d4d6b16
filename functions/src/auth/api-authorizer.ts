/**
 * The API authorizer of the 'userOrApiKey' routes (the public API): an HTTP API Lambda REQUEST
 * authorizer, payload 2.0, simple responses. The local gateway calls this same handler.
 *
 * - `x-api-key: ak_…` or `Authorization: Bearer ak_…` → SHA-256 → the lookup item → context
 *   {authType 'apiKey', sub, keyId, keyHash}. Lookups are cached per warm Lambda for 60 s (also
 *   misses); a deleted or regenerated key is still refused at once, because the route function
 *   checks the hash against the key item on every request (http/handler.ts, rate limit).
 * - any other `Authorization` → the Cognito access token, verified exactly like the JWT
 *   authorizer of the 'user' routes (src/auth/cognito-jwt.ts; JWKS cached per warm Lambda) →
 *   {authType 'user', sub, groups, account, role} (the account claims of issue 32).
 * - otherwise {authType 'none', reason}: see auth/context.ts for why this is not a deny.
 *
 * API Gateway's own result cache is off (TTL 0, no identity source: a key may arrive in either
 * header, and an identity source would make API Gateway answer 401 itself whenever that one
 * header is missing); the in-Lambda caches above are the caching.
 */
import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { config } from '../config.js';
import { ACCOUNT_CLAIMS } from '../contract/team-roles.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoApiKeyAccess } from '../adapters/dynamo/api-key-access.js';
import type { ApiKeyIdentity } from '../domain/api-keys/ports.js';
import { API_KEY_PATTERN, hashApiKey, presentedApiKey } from '../domain/api-keys/secret.js';
import { once } from '../lib/once.js';
import { authorize, authorizerConfig, cognitoIssuer } from './cognito-jwt.js';
import type { ApiAuthContext } from './context.js';

export const LOOKUP_CACHE_MS = 60_000;
const LOOKUP_CACHE_MAX = 5_000;

const jwtConfig = once(() => {
  const c = config();
  return authorizerConfig(cognitoIssuer(c.USER_POOL_ID, c.AWS_REGION, c.COGNITO_ENDPOINT), c.USER_POOL_CLIENT_ID);
});
const keys = once(() => new DynamoApiKeyAccess(documentClient(), config().TABLE_NAME));

const lookups = new Map<string, { value: ApiKeyIdentity | null; until: number }>();

async function lookup(keyHash: string): Promise<ApiKeyIdentity | null> {
  const now = Date.now();
  const hit = lookups.get(keyHash);
  if (hit && hit.until > now) return hit.value;
  const value = await keys().findByHash(keyHash);
  if (lookups.size >= LOOKUP_CACHE_MAX) lookups.clear();
  lookups.set(keyHash, { value, until: now + LOOKUP_CACHE_MS });
  return value;
}

export async function authorizeRequest(headers: Record<string, string | undefined>): Promise<ApiAuthContext> {
  const lower: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  const key = presentedApiKey(lower);
  if (key) {
    if (!API_KEY_PATTERN.test(key)) return { authType: 'none', reason: 'invalidKey' };
    const keyHash = hashApiKey(key);
    const found = await lookup(keyHash);
    if (!found) return { authType: 'none', reason: 'invalidKey' };
    return { authType: 'apiKey', sub: found.userId, keyId: found.keyId, keyHash };
  }
  if (!lower.authorization) return { authType: 'none', reason: 'missing' };
  const verified = await authorize(lower.authorization, jwtConfig());
  const sub = verified?.claims.sub;
  if (!sub) return { authType: 'none', reason: 'invalidToken' };
  const claims = verified.claims;
  return { authType: 'user', sub, groups: claims['cognito:groups'] ?? '', account: claims[ACCOUNT_CLAIMS.account] ?? '', role: claims[ACCOUNT_CLAIMS.role] ?? '' };
}

export async function handler(
  event: APIGatewayRequestAuthorizerEventV2,
): Promise<APIGatewaySimpleAuthorizerWithContextResult<ApiAuthContext>> {
  return { isAuthorized: true, context: await authorizeRequest(event.headers ?? {}) };
}
