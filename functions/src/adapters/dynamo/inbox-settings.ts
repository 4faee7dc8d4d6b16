/**
 * Inbox settings over the single table (issue 17; ACCESS-PATTERNS.md "Inbox settings"):
 * pk=USER#{u}, sk=INBOX#SETTINGS holds the whole InboxSettings object. A setting missing from
 * the item (never saved, or added after it was saved) reads as its default.
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { INBOX_DEFAULTS, type InboxSettings } from '../../contract/inbox.js';
import type { InboxSettingsRepository } from '../../domain/conversations/ports.js';
import { userPk } from './keys.js';

export const INBOX_SETTINGS_SK = 'INBOX#SETTINGS';

function toSettings(item: Record<string, unknown> | undefined): InboxSettings {
  const hours = item?.aiResumeAfterHours;
  return {
    aiResumeAfterHours: typeof hours === 'number' && Number.isFinite(hours) ? hours : INBOX_DEFAULTS.aiResumeAfterHours,
    alertByEmail: typeof item?.alertByEmail === 'boolean' ? item.alertByEmail : INBOX_DEFAULTS.alertByEmail,
    alertWhatsappNumber: typeof item?.alertWhatsappNumber === 'string' ? item.alertWhatsappNumber : INBOX_DEFAULTS.alertWhatsappNumber,
  };
}

export class DynamoInboxSettingsRepository implements InboxSettingsRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(userId: string): Promise<InboxSettings> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: INBOX_SETTINGS_SK } }));
    return toSettings(Item);
  }

  async put(userId: string, settings: InboxSettings): Promise<InboxSettings> {
    const stored = toSettings({ ...settings });
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: userPk(userId), sk: INBOX_SETTINGS_SK, entity: 'inboxSettings', userId, ...stored, updatedAt: this.now().toISOString() },
      }),
    );
    return stored;
  }
}
