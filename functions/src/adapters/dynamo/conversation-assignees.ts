/**
 * Unassigning a person who left the account (issue 32): their conversations go back to
 * "Unassigned". Found through the status index (conversations.ts, gsi1 per status) filtered on
 * `assignee`, page by page and bounded — no Scan; each one updated only while it is still theirs.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { CONVERSATION_STATUSES } from '../../contract/whatsapp.js';
import type { ConversationAssignees } from '../../domain/team/ports.js';
import { mapLimit } from '../../lib/map-limit.js';
import { ignoreConditionFailure } from './conditions.js';
import { statusGsi } from './conversations.js';
import { queryPages } from './query-items.js';

/** Index pages read per status at most (1,000 items a page before the filter). */
const MAX_PAGES = 50;

export class DynamoConversationAssignees implements ConversationAssignees {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async unassignAll(accountId: string, personId: string): Promise<number> {
    let count = 0;
    for (const status of CONVERSATION_STATUSES) {
      let pages = 0;
      for await (const page of queryPages(this.db, {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        FilterExpression: 'assignee = :person',
        ProjectionExpression: 'pk, sk',
        ExpressionAttributeValues: { ':pk': statusGsi(accountId, status), ':person': personId },
      })) {
        await mapLimit(page, 8, async (item) => {
          await this.db
            .send(
              new UpdateCommand({
                TableName: this.tableName,
                Key: { pk: item.pk, sk: item.sk },
                UpdateExpression: 'SET assignee = :none',
                ConditionExpression: 'assignee = :person',
                ExpressionAttributeValues: { ':none': null, ':person': personId },
              }),
            )
            .then(() => count++)
            .catch(ignoreConditionFailure);
        });
        if (++pages >= MAX_PAGES) break;
      }
    }
    return count;
  }
}
