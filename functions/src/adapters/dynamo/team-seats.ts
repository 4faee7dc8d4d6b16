/**
 * How many people an account has (issue 32), for billing's plan checks: one strongly consistent
 * GetItem of the team's seat counter (`USER#{account}` / `TEAM`, seatsUsed: people, the owner
 * included; written by the team repository in the same transaction as each join and removal).
 * A function of its own so the billing function bundles only this, not the team repository. No
 * counter: the first owner alone.
 */
import { GetCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { userPk } from './keys.js';

/** The seat counter's sort key (the team repository's TEAM_SK). */
const TEAM_SK = 'TEAM';

export function dynamoTeamSeats(db: DynamoDBDocumentClient, tableName: string) {
  return {
    async used(accountId: string): Promise<number> {
      const { Item } = await db.send(
        new GetCommand({ TableName: tableName, Key: { pk: userPk(accountId), sk: TEAM_SK }, ProjectionExpression: 'seatsUsed', ConsistentRead: true }),
      );
      return typeof Item?.seatsUsed === 'number' && Item.seatsUsed > 0 ? Item.seatsUsed : 1;
    },
  };
}
