/**
 * Dashboard activity counters over the single table (ACCESS-PATTERNS.md, "Dashboard"):
 *
 * - pk=USER#{u}, sk=ACT#{yyyy-mm-dd} (UTC day): one number per metric and UTC hour,
 *   `{metric}{HH}` (calls07, done07, sec07, dsec07, in07, out07, fail07, conv07, esc07, ct07) and
 *   `max{HH}` (the longest call started that hour, s). Any whole-hour time zone's day is an exact
 *   sum of 24 of these hours. `lt{HH}_{bucket}` (issue 16: first-token latencies of the streamed
 *   turns of the calls started that hour, per fixed bucket of domain/dashboard/turn-latency.ts;
 *   items written before hours were kept carry `lt_{bucket}` for the whole UTC day).
 * - pk=USER#{u}, sk=CALLER#{e164}: one caller, all time (callCount, completedCalls, turns,
 *   lastCall); gsi1pk=USER#{u}#CALLERS, gsi1sk=zero-padded callCount, so the top callers are ONE
 *   Query (ScanIndexForward=false, Limit 5).
 *
 * Writes are plain UpdateItems beside the main write (like MSGSTATS): ADDs on one item never
 * conflict, and a failed counter write is logged, never failing the call, message or contact.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { ActivityCounters, ActivityDeltas, FinishedCall } from '../../domain/dashboard/ports.js';
import { latencyAttribute, latencyHistogram } from '../../domain/dashboard/turn-latency.js';
import { logger } from '../logger.js';
import { ignoreConditionFailure } from './conditions.js';
import { userPk } from './keys.js';

export const activitySk = (day: string) => `ACT#${day}`;
export const callerSk = (e164: string) => `CALLER#${e164}`;
export const callersGsi = (userId: string) => `USER#${userId}#CALLERS`;
/** gsi1sk of a caller: callCount zero-padded so key order is count order. */
export const callCountKey = (n: number) => String(Math.max(0, Math.floor(n))).padStart(10, '0');

/** The UTC day and hour (`HH`) of an ISO instant (now for an unparsable one). */
export function utcHourOf(at: string): { day: string; hour: string } {
  const ms = Date.parse(at);
  const iso = new Date(Number.isFinite(ms) ? ms : Date.now()).toISOString();
  return { day: iso.slice(0, 10), hour: iso.slice(11, 13) };
}

/** `{metric}{HH}` attributes of the deltas (zeros dropped). */
export function hourAttributes(hour: string, deltas: ActivityDeltas): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [metric, v] of Object.entries(deltas)) if (v) out[`${metric}${hour}`] = v;
  return out;
}

/** `lt{HH}_{bucket}` attributes of some turn latencies (ms) of a call started in UTC hour `hour`: its latency histogram counts. */
export function latencyAttributes(latenciesMs: readonly number[], hour: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [bucket, n] of Object.entries(latencyHistogram(latenciesMs))) out[latencyAttribute(bucket, hour)] = n;
  return out;
}

/**
 * The "call started" count as a TransactWriteItems Update: written inside the call's create
 * transaction (exactly once per CallSid, no extra round trip on the incoming webhook).
 */
