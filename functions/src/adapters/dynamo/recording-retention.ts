/**
 * Recordings due for deletion at Twilio (issue 33; ACCESS-PATTERNS.md "Retention"):
 * pk=RECEXPIRE#{yyyy-mm-dd} (the UTC day the recording's retention ends),
 * sk={accountId}#{callId}#{recordingSid}; and the schedule's cursor pk=RECEXPIRE#CURSOR, sk=CURSOR
 * (`day`: the first day not yet done). One partition per day across accounts: the schedule Queries
 * the days from its cursor to today, never a Scan.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { RecordingDue, RecordingDueStore } from '../../domain/privacy/recording-retention.js';
import { DAY_SECONDS } from '../../domain/privacy/retention.js';
import { ignoreConditionFailure } from './conditions.js';
import { queryItems } from './query-items.js';

type Item = Record<string, unknown>;

export const recordingDuePk = (day: string) => `RECEXPIRE#${day}`;
const CURSOR_KEY = { pk: 'RECEXPIRE#CURSOR', sk: 'CURSOR' };
/** A due item outlives its day by this much (TTL): one left behind by a bug does not stay forever. */
const DUE_ITEM_KEEP_DAYS = 60;

export function recordingDueItem(due: Omit<RecordingDue, 'attempts'> & { attempts?: number }): Item {
  return {
    pk: recordingDuePk(due.day),
    sk: `${due.accountId}#${due.callId}#${due.recordingSid}`,
    entity: 'recordingDue',
    accountId: due.accountId,
    callId: due.callId,
    recordingSid: due.recordingSid,
    dueAt: due.dueAt,
    days: due.days,
    attempts: due.attempts ?? 0,
    expiresAt: due.dueAt + DUE_ITEM_KEEP_DAYS * DAY_SECONDS,
  };
}

const toDue = (day: string, item: Item): RecordingDue => ({
  day,
  accountId: String(item.accountId),
  callId: String(item.callId),
  recordingSid: String(item.recordingSid),
  dueAt: Number(item.dueAt) || 0,
  days: Number(item.days) || 0,
  attempts: Number(item.attempts) || 0,
});

export class DynamoRecordingDue implements RecordingDueStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async cursor(): Promise<string | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: CURSOR_KEY, ConsistentRead: true }));
    return typeof Item?.day === 'string' ? Item.day : null;
  }

  async advance(day: string): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: CURSOR_KEY,
          UpdateExpression: 'SET #day = :day',
          ConditionExpression: 'attribute_not_exists(#day) OR #day < :day',
          ExpressionAttributeNames: { '#day': 'day' },
          ExpressionAttributeValues: { ':day': day },
        }),
      )
      .catch(ignoreConditionFailure);
  }

  async due(day: string, nowSec: number): Promise<RecordingDue[]> {
    const items = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      FilterExpression: 'dueAt <= :now',
      ExpressionAttributeValues: { ':pk': recordingDuePk(day), ':now': nowSec },
      ConsistentRead: true,
    });
    return items.map((item) => toDue(day, item));
  }

  async remove(item: RecordingDue): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: recordingDuePk(item.day), sk: `${item.accountId}#${item.callId}#${item.recordingSid}` } }));
  }

  async postpone(item: RecordingDue, day: string): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: recordingDueItem({ ...item, day, attempts: item.attempts + 1 }) }));
    await this.remove(item);
  }
}
