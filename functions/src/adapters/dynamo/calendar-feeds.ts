/**
 * Calendar feed tokens (issue 30) in the single table (ACCESS-PATTERNS.md "Calendar feeds"):
 * - feed item    pk=USER#{sub}, sk=CALFEED#{staffId | "-" for the business}: tokenHash, hint, createdAt
 * - lookup item  pk=CALFEEDHASH#{sha256}, sk=CALFEED: userId, staffId (the public feed's GetItem)
 * Create/rotate and revoke change the feed item and its lookup in ONE transaction, conditioned on
 * the hash read before, so a rotated or revoked token has no lookup left the moment it answers.
 */
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { CalendarFeedRepository, StoredCalendarFeed } from '../../domain/bookings/calendar-feed.js';
import { itemCodec, str, strOrNull } from './item-codec.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';
import { conditionFailedAt, type TransactItem } from './transact.js';

const BUSINESS = '-';
const feedKey = (userId: string, staffId: string | null) => ({ pk: userPk(userId), sk: `CALFEED#${staffId ?? BUSINESS}` });
const lookupKey = (tokenHash: string) => ({ pk: `CALFEEDHASH#${tokenHash}`, sk: 'CALFEED' });

const fromItem = itemCodec<StoredCalendarFeed>({
  userId: str,
  staffId: strOrNull,
  tokenHash: str,
  hint: str,
  createdAt: str,
});

export class DynamoCalendarFeedRepository implements CalendarFeedRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(userId: string): Promise<StoredCalendarFeed[]> {
    const items = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':sk': 'CALFEED#' },
      ConsistentRead: true,
    });
    return items.map(fromItem);
  }

  async put(feed: StoredCalendarFeed): Promise<void> {
    // A rotation racing another one: the loser reads again and replaces the winner's token.
    for (let attempt = 0; ; attempt++) {
      const current = await this.current(feed.userId, feed.staffId);
      const items: TransactItem[] = [
        {
          Put: {
            TableName: this.tableName,
            Item: { ...feedKey(feed.userId, feed.staffId), entity: 'calendarFeed', ...feed },
            ...(current
              ? { ConditionExpression: 'tokenHash = :old', ExpressionAttributeValues: { ':old': current.tokenHash } }
              : { ConditionExpression: 'attribute_not_exists(pk)' }),
          },
        },
        ...(current ? [{ Delete: { TableName: this.tableName, Key: lookupKey(current.tokenHash) } }] : []),
        {
          Put: {
            TableName: this.tableName,
            Item: { ...lookupKey(feed.tokenHash), entity: 'calendarFeedLookup', userId: feed.userId, staffId: feed.staffId, tokenHash: feed.tokenHash, hint: feed.hint, createdAt: feed.createdAt },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ];
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return;
      } catch (error) {
        if (!conditionFailedAt(error, 0) || attempt >= 3) throw error;
      }
    }
  }

  async remove(userId: string, staffId: string | null): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      const current = await this.current(userId, staffId);
      if (!current) return false;
      try {
        await this.db.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Delete: {
                  TableName: this.tableName,
                  Key: feedKey(userId, staffId),
                  ConditionExpression: 'tokenHash = :h',
                  ExpressionAttributeValues: { ':h': current.tokenHash },
                },
              },
              { Delete: { TableName: this.tableName, Key: lookupKey(current.tokenHash) } },
            ],
          }),
        );
        return true;
      } catch (error) {
        if (!conditionFailedAt(error, 0) || attempt >= 3) throw error;
      }
    }
  }

  async byHash(tokenHash: string): Promise<StoredCalendarFeed | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: lookupKey(tokenHash), ConsistentRead: true }));
    return Item ? fromItem(Item) : null;
  }

  private async current(userId: string, staffId: string | null): Promise<StoredCalendarFeed | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: feedKey(userId, staffId), ConsistentRead: true }));
    return Item ? fromItem(Item) : null;
  }
}
