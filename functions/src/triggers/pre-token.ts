/**
 * Cognito pre-token-generation trigger, event version 2 (issue 32): puts the person's account and
 * role (ACCOUNT_CLAIMS) in the access and ID tokens at every sign-in and refresh, so every API
 * request knows its tenant and role from the verified token without a table read. Needs the
 * pool's Essentials feature plan (access-token customisation). Locally cognito-local calls it
 * through the local Lambda endpoint (functions/local/lambda-endpoint.ts).
 */
import type { PreTokenGenerationV2TriggerEvent } from 'aws-lambda';
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { logger } from '../adapters/logger.js';
import { DynamoMembershipDirectory } from '../adapters/dynamo/memberships.js';
import { DynamoActivityLog } from '../adapters/dynamo/team-activity.js';
import { accountClaims } from '../domain/team/token-claims.js';
import { once } from '../lib/once.js';

const deps = once(() => {
  const { TABLE_NAME } = config();
  return {
    directory: new DynamoMembershipDirectory(documentClient(), TABLE_NAME),
    activity: new DynamoActivityLog(documentClient(), TABLE_NAME),
    onError: (message: string, error: unknown) => logger.error(message, { error: error as Error }),
  };
});

export async function handler(event: PreTokenGenerationV2TriggerEvent): Promise<PreTokenGenerationV2TriggerEvent> {
  const personId = event.request.userAttributes.sub ?? '';
  if (!personId) throw new Error('The user has no sub');
  const claims = await accountClaims(deps(), personId, event.triggerSource);
  event.response = {
    claimsAndScopeOverrideDetails: {
      idTokenGeneration: { claimsToAddOrOverride: claims },
      accessTokenGeneration: { claimsToAddOrOverride: claims },
    },
  };
  return event;
}
