/**
 * The team's items (issue 32, adapters/dynamo/team.ts): the TeamMembers port the inbox,
 * notifications and the team page read (the account's active people, owner first), and the team
 * repository. DynamoDB only, so any route group or worker may import it without the team's other
 * dependencies (Cognito, the e-mail queue).
 */
import { config } from '../config.js';
import { documentClient } from '../adapters/aws/dynamo.js';
import { DynamoBusinessLocationStore } from '../adapters/dynamo/business-location.js';
import { DynamoTeamRepository } from '../adapters/dynamo/team.js';
import { DynamoUserRepository } from '../adapters/dynamo/users.js';
import type { TeamMembers } from '../domain/team/ports.js';
import { once } from '../lib/once.js';

export const teamRepository = once(() => new DynamoTeamRepository(documentClient(), config().TABLE_NAME));

export const teamMembers = (): TeamMembers => teamRepository();

/** The name an invitee sees: the business's (its location's name), else the owner's. */
export function accountNameReader(db = documentClient(), table = config().TABLE_NAME) {
  const users = new DynamoUserRepository(db, table);
  const locations = new DynamoBusinessLocationStore(db, table);
  return async (accountId: string): Promise<string> => {
    const [location, team] = await Promise.all([locations.get(accountId), teamRepository().team(accountId)]);
    if (location?.name) return location.name;
    return (await users.get(team.ownerId))?.name ?? '';
  };
}
