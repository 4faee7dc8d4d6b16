/**
 * The agent's booking outcomes over the single table (domain/bookings/outcomes.ts;
 * ACCESS-PATTERNS.md "Dashboard"):
 *
 * - pk=USER#{u}, sk=BKOUT#{bookingId}: the marker — what was counted for the booking (v =
 *   its updatedAt then, channel, madeAt, priceCents, cancelled, currency).
 * - The counts go to the dashboard's ACT#{UTC day} item of the hour the booking was made:
 *   `bk{c}{HH}`, `bx{c}{HH}`, `bv{c}{HH}` (domain/dashboard/ports.ts bookingMetric) and `bcur`,
 *   so GET /api/dashboard reads them in the BatchGetItem it already makes (no extra request).
 *
 * One TransactWriteItems: the marker Put conditioned on its version as read, and the ADDs.
 */
import { GetCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { AgentBookingChannel } from '../../contract/dashboard.js';
import type { BookingOutcomeStore, CountedBooking, OutcomeDelta } from '../../domain/bookings/outcomes.js';
import { BOOKING_CURRENCY_ATTRIBUTE, bookingMetric } from '../../domain/dashboard/ports.js';
import { activitySk, utcHourOf } from './activity.js';
import { userPk } from './keys.js';
import { conditionFailedAt, transactWrite, type TransactItem } from './transact.js';

export const bookingOutcomeSk = (bookingId: string) => `BKOUT#${bookingId}`;

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * The ACT day items' ADDs of the deltas (zeros left out), one Update per UTC day (a transaction
 * may touch an item once), and the currency their values are in.
 */
export function countsUpdates(tableName: string, userId: string, deltas: readonly OutcomeDelta[]): TransactItem[] {
  const byDay = new Map<string, { adds: Map<string, number>; currency: string }>();
  for (const delta of deltas) {
    const { day, hour } = utcHourOf(delta.madeAt);
    const entry = byDay.get(day) ?? { adds: new Map<string, number>(), currency: '' };
    byDay.set(day, entry);
    for (const [figure, n] of [['bk', delta.made], ['bx', delta.cancelled], ['bv', delta.valueCents]] as const) {
      const attr = `${bookingMetric(figure, delta.channel)}${hour}`;
      entry.adds.set(attr, (entry.adds.get(attr) ?? 0) + n);
    }
    if (delta.currency) entry.currency = delta.currency;
  }
  const updates: TransactItem[] = [];
  for (const [day, { adds, currency }] of byDay) {
    const nonZero = [...adds].filter(([, n]) => n !== 0);
    if (nonZero.length === 0) continue;
    const names: Record<string, string> = Object.fromEntries(nonZero.map(([attr], i) => [`#a${i}`, attr]));
    const values: Record<string, unknown> = Object.fromEntries(nonZero.map(([, n], i) => [`:v${i}`, n]));
    let expression = `ADD ${nonZero.map((_, i) => `#a${i} :v${i}`).join(', ')}`;
    if (currency) {
      names['#cur'] = BOOKING_CURRENCY_ATTRIBUTE;
      values[':cur'] = currency;
      expression += ' SET #cur = :cur';
    }
    updates.push({
      Update: {
        TableName: tableName,
        Key: { pk: userPk(userId), sk: activitySk(day) },
        UpdateExpression: expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    });
  }
  return updates;
}

export class DynamoBookingOutcomeStore implements BookingOutcomeStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async counted(userId: string, bookingId: string): Promise<CountedBooking | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: bookingOutcomeSk(bookingId) }, ConsistentRead: true }));
    if (!Item) return null;
    return {
      version: str(Item.v),
      channel: str(Item.channel) as AgentBookingChannel,
      madeAt: str(Item.madeAt),
      priceCents: typeof Item.priceCents === 'number' ? Item.priceCents : 0,
      cancelled: Item.cancelled === true,
      currency: str(Item.currency),
    };
  }

  async apply(userId: string, bookingId: string, expected: string | null, next: CountedBooking, deltas: readonly OutcomeDelta[]): Promise<boolean> {
    const marker: TransactItem = {
      Put: {
        TableName: this.tableName,
        Item: {
          pk: userPk(userId),
          sk: bookingOutcomeSk(bookingId),
          v: next.version,
          channel: next.channel,
          madeAt: next.madeAt,
          priceCents: next.priceCents,
          cancelled: next.cancelled,
          currency: next.currency,
        },
        ...(expected === null
          ? { ConditionExpression: 'attribute_not_exists(sk)' }
          : { ConditionExpression: 'v = :expected', ExpressionAttributeValues: { ':expected': expected } }),
      },
    };
    try {
      await transactWrite(this.db, [marker, ...countsUpdates(this.tableName, userId, deltas)]);
      return true;
    } catch (error) {
      if (conditionFailedAt(error, 0)) return false;
      throw error;
    }
  }
}
