/**
 * The `notifications` step of a person's erasure and export (issue 33): the in-app notifications
 * about their conversations and calls (ACCESS-PATTERNS.md "Notifications"), which carry their name
 * (`contactName`) and the escalation's reason. Each person of the account has their own bell
 * (person-keys.ts), so every member's is searched — removed members' too: their items stay.
 *
 * The subjects are the conversation and call ids the earlier steps remembered on the job (their
 * items are gone by now), with those still findable (the customer pointers, the calls of their
 * number) for the lookup's count and a job whose earlier steps found nothing. For each person:
 * - the idempotency items `NOTIFKEY#{kind}#{subjectId}#…` (one Query per subject) name the
 *   notification they created;
 * - one Query of the bell filtered by subject finds the notifications whose key item has expired
 *   (keys live 90 days; an unread notification stays until read).
 * Each notification goes in one transaction with its key item, giving the unread count back when it
 * was unread (conditioned on that state, so a read at the same moment is not counted twice).
 */
import { GetCommand, type DynamoDBDocumentClient } from '../../aws/dynamo-document.js';
import type { PersonDataCounts } from '../../../contract/privacy.js';
import type { ExportWriter, PersonDataPart, PersonKey, StepContext, StepOutcome } from '../../../domain/privacy/ports.js';
import { mapLimit } from '../../../lib/map-limit.js';
import { batchDeleteKeys } from '../batch.js';
import { callByNumberSk, userPk } from '../keys.js';
import { counterUpdate } from '../notifications.js';
import { personSk } from '../person-keys.js';
import { queryItems } from '../query-items.js';
import { conditionFailedAt, transactWrite } from '../transact.js';
import { conversationIdsOf, customerPointers, DETACHED_MARK } from './person-conversations.js';

type Item = Record<string, unknown>;

const ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** DynamoDB's bound on the values of an IN. */
const IN_MAX = 100;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

interface Subjects {
  conversation_escalated: string[];
  call_escalated: string[];
}

/** A notification found in a person's bell, with its idempotency item when one names it. */
interface Found {
  personId: string;
  sk: string;
  item: Item | null;
  keySk: string | null;
}

