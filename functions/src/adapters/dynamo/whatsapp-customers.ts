/**
 * The WhatsApp customers of a user and their contact links (ACCESS-PATTERNS.md, "WhatsApp:
 * conversations and messages"): pk=USER#{u}, sk=WACUST#{waId} pointers (conversationIds, phone,
 * name, contactId; gsi1pk=USER#{u}#CONTACT#{contactId} when linked) and contactId on their
 * conversations. Split from conversations.ts so the contacts group (unlink on contact delete,
 * Import from WhatsApp) bundles only this.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { WhatsAppCustomer, WhatsAppCustomers } from '../../domain/contacts/ports.js';
import { ignoreConditionFailure, unlessConditionFails } from './conditions.js';
import { itemCodec, text } from './item-codec.js';
import { userPk } from './keys.js';
import { queryItems, queryPages } from './query-items.js';

type Item = Record<string, unknown>;

export const convSk = (id: string) => `CONV#${id}`;
export const customerSk = (waId: string) => `WACUST#${waId}`;
export const contactGsi = (userId: string, contactId: string) => `USER#${userId}#CONTACT#${contactId}`;

const toCustomer = itemCodec<WhatsAppCustomer>({ waId: text, phone: text, name: text, contactId: text });

export class DynamoWhatsAppCustomers implements WhatsAppCustomers {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private async pointersOfContact(userId: string, contactId: string): Promise<Item[]> {
    return queryItems(this.db, {
      TableName: this.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': contactGsi(userId, contactId) },
    });
  }

  private async setContactOn(userId: string, ids: Iterable<string>, from: string | null, to: string | null): Promise<void> {
    await Promise.all(
      [...ids].map((id) =>
        this.db
          .send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: { pk: userPk(userId), sk: convSk(id) },
              UpdateExpression: to ? 'SET contactId = :to' : 'SET contactId = :empty',
              ConditionExpression: from ? 'contactId = :from' : 'attribute_exists(pk) AND (attribute_not_exists(contactId) OR contactId = :empty)',
              ExpressionAttributeValues: { ':empty': '', ...(to ? { ':to': to } : {}), ...(from ? { ':from': from } : {}) },
            }),
          )
          .catch(ignoreConditionFailure),
      ),
    );
  }

  async unlinkContact(userId: string, contactId: string): Promise<void> {
    for (const pointer of await this.pointersOfContact(userId, contactId)) {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: pointer.pk, sk: pointer.sk },
          UpdateExpression: 'REMOVE contactId, gsi1pk, gsi1sk',
          ConditionExpression: 'contactId = :cid',
          ExpressionAttributeValues: { ':cid': contactId },
        }),
      ).catch(ignoreConditionFailure);
      await this.setContactOn(userId, (pointer.conversationIds as Set<string> | undefined) ?? [], contactId, null);
    }
  }

  async linkContact(userId: string, waId: string, contactId: string): Promise<void> {
    const linked = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: customerSk(waId) },
          UpdateExpression: 'SET contactId = :cid, gsi1pk = :g1, gsi1sk = :g2',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':cid': contactId, ':g1': contactGsi(userId, contactId), ':g2': customerSk(waId) },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    await this.setContactOn(userId, (linked?.Attributes?.conversationIds as Set<string> | undefined) ?? [], null, contactId);
  }

  async *customers(userId: string): AsyncIterable<WhatsAppCustomer[]> {
    const pages = queryPages(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':a': 'WACUST#', ':b': 'WACUST#~' },
      ProjectionExpression: 'waId, phone, #name, contactId',
      ExpressionAttributeNames: { '#name': 'name' },
    });
    for await (const items of pages) {
      if (items.length) yield items.map(toCustomer);
    }
  }
}
