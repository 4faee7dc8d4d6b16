/**
 * Many contacts in few requests (issue 19: an import job and its undo). The same items as the
 * single writes of contacts.ts (contact, phone guard, tokens, counter shards), packed several
 * contacts per TransactWriteItems (≤ 100 items) with each transaction's shard deltas summed, so a
 * transaction still keeps the counters and the index in step with the contacts. A phone guard that
 * fails its condition names a duplicate: that contact is taken out and the rest written again.
 * DynamoDB Local spends most of a write on the request, not the item: 5,000 contacts as ~5,000
 * transactions took minutes; packed, a fraction of that.
 */
import { GetCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { ContactBulkWriter } from '../../domain/contacts/job-ports.js';
import type { StoredContact } from '../../domain/contacts/ports.js';
import { mapLimit } from '../../lib/map-limit.js';
import { DynamoActivityCounters } from './activity.js';
import { DIRECTORY_SHARDS, contactItem, contactSk, counterDeltas, guardDelete, guardPut, itemsOf, phoneSk, shardSk, tokenDelete, tokenPut } from './contacts.js';
import { userPk } from './keys.js';
import { cancellationReasons, transactWrite, type TransactItem } from './transact.js';

const MAX_ITEMS = 100;
/** Transactions in flight at once; consecutive groups are of different counter shards, so they rarely collide. */
const LANES = 4;

type Item = Record<string, unknown>;

/**
 * Contacts packed into groups of one counter shard (seq % DIRECTORY_SHARDS) whose items, plus that
 * shard's one update, fit one transaction; the groups alternate between shards, so the
 * transactions in flight touch different counter items. One shard update per transaction instead
 * of up to eight is fewer items, and DynamoDB Local's time is its number of items.
 */
function pack(contacts: readonly StoredContact[]): StoredContact[][] {
  const byShard = new Map<number, StoredContact[][]>();
  const open = new Map<number, { group: StoredContact[]; items: number }>();
  for (const c of contacts) {
    const shard = c.seq % DIRECTORY_SHARDS;
    let current = open.get(shard);
    if (!current || current.items + itemsOf(c) > MAX_ITEMS) {
      current = { group: [], items: 1 }; // the shard's update
      open.set(shard, current);
      byShard.set(shard, [...(byShard.get(shard) ?? []), current.group]);
    }
    current.group.push(c);
    current.items += itemsOf(c);
  }
  const lists = [...byShard.values()];
  const interleaved: StoredContact[][] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) interleaved.push(l[i]!);
  return interleaved;
}

