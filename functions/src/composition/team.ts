/**
 * Wires the team routes (issue 32): the team's items, the pointers, profiles, the account's plan
 * (seats), the business name, API key names (the log's actors), Cognito's global sign-out (a
 * removed member), conversations (unassigned), the outbound-email queue (invitations) and the
 * activity log.
 */
import { config } from '../config.js';
import { isActiveStatus } from '../contract/billing.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { logger } from '../adapters/logger.js';
import { DynamoApiKeyRepository } from '../adapters/dynamo/api-keys.js';
import { DynamoConversationAssignees } from '../adapters/dynamo/conversation-assignees.js';
import { DynamoMembershipDirectory } from '../adapters/dynamo/memberships.js';
import { DynamoSubscriptionRepository } from '../adapters/dynamo/subscriptions.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import { createTeamService } from '../domain/team/service.js';
import { once } from '../lib/once.js';
import { activityLog } from './activity.js';
import { identityDeps } from './identity.js';
import { outboundEmails } from './outbound-email.js';
import { accountNameReader, teamRepository } from './team-members.js';

export const teamService = once(() => {
  const db = documentClient();
  const table = config().TABLE_NAME;
  const subscriptions = new DynamoSubscriptionRepository(db, table);
  const apiKeys = new DynamoApiKeyRepository(db, table);
  return createTeamService({
    team: teamRepository(),
    members: teamRepository(),
    directory: new DynamoMembershipDirectory(db, table),
    users: new DynamoUserRepository(db, table),
    async currentPlan(accountId) {
      const s = await subscriptions.get(accountId);
      return s?.plan && isActiveStatus(s.status) ? s.plan : null;
    },
    accountName: accountNameReader(db, table),
    apiKeyNames: async (accountId) => new Map((await apiKeys.list(accountId)).map((k) => [k.id, k.name])),
    sessions: identityDeps().identity,
    conversations: new DynamoConversationAssignees(db, table),
    emails: outboundEmails(),
    activity: activityLog(),
    onError: (message, error, data) => logger.error(message, { ...data, error: error as Error }),
  });
});
