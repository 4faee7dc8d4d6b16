/**
 * Contacts over the single table (see ACCESS-PATTERNS.md, "Contacts"):
 *
 * - pk=USER#{u}, sk=CONTACT#{id}: the contact. `id` starts with the zero-padded per-user
 *   sequence, so the main key is the list order (newest = highest). gsi1pk=USER#{u}#CONTACTS#{source},
 *   gsi1sk={seq}: the list of one source.
 * - pk=USER#{u}, sk=CONTACTS#SEQ: the sequence counter (ADD).
 * - pk=USER#{u}, sk=CONTACTS#DIR#{0..7}: counter shards (shard = seq % 8). Each holds the stats
 *   (total, withPhone, waContacts, myContacts) and the page directory: per source letter
 *   (m manual, w whatsapp_import, p api) and bucket of 100 sequence numbers, the number of
 *   live contacts (`m123` = manual contacts with seq 12300..12399). Eight shards instead of one
 *   item so parallel creates (imports) rarely collide on one item's transaction lock; a read
 *   is still one BatchGetItem.
 * - pk=USER#{u}, sk=PHONE#{e164}: phone uniqueness guard (contactId, src = the contact's source);
 *   also how a search finds a number by its beginning (a prefix range over these keys).
 * - pk=USER#{u}#TOK, sk={token}#{id}: search tokens (src = the contact's source).
 *
 * Every create, update and delete is ONE TransactWriteItems over the contact, its guard, its
 * tokens and its counter shard, so the counters and the index never disagree with the contacts.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '../aws/dynamo-document.js';
import type { ContactSource, ContactStats } from '../../contract/contacts.js';
import {
  ContactChangedError,
  DuplicatePhoneError,
  type ContactFilterRow,
  type ContactRepository,
  type IdsByPrefix,
  type StoredContact,
} from '../../domain/contacts/ports.js';
import { padSeq, SEQ_DIGITS } from '../../domain/contacts/contact-id.js';
import { DynamoActivityCounters } from './activity.js';
import { batchGetItems, type BatchGetOptions } from './batch.js';
import { anyStr, bool, itemCodec, list, str, strOr, valueOr } from './item-codec.js';
import { userPk } from './keys.js';
import { queryItems, queryPages } from './query-items.js';
import { cancellationReasons, transactWrite, type TransactItem } from './transact.js';

export const CONTACT_SK_PREFIX = 'CONTACT#';
export const contactSk = (id: string) => `${CONTACT_SK_PREFIX}${id}`;
export const tokenPk = (userId: string) => `USER#${userId}#TOK`;
export const phoneSk = (e164: string) => `PHONE#${e164}`;
export const sourceGsiPk = (userId: string, source: ContactSource) => `USER#${userId}#CONTACTS#${source}`;
export const SEQ_SK = 'CONTACTS#SEQ';
export const DIRECTORY_SHARDS = 8;
export const shardSk = (shard: number) => `CONTACTS#DIR#${shard}`;
/** Sequence numbers per directory bucket. */
export const BUCKET_SIZE = 100;

const SOURCE_LETTER: Record<ContactSource, string> = { manual: 'm', whatsapp_import: 'w', api: 'p' };
const LETTERS = Object.values(SOURCE_LETTER);
const bucketAttr = (source: ContactSource, seq: number) => `${SOURCE_LETTER[source]}${Math.floor(seq / BUCKET_SIZE)}`;
const shardOf = (seq: number) => seq % DIRECTORY_SHARDS;

