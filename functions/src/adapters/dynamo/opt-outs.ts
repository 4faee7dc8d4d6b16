/**
 * Customers' opt-outs over the single table (issue 33; ACCESS-PATTERNS.md "Privacy"):
 * pk=USER#{account}, sk=OPTOUT#{e164} holds `at` and `keyword`. Present = the number receives no
 * reminders, confirmations or templates; absent = it does. A page of contacts reads its numbers in
 * one BatchGetItem.
 */
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { OptOutState } from '../../contract/privacy.js';
import type { OptOuts } from '../../domain/privacy/ports.js';
import { batchGetItems } from './batch.js';
import { userPk } from './keys.js';

export const optOutSk = (e164: string) => `OPTOUT#${e164}`;

const stateOf = (item: Record<string, unknown> | undefined): OptOutState | null =>
  item && typeof item.at === 'string' && typeof item.keyword === 'string' ? { at: item.at, keyword: item.keyword } : null;

export class DynamoOptOuts implements OptOuts {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(accountId: string, e164: string): Promise<OptOutState | null> {
    if (!e164) return null;
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(accountId), sk: optOutSk(e164) }, ConsistentRead: true }));
    return stateOf(Item);
  }

  async many(accountId: string, e164s: readonly string[]): Promise<Map<string, OptOutState>> {
    const unique = [...new Set(e164s.filter(Boolean))];
    const out = new Map<string, OptOutState>();
    if (unique.length === 0) return out;
    const items = await batchGetItems(
      this.db,
      this.tableName,
      unique.map((e) => ({ pk: userPk(accountId), sk: optOutSk(e) })),
      { projection: { ProjectionExpression: '#sk, #at, #kw', ExpressionAttributeNames: { '#sk': 'sk', '#at': 'at', '#kw': 'keyword' } } },
    );
    for (const item of items) {
      const state = stateOf(item);
      if (state && typeof item.sk === 'string') out.set(item.sk.slice('OPTOUT#'.length), state);
    }
    return out;
  }

  async set(accountId: string, e164: string, state: OptOutState): Promise<void> {
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { pk: userPk(accountId), sk: optOutSk(e164), entity: 'optOut', e164, at: state.at, keyword: state.keyword } }),
    );
  }

  async clear(accountId: string, e164: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: userPk(accountId), sk: optOutSk(e164) } }));
  }
}
