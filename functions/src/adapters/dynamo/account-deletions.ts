/**
 * The account deletion's item (issue 33; domain/privacy/account-deletion.ts), kept OUTSIDE the
 * account's partitions so it survives the job that empties them:
 *
 *   pk=DELETEDACCOUNT#{accountId}, sk=DELETION: state, startedAt, updatedAt, finishedAt, owner
 *   {email, name, language} (until done), people [{personId, email}] (until done), stepsDone
 *   (list), counts (map of numbers), expiresAt (a year after it finished: the anonymous report).
 *
 * Its existence also tells the Stripe webhook that the account is closed (isClosed): a late
 * customer.subscription.deleted must not write a subscription item back.
 */
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import {
  ACCOUNT_DELETION_STEPS,
  emptyDeletionCounts,
  type AccountDeletionCounts,
  type AccountDeletionStep,
  type AccountDeletions,
  type DeletionPerson,
  type StoredAccountDeletion,
} from '../../domain/privacy/account-deletion.js';
import { ignoreConditionFailure, isConditionFailure } from './conditions.js';

export const deletedAccountPk = (accountId: string) => `DELETEDACCOUNT#${accountId}`;
export const DELETION_SK = 'DELETION';

type Item = Record<string, unknown>;
const withoutPeople = ({ people: _people, ...rest }: StoredAccountDeletion) => rest;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function toDeletion(item: Item): StoredAccountDeletion {
  const counts = emptyDeletionCounts();
  const stored = (item.counts ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(counts) as (keyof AccountDeletionCounts)[]) if (typeof stored[key] === 'number') counts[key] = stored[key];
  const owner = item.owner as { email?: unknown; name?: unknown; language?: unknown } | undefined;
  const people = Array.isArray(item.people) ? (item.people as Item[]).map((p) => ({ personId: str(p.personId), email: str(p.email) })) : null;
  return {
    accountId: str(item.accountId),
    state: item.state === 'done' ? 'done' : 'running',
    startedAt: str(item.startedAt),
    updatedAt: str(item.updatedAt) || str(item.startedAt),
    finishedAt: str(item.finishedAt) || null,
    owner: owner && typeof owner.email === 'string' ? { email: owner.email, name: str(owner.name), language: owner.language === 'es' ? 'es' : 'en' } : null,
    people,
    stepsDone: Array.isArray(item.stepsDone) ? (item.stepsDone as unknown[]).filter((s): s is AccountDeletionStep => ACCOUNT_DELETION_STEPS.includes(s as AccountDeletionStep)) : [],
    counts,
  };
}

export class DynamoAccountDeletions implements AccountDeletions {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private key(accountId: string) {
    return { pk: deletedAccountPk(accountId), sk: DELETION_SK };
  }

  async start(record: StoredAccountDeletion): Promise<{ deletion: StoredAccountDeletion; created: boolean }> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...this.key(record.accountId), entity: 'accountDeletion', ...withoutPeople(record) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { deletion: record, created: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const existing = await this.get(record.accountId);
    if (!existing) throw new Error('The account deletion item vanished while it was being started');
    return { deletion: existing, created: false };
  }

  async get(accountId: string): Promise<StoredAccountDeletion | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.key(accountId), ConsistentRead: true }));
    // The report past its year reads as gone (DynamoDB's TTL deletes it within days).
    if (!Item || (typeof Item.expiresAt === 'number' && Item.expiresAt * 1000 <= Date.now())) return null;
    return toDeletion(Item);
  }

  /** Whether the account is being (or was) deleted. */
  async isClosed(accountId: string): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.key(accountId), ProjectionExpression: 'pk', ConsistentRead: true }));
    return !!Item;
  }

  async rememberPeople(accountId: string, people: DeletionPerson[]): Promise<void> {
    // Once: a second run keeps the first list (the member items it was read from may be gone).
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(accountId),
          UpdateExpression: 'SET people = :p',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(people)',
          ExpressionAttributeValues: { ':p': people },
        }),
      )
      .catch(ignoreConditionFailure);
  }

  async record(accountId: string, counts: Partial<AccountDeletionCounts>, step?: AccountDeletionStep): Promise<void> {
    const entries = Object.entries(counts).filter(([, n]) => typeof n === 'number' && n > 0);
    const names: Record<string, string> = { '#u': 'updatedAt' };
    const values: Record<string, unknown> = { ':now': new Date().toISOString() };
    const sets = ['#u = :now'];
    const adds: string[] = [];
    entries.forEach(([k, n], i) => {
      names[`#c${i}`] = k;
      values[`:c${i}`] = n;
      adds.push(`counts.#c${i} :c${i}`);
    });
    let condition = 'attribute_exists(pk)';
    if (step) {
      sets.push('stepsDone = list_append(if_not_exists(stepsDone, :empty), :step)');
      values[':step'] = [step];
      values[':empty'] = [];
      values[':stepName'] = step;
      condition += ' AND NOT contains(stepsDone, :stepName)';
    }
    // The counts map exists from start(); ADD on its nested numbers starts each at 0.
    const expression = `SET ${sets.join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`;
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(accountId),
          UpdateExpression: expression,
          ConditionExpression: condition,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      )
      .catch(ignoreConditionFailure);
  }

  async finish(accountId: string, at: string, expiresAtSeconds: number): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(accountId),
          UpdateExpression: 'SET #s = :done, finishedAt = :at, updatedAt = :at, expiresAt = :exp REMOVE #owner, people',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#s': 'state', '#owner': 'owner' },
          ExpressionAttributeValues: { ':done': 'done', ':at': at, ':exp': expiresAtSeconds },
        }),
      )
      .catch(ignoreConditionFailure);
  }
}
