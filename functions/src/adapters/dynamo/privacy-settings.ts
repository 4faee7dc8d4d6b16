/**
 * Privacy settings over the single table (issue 33; ACCESS-PATTERNS.md "Privacy"):
 * pk=USER#{account}, sk=PRIVACY#SETTINGS holds the whole PrivacySettings object (`settings`),
 * validated on the way in and read strictly (by hand, without the zod schema: domain/privacy/settings.ts);
 * absent = the defaults for the account's country.
 * The writers of messages, calls and media read it on their hot path, so a warm container keeps
 * each account's settings for a minute (a change applies within that minute).
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { PrivacySettings } from '../../contract/privacy.js';
import type { PrivacySettingsStore } from '../../domain/privacy/ports.js';
import { defaultPrivacySettings, parseStoredPrivacySettings } from '../../domain/privacy/settings.js';
import { userPk } from './keys.js';

export const PRIVACY_SETTINGS_SK = 'PRIVACY#SETTINGS';
const CACHE_MS = 60_000;
const CACHE_MAX = 500;

export class DynamoPrivacySettingsStore implements PrivacySettingsStore {
  private readonly cache = new Map<string, { at: number; settings: PrivacySettings }>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly countryOf: (accountId: string) => Promise<string>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(accountId: string): Promise<PrivacySettings> {
    const at = this.now().getTime();
    const hit = this.cache.get(accountId);
    if (hit && at - hit.at < CACHE_MS) return structuredClone(hit.settings);
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(accountId), sk: PRIVACY_SETTINGS_SK }, ConsistentRead: true }),
    );
    // The country (another GetItem) only when the defaults are needed: a saved object does not depend on it.
    const settings = parseStoredPrivacySettings(Item?.settings) ?? defaultPrivacySettings(await this.countryOf(accountId));
    this.remember(accountId, at, settings);
    return structuredClone(settings);
  }

  async put(accountId: string, settings: PrivacySettings): Promise<PrivacySettings | null> {
    const valid = parseStoredPrivacySettings(settings);
    // The handler validated the body (privacySettingsRequest): this only guards another caller.
    if (!valid) throw new TypeError('Invalid privacy settings');
    // ALL_OLD: what was saved before, in the same request (the activity log names what changed).
    const { Attributes } = await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { pk: userPk(accountId), sk: PRIVACY_SETTINGS_SK, entity: 'privacySettings', settings: valid, updatedAt: this.now().toISOString() },
        ReturnValues: 'ALL_OLD',
      }),
    );
    this.remember(accountId, this.now().getTime(), valid);
    return parseStoredPrivacySettings(Attributes?.settings);
  }

  private remember(accountId: string, at: number, settings: PrivacySettings): void {
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(accountId, { at, settings: structuredClone(settings) });
  }
}
