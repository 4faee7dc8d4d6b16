/**
 * What the API authorizer hands to the route functions of 'userOrApiKey' routes, as API Gateway
 * delivers it: `event.requestContext.authorizer.lambda` (payload 2.0, simple responses).
 *
 * The authorizer never denies (API Gateway would answer a deny with 403 {"message":"Forbidden"},
 * and HTTP APIs cannot change that response): a request without valid credentials is allowed
 * through as authType 'none' with the reason, and the HTTP layer (http/handler.ts) answers 401
 * before any route code runs, the same in AWS and in the local gateway.
 */
export type ApiAuthContext =
  /**
   * A Cognito access token; groups flattened like the JWT authorizer's claim: "[admin other]";
   * account and role: the token's ACCOUNT_CLAIMS (issue 32), '' when it has none.
   */
  | { authType: 'user'; sub: string; groups: string; account: string; role: string }
  /** A product API key; keyHash lets the route function check the key is still current. */
  | { authType: 'apiKey'; sub: string; keyId: string; keyHash: string }
  | { authType: 'none'; reason: 'missing' | 'invalidToken' | 'invalidKey' };
