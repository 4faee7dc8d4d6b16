/**
 * A person's erasure and export jobs (issue 33), in the account's partition (ACCESS-PATTERNS.md,
 * "Privacy jobs"):
 * - sk=PRIVACYJOB#{jobId}: the job (time-sortable id: a page is one Query, newest first); who it
 *   is about while it runs, the steps done, the counts, the ids it remembered (string sets);
 * - sk=PRIVACYLOCK#{kind}#{sha256(e164, else contact id)}: one job per kind and person at a time,
 *   Put with attribute_not_exists in the job's creating transaction, deleted when the job ends.
 * The same hash is `personHash` on the job item: an erasure's end finds the person's other jobs
 * by a Query of the account's few jobs filtered on it.
 */
import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { EXPORT_KEEP_HOURS, emptyPersonDataCounts, PERSON_DATA_KINDS, privacyMessages, type PersonDataCounts, type PrivacyStep } from '../../contract/privacy.js';
import type { PersonKey, PrivacyJobs, RememberedKind, StoredPrivacyJob } from '../../domain/privacy/ports.js';
import { newId } from '../../lib/ids.js';
import { isConditionFailure } from './conditions.js';
import { userPk } from './keys.js';
import { transactOrFailedAt } from './transact.js';

const JOB_PREFIX = 'PRIVACYJOB#';
const jobSk = (id: string) => `${JOB_PREFIX}${id}`;
const personHash = (person: PersonKey) => createHash('sha256').update(person.e164 ?? `contact:${person.contactId ?? ''}`).digest('hex');
const lockSk = (kind: string, person: PersonKey) => `PRIVACYLOCK#${kind}#${personHash(person)}`;
/** A queued or running job that has not moved for this long is taken as lost (every step and progress moves updatedAt). */
const STALE_AFTER_MS = 3_600_000;
/** An erasure's report (it names nobody) is kept a year, like the activity log. */
const KEEP_SECONDS = 365 * 86_400;
/**
 * An export names the person (its label, the file's name): its item lasts as long as its file plus
 * a week (the list shows it expired, then it is gone); the activity log keeps the export's counts.
 */
export const EXPORT_ITEM_MARGIN_SECONDS = 7 * 86_400;
const EXPORT_KEEP_SECONDS = EXPORT_KEEP_HOURS * 3600 + EXPORT_ITEM_MARGIN_SECONDS;
/** DynamoDB deletes an expired item within days (DynamoDB Local never): readers treat it as absent. */
const live = (item: Item, nowSeconds: number) => !(typeof item.expiresAt === 'number' && item.expiresAt <= nowSeconds);
const REMEMBERED: Record<RememberedKind, string> = { conversation: 'rememberedConversations', call: 'rememberedCalls', booking: 'rememberedBookings' };

type Item = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const strOrNull = (v: unknown) => (typeof v === 'string' && v ? v : null);

function toJob(item: Item): StoredPrivacyJob {
  const counts = emptyPersonDataCounts();
  const stored = (item.counts ?? {}) as Partial<PersonDataCounts>;
  for (const kind of PERSON_DATA_KINDS) counts[kind] = Number(stored[kind] ?? 0);
  const unfinished: NonNullable<StoredPrivacyJob['unfinished']> = {};
  for (const [name, value] of Object.entries(item)) {
    if (name.startsWith('unfinished_')) unfinished[name.slice('unfinished_'.length) as PrivacyStep] = value as { baseline: Partial<PersonDataCounts>; partial: Partial<PersonDataCounts> };
  }
  return {
    id: str(item.id),
    accountId: str(item.pk).slice('USER#'.length),
    kind: item.kind === 'export' ? 'export' : 'erasure',
    status: (item.status as StoredPrivacyJob['status']) ?? 'queued',
    person: (item.person as PersonKey | undefined) ?? null,
    personLabel: strOrNull(item.personLabel),
    stepsDone: Array.isArray(item.stepsDone) ? (item.stepsDone as PrivacyStep[]) : [],
    currentStep: (strOrNull(item.currentStep) as PrivacyStep | null) ?? null,
    items: Number(item.items ?? 0),
    counts,
    requestedBy: (item.requestedBy as StoredPrivacyJob['requestedBy']) ?? null,
    createdAt: str(item.createdAt),
    updatedAt: str(item.updatedAt),
    finishedAt: strOrNull(item.finishedAt),
    failure: strOrNull(item.failure),
    file: (item.file as StoredPrivacyJob['file']) ?? null,
    ...(Object.keys(unfinished).length ? { unfinished } : {}),
  };
}