export function callStartedUpdate(tableName: string, userId: string, startedAt: string) {
  const { day, hour } = utcHourOf(startedAt);
  return {
    Update: {
      TableName: tableName,
      Key: { pk: userPk(userId), sk: activitySk(day) },
      UpdateExpression: 'ADD #c :one',
      ExpressionAttributeNames: { '#c': `calls${hour}` },
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
}

type OnError = (message: string, error: unknown, data?: Record<string, unknown>) => void;
const logError: OnError = (message, error, data) => logger.error(message, { error: error as Error, ...data });

export class DynamoActivityCounters implements ActivityCounters {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly onError: OnError = logError,
  ) {}

  /** Runs a counter write; a failure is logged (the count is lost), never thrown. */
  private async safely(what: string, userId: string, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.onError(`Dashboard: ${what} failed; the count is lost`, error, { userId });
    }
  }

  /** ADDs raw `{metric}{HH}` attributes to one UTC day item (may throw). */
  async addRaw(userId: string, day: string, attrs: Record<string, number>): Promise<void> {
    const names = Object.keys(attrs).filter((k) => attrs[k] !== 0);
    if (names.length === 0) return;
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: activitySk(day) },
        UpdateExpression: `ADD ${names.map((_, i) => `#a${i} :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#a${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, attrs[n]])),
      }),
    );
  }

  add(userId: string, at: string, deltas: ActivityDeltas): Promise<void> {
    const { day, hour } = utcHourOf(at);
    return this.safely('an activity counter', userId, () => this.addRaw(userId, day, hourAttributes(hour, deltas)));
  }

  /** The caller's all-time item: counts, then its index key and lastCall (both conditional, side by side). */
  private async countCaller(userId: string, call: { startedAt: string; phoneNumber: string; completed: boolean; turns: number }): Promise<void> {
    const key = { pk: userPk(userId), sk: callerSk(call.phoneNumber) };
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: key,
        UpdateExpression: 'SET phoneNumber = :p, gsi1pk = :g, lastCall = if_not_exists(lastCall, :at) ADD callCount :one, completedCalls :c, turns :t',
        ExpressionAttributeValues: {
          ':p': call.phoneNumber,
          ':at': call.startedAt,
          ':g': callersGsi(userId),
          ':one': 1,
          ':c': call.completed ? 1 : 0,
          ':t': Math.max(0, call.turns),
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const n = Number(Attributes?.callCount) || 0;
    await Promise.all([
      // The index key follows the count; a concurrent call that counted after us writes its own (higher) key.
      this.db
        .send(new UpdateCommand({ TableName: this.tableName, Key: key, UpdateExpression: 'SET gsi1sk = :k', ConditionExpression: 'callCount = :n', ExpressionAttributeValues: { ':k': callCountKey(n), ':n': n } }))
        .catch(ignoreConditionFailure),
      // lastCall only moves forward (a late callback of an older call leaves it).
      this.db
        .send(new UpdateCommand({ TableName: this.tableName, Key: key, UpdateExpression: 'SET lastCall = :at', ConditionExpression: 'lastCall < :at', ExpressionAttributeValues: { ':at': call.startedAt } }))
        .catch(ignoreConditionFailure),
    ]);
  }

  async callFinished(userId: string, call: FinishedCall): Promise<void> {
    const { day, hour } = utcHourOf(call.startedAt);
    const seconds = Math.max(0, Math.round(call.seconds));
    const deltas: ActivityDeltas = call.completed ? { done: 1, sec: seconds, dsec: seconds } : { sec: seconds };
    const maxAttr = `max${hour}`;
    // The streamed turns' latency buckets ride on the durations' ADD (≤ 161 + 3 attributes).
    const counts = { ...hourAttributes(hour, deltas), ...latencyAttributes(call.turnLatencies ?? [], hour) };
    await Promise.all([
      this.safely('the call duration counters', userId, () => this.addRaw(userId, day, counts)),
      seconds > 0
        ? this.safely('the longest call', userId, () =>
            this.db
              .send(
                new UpdateCommand({
                  TableName: this.tableName,
                  Key: { pk: userPk(userId), sk: activitySk(day) },
                  UpdateExpression: 'SET #m = :s',
                  ConditionExpression: 'attribute_not_exists(#m) OR #m < :s',
                  ExpressionAttributeNames: { '#m': maxAttr },
                  ExpressionAttributeValues: { ':s': seconds },
                }),
              )
              .catch(ignoreConditionFailure),
          )
        : Promise.resolve(),
      call.phoneNumber ? this.safely('the caller counter', userId, () => this.countCaller(userId, call)) : Promise.resolve(),
    ]);
  }
}