export class DynamoNotificationsPart implements PersonDataPart {
  readonly step = 'notifications' as const;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly parallel = 8,
  ) {}

  /** The account's own person and every member it ever had (their bells stay after a removal). */
  private async people(accountId: string): Promise<string[]> {
    const members = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': userPk(accountId), ':a': 'MEMBER#', ':b': 'MEMBER#~' },
      ProjectionExpression: 'sk',
    });
    return [...new Set([accountId, ...members.map((m) => str(m.sk).slice('MEMBER#'.length)).filter(Boolean)])];
  }

  /** The calls of their number (the calls-by-number items, issue 17). */
  private async callsOfNumber(person: PersonKey): Promise<string[]> {
    if (!person.e164) return [];
    const items = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': userPk(person.accountId), ':a': callByNumberSk(person.e164, ''), ':b': callByNumberSk(person.e164, '~') },
      ProjectionExpression: 'callId',
    });
    return items.map((i) => str(i.callId));
  }

  private async subjects(person: PersonKey, ctx?: StepContext): Promise<Subjects> {
    const [rememberedConversations, rememberedCalls, calls] = await Promise.all([
      ctx ? ctx.remembered('conversation') : Promise.resolve<string[]>([]),
      ctx ? ctx.remembered('call') : Promise.resolve<string[]>([]),
      this.callsOfNumber(person),
    ]);
    // Once the conversations step detached the customer, a conversation found on a pointer now was
    // opened after that: theirs to keep, with its notifications.
    const pointers = rememberedConversations.includes(DETACHED_MARK) ? [] : await customerPointers(this.db, this.tableName, person);
    const ids = (xs: readonly string[]) => [...new Set(xs.filter((x) => ID.test(x)))].sort();
    return { conversation_escalated: ids([...rememberedConversations, ...conversationIdsOf(pointers)]), call_escalated: ids([...rememberedCalls, ...calls]) };
  }

  /** Every notification of these subjects in every bell of the account. */
  /** `orphanKeys`: idempotency items whose notification is already gone (deleted by erase only). */
  private async find(accountId: string, subjects: Subjects): Promise<{ found: Found[]; orphanKeys: Item[] }> {
    const all = [...subjects.conversation_escalated, ...subjects.call_escalated];
    if (all.length === 0) return { found: [], orphanKeys: [] };
    const people = await this.people(accountId);
    const pk = userPk(accountId);
    const found = new Map<string, Found>();
    const orphanKeys: Item[] = [];
    // The idempotency items: one Query per person and subject.
    const lookups = people.flatMap((personId) =>
      (Object.keys(subjects) as Array<keyof Subjects>).flatMap((kind) => subjects[kind].map((subjectId) => ({ personId, kind, subjectId }))),
    );
    const keyItems = await mapLimit(lookups, this.parallel, async ({ personId, kind, subjectId }) => {
      const prefix = personSk(accountId, personId, `NOTIFKEY#${kind}#${subjectId}#`);
      const items = await queryItems(this.db, {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
        ExpressionAttributeValues: { ':pk': pk, ':a': prefix, ':b': `${prefix}~` },
        ProjectionExpression: 'sk, notificationId',
        ConsistentRead: true,
      });
      return items.map((i) => ({ personId, keySk: str(i.sk), notificationId: str(i.notificationId) }));
    });
    for (const k of keyItems.flat()) {
      if (!k.notificationId) {
        orphanKeys.push({ pk, sk: k.keySk });
        continue;
      }
      const sk = personSk(accountId, k.personId, `NOTIF#${k.notificationId}`);
      found.set(sk, { personId: k.personId, sk, item: null, keySk: k.keySk });
    }
    // The bells, filtered by subject: notifications whose key item expired, and every item's fields.
    await mapLimit(people, this.parallel, async (personId) => {
      const prefix = personSk(accountId, personId, 'NOTIF#');
      for (let i = 0; i < all.length; i += IN_MAX) {
        const chunk = all.slice(i, i + IN_MAX);
        const items = await queryItems(this.db, {
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
          FilterExpression: `subjectId IN (${chunk.map((_, j) => `:s${j}`).join(', ')})`,
          ExpressionAttributeValues: { ':pk': pk, ':a': prefix, ':b': `${prefix}~`, ...Object.fromEntries(chunk.map((s, j) => [`:s${j}`, s])) },
          ConsistentRead: true,
        });
        for (const item of items) {
          const sk = str(item.sk);
          if (item.kind !== 'conversation_escalated' && item.kind !== 'call_escalated') continue;
          found.set(sk, { personId, sk, item, keySk: found.get(sk)?.keySk ?? null });
        }
      }
    });
    // A key whose notification is already gone (a crash between the two): the key alone.
    const missing = [...found.values()].filter((f) => !f.item);
    for (const f of missing) {
      found.delete(f.sk);
      if (f.keySk) orphanKeys.push({ pk, sk: f.keySk });
    }
    return { found: [...found.values()], orphanKeys };
  }

  /** Deletes one notification with its key item; the unread count back when it was unread. True when it was there. */
  private async eraseOne(accountId: string, f: Found): Promise<boolean> {
    const pk = userPk(accountId);
    let item = f.item;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (!item) {
        if (f.keySk) await batchDeleteKeys(this.db, this.tableName, [{ pk, sk: f.keySk }]);
        return false;
      }
      const unread = typeof item.readAt !== 'string';
      try {
        await transactWrite(this.db, [
          {
            Delete: {
              TableName: this.tableName,
              Key: { pk, sk: f.sk },
              ConditionExpression: unread ? 'attribute_exists(pk) AND attribute_not_exists(readAt)' : 'attribute_exists(pk) AND attribute_exists(readAt)',
            },
          },
          ...(f.keySk ? [{ Delete: { TableName: this.tableName, Key: { pk, sk: f.keySk } } }] : []),
          ...(unread ? [counterUpdate(this.tableName, accountId, f.personId, -1)] : []),
        ]);
        return true;
      } catch (error) {
        if (!conditionFailedAt(error, 0)) throw error;
        // Read (or deleted) meanwhile: as it is now.
        item = (await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk, sk: f.sk }, ConsistentRead: true }))).Item ?? null;
      }
    }
    throw new Error('A notification kept changing while it was erased; the erasure is retried');
  }

  async count(person: PersonKey): Promise<Partial<PersonDataCounts>> {
    return { notifications: (await this.find(person.accountId, await this.subjects(person))).found.length };
  }

  async erase(person: PersonKey, ctx: StepContext): Promise<StepOutcome> {
    const { found, orphanKeys } = await this.find(person.accountId, await this.subjects(person, ctx));
    await batchDeleteKeys(this.db, this.tableName, orphanKeys);
    let notifications = 0;
    for (let i = 0; i < found.length; i += 100) {
      if (ctx.shouldYield()) return { counts: { notifications }, done: false };
      const erased = await mapLimit(found.slice(i, i + 100), this.parallel, (f) => this.eraseOne(person.accountId, f));
      notifications += erased.filter(Boolean).length;
      await ctx.progress(notifications);
    }
    return { counts: { notifications }, done: true };
  }

  async export(person: PersonKey, out: ExportWriter, ctx: StepContext): Promise<StepOutcome> {
    const { found } = await this.find(person.accountId, await this.subjects(person, ctx));
    const list = found
      .map((f) => f.item!)
      .map((n) => ({
        kind: str(n.kind),
        subjectId: str(n.subjectId),
        contactName: str(n.contactName),
        reason: str(n.reason),
        createdAt: str(n.createdAt),
        readAt: typeof n.readAt === 'string' ? n.readAt : null,
      }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    await out.json('notifications.json', list);
    return { counts: { notifications: list.length }, done: true };
  }
}