export class DynamoPrivacyJobs implements PrivacyJobs {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private key(accountId: string, jobId: string) {
    return { pk: userPk(accountId), sk: jobSk(jobId) };
  }

  async start(input: Parameters<PrivacyJobs['start']>[0]): Promise<{ job: StoredPrivacyJob; created: boolean }> {
    const pk = userPk(input.accountId);
    const lock = lockSk(input.kind, input.person!);
    for (let attempt = 0; attempt < 3; attempt++) {
      const at = this.now();
      const id = newId(at.getTime());
      const item: Item = {
        pk,
        sk: jobSk(id),
        entity: 'privacyJob',
        id,
        kind: input.kind,
        status: 'queued',
        person: input.person,
        personLabel: input.personLabel,
        personHash: personHash(input.person!),
        lockSk: lock,
        stepsDone: [],
        items: 0,
        counts: emptyPersonDataCounts(),
        requestedBy: input.requestedBy,
        createdAt: input.createdAt,
        updatedAt: at.toISOString(),
        expiresAt: Math.floor(at.getTime() / 1000) + (input.kind === 'export' ? EXPORT_KEEP_SECONDS : KEEP_SECONDS),
      };
      const failedAt = await transactOrFailedAt(this.db, [
        { Put: { TableName: this.tableName, Item: { pk, sk: lock, entity: 'privacyLock', jobId: id }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      ]);
      if (failedAt === null) return { job: toJob(item), created: true };
      // The person has a job of this kind: answer it while it is open; a lock left by an ended job is cleared.
      const { Item: held } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk: lock }, ConsistentRead: true }));
      if (!held) continue;
      const running = await this.get(input.accountId, str(held.jobId));
      const open = running && (running.status === 'queued' || running.status === 'running');
      if (open && Date.parse(running.updatedAt) > at.getTime() - STALE_AFTER_MS) return { job: running, created: false };
      // A job silent for an hour (its queue message lost): failed, so the person is not locked out for good.
      if (open) await this.finish(input.accountId, running.id, { status: 'failed', failure: privacyMessages.jobFailed });
      else await this.releaseLock(input.accountId, lock, str(held.jobId));
    }
    throw new Error('privacy job: the person lock could not be taken');
  }

  private async releaseLock(accountId: string, lock: string, jobId: string) {
    await this.db
      .send(new DeleteCommand({ TableName: this.tableName, Key: { pk: userPk(accountId), sk: lock }, ConditionExpression: 'jobId = :j', ExpressionAttributeValues: { ':j': jobId } }))
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  async get(accountId: string, jobId: string): Promise<StoredPrivacyJob | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.key(accountId, jobId), ConsistentRead: true }));
    return Item && Item.entity === 'privacyJob' && live(Item, this.nowSeconds()) ? toJob(Item) : null;
  }

  private nowSeconds() {
    return Math.floor(this.now().getTime() / 1000);
  }

  async page(accountId: string, cursor: string | null, limit: number): Promise<{ jobs: StoredPrivacyJob[]; cursor: string | null }> {
    const start = decodeCursor(cursor, accountId);
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
        FilterExpression: 'attribute_not_exists(expiresAt) OR expiresAt > :now',
        ExpressionAttributeValues: { ':pk': userPk(accountId), ':p': JOB_PREFIX, ':now': this.nowSeconds() },
        ScanIndexForward: false,
        Limit: limit,
        ...(start ? { ExclusiveStartKey: { pk: userPk(accountId), sk: start } } : {}),
      }),
    );
    const last = out.LastEvaluatedKey as Item | undefined;
    return { jobs: (out.Items ?? []).map(toJob), cursor: last ? encodeCursor(accountId, str(last.sk)) : null };
  }

  private async update(accountId: string, jobId: string, expression: string, names: Record<string, string>, values: Item, condition = 'attribute_exists(pk)'): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.key(accountId, jobId),
          UpdateExpression: expression,
          ConditionExpression: condition,
          ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: { ...values },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async stepStarted(accountId: string, jobId: string, step: PrivacyStep): Promise<void> {
    await this.update(
      accountId,
      jobId,
      'SET #s = :running, currentStep = :step, #i = :zero, updatedAt = :at',
      { '#s': 'status', '#i': 'items' },
      { ':running': 'running', ':step': step, ':zero': 0, ':at': this.now().toISOString(), ':queued': 'queued' },
      'attribute_exists(pk) AND #s IN (:queued, :running)',
    );
  }

  async progress(accountId: string, jobId: string, items: number): Promise<void> {
    await this.update(accountId, jobId, 'SET #i = :n, updatedAt = :at', { '#i': 'items' }, { ':n': items, ':at': this.now().toISOString() });
  }

  async stepFinished(accountId: string, jobId: string, step: PrivacyStep, counts: Partial<PersonDataCounts>): Promise<void> {
    const kinds = PERSON_DATA_KINDS.filter((k) => (counts[k] ?? 0) > 0);
    const names: Record<string, string> = { '#u': `unfinished_${step}` };
    const values: Item = { ':step': [step], ':one': step, ':at': this.now().toISOString() };
    kinds.forEach((kind, i) => {
      names[`#k${i}`] = kind;
      values[`:k${i}`] = counts[kind];
    });
    const adds = kinds.map((_, i) => `counts.#k${i} = counts.#k${i} + :k${i}`);
    // Once per step: a redelivered run that finished it again adds nothing.
    await this.update(
      accountId,
      jobId,
      `SET stepsDone = list_append(stepsDone, :step), updatedAt = :at${adds.length ? `, ${adds.join(', ')}` : ''} REMOVE #u`,
      names,
      values,
      'attribute_exists(pk) AND NOT contains(stepsDone, :one)',
    );
  }

  async stepUnfinished(accountId: string, jobId: string, step: PrivacyStep, record: { baseline: Partial<PersonDataCounts>; partial: Partial<PersonDataCounts> }): Promise<void> {
    await this.update(accountId, jobId, 'SET #u = :r, updatedAt = :at', { '#u': `unfinished_${step}` }, { ':r': record, ':at': this.now().toISOString() });
  }

  async restart(accountId: string, jobId: string): Promise<void> {
    const job = await this.get(accountId, jobId);
    const stale = Object.keys(job?.unfinished ?? {}).map((step, i) => [`#u${i}`, `unfinished_${step}`] as const);
    await this.update(
      accountId,
      jobId,
      `SET stepsDone = :none, counts = :zero, #i = :n, updatedAt = :at${stale.length ? ` REMOVE ${stale.map(([n]) => n).join(', ')}` : ''}`,
      { '#i': 'items', ...Object.fromEntries(stale) },
      { ':none': [], ':zero': emptyPersonDataCounts(), ':n': 0, ':at': this.now().toISOString() },
    );
  }

  async finish(accountId: string, jobId: string, outcome: { status: 'done' | 'failed'; failure?: string; file?: StoredPrivacyJob['file'] }): Promise<void> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.key(accountId, jobId), ConsistentRead: true }));
    if (!Item || Item.entity !== 'privacyJob') return;
    const job = toJob(Item);
    if (job.status === 'done' || job.status === 'failed') return;
    const lock = str(Item.lockSk);
    const at = this.now().toISOString();
    const sets = ['#s = :status', 'finishedAt = :at', 'updatedAt = :at', 'currentStep = :null'];
    const values: Item = { ':status': outcome.status, ':at': at, ':null': null, ':queued': 'queued', ':running': 'running' };
    if (outcome.failure) {
      sets.push('failure = :failure');
      values[':failure'] = outcome.failure;
    }
    if (outcome.file) {
      sets.push('#f = :file');
      values[':file'] = outcome.file;
    }
    if (job.kind === 'export') {
      // The item (its label) goes a week after the file does; a failed export's a week after a file would have.
      const fileEnds = outcome.file ? Date.parse(outcome.file.expiresAt) : this.now().getTime() + EXPORT_KEEP_HOURS * 3_600_000;
      sets.push('expiresAt = :expires');
      values[':expires'] = Math.floor(fileEnds / 1000) + EXPORT_ITEM_MARGIN_SECONDS;
    }
    // An erasure's report names nobody; an export keeps its label (the file's name) and the person's
    // hash (a later erasure of the person finds it) but not the keys.
    const removes = [
      'person',
      'lockSk',
      ...Object.keys(job.unfinished ?? {}).map((s) => `unfinished_${s}`),
      ...(job.kind === 'erasure' ? ['personLabel', 'personHash', ...Object.values(REMEMBERED)] : []),
    ];
    const failedAt = await transactOrFailedAt(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: this.key(accountId, jobId),
          UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
          ConditionExpression: '#s IN (:queued, :running)',
          ExpressionAttributeNames: { '#s': 'status', ...(outcome.file ? { '#f': 'file' } : {}) },
          ExpressionAttributeValues: values,
        },
      },
      ...(lock ? [{ Delete: { TableName: this.tableName, Key: { pk: userPk(accountId), sk: lock }, ConditionExpression: 'attribute_not_exists(pk) OR jobId = :j', ExpressionAttributeValues: { ':j': jobId } } }] : []),
    ]);
    // Index 0: another delivery finished it first; index 1: the lock is another job's already.
    if (failedAt === 1) throw new Error('privacy job: its lock belongs to another job');
  }

  async ofPerson(accountId: string, person: PersonKey): Promise<StoredPrivacyJob[]> {
    const jobs: StoredPrivacyJob[] = [];
    let start: Item | undefined;
    do {
      const out = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
          FilterExpression: 'personHash = :h',
          ExpressionAttributeValues: { ':pk': userPk(accountId), ':p': JOB_PREFIX, ':h': personHash(person) },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      // Expired ones too: an item DynamoDB has not deleted yet still names the person.
      jobs.push(...(out.Items ?? []).map(toJob));
      start = out.LastEvaluatedKey as Item | undefined;
    } while (start);
    return jobs;
  }

  async remove(accountId: string, jobId: string): Promise<void> {
    const { Attributes } = await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: this.key(accountId, jobId), ReturnValues: 'ALL_OLD' }));
    // A job removed before it ended leaves its lock (a hash of the person): released too, if still its own.
    if (Attributes?.lockSk) await this.releaseLock(accountId, str(Attributes.lockSk), jobId);
  }

  async forgetPerson(accountId: string, jobId: string): Promise<void> {
    await this.update(accountId, jobId, 'SET updatedAt = :at REMOVE person, personLabel, personHash', {}, { ':at': this.now().toISOString() });
  }

  async remember(accountId: string, jobId: string, kind: RememberedKind, ids: readonly string[]): Promise<void> {
    const unique = [...new Set(ids)].filter(Boolean);
    if (!unique.length) return;
    await this.update(accountId, jobId, 'ADD #r :ids', { '#r': REMEMBERED[kind] }, { ':ids': new Set(unique) });
  }

  async remembered(accountId: string, jobId: string, kind: RememberedKind): Promise<string[]> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: this.key(accountId, jobId), ProjectionExpression: '#r', ExpressionAttributeNames: { '#r': REMEMBERED[kind] }, ConsistentRead: true }),
    );
    const value = Item?.[REMEMBERED[kind]];
    return value instanceof Set ? [...(value as Set<string>)] : Array.isArray(value) ? (value as string[]) : [];
  }
}

/** The cursor names the last sort key read, bound to the account (another account's is ignored). */
function encodeCursor(accountId: string, sk: string): string {
  return Buffer.from(JSON.stringify([accountId, sk])).toString('base64url');
}

function decodeCursor(cursor: string | null, accountId: string): string | null {
  if (!cursor || cursor.length > 400) return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && value[0] === accountId && typeof value[1] === 'string' && value[1].startsWith(JOB_PREFIX) && value[1].length < 100) return value[1];
  } catch {
    // An unreadable cursor starts from the newest.
  }
  return null;
}
