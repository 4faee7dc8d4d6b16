/**
 * A contact's calls, conversations and bookings (domain/contacts/timeline.ts; ACCESS-PATTERNS.md
 * "Names stay true and the contact timeline"): GetItem of the contact, then side by side the
 * Query of the calls-by-number items (pk=USER#{u}, sk=VCALLNUM#{e164}#{callId}, written in the
 * call's create transaction), the Query of the customer pointers linked to the contact (gsi1
 * USER#{u}#CONTACT#{id} → conversationIds) and (issue 30) the Query of the number's booking
 * changes (sk=BKNUM#{e164}#{at}#{bookingId}#{event}, whole items: nothing more to read), then ONE
 * BatchGetItem of the calls and conversations (projected). Eventually consistent beyond the
 * contact read.
 */
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import type { BookingTimelineEvent, ContactTimelineItem } from '../../contract/contact-timeline.js';
import type { BookingChannel } from '../../contract/bookings.js';
import type { BookingTimelineEntry, BookingTimelineWriter } from '../../domain/bookings/contact-timeline.js';
import type { ContactTimelineReader } from '../../domain/contacts/timeline.js';
import { isExpired } from '../../domain/privacy/retention.js';
import { batchGetItems } from './batch.js';
import { callByNumberSk, userPk } from './keys.js';

type Item = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

// Keys of contacts.ts, voice-calls.ts and whatsapp-customers.ts, restated so this bundle skips those modules.
const contactSk = (id: string) => `CONTACT#${id}`;
const callSk = (id: string) => `VCALL#${id}`;
const convSk = (id: string) => `CONV#${id}`;
const contactGsi = (userId: string, contactId: string) => `USER#${userId}#CONTACT#${contactId}`;

/** A booking change of a number (issue 30), newest first by `at`. */
export const bookingByNumberSk = (e164: string, entry?: Pick<BookingTimelineEntry, 'at' | 'bookingId' | 'event'>) =>
  entry ? `BKNUM#${e164}#${entry.at}#${entry.bookingId}#${entry.event}` : `BKNUM#${e164}#`;

function bookingItem(it: Item): ContactTimelineItem {
  return {
    kind: 'booking',
    id: str(it.bookingId),
    at: str(it.at),
    summary: '',
    status: str(it.event),
    booking: {
      event: str(it.event) as BookingTimelineEvent,
      serviceName: str(it.serviceName),
      staffName: str(it.staffName),
      start: str(it.start),
      end: str(it.end),
      timeZone: str(it.timeZone),
      previousStart: str(it.previousStart),
      channel: str(it.channel) as BookingChannel,
      bookedBy: (str(it.bookedBy) || 'owner') as 'agent' | 'owner' | 'api',
    },
  };
}

function callItem(it: Item): ContactTimelineItem {
  const summary = it.summary as { quickSummary?: unknown } | null | undefined;
  return { kind: 'call', id: str(it.id), at: str(it.createdAt), summary: str(summary?.quickSummary), status: str(it.status), duration: num(it.duration) };
}

function conversationItem(it: Item): ContactTimelineItem {
  const last = it.lastMessage as { content?: unknown; body?: unknown } | null | undefined;
  return {
    kind: 'conversation',
    id: str(it.id),
    at: str(it.lastMessageAt) || str(it.createdAt),
    summary: str(last?.content) || str(last?.body),
    status: str(it.status),
    messageCount: num(it.messageCount),
  };
}

export class DynamoContactTimelineReader implements ContactTimelineReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async contact(userId: string, id: string): Promise<{ id: string; phoneNumber: string } | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userPk(userId), sk: contactSk(id) }, ProjectionExpression: 'id, phoneNumber' }),
    );
    return Item ? { id: str(Item.id), phoneNumber: str(Item.phoneNumber) } : null;
  }

  private async callIds(userId: string, phoneNumber: string, limit: number): Promise<string[]> {
    if (!phoneNumber) return [];
    const prefix = callByNumberSk(phoneNumber, '');
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
        ExpressionAttributeValues: { ':pk': userPk(userId), ':lo': prefix, ':hi': `${prefix}~` },
        ProjectionExpression: 'callId',
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (Items ?? []).map((it) => str(it.callId)).filter(Boolean);
  }

  private async conversationIds(userId: string, contactId: string): Promise<string[]> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :g',
        ExpressionAttributeValues: { ':g': contactGsi(userId, contactId) },
      }),
    );
    const ids = new Set<string>();
    for (const it of Items ?? []) {
      const set = it.conversationIds as Iterable<unknown> | undefined;
      for (const id of set ?? []) if (typeof id === 'string' && id) ids.add(id);
    }
    // Conversation ids are time-sortable: newest first.
    return [...ids].sort().reverse();
  }

  private async bookings(userId: string, phoneNumber: string, limit: number): Promise<ContactTimelineItem[]> {
    if (!phoneNumber) return [];
    const prefix = bookingByNumberSk(phoneNumber);
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lo AND :hi',
        ExpressionAttributeValues: { ':pk': userPk(userId), ':lo': prefix, ':hi': `${prefix}~` },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (Items ?? []).map(bookingItem);
  }

  async items(userId: string, who: { contactId: string; phoneNumber: string }, limit: number) {
    const [callIds, allConversationIds, bookingChanges] = await Promise.all([
      this.callIds(userId, who.phoneNumber, limit + 1),
      this.conversationIds(userId, who.contactId),
      this.bookings(userId, who.phoneNumber, limit + 1),
    ]);
    const conversationIds = allConversationIds.slice(0, limit + 1);
    const more = callIds.length > limit || conversationIds.length > limit || bookingChanges.length > limit;
    const pk = userPk(userId);
    const keys = [...callIds.slice(0, limit).map((id) => ({ pk, sk: callSk(id) })), ...conversationIds.slice(0, limit).map((id) => ({ pk, sk: convSk(id) }))];
    const items = keys.length
      ? await batchGetItems(this.db, this.tableName, keys, {
          projection: {
            ProjectionExpression: 'sk, id, #st, createdAt, #du, summary, lastMessage, lastMessageAt, messageCount, expiresAt',
            ExpressionAttributeNames: { '#st': 'status', '#du': 'duration' },
          },
        })
      : [];
    // Issue 33: a call or conversation past its retention is not shown (DynamoDB deletes it within days).
    const kept = items.filter((it) => !isExpired(it.expiresAt));
    const calls = kept.filter((it) => str(it.sk).startsWith('VCALL#')).map(callItem);
    const conversations = kept.filter((it) => str(it.sk).startsWith('CONV#')).map(conversationItem);
    return { calls, conversations, bookings: bookingChanges.slice(0, limit), more };
  }
}

/** Writes the booking changes the contact timeline shows (issue 30; domain/bookings/contact-timeline.ts). */
export class DynamoBookingTimelineWriter implements BookingTimelineWriter {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async record(userId: string, entry: BookingTimelineEntry): Promise<void> {
    // The key names the change: a second delivery overwrites the entry with the same values.
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { pk: userPk(userId), sk: bookingByNumberSk(entry.phone, entry), ...entry } }));
  }
}
