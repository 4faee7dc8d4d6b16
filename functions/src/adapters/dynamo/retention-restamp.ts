/**
 * The retention re-stamp's walk over the single table (issue 33; domain/privacy/retention-restamp.ts,
 * ACCESS-PATTERNS.md "Retention"). Queries only, a page at a time, projected to the keys and times:
 * - messages: gsi1pk=`USER#{a}#MSGS` (every message of the account, whatever its conversation);
 * - conversations: pk=`USER#{a}`, sk BETWEEN `CONV#` AND `CONV#~`;
 * - calls: pk=`USER#{a}`, sk BETWEEN `VCALL#` AND `VCALL#~`, then per call its `TWCALL#{callSid}`
 *   and `VCALLNUM#{e164}#{id}` keys, and a recording's `RECEXPIRE#{day}` due item (BatchGet of the
 *   days it can be in, then Put in its new day + Delete of the old).
 * Every write is an UpdateItem SET expiresAt conditioned on what was read (or on being different),
 * so a writer's newer stamp is never overwritten and a second run writes nothing.
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { DatedCall, DatedItem, RecordingDuePlace, RestampPage, RestampPosition, RetentionRestampStore } from '../../domain/privacy/retention-restamp.js';
import { batchGetItems } from './batch.js';
import { conditionHolds } from './conditions.js';
import { callByNumberSk, userPk } from './keys.js';
import { userMsgsGsi } from './messages.js';
import { recordingDueItem, recordingDuePk } from './recording-retention.js';
import { callSidSk } from './voice-calls.js';

type Item = Record<string, unknown>;

/** Items a page (each one UpdateItem at most: a page fits well inside a slice). */
const PAGE = 200;
const E164_RE = /^\+[1-9]\d{6,14}$/;

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const ttl = (v: unknown) => (typeof v === 'number' ? { expiresAt: v } : {});
/** A LastEvaluatedKey as the job's cursor (the table's keys are all strings). */
const position = (key: Item | undefined): RestampPosition | null =>
  key ? Object.fromEntries(Object.entries(key).map(([k, v]) => [k, String(v)])) : null;

export class DynamoRetentionRestamp implements RetentionRestampStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async page(input: { index?: string; condition: string; values: Item; projection: string; from?: RestampPosition }): Promise<{ items: Item[]; next: RestampPosition | null }> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        ...(input.index ? { IndexName: input.index } : { ConsistentRead: true }),
        KeyConditionExpression: input.condition,
        ExpressionAttributeValues: input.values,
        ProjectionExpression: input.projection,
        Limit: PAGE,
        ...(input.from ? { ExclusiveStartKey: input.from } : {}),
      }),
    );
    return { items: (out.Items ?? []) as Item[], next: position(out.LastEvaluatedKey as Item | undefined) };
  }

  async messages(accountId: string, from?: RestampPosition): Promise<RestampPage<DatedItem>> {
    const { items, next } = await this.page({ index: 'gsi1', condition: 'gsi1pk = :pk', values: { ':pk': userMsgsGsi(accountId) }, projection: 'pk, sk, createdAt, expiresAt', from });
    return { items: items.map((i) => ({ key: { pk: str(i.pk), sk: str(i.sk) }, at: str(i.createdAt), ...ttl(i.expiresAt) })), next };
  }

  async conversations(accountId: string, from?: RestampPosition): Promise<RestampPage<DatedItem>> {
    const { items, next } = await this.page({
      condition: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      values: { ':pk': userPk(accountId), ':lo': 'CONV#', ':hi': 'CONV#~' },
      projection: 'pk, sk, lastMessageAt, expiresAt',
      from,
    });
    return { items: items.map((i) => ({ key: { pk: str(i.pk), sk: str(i.sk) }, at: str(i.lastMessageAt), ...ttl(i.expiresAt) })), next };
  }

  async calls(accountId: string, from?: RestampPosition): Promise<RestampPage<DatedCall>> {
    const { items, next } = await this.page({
      condition: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      values: { ':pk': userPk(accountId), ':lo': 'VCALL#', ':hi': 'VCALL#~' },
      projection: 'pk, sk, id, callSid, phoneNumber, createdAt, endedAt, recording, expiresAt',
      from,
    });
    return {
      items: items.map((i) => {
        const sid = str((i.recording as Item | null | undefined)?.sid);
        return {
          key: { pk: str(i.pk), sk: str(i.sk) },
          at: str(i.createdAt),
          ...ttl(i.expiresAt),
          callId: str(i.id),
          callSid: str(i.callSid),
          phoneNumber: str(i.phoneNumber),
          ...(sid ? { recording: { sid, at: str(i.endedAt) || str(i.createdAt) } } : {}),
        };
      }),
      next,
    };
  }

  stamp(item: DatedItem, expiresAt: number): Promise<boolean> {
    const seen = item.expiresAt;
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: item.key,
          UpdateExpression: 'SET expiresAt = :e',
          ConditionExpression: seen === undefined ? 'attribute_exists(pk) AND attribute_not_exists(expiresAt)' : 'attribute_exists(pk) AND expiresAt = :seen',
          ExpressionAttributeValues: { ':e': expiresAt, ...(seen === undefined ? {} : { ':seen': seen }) },
        }),
      ),
    );
  }

  async stampCallKeys(accountId: string, call: DatedCall, expiresAt: number): Promise<number> {
    const keys = [
      // An erased call's tombstone names no callId: left as it is.
      ...(call.callSid ? [{ sk: callSidSk(call.callSid), condition: 'callId = :id' }] : []),
      ...(E164_RE.test(call.phoneNumber) ? [{ sk: callByNumberSk(call.phoneNumber, call.callId), condition: 'attribute_exists(pk)' }] : []),
    ];
    const changed = await Promise.all(
      keys.map((k) =>
        conditionHolds(
          this.db.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: { pk: userPk(accountId), sk: k.sk },
              UpdateExpression: 'SET expiresAt = :e',
              ConditionExpression: `${k.condition} AND (attribute_not_exists(expiresAt) OR expiresAt <> :e)`,
              ExpressionAttributeValues: { ':e': expiresAt, ...(k.condition.includes(':id') ? { ':id': call.callId } : {}) },
            }),
          ),
        ),
      ),
    );
    return changed.filter(Boolean).length;
  }

  async placeRecordingDue(accountId: string, call: DatedCall, place: RecordingDuePlace): Promise<'unchanged' | 'moved' | 'created'> {
    const recordingSid = call.recording!.sid;
    const sk = `${accountId}#${call.callId}#${recordingSid}`;
    const found = await batchGetItems(this.db, this.tableName, [place.day, ...place.candidateDays].map((day) => ({ pk: recordingDuePk(day), sk })), { consistentRead: true });
    const target = found.find((i) => i.pk === recordingDuePk(place.day));
    const others = found.filter((i) => i !== target);
    if (target && Number(target.dueAt) === place.dueAt && Number(target.days) === place.days && others.length === 0) return 'unchanged';
    // Put first, then Delete: a run stopped in between leaves two (the schedule deletes the recording once; 404 = gone).
    const attempts = Math.max(0, ...found.map((i) => Number(i.attempts) || 0));
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: recordingDueItem({ accountId, callId: call.callId, recordingSid, day: place.day, dueAt: place.dueAt, days: place.days, attempts }),
      }),
    );
    await Promise.all(others.map((i) => this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: i.pk, sk: i.sk } }))));
    return target || others.length > 0 ? 'moved' : 'created';
  }
}
