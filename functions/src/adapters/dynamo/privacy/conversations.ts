/**
 * The `conversations` step of a person's erasure and export (issue 33): everything WhatsApp holds
 * about them (ACCESS-PATTERNS.md "WhatsApp: conversations and messages" and "Patients' data"):
 * their customer pointers, every conversation the pointers name, each conversation's messages
 * (partition `USER#{a}#CONV#{c}`) and their `WAMID#` items, the media objects the messages point to
 * (customers' media and owners' attachments, `whatsapp-media/{a}/{c}/{messageId}`), the
 * conversation's entry in `WAITING#CONVS`, the unanswered questions that name it (one Query per
 * agent), and the conversation items. The conversation list's counter (CONVS#STATS) moves like a
 * delete: −1 on the conversation's status, in the same transaction as its conditional Delete (a
 * retry that finds it gone moves nothing). MSGSTATS#… and ACT#… are not moved: the dashboard keeps
 * anonymous history.
 *
 * Order, so a message from them arriving meanwhile is never lost nor half-erased: remember the
 * conversation ids on the job FIRST, then detach (delete) the pointers — each conditioned on the
 * open conversation read, so one opened in between is seen and remembered too — then erase the
 * remembered conversations. A message after the detach opens a new conversation (kept); one
 * before lands in a remembered conversation (erased). A retry erases the remembered ids again.
 * Inside a conversation its item goes first (the board stops listing it), then the messages page
 * by page — media objects before the items that name them — until a Query finds none.
 */
import { DeleteCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '../../aws/dynamo-document.js';
import type { Language } from '../../../contract/auth.js';
import type { PersonDataCounts } from '../../../contract/privacy.js';
import { CONVERSATION_STATUSES, type ConversationStatus } from '../../../contract/whatsapp.js';
import type { StoredConversation, StoredMessage } from '../../../domain/conversations/ports.js';
import type { ExportWriter, PersonDataPart, PersonKey, StepContext, StepOutcome } from '../../../domain/privacy/ports.js';
import { exportedMessage, transcriptLines, type ExportedMessage } from '../../../domain/privacy/transcript.js';
import type { MediaObjects } from '../../../domain/whatsapp/media/ports.js';
import { WHATSAPP_MEDIA_PREFIX } from '../../../contract/whatsapp-media.js';
import { mapLimit } from '../../../lib/map-limit.js';
import { batchDeleteKeys } from '../batch.js';
import { ignoreConditionFailure, isConditionFailure } from '../conditions.js';
import { conversationStatsAdd } from '../conversations.js';
import { withoutKeys } from '../item-codec.js';
import { userPk } from '../keys.js';
import { convMsgPk, wamidSk } from '../messages.js';
import { queryItems, queryPages } from '../query-items.js';
import { transactOrFailedAt } from '../transact.js';
import { unansweredPk } from '../unanswered.js';
import { WAITING_CONVERSATIONS_SK } from '../waiting-replies.js';
import { convSk } from '../whatsapp-customers.js';
import { conversationIdsOf, customerPointers, DETACHED_MARK, type CustomerPointer } from './person-conversations.js';

export { DETACHED_MARK };

type Item = Record<string, unknown>;

export interface ConversationsPartOptions {
  /** BatchWriteItem requests (25 deletes each) in flight at once. */
  parallelWrites?: number;
  /** S3 DeleteObject requests in flight at once (s3rver answers 500 to a burst under one prefix). */
  parallelDeletes?: number;
  /** Messages read per page (and erased per round between two shouldYield checks). */
  pageSize?: number;
}

const OPEN = new Set(['active', 'requires_human']);
const TIME_SORTED_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const MEDIA_EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'audio/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
};

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export class DynamoConversationsPart implements PersonDataPart {
  readonly step = 'conversations' as const;
  private readonly parallelWrites: number;
  private readonly parallelDeletes: number;
  private readonly pageSize: number;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly media: Pick<MediaObjects, 'delete'>,
    options: ConversationsPartOptions = {},
  ) {
    this.parallelWrites = options.parallelWrites ?? 8;
    this.parallelDeletes = options.parallelDeletes ?? 4;
    this.pageSize = options.pageSize ?? 500;
  }

  /** The account's own media of a conversation: never an agent's file sent in it (those are the agent's, not the person's). */
  private mediaKeysOf(accountId: string, conversationId: string, m: Item): string[] {
    const prefix = `${WHATSAPP_MEDIA_PREFIX}${accountId}/${conversationId}/`;
    const keys = new Set<string>();
    const stored = str((m.media as Item | undefined)?.storedKey);
    if (stored.startsWith(prefix)) keys.add(stored);
    // Where the media pipeline writes it (a fetch that died before noting storedKey left it there).
    if ((m.hasMedia === true || m.media) && typeof m.id === 'string') keys.add(`${prefix}${m.id}`);
    return [...keys];
  }

  /** The conversation's messages in key order; `cap`: the first `cap` only (one page). */
  private messagePages(accountId: string, conversationId: string, projection: boolean, cap?: number): AsyncGenerator<Item[]> {
    return queryPages(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
        ExpressionAttributeValues: { ':pk': convMsgPk(accountId, conversationId), ':a': 'MSG#', ':b': 'MSG#~' },
        ConsistentRead: true,
        ...(projection ? { ProjectionExpression: 'pk, sk, id, waMessageId, hasMedia, #media.storedKey', ExpressionAttributeNames: { '#media': 'media' } } : {}),
      },
      cap,
      cap,
    );
  }

  async count(person: PersonKey): Promise<Partial<PersonDataCounts>> {
    const ids = conversationIdsOf(await customerPointers(this.db, this.tableName, person));
    const counted = await mapLimit(ids, 4, async (id) => {
      let messages = 0;
      let media = 0;
      for await (const page of this.messagePages(person.accountId, id, true)) {
        messages += page.length;
        media += page.filter((m) => this.mediaKeysOf(person.accountId, id, m).length > 0).length;
      }
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(person.accountId), sk: convSk(id) }, ProjectionExpression: 'pk' }));
      return { conversation: Item ? 1 : 0, messages, media };
    });
    return {
      conversations: counted.reduce((n, c) => n + c.conversation, 0),
      messages: counted.reduce((n, c) => n + c.messages, 0),
      media: counted.reduce((n, c) => n + c.media, 0),
    };
  }

  async active(person: PersonKey): Promise<{ conversation?: boolean }> {
    const ids = conversationIdsOf(await customerPointers(this.db, this.tableName, person));
    const statuses = await mapLimit(ids, 8, async (id) => {
      const { Item } = await this.db.send(
        new GetCommand({ TableName: this.tableName, Key: { pk: userPk(person.accountId), sk: convSk(id) }, ProjectionExpression: '#s', ExpressionAttributeNames: { '#s': 'status' } }),
      );
      return str(Item?.status);
    });
    return { conversation: statuses.some((s) => OPEN.has(s)) };
  }

  /**
   * Remembers the pointers' conversations, then deletes each pointer unless a conversation was
   * opened on it meanwhile (its `conversationId` moved): then it is read and remembered again.
   */
  private async detach(person: PersonKey, ctx: StepContext): Promise<void> {
    for (let round = 0; round < 10; round++) {
      const pointers = await customerPointers(this.db, this.tableName, person);
      if (pointers.length === 0) return;
      await ctx.remember('conversation', conversationIdsOf(pointers));
      const moved = await Promise.all(pointers.map((p) => this.deletePointer(person.accountId, p)));
      if (!moved.some(Boolean)) return;
    }
    throw new Error('The customer keeps opening conversations; the erasure is retried');
  }

  /** True when the pointer changed since it was read (not deleted). */
  private async deletePointer(accountId: string, pointer: CustomerPointer): Promise<boolean> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: userPk(accountId), sk: pointer.sk },
          ConditionExpression: pointer.conversationId ? 'conversationId = :c' : 'attribute_not_exists(conversationId)',
          ...(pointer.conversationId ? { ExpressionAttributeValues: { ':c': pointer.conversationId } } : {}),
        }),
      );
      return false;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return true;
    }
  }

  /** The account's agents (their unanswered questions live in one partition each). */
  private async agentIds(accountId: string): Promise<string[]> {
    const items = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': userPk(accountId), ':a': 'AGENT#', ':b': 'AGENT#~' },
      ProjectionExpression: 'sk',
    });
    return [...new Set(items.map((i) => str(i.sk).split('#')[1] ?? '').filter(Boolean))];
  }

  /**
   * The unanswered questions asked in these conversations (the question is the person's words) —
   * and in their calls, which the calls step (before this one) remembered.
   */
  private async eraseUnanswered(accountId: string, conversationIds: readonly string[], callIds: readonly string[]): Promise<void> {
    if (conversationIds.length === 0 && callIds.length === 0) return;
    const wanted = new Set([...conversationIds, ...callIds]);
    for (const agentId of await this.agentIds(accountId)) {
      const items = await queryItems(this.db, {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
        FilterExpression: 'attribute_exists(conversationId) OR attribute_exists(callId)',
        ExpressionAttributeValues: { ':pk': unansweredPk(accountId, agentId), ':a': 'Q#', ':b': 'Q#~' },
        ProjectionExpression: 'pk, sk, conversationId, callId',
      });
      const keys = items.filter((i) => wanted.has(str(i.conversationId)) || wanted.has(str(i.callId))).map((i) => ({ pk: i.pk, sk: i.sk }));
      await batchDeleteKeys(this.db, this.tableName, keys, this.parallelWrites);
    }
  }

  /** Off the account's list of conversations with waiting messages. */
  private async forgetWaiting(accountId: string, conversationIds: readonly string[]): Promise<void> {
    if (conversationIds.length === 0) return;
    await this.db
      .send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: userPk(accountId), sk: WAITING_CONVERSATIONS_SK },
          UpdateExpression: 'DELETE conversationIds :ids',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':ids': new Set(conversationIds) },
        }),
      )
      .catch(ignoreConditionFailure);
  }

  /**
   * The conversation item with its −1 on CONVS#STATS (its status's), one transaction conditioned on
   * the status read: a status change in between is read again, an item already gone moves nothing.
   */
  private async deleteConversationItem(accountId: string, conversationId: string): Promise<boolean> {
    const key = { pk: userPk(accountId), sk: convSk(conversationId) };
    for (;;) {
      const { Item } = await this.db.send(
        new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true, ProjectionExpression: '#s', ExpressionAttributeNames: { '#s': 'status' } }),
      );
      if (!Item) return false;
      const status = str(Item.status);
      const counted = (CONVERSATION_STATUSES as readonly string[]).includes(status);
      const failed = await transactOrFailedAt(this.db, [
        {
          Delete: {
            TableName: this.tableName,
            Key: key,
            ConditionExpression: counted ? '#s = :s' : 'attribute_exists(pk)',
            ...(counted ? { ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':s': status } } : {}),
          },
        },
        ...(counted ? [conversationStatsAdd(this.tableName, accountId, { [status as ConversationStatus]: -1 })] : []),
      ]);
      if (failed === null) return true;
    }
  }

  /** One conversation: its item, then its messages page by page (media first). False = stopped to yield. */
  private async eraseConversation(
    accountId: string,
    conversationId: string,
    ctx: StepContext,
    counts: Required<Pick<PersonDataCounts, 'conversations' | 'messages' | 'media'>>,
    progress: () => Promise<void>,
    halted: () => boolean,
  ): Promise<boolean> {
    if (await this.deleteConversationItem(accountId, conversationId)) counts.conversations++;
    for (;;) {
      if (ctx.shouldYield() || halted()) return false;
      // A fresh Query each round: what the last round deleted is gone, and a message written in
      // the meantime (a worker that found the conversation before the detach) is found too.
      const page = (await this.messagePages(accountId, conversationId, true, this.pageSize).next()).value as Item[] | undefined;
      if (!page || page.length === 0) return true;
      const mediaKeys = [...new Set(page.flatMap((m) => this.mediaKeysOf(accountId, conversationId, m)))];
      const wamids = page.map((m) => str(m.waMessageId)).filter(Boolean);
      // The objects and the wamid items side by side; the messages (which name both) after.
      await Promise.all([
        mapLimit(mediaKeys, this.parallelDeletes, (key) => this.media.delete(key)),
        batchDeleteKeys(this.db, this.tableName, wamids.map((w) => ({ pk: userPk(accountId), sk: wamidSk(w) })), this.parallelWrites),
      ]);
      await batchDeleteKeys(this.db, this.tableName, page.map((m) => ({ pk: m.pk, sk: m.sk })), this.parallelWrites);
      counts.messages += page.length;
      counts.media += page.filter((m) => this.mediaKeysOf(accountId, conversationId, m).length > 0).length;
      await progress();
    }
  }

  async erase(person: PersonKey, ctx: StepContext): Promise<StepOutcome> {
    const counts = { conversations: 0, messages: 0, media: 0 };
    if (!(await ctx.remembered('conversation')).includes(DETACHED_MARK)) {
      await this.detach(person, ctx);
      await ctx.remember('conversation', [DETACHED_MARK]);
    }
    const ids = [...new Set(await ctx.remembered('conversation'))].filter((id) => TIME_SORTED_ID.test(id)).sort();
    const calls = (await ctx.remembered('call')).filter((id) => TIME_SORTED_ID.test(id));
    await Promise.all([this.forgetWaiting(person.accountId, ids), this.eraseUnanswered(person.accountId, ids, calls)]);
    let reported = 0;
    const progress = async () => {
      const items = counts.messages + counts.conversations;
      if (items - reported >= 300) {
        reported = items;
        await ctx.progress(items);
      }
    };
    // Two conversations at a time (one's S3 deletes overlap the other's BatchWrites). A lane that
    // fails or yields stops the other at its next page, and both are waited for: nothing runs on
    // after erase() has answered.
    let next = 0;
    let failure: { error: unknown } | null = null;
    let yielded = false;
    const halted = () => failure !== null || yielded;
    const lane = async () => {
      while (next < ids.length && !halted()) {
        const id = ids[next++]!;
        try {
          if (!(await this.eraseConversation(person.accountId, id, ctx, counts, progress, halted))) yielded = true;
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all([lane(), lane()]);
    if (failure) throw (failure as { error: unknown }).error;
    if (yielded) return { counts, done: false };
    await ctx.progress(counts.messages + counts.conversations);
    return { counts, done: true };
  }

  /** The account's language and time zone (the transcript's words and times). */
  private async accountLocale(accountId: string): Promise<{ language: Language; timeZone: string }> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(accountId), sk: 'PROFILE' }, ProjectionExpression: '#l, #z', ExpressionAttributeNames: { '#l': 'language', '#z': 'timeZone' } }),
    );
    return { language: Item?.language === 'es' ? 'es' : 'en', timeZone: str(Item?.timeZone) || 'UTC' };
  }

  async export(person: PersonKey, out: ExportWriter, ctx: StepContext): Promise<StepOutcome> {
    const ids = conversationIdsOf(await customerPointers(this.db, this.tableName, person));
    const locale = await this.accountLocale(person.accountId);
    const counts = { conversations: 0, messages: 0, media: 0 };
    for (const id of ids) {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userPk(person.accountId), sk: convSk(id) }, ConsistentRead: true }));
      if (!Item) continue;
      const conversation = withoutKeys<StoredConversation>(Item);
      const folder = `conversations/${conversation.createdAt.slice(0, 10)}-${id}`;
      const messages: ExportedMessage[] = [];
      for await (const page of this.messagePages(person.accountId, id, false)) {
        for (const item of page) {
          const m = withoutKeys<StoredMessage>(item, ['mid']);
          const [key] = this.mediaKeysOf(person.accountId, id, item).filter((k) => k === m.media?.storedKey);
          const file = key && m.media?.state !== 'failed' ? `${folder}/media/${this.mediaFileName(m)}` : undefined;
          if (file && key) {
            await out.object(file, key);
            counts.media++;
          }
          messages.push(exportedMessage(m, file));
        }
      }
      await out.json(`${folder}/conversation.json`, {
        id,
        status: conversation.status,
        createdAt: conversation.createdAt,
        closedAt: conversation.closedAt,
        customer: { name: conversation.customerName, phone: conversation.customerPhone },
        notes: conversation.notes,
        messages,
      });
      await out.text(`${folder}/transcript.txt`, `${transcriptLines(messages, locale.language, locale.timeZone)}\n`);
      counts.conversations++;
      counts.messages += messages.length;
      await ctx.progress(counts.messages);
    }
    return { counts, done: true };
  }

  /** "{message id}.{ext}", or the document's own name behind the id (two files may share a name). */
  private mediaFileName(m: StoredMessage): string {
    const id = m.id.split('-')[1] ?? m.id;
    // eslint-disable-next-line no-control-regex
    const name = (m.media?.filename ?? '').replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').slice(0, 100);
    if (name) return `${id}-${name}`;
    const ext = MEDIA_EXTENSIONS[(m.media?.mimeType ?? '').split(';')[0]!.trim().toLowerCase()] ?? 'bin';
    return `${id}.${ext}`;
  }
}