/** Attributes of a contact item that make up a StoredContact. */
const CONTACT_ATTRS = [
  'id', 'seq', 'name', 'firstName', 'lastName', 'createdVia', 'shortName', 'phoneNumber', 'email', 'customFields', 'source', 'isWAContact',
  'notes', 'tags', 'importedAt', 'importJobId', 'clientId', 'createdAt', 'updatedAt', 'version',
] as const;
/** The list and search views never need the tokens: leave them out of the read. */
const LIST_PROJECTION = {
  ProjectionExpression: CONTACT_ATTRS.map((_, i) => `#a${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(CONTACT_ATTRS.map((a, i) => [`#a${i}`, a])),
};
const STATS_ATTRS = ['total', 'withPhone', 'waContacts', 'myContacts'] as const;

type Item = Record<string, unknown>;

export interface StoredContactWithVersion extends StoredContact {
  version?: number;
}

const toStored = itemCodec<StoredContactWithVersion>({
  id: str,
  seq: Number,
  name: str,
  firstName: anyStr,
  lastName: anyStr,
  createdVia: (v) => (v === 'call' ? 'call' : undefined),
  shortName: str,
  phoneNumber: str,
  email: str,
  customFields: valueOr<Record<string, string>>(() => ({})),
  source: strOr<ContactSource>('manual'),
  isWAContact: bool,
  notes: str,
  tags: list<string>,
  importedAt: anyStr,
  importJobId: anyStr,
  clientId: anyStr,
  createdAt: str,
  updatedAt: str,
  tokens: list<string>,
  version: (v) => (typeof v === 'number' ? v : 0),
});

/** A string attribute of an item that may still be in AttributeValue form (exceptions are not unmarshalled). */
function rawString(item: Item | undefined, name: string): string | undefined {
  const value = item?.[name];
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'S' in value && typeof (value as { S: unknown }).S === 'string') return (value as { S: string }).S;
  return undefined;
}

/** Counter deltas of one contact on its shard (sign +1 on create, -1 on delete). */
export function counterDeltas(contact: StoredContact, sign: 1 | -1) {
  return {
    total: sign,
    withPhone: contact.phoneNumber ? sign : 0,
    waContacts: contact.isWAContact ? sign : 0,
    myContacts: contact.source === 'manual' ? sign : 0,
    [bucketAttr(contact.source, contact.seq)]: sign,
  };
}

/**
 * The items of a contact, shared by the single writes here and the bulk writer (contact-bulk.ts):
 * one definition of what a contact, its phone guard and its tokens look like in the table.
 */
export function contactItem(userId: string, contact: StoredContactWithVersion, version: number): Item {
  const { version: _ignored, ...rest } = contact;
  return {
    ...rest,
    pk: userPk(userId),
    sk: contactSk(contact.id),
    entity: 'contact',
    gsi1pk: sourceGsiPk(userId, contact.source),
    gsi1sk: padSeq(contact.seq),
    version,
  };
}

export function guardPut(tableName: string, userId: string, contact: StoredContact): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: { pk: userPk(userId), sk: phoneSk(contact.phoneNumber), contactId: contact.id, src: contact.source, entity: 'contactPhone' },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

export function guardDelete(tableName: string, userId: string, contact: StoredContact): TransactItem {
  return {
    Delete: {
      TableName: tableName,
      Key: { pk: userPk(userId), sk: phoneSk(contact.phoneNumber) },
      // Only our own guard (a missing one is fine: nothing to release).
      ConditionExpression: 'attribute_not_exists(pk) OR contactId = :id',
      ExpressionAttributeValues: { ':id': contact.id },
    },
  };
}

export function tokenPut(tableName: string, userId: string, contact: StoredContact, token: string): TransactItem {
  return { Put: { TableName: tableName, Item: { pk: tokenPk(userId), sk: `${token}#${contact.id}`, src: contact.source, entity: 'contactToken' } } };
}

export function tokenDelete(tableName: string, userId: string, contact: StoredContact, token: string): TransactItem {
  return { Delete: { TableName: tableName, Key: { pk: tokenPk(userId), sk: `${token}#${contact.id}` } } };
}

/** The phone guard (whose ConditionalCheckFailed names a duplicate) counts one item when there is a number. */
export const itemsOf = (contact: StoredContact) => 1 + (contact.phoneNumber ? 1 : 0) + contact.tokens.length;

