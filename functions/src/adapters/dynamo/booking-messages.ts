/**
 * What follows a booking's change, as stored (issue 30):
 *
 * - the customer's messages about a booking (domain/bookings/customer-messages.ts):
 *   pk=USER#{u}, sk=BKMSG#{bookingId}#{kind}#{version}; kind, state, reason, error, via,
 *   conversationId, at, expiresAt (TTL a year on). Written 'sending' with attribute_not_exists
 *   (the claim), then settled; a release deletes a 'sending' record so a later try claims again.
 * - the owner's e-mail about one change (domain/bookings/owner-email.ts): pk=USER#{u},
 *   sk=BKMAIL#{noticeId}; the change as it was, and its e-mail delivery in `email`
 *   (adapters/dynamo/email-deliveries.ts, kind 'booking-change'). TTL 90 days.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { BookingCustomerMessage, BookingCustomerMessageStore } from '../../domain/bookings/customer-messages.js';
import type { BookingChangeNotice, BookingChangeNoticeStore } from '../../domain/bookings/owner-email.js';
import { conditionHolds, ignoreConditionFailure } from './conditions.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';

const DAY_S = 86_400;
const messageSk = (bookingId: string, key: string) => `BKMSG#${bookingId}#${key}`;
export const bookingNoticeSk = (id: string) => `BKMAIL#${id}`;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export class DynamoBookingMessages implements BookingCustomerMessageStore, BookingChangeNoticeStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  claim(userId: string, bookingId: string, key: string, kind: BookingCustomerMessage['kind'], at: string): Promise<boolean> {
    return conditionHolds(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: userPk(userId), sk: messageSk(bookingId, key), entity: 'BookingMessage', bookingId, kind, state: 'sending', at, expiresAt: Math.floor(this.now() / 1000) + 365 * DAY_S },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async settle(userId: string, bookingId: string, key: string, outcome: Omit<BookingCustomerMessage, 'kind'>): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: messageSk(bookingId, key) },
        UpdateExpression: 'SET #state = :state, reason = :reason, #error = :error, via = :via, conversationId = :conv, #at = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#state': 'state', '#error': 'error', '#at': 'at' },
        ExpressionAttributeValues: { ':state': outcome.state, ':reason': outcome.reason, ':error': outcome.error, ':via': outcome.via, ':conv': outcome.conversationId, ':at': outcome.at },
      }),
    ).catch(ignoreConditionFailure);
  }

  async release(userId: string, bookingId: string, key: string): Promise<void> {
    await this.db
      .send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: messageSk(bookingId, key) },
          ConditionExpression: '#state = :sending',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':sending': 'sending' },
        }),
      )
      .catch(ignoreConditionFailure);
  }

  async list(userId: string, bookingId: string): Promise<BookingCustomerMessage[]> {
    const items = await queryItems(
      this.db,
      { TableName: this.tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': userPk(userId), ':prefix': `BKMSG#${bookingId}#` } },
      50,
    );
    return items
      .map((i) => ({
        kind: i.kind as BookingCustomerMessage['kind'],
        state: i.state as BookingCustomerMessage['state'],
        reason: str(i.reason) as BookingCustomerMessage['reason'],
        error: str(i.error),
        via: str(i.via) as BookingCustomerMessage['via'],
        conversationId: str(i.conversationId),
        at: str(i.at) ?? '',
      }))
      .sort((a, b) => a.at.localeCompare(b.at));
  }

  putOnce(notice: BookingChangeNotice): Promise<boolean> {
    return conditionHolds(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...notice, pk: userPk(notice.userId), sk: bookingNoticeSk(notice.id), entity: 'BookingChangeNotice', expiresAt: Math.floor(this.now() / 1000) + 90 * DAY_S },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async get(userId: string, id: string): Promise<BookingChangeNotice | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: bookingNoticeSk(id) }, ConsistentRead: true }));
    if (!Item || typeof Item.bookingId !== 'string' || typeof Item.start !== 'string') return null;
    return {
      userId,
      id,
      bookingId: Item.bookingId,
      kind: Item.kind as BookingChangeNotice['kind'],
      serviceName: str(Item.serviceName) ?? '',
      staffName: str(Item.staffName) ?? '',
      start: Item.start,
      beforeStart: str(Item.beforeStart),
      timeZone: str(Item.timeZone) ?? 'UTC',
      customerName: str(Item.customerName) ?? '',
      customerPhone: str(Item.customerPhone) ?? '',
      channel: (str(Item.channel) ?? 'whatsapp') as BookingChangeNotice['channel'],
      at: str(Item.at) ?? '',
    };
  }
}
