/**
 * Apply-contact undo records over the single table (issue 17): pk=USER#{u}, sk=APPLYUNDO#{token},
 * one item per apply, expiresAt (epoch seconds) the TTL. Taking one is a conditional delete (this
 * call's, not expired) that returns the item, so a token works once even under concurrent undos.
 */
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { ApplyUndoRecord, ApplyUndoStore } from '../../domain/voice/apply-contact.js';
import { isConditionFailure } from './conditions.js';
import { userPk } from './keys.js';

const undoSk = (token: string) => `APPLYUNDO#${token}`;

export class DynamoApplyUndoStore implements ApplyUndoStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async put(userId: string, record: ApplyUndoRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: userPk(userId),
          sk: undoSk(record.token),
          entity: 'applyContactUndo',
          record,
          callId: record.callId,
          expiresAt: Math.ceil(Date.parse(record.expiresAt) / 1000),
        },
      }),
    );
  }

  async take(userId: string, token: string, callId: string, now: Date): Promise<ApplyUndoRecord | null> {
    try {
      const { Attributes } = await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: undoSk(token) },
          ConditionExpression: 'attribute_exists(pk) AND callId = :call AND expiresAt > :now',
          ExpressionAttributeValues: { ':call': callId, ':now': Math.floor(now.getTime() / 1000) },
          ReturnValues: 'ALL_OLD',
        }),
      );
      const record = Attributes?.record as ApplyUndoRecord | undefined;
      // The TTL is in whole seconds; the record's own time is the rule.
      return record && Date.parse(record.expiresAt) > now.getTime() ? record : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }
}
