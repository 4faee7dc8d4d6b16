/**
 * The contacts' current names for the readers of calls, conversations and the dashboard
 * (domain/contacts/names.ts; ACCESS-PATTERNS.md "Names stay true"): one BatchGetItem of the
 * contact items (CONTACT#{id}) and phone guards (PHONE#{e164}) of a page, projected; a second
 * one only for contacts found by phone and not already read. Eventually consistent: a rename
 * shows on the next read a moment later at most.
 */
import type { DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { ContactName, ContactNameLookup, ContactNames } from '../../domain/contacts/names.js';
import { batchGetItems } from './batch.js';
import { userPk } from './keys.js';

type Item = Record<string, unknown>;
const PROJECTION = {
  ProjectionExpression: 'sk, id, #n, phoneNumber, contactId',
  ExpressionAttributeNames: { '#n': 'name' },
};
// The keys of contacts.ts, restated so the call, conversation and dashboard bundles skip that module.
const contactSk = (id: string) => `CONTACT#${id}`;
const phoneSk = (e164: string) => `PHONE#${e164}`;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function contactOf(item: Item): ContactName | null {
  const id = str(item.id);
  return id ? { id, name: str(item.name), phoneNumber: str(item.phoneNumber) } : null;
}

export class DynamoContactNames implements ContactNames {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Strongly consistent reads (the call loop's caller lookup: a contact saved a moment before the call). */
    private readonly options: { consistentRead?: boolean } = {},
  ) {}

  private get(keys: Item[]): Promise<Item[]> {
    return keys.length ? batchGetItems(this.db, this.tableName, keys, { projection: PROJECTION, consistentRead: this.options.consistentRead }) : Promise.resolve([]);
  }

  async lookup(userId: string, query: { ids: readonly string[]; phones?: readonly string[] }): Promise<ContactNameLookup> {
    const pk = userPk(userId);
    const ids = [...new Set(query.ids.filter(Boolean))];
    const phones = [...new Set((query.phones ?? []).filter(Boolean))];
    const items = await this.get([...ids.map((id) => ({ pk, sk: contactSk(id) })), ...phones.map((p) => ({ pk, sk: phoneSk(p) }))]);
    const byId = new Map<string, ContactName>();
    const owners = new Map<string, string>();
    for (const item of items) {
      const sk = str(item.sk);
      if (sk.startsWith('PHONE#')) {
        if (str(item.contactId)) owners.set(sk.slice('PHONE#'.length), str(item.contactId));
      } else {
        const c = contactOf(item);
        if (c) byId.set(c.id, c);
      }
    }
    const missing = [...new Set([...owners.values()].filter((id) => !byId.has(id)))];
    for (const item of await this.get(missing.map((id) => ({ pk, sk: contactSk(id) })))) {
      const c = contactOf(item);
      if (c) byId.set(c.id, c);
    }
    const byPhone = new Map<string, ContactName>();
    for (const [phone, id] of owners) {
      const c = byId.get(id);
      if (c) byPhone.set(phone, c);
    }
    return { byId, byPhone };
  }
}
