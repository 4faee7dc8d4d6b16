/**
 * The business location over the single table (issue 31; ACCESS-PATTERNS.md "Business location"):
 * pk=USER#{u}, sk=BUSINESS#LOCATION holds name, address, latitude, longitude. Read strictly: an
 * item that is not a valid location reads as none (the agent then says the address in words).
 */
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { businessLocationSchema, type BusinessLocation } from '../../contract/whatsapp-media.js';
import type { BusinessLocationStore } from '../../domain/account/business-location.js';
import { userPk } from './keys.js';

export const BUSINESS_LOCATION_SK = 'BUSINESS#LOCATION';

export class DynamoBusinessLocationStore implements BusinessLocationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(userId: string): Promise<BusinessLocation | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: BUSINESS_LOCATION_SK } }));
    if (!Item) return null;
    const parsed = businessLocationSchema.safeParse({ name: Item.name, address: Item.address, latitude: Item.latitude, longitude: Item.longitude });
    return parsed.success ? parsed.data : null;
  }

  async put(userId: string, location: BusinessLocation): Promise<void> {
    const stored = businessLocationSchema.parse(location);
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: userPk(userId), sk: BUSINESS_LOCATION_SK, entity: 'businessLocation', userId, ...stored, updatedAt: this.now().toISOString() },
      }),
    );
  }

  async delete(userId: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: BUSINESS_LOCATION_SK } }));
  }
}
