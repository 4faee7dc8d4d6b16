/**
 * Cognito access-token verification as API Gateway's HTTP API JWT authorizer does it
 * (issuer = the Cognito pool, audience = [app client id]). One implementation for the local
 * gateway's JWT authorizer and the API authorizer Lambda (src/auth/api-authorizer.ts).
 *
 * AWS's documented checks: the token (with or without "Bearer ") is a JWT whose `kid` is in the
 * issuer's JWKS and whose RS256 signature verifies; `iss` equals the issuer; `aud` matches an
 * audience entry or, only when there is no `aud`, `client_id` does; `exp` is in the future and
 * `nbf`/`iat` (when present) are not. Any failure means 401 {"message":"Unauthorized"}.
 *
 * The JWKS is fetched once and cached by `createRemoteJWKSet` for the life of the process
 * (a warm Lambda), refetched only when an unknown `kid` shows up.
 */
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';

/**
 * "Now" for the expiry checks, in epoch ms: Date.now() in AWS. The local runtime's session
 * clock (functions/local/session-clock.ts, POST /_local/clock) moves it forward together with
 * cognito-local's, so tests let access tokens expire without waiting 5 minutes.
 */
let tokenNow: () => number = () => Date.now();

export function setTokenClock(now: () => number): void {
  tokenNow = now;
}

export interface AuthorizerConfig {
  issuer: string;
  audience: string[];
  /** Key source; production-like default is the issuer's JWKS URL. */
  keys: JWTVerifyGetKey;
}

export interface AuthorizerResult {
  /** Claims as API Gateway hands them to Lambda: every value a string. */
  claims: Record<string, string>;
  scopes: string[] | null;
}

/** The issuer of a pool's tokens: the emulator's endpoint locally, cognito-idp.{region} in AWS. */
export function cognitoIssuer(userPoolId: string, region: string, cognitoEndpoint?: string): string {
  const base = cognitoEndpoint ? cognitoEndpoint.replace(/\/+$/, '') : `https://cognito-idp.${region}.amazonaws.com`;
  return `${base}/${userPoolId}`;
}

export function authorizerConfig(issuer: string, clientId: string): AuthorizerConfig {
  return { issuer, audience: [clientId], keys: createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`)) };
}

export function cognitoAuthorizer(cognitoEndpoint: string, userPoolId: string, clientId: string): AuthorizerConfig {
  return authorizerConfig(`${cognitoEndpoint}/${userPoolId}`, clientId);
}

/** API Gateway flattens claims to strings; arrays appear as "[a b]". */
function claimToString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map(claimToString).join(' ')}]`;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Returns the claims, or null when the request must be answered 401. */
export async function authorize(
  authorizationHeader: string | undefined,
  config: AuthorizerConfig,
): Promise<AuthorizerResult | null> {
  if (!authorizationHeader) return null;
  const token = authorizationHeader.replace(/^Bearer\s+/i, '').trim();
  if (!token) return null;
  let payload: JWTPayload;
  const nowMs = tokenNow();
  try {
    // API Gateway picks the key by kid; a token without one is rejected.
    if (!decodeProtectedHeader(token).kid) return null;
    ({ payload } = await jwtVerify(token, config.keys, { issuer: config.issuer, algorithms: ['RS256'], currentDate: new Date(nowMs) }));
  } catch {
    return null;
  }
  const now = Math.floor(nowMs / 1000);
  if (typeof payload.exp !== 'number') return null;
  if (typeof payload.iat === 'number' && payload.iat > now) return null;
  const aud = payload.aud;
  const audiences = aud === undefined ? [] : Array.isArray(aud) ? aud : [aud];
  const audienceOk =
    aud !== undefined
      ? audiences.some((a) => config.audience.includes(a))
      : typeof payload.client_id === 'string' && config.audience.includes(payload.client_id);
  if (!audienceOk) return null;

  const claims: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload)) claims[key] = claimToString(value);
  const scope = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : null;
  return { claims, scopes: scope };
}
