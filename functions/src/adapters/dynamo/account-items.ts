/**
 * Every item of an account (issue 33, its deletion): Query + BatchWrite delete, never a Scan.
 *
 * The account's items live in `USER#{a}` and in partitions named after it (ACCESS-PATTERNS.md):
 * `USER#{a}#TOK` (contact search tokens), `USER#{a}#CONV#{c}` (each conversation's messages, found
 * from its `CONV#{c}` item), `USER#{a}#KB#{agent}` and `USER#{a}#UNANSWERED#{agent}` (found from
 * the `AGENT#{agent}` item). A few lookups live in shared partitions keyed by something else, each
 * named by an attribute of an item of `USER#{a}`: `APIKEYHASH#{keyHash}` (an API key),
 * `CALFEEDHASH#{tokenHash}` (a calendar feed), `INVITETOKEN#{tokenHash}` (an invitation),
 * `BKREMIND#{hour}` (a reminder, through its `BKREMIND#{bookingId}` pointer), `RELAYCONN#{conn}`
 * (a streamed call's connection), `PERSON#{p}` (a member's pointer). Index entries (gsi1) go with
 * their items. The e-mail's items (`EMAIL#{hash}`: codes, throttles) are deleted by e-mail.
 *
 * The main partition is walked page by page in key order; a page's dependents are deleted BEFORE
 * the page's own items, so a run stopped anywhere (a crash, the slice's end) finds what is left
 * and its pointers again: deleting twice deletes nothing more.
 */
import { DeleteCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import { batchDeleteKeys } from './batch.js';
import { ignoreConditionFailure } from './conditions.js';
import { emailPk, userPk } from './keys.js';
import { chunkPk } from './knowledge-chunks.js';
import { MEMBERSHIP_SK, personPk } from './memberships.js';
import { convMsgPk } from './messages.js';
import { queryPages } from './query-items.js';
import { tokenPk } from './contacts.js';
import { unansweredPk } from './unanswered.js';

type Key = { pk: string; sk: string };
type Item = Record<string, unknown>;

/** BatchWrite requests in flight while a partition is emptied. */
const PARALLEL_WRITES = 4;
const PAGE = 500;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export class DynamoAccountItems {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Deletes every item of one partition; how many. */
  async deletePartition(pk: string): Promise<number> {
    let deleted = 0;
    // Keys only, consistent: what another writer added meanwhile is found by the next page.
    for await (const page of queryPages(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    })) {
      await batchDeleteKeys(this.db, this.tableName, page.map((i) => ({ pk: str(i.pk), sk: str(i.sk) })), PARALLEL_WRITES);
      deleted += page.length;
    }
    return deleted;
  }

  /** The items named by this item of the account's partition, deleted; how many. */
  private async dependents(userId: string, item: Item): Promise<number> {
    const sk = str(item.sk);
    const one = async (key: Key, condition?: { expression: string; values: Record<string, unknown> }): Promise<number> => {
      try {
        const out = await this.db.send(
          new DeleteCommand({
            TableName: this.tableName,
            Key: key,
            ReturnValues: 'ALL_OLD',
            ...(condition ? { ConditionExpression: condition.expression, ExpressionAttributeValues: condition.values } : {}),
          }),
        );
        return out.Attributes ? 1 : 0;
      } catch (error) {
        ignoreConditionFailure(error);
        return 0;
      }
    };
    if (sk.startsWith('CONV#')) return this.deletePartition(convMsgPk(userId, sk.slice('CONV#'.length)));
    if (sk.startsWith('AGENT#') && !sk.slice('AGENT#'.length).includes('#')) {
      const agentId = sk.slice('AGENT#'.length);
      return (await this.deletePartition(chunkPk(userId, agentId))) + (await this.deletePartition(unansweredPk(userId, agentId)));
    }
    if (sk.startsWith('APIKEY#') && item.keyHash) return one({ pk: `APIKEYHASH#${str(item.keyHash)}`, sk: 'APIKEY' });
    if (sk.startsWith('CALFEED#') && item.tokenHash) return one({ pk: `CALFEEDHASH#${str(item.tokenHash)}`, sk: 'CALFEED' });
    if (sk.startsWith('INVITE#') && item.tokenHash) return one({ pk: `INVITETOKEN#${str(item.tokenHash)}`, sk: 'INVITE' });
    if (sk.startsWith('BKREMIND#') && item.bucketPk && item.bucketSk) return one({ pk: str(item.bucketPk), sk: str(item.bucketSk) });
    if (sk.startsWith('VCALL#') && item.relayConnection) return one({ pk: `RELAYCONN#${str(item.relayConnection)}`, sk: 'RELAYCONN' });
    if (sk.startsWith('MEMBER#')) {
      // Only a pointer to THIS account (the person may have joined another since leaving).
      return one({ pk: personPk(sk.slice('MEMBER#'.length)), sk: MEMBERSHIP_SK }, { expression: 'accountId = :a', values: { ':a': userId } });
    }
    return 0;
  }

  /**
   * Every item of a user id's partitions and their lookups. Stops between pages once `shouldYield`
   * says so (done: false); run again, it goes on with what is left.
   */
  async deleteAccount(userId: string, shouldYield: () => boolean): Promise<{ deleted: number; done: boolean }> {
    let deleted = await this.deletePartition(tokenPk(userId));
    for (;;) {
      let page: Item[] = [];
      for await (const first of queryPages(
        this.db,
        {
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': userPk(userId) },
          ProjectionExpression: 'pk, sk, keyHash, tokenHash, bucketPk, bucketSk, relayConnection',
          ConsistentRead: true,
        },
        PAGE,
      )) {
        page = first;
        break;
      }
      if (page.length === 0) return { deleted, done: true };
      for (const item of page) deleted += await this.dependents(userId, item);
      await batchDeleteKeys(this.db, this.tableName, page.map((i) => ({ pk: str(i.pk), sk: str(i.sk) })), PARALLEL_WRITES);
      deleted += page.length;
      if (shouldYield()) return { deleted, done: false };
    }
  }

  /** The e-mail's own items (sign-up and reset codes, throttles): `EMAIL#{sha256}`. */
  deleteEmail(email: string): Promise<number> {
    return this.deletePartition(emailPk(email));
  }

  /** The account's calls that still name a Twilio recording, a page at a time. */
  async *callRecordings(userId: string): AsyncGenerator<{ callId: string; recordingSid: string }[]> {
    for await (const page of queryPages(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      FilterExpression: 'attribute_exists(recording.sid)',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':a': 'VCALL#', ':b': 'VCALL#~' },
      ProjectionExpression: 'sk, recording',
      ConsistentRead: true,
    })) {
      yield page
        .map((i) => ({ callId: str(i.sk).slice('VCALL#'.length), recordingSid: str((i.recording as Item | undefined)?.sid) }))
        .filter((r) => r.recordingSid);
    }
  }

  /** The call no longer names its recording (deleted at Twilio): a resumed run does not count it twice. */
  async forgetRecording(userId: string, callId: string): Promise<void> {
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(userId), sk: `VCALL#${callId}` },
          UpdateExpression: 'REMOVE recording',
          ConditionExpression: 'attribute_exists(pk)',
        }),
      )
      .catch(ignoreConditionFailure);
  }
}