export class DynamoContactRepository implements ContactRepository {
  /** The dashboard's hourly "contacts added" counter (ACT#{day}), beside the transaction. */
  private readonly activity: DynamoActivityCounters;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.activity = new DynamoActivityCounters(db, tableName);
  }

  // ------------------------------------------------------------------ writes

  async allocateSeq(userId: string, count: number): Promise<number> {
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: SEQ_SK },
        UpdateExpression: 'ADD lastSeq :n SET entity = :entity',
        ExpressionAttributeValues: { ':n': count, ':entity': 'contactSeq' },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.lastSeq) - count + 1;
  }

  private shardUpdate(userId: string, seq: number, deltas: Record<string, number>): TransactItem | null {
    const entries = Object.entries(deltas).filter(([, d]) => d !== 0);
    if (entries.length === 0) return null;
    return {
      Update: {
        TableName: this.tableName,
        Key: { pk: userPk(userId), sk: shardSk(shardOf(seq)) },
        UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :d${i}`).join(', ')} SET entity = :entity`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([, d], i) => [`:d${i}`, d])),
          ':entity': 'contactCounters',
        },
      },
    };
  }

  private transact(items: TransactItem[]): Promise<void> {
    return transactWrite(this.db, items);
  }

  private async guardOwner(userId: string, e164: string, fromReason?: Item): Promise<string> {
    const owner = rawString(fromReason, 'contactId');
    if (owner) return owner;
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: phoneSk(e164) }, ConsistentRead: true }),
    );
    return typeof Item?.contactId === 'string' ? Item.contactId : '';
  }

  async insert(userId: string, contact: StoredContact): Promise<void> {
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.tableName,
          Item: contactItem(userId, contact, 1),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ];
    const guardIndex = contact.phoneNumber ? items.length : -1;
    if (contact.phoneNumber) items.push(guardPut(this.tableName, userId, contact));
    items.push(this.shardUpdate(userId, contact.seq, counterDeltas(contact, 1))!);
    for (const token of contact.tokens) items.push(tokenPut(this.tableName, userId, contact, token));
    try {
      await this.transact(items);
      await this.activity.add(userId, contact.createdAt, { ct: 1 });
    } catch (error) {
      const reasons = cancellationReasons(error);
      const guard = guardIndex >= 0 ? reasons?.[guardIndex] : undefined;
      if (guard?.code === 'ConditionalCheckFailed') {
        throw new DuplicatePhoneError(await this.guardOwner(userId, contact.phoneNumber, guard.item));
      }
      throw error;
    }
  }

  private versionCondition(before: StoredContactWithVersion) {
    return before.version
      ? { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': before.version } }
      : { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(version)' };
  }

  async replace(userId: string, before: StoredContactWithVersion, after: StoredContact): Promise<void> {
    const items: TransactItem[] = [
      {
        Put: {
          TableName: this.tableName,
          Item: contactItem(userId, after, (before.version ?? 0) + 1),
          ...this.versionCondition(before),
        },
      },
    ];
    let guardIndex = -1;
    if (before.phoneNumber !== after.phoneNumber) {
      if (before.phoneNumber) items.push(guardDelete(this.tableName, userId, before));
      if (after.phoneNumber) {
        guardIndex = items.length;
        items.push(guardPut(this.tableName, userId, after));
      }
      const withPhone = Number(Boolean(after.phoneNumber)) - Number(Boolean(before.phoneNumber));
      const shard = this.shardUpdate(userId, after.seq, { withPhone });
      if (shard) items.push(shard);
    }
    const oldTokens = new Set(before.tokens);
    const newTokens = new Set(after.tokens);
    for (const t of oldTokens) if (!newTokens.has(t)) items.push(tokenDelete(this.tableName, userId, before, t));
    for (const t of newTokens) if (!oldTokens.has(t)) items.push(tokenPut(this.tableName, userId, after, t));
    try {
      await this.transact(items);
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      const guard = guardIndex >= 0 ? reasons[guardIndex] : undefined;
      if (guard?.code === 'ConditionalCheckFailed') {
        throw new DuplicatePhoneError(await this.guardOwner(userId, after.phoneNumber, guard.item));
      }
      if (reasons.some((r) => r.code === 'ConditionalCheckFailed')) throw new ContactChangedError();
      throw error;
    }
  }

  async remove(userId: string, contact: StoredContactWithVersion): Promise<void> {
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: contactSk(contact.id) },
          ...this.versionCondition(contact),
        },
      },
    ];
    if (contact.phoneNumber) items.push(guardDelete(this.tableName, userId, contact));
    items.push(this.shardUpdate(userId, contact.seq, counterDeltas(contact, -1))!);
    for (const token of contact.tokens) items.push(tokenDelete(this.tableName, userId, contact, token));
    try {
      await this.transact(items);
      await this.activity.add(userId, contact.createdAt, { ct: -1 });
    } catch (error) {
      if (cancellationReasons(error)?.some((r) => r.code === 'ConditionalCheckFailed')) throw new ContactChangedError();
      throw error;
    }
  }

  // ------------------------------------------------------------------ reads

  async get(userId: string, id: string): Promise<StoredContactWithVersion | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: contactSk(id) }, ConsistentRead: true }),
    );
    return Item ? toStored(Item) : null;
  }

  private batchGet(keys: Item[], projection?: BatchGetOptions['projection']): Promise<Item[]> {
    return batchGetItems(this.db, this.tableName, keys, { consistentRead: true, projection });
  }

  async getMany(userId: string, ids: readonly string[]): Promise<StoredContact[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    const items = await this.batchGet(unique.map((id) => ({ pk: userPk(userId), sk: contactSk(id) })), LIST_PROJECTION);
    return items.map(toStored);
  }

  private shardKeys(userId: string) {
    return Array.from({ length: DIRECTORY_SHARDS }, (_, i) => ({ pk: userPk(userId), sk: shardSk(i) }));
  }

  async stats(userId: string): Promise<ContactStats> {
    const shards = await this.batchGet(this.shardKeys(userId), {
      ProjectionExpression: STATS_ATTRS.map((_, i) => `#s${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(STATS_ATTRS.map((a, i) => [`#s${i}`, a])),
    });
    const sum = (name: string) => Math.max(0, shards.reduce((n, s) => n + (typeof s[name] === 'number' ? s[name] : 0), 0));
    return { total: sum('total'), withPhone: sum('withPhone'), waContacts: sum('waContacts'), myContacts: sum('myContacts') };
  }

  /** Live contacts per bucket of the list (all sources, or one), newest bucket first. */
  private async directory(userId: string, source: ContactSource | undefined): Promise<[bucket: number, count: number][]> {
    const shards = await this.batchGet(this.shardKeys(userId));
    const letters = source ? [SOURCE_LETTER[source]] : LETTERS;
    const counts = new Map<number, number>();
    for (const shard of shards) {
      for (const [name, value] of Object.entries(shard)) {
        if (typeof value !== 'number' || !letters.includes(name[0]!) || !/^[a-z]\d+$/.test(name)) continue;
        const bucket = Number(name.slice(1));
        counts.set(bucket, (counts.get(bucket) ?? 0) + value);
      }
    }
    return [...counts.entries()].filter(([, c]) => c > 0).sort((a, b) => b[0] - a[0]);
  }

  private listQuery(userId: string, source: ContactSource | undefined, maxSeq: number | null): QueryCommandInput {
    const upper = maxSeq === null ? null : padSeq(maxSeq);
    if (source) {
      return {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: upper === null ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND gsi1sk <= :hi',
        ExpressionAttributeValues: { ':pk': sourceGsiPk(userId, source), ...(upper === null ? {} : { ':hi': upper }) },
        ScanIndexForward: false,
        ...LIST_PROJECTION,
      };
    }
    return {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
      ExpressionAttributeValues: {
        ':pk': userPk(userId),
        ':lo': CONTACT_SK_PREFIX,
        // '~' sorts after every id character: the bucket's last sequence number with any suffix.
        ':hi': `${CONTACT_SK_PREFIX}${upper ?? '9'.repeat(SEQ_DIGITS)}~`,
      },
      ScanIndexForward: false,
      ConsistentRead: true,
      ...LIST_PROJECTION,
    };
  }

  async page(
    userId: string,
    input: { source?: ContactSource; offset: number; limit: number },
  ): Promise<{ items: StoredContact[]; total: number }> {
    const buckets = await this.directory(userId, input.source);
    const total = buckets.reduce((n, [, c]) => n + c, 0);
    if (input.offset >= total) return { items: [], total };
    // Find the bucket holding rank `offset` (0 = newest) and the rank's place inside it.
    let before = 0;
    let start: [number, number] = buckets[0]!;
    for (const bucket of buckets) {
      if (input.offset < before + bucket[1]) {
        start = bucket;
        break;
      }
      before += bucket[1];
    }
    const skip = input.offset - before;
    const want = skip + input.limit;
    const query = this.listQuery(userId, input.source, start[0] * BUCKET_SIZE + BUCKET_SIZE - 1);
    // One Query in the usual case: the contacts from the bucket's top are contiguous in key order;
    // a second page only when the items are large enough to hit the 1 MB page limit.
    const items = await queryItems(this.db, query, want);
    return { items: items.slice(skip, want).map(toStored), total };
  }

  async *pages(userId: string, source: ContactSource | undefined, pageSize: number): AsyncIterable<StoredContact[]> {
    for await (const items of queryPages(this.db, { ...this.listQuery(userId, source, null), Limit: pageSize })) {
      if (items.length) yield items.map(toStored);
    }
  }

  async filterRows(userId: string, source: ContactSource | undefined, cap: number): Promise<{ rows: ContactFilterRow[]; complete: boolean }> {
    // The list's own Query, projected to what the filters read; one item past the cap tells a complete read from a cut one.
    const query = {
      ...this.listQuery(userId, source, null),
      ProjectionExpression: '#id, #tags, #cf',
      ExpressionAttributeNames: { '#id': 'id', '#tags': 'tags', '#cf': 'customFields' },
    };
    const items = await queryItems(this.db, query, cap + 1);
    const rows = items.slice(0, cap).map((item) => ({
      id: String(item.id),
      tags: Array.isArray(item.tags) ? item.tags.filter((t): t is string => typeof t === 'string') : [],
      customFields: item.customFields && typeof item.customFields === 'object' ? (item.customFields as Record<string, string>) : {},
    }));
    return { rows, complete: items.length <= cap };
  }

  /**
   * Items of `pk` whose sort key begins with `prefix`, read up to one past `cap` (which tells a complete
   * read from a cut one; token and guard items are tiny, so the cap fits one 1 MB page).
   */
  private async itemsByPrefix(pk: string, prefix: string, projection: string, cap: number): Promise<{ items: Item[]; complete: boolean }> {
    const items = await queryItems(
      this.db,
      {
        TableName: this.tableName,
        // = begins_with(sk, prefix): U+10FFFF (UTF-8 F4 8F BF BF) sorts after anything that can follow
        // the prefix. A range, because DynamoDB Local evaluates begins_with by walking the whole
        // partition (37 ms vs 5 ms for one match among 60,000 tokens); DynamoDB answers both alike.
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :prefix AND :upper',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix, ':upper': `${prefix}\u{10FFFF}` },
        ProjectionExpression: projection,
        ScanIndexForward: false,
      },
      cap + 1,
      cap + 1,
    );
    return { items, complete: items.length <= cap };
  }

  async idsByTokenPrefix(userId: string, prefix: string, source: ContactSource | undefined, cap: number): Promise<IdsByPrefix> {
    const { items, complete } = await this.itemsByPrefix(tokenPk(userId), prefix, 'sk, src', cap);
    const ids = items.filter((item) => !source || item.src === source).map((item) => String(item.sk).slice(String(item.sk).lastIndexOf('#') + 1));
    return { ids: [...new Set(ids)], complete };
  }

  async idsByPhonePrefix(userId: string, prefix: string, source: ContactSource | undefined, cap: number): Promise<IdsByPrefix> {
    const { items, complete } = await this.itemsByPrefix(userPk(userId), phoneSk(prefix), 'contactId, src', cap);
    // A guard written before it carried `src` cannot be told apart by source: its contact's
    // old suffix tokens (which the token Query reads) find it instead.
    const ids = items.filter((item) => !source || item.src === source).map((item) => String(item.contactId));
    return { ids: [...new Set(ids)], complete };
  }

  async phoneOwners(userId: string, phones: readonly string[]): Promise<Map<string, string>> {
    const unique = [...new Set(phones)].filter(Boolean);
    const owners = new Map<string, string>();
    if (unique.length === 0) return owners;
    const items = await this.batchGet(unique.map((p) => ({ pk: userPk(userId), sk: phoneSk(p) })));
    for (const item of items) {
      if (typeof item.contactId === 'string') owners.set(String(item.sk).slice('PHONE#'.length), item.contactId);
    }
    return owners;
  }
}
