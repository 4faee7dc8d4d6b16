/**
 * Voice settings over the single table (ACCESS-PATTERNS.md, "Voice: calls, settings and phone
 * requests"):
 *
 * - pk=USER#{u}, sk=VOICE#SETTINGS: the settings, the phone-number request (`phoneNumber`), its
 *   status copied to `phoneStatus` ('none' when there is none, for conditions) and the sealed
 *   summary-webhook secret.
 * - gsi1pk=PHONE_REQUESTS#{status}, gsi1sk={requestedAt}#{userId} on the same item while a
 *   request exists: the admin's list across users, newest first, one Query per status.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { EMPTY_PHONE_REQUEST, VOICE_DEFAULTS, type PhoneNumberRequest } from '../../contract/voice-catalogue.js';
import type { StoredVoiceSettings, VoiceSettingsRepository } from '../../domain/voice/ports.js';
import { conditionHolds } from './conditions.js';
import { userPk } from './keys.js';
import { queryItems } from './query-items.js';

type Item = Record<string, unknown>;

export const VOICE_SETTINGS_SK = 'VOICE#SETTINGS';
export const phoneRequestsGsi = (status: NonNullable<PhoneNumberRequest['status']>) => `PHONE_REQUESTS#${status}`;
const SETTING_KEYS = Object.keys(VOICE_DEFAULTS) as Array<keyof typeof VOICE_DEFAULTS>;

function toSettings(item: Item): StoredVoiceSettings {
  const out: Item = { ...VOICE_DEFAULTS };
  for (const k of SETTING_KEYS) if (item[k] !== undefined) out[k] = item[k];
  return {
    ...(out as typeof VOICE_DEFAULTS),
    phoneNumber: { ...EMPTY_PHONE_REQUEST, ...((item.phoneNumber as PhoneNumberRequest | undefined) ?? {}) },
    webhookSecret: typeof item.webhookSecret === 'string' ? item.webhookSecret : null,
    webhookSecretLast4: typeof item.webhookSecretLast4 === 'string' ? item.webhookSecretLast4 : null,
    updatedAt: typeof item.updatedAt === 'string' ? item.updatedAt : '',
  };
}

export class DynamoVoiceSettingsRepository implements VoiceSettingsRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private key(userId: string) {
    return { pk: userPk(userId), sk: VOICE_SETTINGS_SK };
  }

  async get(userId: string): Promise<StoredVoiceSettings | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.key(userId), ConsistentRead: true }));
    return Item ? toSettings(Item) : null;
  }

  async putSettings(
    userId: string,
    settings: Omit<StoredVoiceSettings, 'phoneNumber' | 'webhookSecret' | 'webhookSecretLast4'>,
  ): Promise<StoredVoiceSettings> {
    const fields: Item = { updatedAt: settings.updatedAt, entity: 'voiceSettings', userId };
    for (const k of SETTING_KEYS) fields[k] = settings[k];
    const names = Object.keys(fields);
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.key(userId),
        UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#f${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:f${i}`, fields[n]])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toSettings(Attributes ?? {});
  }

  async setWebhookSecret(userId: string, sealed: string, last4: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.key(userId),
        UpdateExpression: 'SET webhookSecret = :s, webhookSecretLast4 = :l, entity = :e, userId = :u',
        ExpressionAttributeValues: { ':s': sealed, ':l': last4, ':e': 'voiceSettings', ':u': userId },
      }),
    );
  }

  async setPhoneRequest(userId: string, request: PhoneNumberRequest, expectedStatuses: ReadonlyArray<PhoneNumberRequest['status']>): Promise<boolean> {
    const values: Item = { ':req': request, ':ps': request.status ?? 'none', ':e': 'voiceSettings', ':u': userId };
    const conditions: string[] = [];
    expectedStatuses.forEach((s, i) => {
      if (s === null) conditions.push('attribute_not_exists(phoneStatus)', 'phoneStatus = :none');
      else {
        conditions.push(`phoneStatus = :x${i}`);
        values[`:x${i}`] = s;
      }
    });
    if (expectedStatuses.includes(null)) values[':none'] = 'none';
    if (conditions.length === 0) return false;
    let update = 'SET phoneNumber = :req, phoneStatus = :ps, entity = :e, userId = :u';
    if (request.status) {
      update += ', gsi1pk = :g1, gsi1sk = :g2';
      values[':g1'] = phoneRequestsGsi(request.status);
      values[':g2'] = `${request.requestedAt ?? ''}#${userId}`;
    } else {
      update += ' REMOVE gsi1pk, gsi1sk';
    }
    return conditionHolds(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(userId),
          UpdateExpression: update,
          ConditionExpression: conditions.join(' OR '),
          ExpressionAttributeValues: values,
        }),
      ),
    );
  }

  async listPhoneRequests(statuses: ReadonlyArray<NonNullable<PhoneNumberRequest['status']>>): Promise<Array<{ userId: string; request: PhoneNumberRequest }>> {
    const perStatus = await Promise.all(
      [...new Set(statuses)].map((status) =>
        queryItems(
          this.db,
          {
          TableName: this.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': phoneRequestsGsi(status) },
          ProjectionExpression: 'userId, phoneNumber, gsi1sk',
          ScanIndexForward: false,
          },
          5000,
        ),
      ),
    );
    return perStatus
      .flat()
      .sort((a, b) => String(b.gsi1sk).localeCompare(String(a.gsi1sk)))
      .map((it) => ({ userId: String(it.userId), request: { ...EMPTY_PHONE_REQUEST, ...(it.phoneNumber as PhoneNumberRequest) } }));
  }
}
