/**
 * Booking reminders (issue 30, domain/bookings/reminders.ts) in the single table:
 *
 * - the due item, in its hour partition: pk=BKREMIND#{due hour, "2026-12-02T09"},
 *   sk={dueAt}#{userId}#{bookingId}; userId, bookingId, start, dueAt, claim (runId), claimUntil
 *   (epoch ms), expiresAt (TTL: a day after the booking's start, so a reminder nobody took does not
 *   stay);
 * - the booking's pointer to it: pk=USER#{u}, sk=BKREMIND#{bookingId}; bucketPk, bucketSk. A move
 *   replaces the due item and the pointer in one transaction; a cancellation deletes both.
 *
 * The schedule Queries the hour partitions from `since` to `now` with sk ≤ now (a few Queries a
 * run, whatever the number of bookings) and claims an item with a conditional update (unclaimed,
 * or its claim's lease over). One partition per hour holds every account's reminders of that hour:
 * at ~1,000 writes/s a partition would need a shard suffix (BKREMIND#{hour}#{n}), far beyond today.
 */
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { ReminderEntry, ReminderStore } from '../../domain/bookings/reminders.js';
import { conditionHolds } from './conditions.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';

const HOUR_MS = 3_600_000;
const bucketPk = (ms: number) => `BKREMIND#${new Date(ms).toISOString().slice(0, 13)}`;
const pointerSk = (bookingId: string) => `BKREMIND#${bookingId}`;
const dueSk = (e: ReminderEntry) => `${e.dueAt}#${e.userId}#${e.bookingId}`;
const keyOf = (e: ReminderEntry) => ({ pk: bucketPk(Date.parse(e.dueAt)), sk: dueSk(e) });

export class DynamoReminderStore implements ReminderStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async pointer(userId: string, bookingId: string): Promise<{ pk: string; sk: string } | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: pointerSk(bookingId) }, ConsistentRead: true }));
    return typeof Item?.bucketPk === 'string' && typeof Item.bucketSk === 'string' ? { pk: Item.bucketPk, sk: Item.bucketSk } : null;
  }

  async put(entry: ReminderEntry): Promise<void> {
    const key = keyOf(entry);
    const old = await this.pointer(entry.userId, entry.bookingId);
    if (old && old.pk === key.pk && old.sk === key.sk) return;
    const expiresAt = Math.floor(Date.parse(entry.start) / 1000) + 86_400;
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: this.tableName, Item: { ...key, entity: 'BookingReminder', userId: entry.userId, bookingId: entry.bookingId, start: entry.start, dueAt: entry.dueAt, expiresAt } } },
          { Put: { TableName: this.tableName, Item: { pk: userPk(entry.userId), sk: pointerSk(entry.bookingId), entity: 'BookingReminderPointer', bucketPk: key.pk, bucketSk: key.sk, expiresAt } } },
          ...(old ? [{ Delete: { TableName: this.tableName, Key: old } }] : []),
        ],
      }),
    );
  }

  async remove(userId: string, bookingId: string): Promise<void> {
    const old = await this.pointer(userId, bookingId);
    if (!old) return;
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          { Delete: { TableName: this.tableName, Key: { pk: userPk(userId), sk: pointerSk(bookingId) } } },
          { Delete: { TableName: this.tableName, Key: old } },
        ],
      }),
    );
  }

  async due(since: number, now: number, limit: number): Promise<ReminderEntry[]> {
    const out: ReminderEntry[] = [];
    const nowIso = new Date(now).toISOString();
    const sinceIso = new Date(since).toISOString();
    for (let hour = Math.floor(since / HOUR_MS) * HOUR_MS; hour <= now && out.length < limit; hour += HOUR_MS) {
      const items = await queryItems(
        this.db,
        {
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          // '~' sorts after the '#' that follows dueAt: every item due at or before now.
          ExpressionAttributeValues: { ':pk': bucketPk(hour), ':from': sinceIso, ':to': `${nowIso}~` },
          ConsistentRead: true,
        },
        limit - out.length,
      );
      for (const item of items) {
        if (typeof item.userId === 'string' && typeof item.bookingId === 'string' && typeof item.start === 'string' && typeof item.dueAt === 'string') {
          out.push({ userId: item.userId, bookingId: item.bookingId, start: item.start, dueAt: item.dueAt });
        }
      }
    }
    return out;
  }

  claim(entry: ReminderEntry, runId: string, now: number, leaseUntil: number): Promise<boolean> {
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keyOf(entry),
          UpdateExpression: 'SET claim = :run, claimUntil = :until',
          ConditionExpression: 'attribute_exists(pk) AND #start = :start AND (attribute_not_exists(claim) OR claimUntil < :now)',
          ExpressionAttributeNames: { '#start': 'start' },
          ExpressionAttributeValues: { ':run': runId, ':until': leaseUntil, ':now': now, ':start': entry.start },
        }),
      ),
    );
  }

  async done(entry: ReminderEntry, runId: string): Promise<void> {
    // Only this run's claim: the item goes; the pointer stays until the booking changes (harmless: put/remove read it).
    await conditionHolds(
      this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keyOf(entry), ConditionExpression: 'claim = :run', ExpressionAttributeValues: { ':run': runId } })),
    );
  }
}
