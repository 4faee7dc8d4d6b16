/**
 * The person → account pointers of issue 32: `PERSON#{personId}` / `MEMBERSHIP` {accountId, role},
 * written in the same transaction as the account's member item (the team repository), read once
 * per token issue by the pre-token-generation trigger. No pointer: the person owns their own account.
 */
import { GetCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { isMemberRole } from '../../contract/team-roles.js';
import type { Membership, MembershipDirectory } from '../../domain/team/ports.js';

export const personPk = (personId: string) => `PERSON#${personId}`;
export const MEMBERSHIP_SK = 'MEMBERSHIP';

export class DynamoMembershipDirectory implements MembershipDirectory {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async resolve(personId: string): Promise<Membership | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: personPk(personId), sk: MEMBERSHIP_SK }, ProjectionExpression: 'accountId, #role', ExpressionAttributeNames: { '#role': 'role' }, ConsistentRead: true }),
    );
    if (!Item || typeof Item.accountId !== 'string' || !isMemberRole(Item.role)) return null;
    return { accountId: Item.accountId, role: Item.role };
  }
}
