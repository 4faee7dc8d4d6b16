/**
 * The Google Calendar connection (issue 30) in the single table (ACCESS-PATTERNS.md "Google Calendar"):
 * - connection  pk=USER#{sub}, sk=GCAL#CONNECTION: email, refreshToken (sealed), scope,
 *               businessCalendarIds, eventsCalendarId, connectedAt, updatedAt
 * - state       pk=GCALSTATE#{sha256(state)}, sk=GCALSTATE: userId, expiresAt (TTL, epoch s; checked
 *               on read too). Taken by a conditional delete: one callback only.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { GoogleConnection, GoogleConnectionRepository } from '../../domain/bookings/google-calendar.js';
import { isConditionFailure } from './conditions.js';
import { itemCodec, list, str, strOrNull } from './item-codec.js';
import { userPk } from './keys.js';

const connectionKey = (userId: string) => ({ pk: userPk(userId), sk: 'GCAL#CONNECTION' });
const stateKey = (hash: string) => ({ pk: `GCALSTATE#${hash}`, sk: 'GCALSTATE' });

const fromItem = itemCodec<GoogleConnection>({
  userId: str,
  email: str,
  refreshToken: str,
  scope: str,
  businessCalendarIds: (v) => list<string>(v).filter((id) => typeof id === 'string'),
  eventsCalendarId: strOrNull,
  connectedAt: str,
  updatedAt: str,
});

export class DynamoGoogleConnectionRepository implements GoogleConnectionRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(userId: string): Promise<GoogleConnection | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: connectionKey(userId), ConsistentRead: true }));
    return Item ? fromItem(Item) : null;
  }

  async put(connection: GoogleConnection): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...connectionKey(connection.userId), entity: 'googleCalendar', ...connection } }));
  }

  async saveChoices(userId: string, choices: { businessCalendarIds: string[]; eventsCalendarId: string | null; updatedAt: string }): Promise<GoogleConnection | null> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: connectionKey(userId),
          UpdateExpression: 'SET businessCalendarIds = :b, eventsCalendarId = :e, updatedAt = :u',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':b': choices.businessCalendarIds, ':e': choices.eventsCalendarId, ':u': choices.updatedAt },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? fromItem(Attributes) : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  async remove(userId: string): Promise<GoogleConnection | null> {
    const { Attributes } = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: connectionKey(userId), ReturnValues: 'ALL_OLD' }));
    return Attributes ? fromItem(Attributes) : null;
  }

  async putState(stateHash: string, userId: string, expiresAt: Date): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...stateKey(stateHash), entity: 'googleCalendarState', userId, expiresAt: Math.ceil(expiresAt.getTime() / 1000) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async takeState(stateHash: string, now: Date): Promise<string | null> {
    try {
      const { Attributes } = await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: stateKey(stateHash),
          // Unexpired only (the TTL sweep is lazy): a late or replayed callback finds nothing.
          ConditionExpression: 'attribute_exists(pk) AND expiresAt > :now',
          ExpressionAttributeValues: { ':now': Math.floor(now.getTime() / 1000) },
          ReturnValues: 'ALL_OLD',
        }),
      );
      return typeof Attributes?.userId === 'string' ? Attributes.userId : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }
}
