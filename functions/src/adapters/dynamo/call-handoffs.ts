/**
 * The hand-over of a streamed call (issue 16, warm transfer) on the call item (pk=USER#{u},
 * sk=VCALL#{id}; see voice-calls.ts): one conditional UpdateItem marks the call forwarded by us
 * (endedByUs, endReason 'forwarded', escalated + reason) and sets `handoffAt`, only while the
 * call is active and has no `handoffAt` yet. The writer that wins queues the owner's notice; a
 * retried <Connect action> finds the condition false.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { CallHandoffs } from '../../domain/voice/call-loop.js';
import { conditionHolds } from './conditions.js';
import { userPk } from './keys.js';
import { callSk } from './voice-calls.js';

export class DynamoCallHandoffs implements CallHandoffs {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  claim(userId: string, callId: string, reason: string, at: string): Promise<boolean> {
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: callSk(callId) },
          UpdateExpression: 'SET endedByUs = :t, endReason = :r, escalated = :t, escalationReason = :er, handoffAt = :at',
          ConditionExpression: 'attribute_exists(pk) AND #st = :active AND attribute_not_exists(handoffAt)',
          ExpressionAttributeNames: { '#st': 'status' },
          ExpressionAttributeValues: { ':t': true, ':r': 'forwarded', ':er': reason, ':at': at, ':active': 'active' },
        }),
      ),
    );
  }
}