export class DynamoContactBulkWriter implements ContactBulkWriter {
  private readonly activity: DynamoActivityCounters;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.activity = new DynamoActivityCounters(db, tableName);
  }

  private shardUpdates(userId: string, contacts: readonly StoredContact[], sign: 1 | -1): TransactItem[] {
    const byShard = new Map<number, Record<string, number>>();
    for (const c of contacts) {
      const shard = c.seq % DIRECTORY_SHARDS;
      const sums = byShard.get(shard) ?? {};
      for (const [k, d] of Object.entries(counterDeltas(c, sign))) sums[k] = (sums[k] ?? 0) + d;
      byShard.set(shard, sums);
    }
    return [...byShard].flatMap(([shard, sums]) => {
      const entries = Object.entries(sums).filter(([, d]) => d !== 0);
      if (entries.length === 0) return [];
      return [
        {
          Update: {
            TableName: this.tableName,
            Key: { pk: userPk(userId), sk: shardSk(shard) },
            UpdateExpression: `ADD ${entries.map((_, i) => `#c${i} :d${i}`).join(', ')} SET entity = :entity`,
            ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#c${i}`, name])),
            ExpressionAttributeValues: { ...Object.fromEntries(entries.map(([, d], i) => [`:d${i}`, d])), ':entity': 'contactCounters' },
          },
        },
      ];
    });
  }

  private insertItems(userId: string, c: StoredContact): TransactItem[] {
    // No condition on the contact: its id was just allocated from the sequence, so nothing has it
    // (a condition is a read per contact). The phone guard's condition is what finds duplicates.
    const items: TransactItem[] = [{ Put: { TableName: this.tableName, Item: contactItem(userId, c, 1) } }];
    if (c.phoneNumber) items.push(guardPut(this.tableName, userId, c));
    for (const token of c.tokens) items.push(tokenPut(this.tableName, userId, c, token));
    return items;
  }

  private removeItems(userId: string, c: StoredContact): TransactItem[] {
    const items: TransactItem[] = [
      { Delete: { TableName: this.tableName, Key: { pk: userPk(userId), sk: contactSk(c.id) }, ConditionExpression: 'attribute_exists(pk)' } },
    ];
    if (c.phoneNumber) items.push(guardDelete(this.tableName, userId, c));
    for (const token of c.tokens) items.push(tokenDelete(this.tableName, userId, c, token));
    return items;
  }

  private async guardOwner(userId: string, e164: string, fromReason?: Item): Promise<string> {
    const owner = fromReason?.contactId;
    if (typeof owner === 'string') return owner;
    if (owner && typeof owner === 'object' && 'S' in owner) return String((owner as { S: unknown }).S);
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: phoneSk(e164) }, ConsistentRead: true }));
    return typeof Item?.contactId === 'string' ? Item.contactId : '';
  }

  async insertMany(userId: string, contacts: readonly StoredContact[]) {
    const created: StoredContact[] = [];
    const duplicates: { contact: StoredContact; existingContactId: string }[] = [];
    const groups = pack(contacts);
    await mapLimit(groups, LANES, async (group) => {
      let pending = group;
      while (pending.length > 0) {
        const spans: { contact: StoredContact; guard: number }[] = [];
        const items: TransactItem[] = [];
        for (const c of pending) {
          const own = this.insertItems(userId, c);
          spans.push({ contact: c, guard: c.phoneNumber ? items.length + 1 : -1 });
          items.push(...own);
        }
        items.push(...this.shardUpdates(userId, pending, 1));
        try {
          await transactWrite(this.db, items);
          created.push(...pending);
          break;
        } catch (error) {
          const reasons = cancellationReasons(error);
          const taken = spans.filter((s) => s.guard >= 0 && reasons?.[s.guard]?.code === 'ConditionalCheckFailed');
          if (taken.length === 0) throw error;
          for (const s of taken) duplicates.push({ contact: s.contact, existingContactId: await this.guardOwner(userId, s.contact.phoneNumber, reasons?.[s.guard]?.item) });
          pending = pending.filter((c) => !taken.some((s) => s.contact === c));
        }
      }
    });
    await this.countActivity(userId, created, 1);
    return { created, duplicates };
  }

  async removeMany(userId: string, contacts: readonly StoredContact[]): Promise<number> {
    let removed = 0;
    const done: StoredContact[] = [];
    const groups = pack(contacts);
    await mapLimit(groups, LANES, async (group) => {
      let pending = group;
      while (pending.length > 0) {
        const starts: number[] = [];
        const items: TransactItem[] = [];
        for (const c of pending) {
          starts.push(items.length);
          items.push(...this.removeItems(userId, c));
        }
        items.push(...this.shardUpdates(userId, pending, -1));
        try {
          await transactWrite(this.db, items);
          removed += pending.length;
          done.push(...pending);
          break;
        } catch (error) {
          const reasons = cancellationReasons(error);
          // A contact deleted (or its number moved) meanwhile: leave it out and go on.
          const failedIn = (i: number) => reasons?.slice(starts[i]!, starts[i + 1] ?? starts[i]! + 2).some((r) => r.code === 'ConditionalCheckFailed');
          const gone = new Set(pending.filter((_, i) => failedIn(i)));
          if (gone.size === 0) throw error;
          pending = pending.filter((c) => !gone.has(c));
        }
      }
    });
    await this.countActivity(userId, done, -1);
    return removed;
  }

  /** The dashboard's hourly "contacts added" counters, as the single create and delete keep them. */
  private async countActivity(userId: string, contacts: readonly StoredContact[], sign: 1 | -1): Promise<void> {
    const byTime = new Map<string, number>();
    for (const c of contacts) byTime.set(c.createdAt, (byTime.get(c.createdAt) ?? 0) + sign);
    for (const [at, n] of byTime) await this.activity.add(userId, at, { ct: n });
  }
}
