/** Cognito and the per-e-mail throttles, for the route groups that sign users in or check passwords. */
import { config } from '../config.js';
import { cognitoClient } from '../adapters/aws/cognito.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { CognitoIdentityProvider } from '../adapters/cognito.js';
import { LocalCognitoIdentityProvider } from '../adapters/cognito-local-google.js';
import { DynamoRateLimiter } from '../adapters/dynamo/rate-limits.js';
import { systemClock, type IdentityProvider } from '../domain/auth/ports.js';

export function identityDeps() {
  const c = config();
  const settings = { userPoolId: c.USER_POOL_ID, clientId: c.USER_POOL_CLIENT_ID };
  // cognito-local has no CUSTOM_AUTH: locally Google sign-in uses the adapter documented in cognito-local-google.ts.
  const identity: IdentityProvider =
    c.RUNTIME === 'local'
      ? new LocalCognitoIdentityProvider(cognitoClient(), settings)
      : new CognitoIdentityProvider(cognitoClient(), settings);
  return {
    identity,
    rateLimiter: new DynamoRateLimiter(documentClient(), c.TABLE_NAME, systemClock),
  };
}
