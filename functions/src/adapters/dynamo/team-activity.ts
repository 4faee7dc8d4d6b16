/**
 * The activity log of an account (issue 32), append-only: items `USER#{account}` /
 * `ACTIVITY#{at}#{id}` with a TTL of ACTIVITY_RETENTION_DAYS (readers skip expired ones too, as
 * DynamoDB Local never deletes). This adapter offers no update and no delete; the time-ordered
 * sort key makes a page one Query, newest first, and a time range a key condition.
 */
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { ACTIVITY_ACTIONS, ACTIVITY_RETENTION_DAYS, type ActivityAction } from '../../contract/team-roles.js';
import type { ActivityFilter, ActivityLog, StoredActivity } from '../../domain/team/ports.js';
import { newId } from '../../lib/ids.js';
import { userPk } from './keys.js';

const PREFIX = 'ACTIVITY#';
const DAY_S = 86_400;

const isAction = (v: unknown): v is ActivityAction => typeof v === 'string' && (ACTIVITY_ACTIONS as readonly string[]).includes(v);

export class DynamoActivityLog implements ActivityLog {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async append(accountId: string, entry: Omit<StoredActivity, 'id' | 'at'>, now: Date = new Date()): Promise<StoredActivity> {
    const stored: StoredActivity = { id: newId(now.getTime()), at: now.toISOString(), ...entry };
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: userPk(accountId),
          sk: `${PREFIX}${stored.at}#${stored.id}`,
          type: 'ACTIVITY',
          at: stored.at,
          action: stored.action,
          actor: stored.actor,
          ...(stored.actor.kind !== 'system' ? { actorId: stored.actor.id } : {}),
          object: stored.object,
          // Issue 33: figures only (an erasure's counts), never personal data.
          ...(stored.details ? { details: stored.details } : {}),
          // The table's TTL attribute (adapters/dynamo/table.ts), epoch seconds.
          expiresAt: Math.floor(now.getTime() / 1000) + ACTIVITY_RETENTION_DAYS * DAY_S,
        },
        // An entry is written once: a second write with the same key is refused, never an overwrite.
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return stored;
  }

  async page(accountId: string, filter: ActivityFilter): Promise<{ entries: StoredActivity[]; cursor: string | null }> {
    const nowS = Math.floor(Date.now() / 1000);
    const lower = `${PREFIX}${filter.from ?? ''}`;
    // '~' sorts after every character of an ISO time and an id: "to" includes its whole instant.
    const upper = `${PREFIX}${filter.to ?? '~'}~`;
    const start = decodeCursor(filter.cursor, accountId);
    const filters = ['(attribute_not_exists(#exp) OR #exp > :now)'];
    const values: Record<string, unknown> = { ':pk': userPk(accountId), ':lo': lower, ':hi': upper, ':now': nowS };
    if (filter.member) {
      filters.push('actorId = :member');
      values[':member'] = filter.member;
    }
    if (filter.action) {
      filters.push('#action = :action');
      values[':action'] = filter.action;
    }
    const entries: StoredActivity[] = [];
    let exclusive: Record<string, unknown> | undefined = start ? { pk: userPk(accountId), sk: start } : undefined;
    // A filtered page may need several reads to fill; each read is bounded.
    for (let reads = 0; reads < 10 && entries.length < filter.limit; reads++) {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
          FilterExpression: filters.join(' AND '),
          ExpressionAttributeNames: { '#exp': 'expiresAt', ...(filter.action ? { '#action': 'action' } : {}) },
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          Limit: Math.max(filter.limit * 2, 20),
          ExclusiveStartKey: exclusive,
        }),
      );
      for (const item of out.Items ?? []) {
        const entry = toEntry(item);
        if (entry) entries.push(entry);
        if (entries.length === filter.limit) {
          exclusive = { pk: item.pk, sk: item.sk };
          return { entries, cursor: encodeCursor(accountId, String(item.sk)) };
        }
      }
      exclusive = out.LastEvaluatedKey as Record<string, unknown> | undefined;
      if (!exclusive) break;
    }
    return { entries, cursor: exclusive ? encodeCursor(accountId, String(exclusive.sk)) : null };
  }
}

function toEntry(item: Record<string, unknown>): StoredActivity | null {
  const sk = String(item.sk ?? '');
  const id = sk.slice(sk.lastIndexOf('#') + 1);
  if (!isAction(item.action) || typeof item.at !== 'string') return null;
  const details = item.details && typeof item.details === 'object' ? (item.details as Record<string, number>) : undefined;
  return { id, at: item.at, action: item.action, actor: item.actor as StoredActivity['actor'], object: (item.object as StoredActivity['object']) ?? null, ...(details ? { details } : {}) };
}

/** The cursor names the last sort key read, bound to the account (another account's cursor is ignored). */
function encodeCursor(accountId: string, sk: string): string {
  return Buffer.from(JSON.stringify([accountId, sk])).toString('base64url');
}

function decodeCursor(cursor: string | undefined, accountId: string): string | null {
  if (!cursor) return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value[0] === accountId && typeof value[1] === 'string' && value[1].startsWith(PREFIX) && value[1].length < 200) return value[1];
  } catch {
    // An unreadable cursor starts from the newest.
  }
  return null;
}
