/** Dependencies shared by the auth and account groups, built once per container from config(). */
import { config } from '../config.js';
import { cognitoClient } from '../adapters/aws/cognito.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { CognitoIdentityProvider } from '../adapters/cognito.js';
import { LocalCognitoIdentityProvider } from '../adapters/cognito-local-google.js';
import { DynamoRateLimiter } from '../adapters/dynamo/rate-limits.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { systemClock, type IdentityProvider } from '../domain/auth/ports.js';

export function sharedDeps() {
  const c = config();
  const settings = { userPoolId: c.USER_POOL_ID, clientId: c.USER_POOL_CLIENT_ID };
  // cognito-local has no CUSTOM_AUTH: locally Google sign-in uses the adapter documented in cognito-local-google.ts.
  const identity: IdentityProvider =
    c.RUNTIME === 'local'
      ? new LocalCognitoIdentityProvider(cognitoClient(), settings)
      : new CognitoIdentityProvider(cognitoClient(), settings);
  return {
    clock: systemClock,
    identity,
    users: new DynamoUserRepository(documentClient(), c.TABLE_NAME),
    rateLimiter: new DynamoRateLimiter(documentClient(), c.TABLE_NAME, systemClock),
    whatsappUserIds: c.WHATSAPP_USER_IDS,
  };
}
