/** Cognito, for the route groups that sign users in or check passwords. */
import { config } from '../config.js';
import { cognitoClient } from '../adapters/aws/cognito.js';
import { CognitoIdentityProvider } from '../adapters/cognito.js';
import { LocalCognitoIdentityProvider } from '../adapters/cognito-local-google.js';
import type { IdentityProvider } from '../domain/auth/ports.js';

export function identityDeps(): { identity: IdentityProvider } {
  const c = config();
  const settings = { userPoolId: c.USER_POOL_ID, clientId: c.USER_POOL_CLIENT_ID };
  // cognito-local has no CUSTOM_AUTH: locally Google sign-in uses the adapter documented in cognito-local-google.ts.
  return {
    identity:
      c.RUNTIME === 'local'
        ? new LocalCognitoIdentityProvider(cognitoClient(), settings)
        : new CognitoIdentityProvider(cognitoClient(), settings),
  };
}
