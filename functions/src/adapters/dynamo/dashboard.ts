/**
 * The dashboard's read over the single table (ACCESS-PATTERNS.md, "Dashboard"): four requests,
 * side by side, whatever the history size:
 *
 * 1. BatchGetItem: the profile (time zone), CONVS#STATS and the ACT#{day} items asked for (≤ 33).
 * 2. BatchGetItem: the 8 contacts directory shards, projected to `total`.
 * 3. Query gsi1 USER#{u}#CALLERS, newest-highest count first, Limit = top callers.
 * 4. Query VCALL# newest first, Limit = recent calls, projected (no transcript).
 *
 * Eventually consistent reads (a dashboard may lag a write by a moment; half the read cost).
 */
import { QueryCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { BOOKING_CURRENCY_ATTRIBUTE, type ActivityDay, type DashboardReader, type DashboardSnapshot, type RecentCall, type TopCaller } from '../../domain/dashboard/ports.js';
import { activitySk, callersGsi } from './activity.js';
import { batchGetItems, type BatchGetOptions } from './batch.js';
import { DIRECTORY_SHARDS, shardSk } from './contacts.js';
import { userPk } from './keys.js';
import { isExpired } from '../../domain/privacy/retention.js';

type Item = Record<string, unknown>;
const PROFILE_SK = 'PROFILE';
const CONV_STATS_SK = 'CONVS#STATS';
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Counter attributes of an ACT item (everything but the keys). */
function countersOf(item: Item): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(item)) if (k !== 'pk' && k !== 'sk' && typeof v === 'number') out[k] = v;
  return out;
}

export class DynamoDashboardReader implements DashboardReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private batchGet(keys: Item[], projection?: BatchGetOptions['projection']): Promise<Item[]> {
    return batchGetItems(this.db, this.tableName, keys, { projection });
  }

  private async profileAndDays(userId: string, utcDays: readonly string[], withConversations: boolean) {
    const pk = userPk(userId);
    const keys: Item[] = [{ pk, sk: PROFILE_SK }, ...utcDays.map((day) => ({ pk, sk: activitySk(day) }))];
    if (withConversations) keys.push({ pk, sk: CONV_STATS_SK });
    const items = await this.batchGet(keys);
    const bySk = new Map(items.map((it) => [String(it.sk), it]));
    const days: ActivityDay[] = [];
    for (const day of utcDays) {
      const it = bySk.get(activitySk(day));
      if (!it) continue;
      const bookingCurrency = str(it[BOOKING_CURRENCY_ATTRIBUTE]);
      days.push(bookingCurrency ? { day, counters: countersOf(it), bookingCurrency } : { day, counters: countersOf(it) });
    }
    const profile = bySk.get(PROFILE_SK);
    return { timeZone: str(profile?.timeZone), country: str(profile?.country), days, conversations: bySk.get(CONV_STATS_SK) ?? {} };
  }

  async days(userId: string, utcDays: readonly string[]): Promise<Pick<DashboardSnapshot, 'timeZone' | 'days'>> {
    const { timeZone, days } = await this.profileAndDays(userId, utcDays, false);
    return { timeZone, days };
  }

  async snapshot(userId: string, utcDays: readonly string[], limits: { topCallers: number; recentCalls: number }): Promise<DashboardSnapshot> {
    const pk = userPk(userId);
    const [main, shards, callers, calls] = await Promise.all([
      this.profileAndDays(userId, utcDays, true),
      this.batchGet(
        Array.from({ length: DIRECTORY_SHARDS }, (_, i) => ({ pk, sk: shardSk(i) })),
        { ProjectionExpression: '#t', ExpressionAttributeNames: { '#t': 'total' } },
      ),
      this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :g',
          ExpressionAttributeValues: { ':g': callersGsi(userId) },
          ScanIndexForward: false,
          Limit: limits.topCallers,
        }),
      ),
      this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
          ExpressionAttributeValues: { ':pk': pk, ':lo': 'VCALL#', ':hi': 'VCALL#~' },
          ProjectionExpression: 'id, #st, contact, phoneNumber, messageCount, createdAt, expiresAt',
          ExpressionAttributeNames: { '#st': 'status' },
          ScanIndexForward: false,
          Limit: limits.recentCalls,
        }),
      ),
    ]);
    const conv = main.conversations;
    const topCallers: TopCaller[] = (callers.Items ?? []).map((it) => ({
      phoneNumber: str(it.phoneNumber),
      callCount: num(it.callCount),
      completedCalls: num(it.completedCalls),
      turns: num(it.turns),
      lastCall: str(it.lastCall),
    }));
    // Issue 33: a call past its retention is not shown (the newest calls are the last to expire).
    const recentCalls: RecentCall[] = (calls.Items ?? []).filter((it) => !isExpired(it.expiresAt)).map((it) => ({
      id: str(it.id),
      status: str(it.status),
      contactName: str((it.contact as { name?: unknown } | null | undefined)?.name),
      contactId: str((it.contact as { _id?: unknown } | null | undefined)?._id),
      phoneNumber: str(it.phoneNumber),
      messageCount: num(it.messageCount),
      createdAt: str(it.createdAt),
    }));
    return {
      timeZone: main.timeZone,
      country: main.country,
      days: main.days,
      contactsTotal: Math.max(0, shards.reduce((n, s) => n + num(s.total), 0)),
      conversations: {
        active: Math.max(0, num(conv.active)),
        closed: Math.max(0, num(conv.closed)),
        requires_human: Math.max(0, num(conv.requires_human)),
        archived: Math.max(0, num(conv.archived)),
      },
      topCallers,
      recentCalls,
    };
  }
}
