import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { config } from '../../config.js';
import { once } from '../../lib/once.js';

export const cognitoClient = once(() => {
  const { AWS_REGION, COGNITO_ENDPOINT } = config();
  return new CognitoIdentityProviderClient({ region: AWS_REGION, endpoint: COGNITO_ENDPOINT });
});
