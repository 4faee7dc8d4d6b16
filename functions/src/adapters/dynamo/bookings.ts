/**
 * Bookings in the single table (see ACCESS-PATTERNS.md "Bookings"):
 * - settings      pk=USER#{sub}, sk=BKSETTINGS
 * - service       sk=BKSERVICE#{id}; name guard sk=BKSERVICENAME#{nameKey}; cap sk=BKCOUNT#SERVICES (n)
 * - staff         sk=BKSTAFF#{id} (+ bookingSeq: +1 by every booking that takes its time); name guard
 *                 sk=BKSTAFFNAME#{nameKey}; cap sk=BKCOUNT#STAFF (n)
 * - booking       sk=BOOKING#{id}; gsi1pk=BOOKINGS#{sub}, gsi1sk={start ISO}#{id} (the list by start time)
 * - busy day      sk=BKDAY#{UTC date}#{staffId}: staffId, spans [{b: bookingId, s, e}] (epoch ms, end with
 *                 the buffer) and a version `v`: the no-overlap rule lives here; date first, so one
 *                 Query reads a range of days for every staff member
 * - by customer   sk=BKCUST#{e164}#{bookingId}: bookingId (find_my_bookings)
 *
 * NO DOUBLE BOOKING, enforced by the database: a booking, a move or a cancel reads the staff
 * member's busy-day items it touches (one or two UTC days, two when it crosses UTC midnight), checks
 * the new interval against the other spans, and writes the booking and every touched day item in
 * ONE TransactWriteItems, each day item conditioned on the version read. A concurrent booking of
 * the same day changes the version: the transaction is cancelled, the days are read again, and the
 * loser sees the overlap. Free slots read one Query per staff member over the day items of the
 * range: O(staff × days), however many bookings there are.
 */
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '../aws/dynamo-document.js';
import {
  BOOKING_CHANNELS,
  BOOKING_STATUSES,
  STAFF_KINDS,
  WEEKDAYS,
  type BookingCustomer,
  type BookingSettings,
  type Closure,
  type WeeklyHours,
  type WhatsAppTemplateChoice,
} from '../../contract/bookings.js';
// The saved replies' key rule, without their request schemas (contract/name-key.ts).
import { nameKey as nameKeyOf } from '../../contract/name-key.js';
import { occupies, spanOf, type BookingStore, type BookingWrite, type BusySpan, type NamedWrite, type StaffRemoval, type StoredBooking, type StoredListQuery, type StoredService, type StoredStaff } from '../../domain/bookings/store.js';
import { batchGetItems } from './batch.js';
import { unlessConditionFails } from './conditions.js';
import { bool, itemCodec, num, str, strOrNull } from './item-codec.js';
import { userPk } from './keys.js';
import { queryItems, queryPages } from './query-items.js';
import { cancellationReasons, countDown, countUpTo, type TransactItem, transactWrite } from './transact.js';

type Item = Record<string, unknown>;

const DAY = 86_400_000;
const SETTINGS_SK = 'BKSETTINGS';
const SERVICE = 'BKSERVICE#';
const STAFF = 'BKSTAFF#';
const BOOKING = 'BOOKING#';
const key = (userId: string, sk: string) => ({ pk: userPk(userId), sk });
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const daySk = (staffId: string, day: string) => `BKDAY#${day}#${staffId}`;
const DAY_PREFIX = 'BKDAY#';
const listPk = (userId: string) => `BOOKINGS#${userId}`;
export const bookingCustomerSk = (phone: string, bookingId: string) => `BKCUST#${phone}#${bookingId}`;
/** The UTC days a span touches (one, or two across UTC midnight; more only for a very long one). */
function daysOf(span: BusySpan): string[] {
  const out: string[] = [];
  for (let d = Date.parse(`${dayOf(span.start)}T00:00:00Z`); d < span.end; d += DAY) out.push(dayOf(d));
  return out;
}

// ------------------------------------------------------------------ strict readers

const oneOf =
  <T extends string>(values: readonly T[], fallback: T) =>
  (v: unknown): T =>
    typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : fallback;
const numOrNull = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const closures = (v: unknown): Closure[] =>
  Array.isArray(v)
    ? v
        .filter((c): c is Item => !!c && typeof c === 'object')
        .map((c) => ({ _id: str(c._id), from: str(c.from), to: str(c.to), reason: str(c.reason) }))
        .filter((c) => c._id && c.from && c.to)
    : [];
const weeklyHours = (v: unknown): WeeklyHours => {
  const stored = v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  return Object.fromEntries(
    WEEKDAYS.map((d) => [
      d,
      Array.isArray(stored[d])
        ? (stored[d] as unknown[]).filter((r): r is Item => !!r && typeof r === 'object').map((r) => ({ start: str(r.start), end: str(r.end) }))
        : [],
    ]),
  ) as WeeklyHours;
};
const template = (v: unknown): WhatsAppTemplateChoice | null =>
  v && typeof v === 'object' && typeof (v as Item).name === 'string' ? { name: str((v as Item).name), language: str((v as Item).language) } : null;
const customer = (v: unknown): BookingCustomer => {
  const c = v && typeof v === 'object' ? (v as Item) : {};
  return { name: str(c.name), phone: str(c.phone), contactId: strOrNull(c.contactId), ...(c.erased === true ? { erased: true } : {}) };
};

const fromSettings = itemCodec<BookingSettings>({
  timeZone: str,
  minNoticeMinutes: num,
  maxAdvanceDays: num,
  slotStepMinutes: (v) => ([5, 10, 15, 30].includes(num(v)) ? num(v) : 15) as BookingSettings['slotStepMinutes'],
  closures,
  remindersEnabled: bool,
  reminderHours: num,
  confirmationTemplate: template,
  reminderTemplate: template,
  emailOwner: bool,
  updatedAt: strOrNull,
});

const fromService = itemCodec<StoredService>({
  _id: str,
  name: str,
  durationMinutes: num,
  bufferAfterMinutes: num,
  priceCents: numOrNull,
  staffIds: strings,
  bookableByAgent: bool,
  createdAt: str,
  updatedAt: str,
  version: num,
});

const fromStaff = itemCodec<StoredStaff>({
  _id: str,
  name: str,
  kind: oneOf(STAFF_KINDS, 'person'),
  weeklyHours,
  closures,
  googleCalendarIds: strings,
  createdAt: str,
  updatedAt: str,
  version: num,
});

const fromBooking = itemCodec<StoredBooking>({
  _id: str,
  serviceId: str,
  serviceName: str,
  staffId: str,
  staffName: str,
  start: str,
  end: str,
  timeZone: str,
  status: oneOf(BOOKING_STATUSES, 'confirmed'),
  customer,
  channel: oneOf(BOOKING_CHANNELS, 'dashboard'),
  conversationId: strOrNull,
  callId: strOrNull,
  agentId: strOrNull,
  bookedBy: oneOf(['agent', 'owner', 'api'] as const, 'owner'),
  notes: str,
  priceCents: numOrNull,
  currency: str,
  createdAt: str,
  updatedAt: str,
  cancelledAt: strOrNull,
  version: num,
  bufferAfterMinutes: num,
});

const spansOf = (item: Item | undefined): BusySpan[] =>
  Array.isArray(item?.spans)
    ? (item.spans as unknown[]).filter((s): s is Item => !!s && typeof s === 'object').map((s) => ({ bookingId: str(s.b), start: num(s.s), end: num(s.e) }))
    : [];
const storedSpans = (spans: readonly BusySpan[]) => spans.map((s) => ({ b: s.bookingId, s: s.start, e: s.end }));

/** The index of the first item whose condition failed, or null for a transaction that went through. */
async function failedAt(db: DynamoDBDocumentClient, items: TransactItem[]): Promise<number | null> {
  try {
    await transactWrite(db, items);
    return null;
  } catch (error) {
    const index = cancellationReasons(error)?.findIndex((r) => r.code === 'ConditionalCheckFailed') ?? -1;
    if (index < 0) throw error;
    return index;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Rounds of read-check-write while other bookings of the same days keep winning. */
const WRITE_ATTEMPTS = 40;

export class DynamoBookingStore implements BookingStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  // ---------------------------------------------------------------- settings

  async settings(userId: string): Promise<BookingSettings | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key(userId, SETTINGS_SK), ConsistentRead: true }));
    return Item ? fromSettings(Item) : null;
  }

  async saveSettings(userId: string, settings: BookingSettings): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...key(userId, SETTINGS_SK), entity: 'bookingSettings', ...settings } }));
  }

  // ---------------------------------------------------------------- services and staff

  async services(userId: string): Promise<StoredService[]> {
    return (await this.prefixed(userId, SERVICE)).map(fromService);
  }

  async service(userId: string, id: string): Promise<StoredService | null> {
    const item = await this.get(userId, `${SERVICE}${id}`);
    return item ? fromService(item) : null;
  }

  createService(userId: string, service: StoredService, max: number): Promise<NamedWrite> {
    return this.createNamed(userId, service, max, { prefix: SERVICE, name: 'BKSERVICENAME#', count: 'BKCOUNT#SERVICES', entity: 'bookingService' });
  }

  replaceService(userId: string, before: StoredService, next: StoredService): Promise<NamedWrite> {
    return this.replaceNamed(userId, before, next, { prefix: SERVICE, name: 'BKSERVICENAME#', count: 'BKCOUNT#SERVICES', entity: 'bookingService' });
  }

  async removeService(userId: string, service: StoredService): Promise<boolean> {
    return (await this.removeNamed(userId, service, { prefix: SERVICE, name: 'BKSERVICENAME#', count: 'BKCOUNT#SERVICES', entity: 'bookingService' })) === null;
  }

  async staff(userId: string): Promise<StoredStaff[]> {
    return (await this.prefixed(userId, STAFF)).map(fromStaff);
  }

  async staffMember(userId: string, id: string): Promise<StoredStaff | null> {
    const item = await this.get(userId, `${STAFF}${id}`);
    return item ? fromStaff(item) : null;
  }

  createStaff(userId: string, staff: StoredStaff, max: number): Promise<NamedWrite> {
    return this.createNamed(userId, staff, max, STAFF_KEYS);
  }

  replaceStaff(userId: string, before: StoredStaff, next: StoredStaff): Promise<NamedWrite> {
    return this.replaceNamed(userId, before, next, STAFF_KEYS);
  }

  async removeStaff(userId: string, staff: StoredStaff, now: number): Promise<StaffRemoval> {
    const item = await this.get(userId, `${STAFF}${staff._id}`);
    if (!item) return 'changed';
    const seq = typeof item.bookingSeq === 'number' ? item.bookingSeq : null;
    // Every later day item of the business, filtered to this staff member's (a rare call: the delete).
    const days = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      FilterExpression: 'staffId = :staff',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':a': `${DAY_PREFIX}${dayOf(now)}#`, ':b': `${DAY_PREFIX}9999`, ':staff': staff._id },
      ConsistentRead: true,
    });
    const upcoming = new Set(days.flatMap((d) => spansOf(d).filter((s) => s.end > now).map((s) => s.bookingId)));
    if (upcoming.size > 0) return { upcoming: upcoming.size };
    // The booking count read above: a booking taking this staff member's time meanwhile cancels the delete.
    const failed = await this.removeNamed(userId, staff, STAFF_KEYS, seq === null ? 'attribute_not_exists(bookingSeq)' : 'bookingSeq = :seq', seq === null ? {} : { ':seq': seq });
    return failed === null ? 'ok' : 'changed';
  }

  // ---------------------------------------------------------------- bookings

  async busy(userId: string, staffIds: readonly string[], from: number, to: number): Promise<Map<string, BusySpan[]>> {
    const wanted = [...new Set(staffIds)];
    const out = new Map<string, BusySpan[]>(wanted.map((id) => [id, []]));
    if (wanted.length === 0 || to <= from) return out;
    // ONE Query over the days (every staff member's day items of those days), kept to the ones asked for.
    const items = await queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      FilterExpression: `staffId IN (${wanted.map((_, i) => `:s${i}`).join(', ')})`,
      ExpressionAttributeValues: {
        ':pk': userPk(userId),
        ':a': `${DAY_PREFIX}${dayOf(from)}#`,
        ':b': `${DAY_PREFIX}${dayOf(to - 1)}#~`,
        ...Object.fromEntries(wanted.map((id, i) => [`:s${i}`, id])),
      },
      ProjectionExpression: 'staffId, spans',
    });
    const seen = new Set<string>();
    for (const item of items) {
      const spans = out.get(str(item.staffId));
      if (!spans) continue;
      for (const span of spansOf(item)) {
        // A span across UTC midnight is in two day items: once is enough.
        if (span.end <= from || span.start >= to || seen.has(span.bookingId)) continue;
        seen.add(span.bookingId);
        spans.push(span);
      }
    }
    return out;
  }

  async booking(userId: string, id: string): Promise<StoredBooking | null> {
    const item = await this.get(userId, `${BOOKING}${id}`);
    return item ? fromBooking(item) : null;
  }

  async writeBooking(userId: string, before: StoredBooking | null, next: StoredBooking): Promise<BookingWrite> {
    const removed = before && occupies(before) ? { staffId: before.staffId, span: spanOf(before) } : null;
    const added = occupies(next) ? { staffId: next.staffId, span: spanOf(next) } : null;
    const unchanged = !!removed && !!added && removed.staffId === added.staffId && removed.span.start === added.span.start && removed.span.end === added.span.end;
    const touched = new Map<string, { staffId: string; day: string }>();
    if (!unchanged) {
      for (const change of [removed, added]) if (change) for (const day of daysOf(change.span)) touched.set(daySk(change.staffId, day), { staffId: change.staffId, day });
    }
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      const read = touched.size === 0 ? [] : await batchGetItems(this.db, this.tableName, [...touched.keys()].map((sk) => key(userId, sk)), { consistentRead: true });
      const current = new Map(read.map((i) => [String(i.sk), i]));
      const dayWrites: TransactItem[] = [];
      for (const [sk, { staffId, day }] of touched) {
        const item = current.get(sk);
        const others = spansOf(item).filter((s) => s.bookingId !== next._id);
        const adds = added && added.staffId === staffId && daysOf(added.span).includes(day);
        if (adds && others.some((s) => s.start < added.span.end && s.end > added.span.start)) return 'overlap';
        const spans = adds ? [...others, added.span].sort((a, b) => a.start - b.start) : others;
        const version = item ? num(item.v) : 0;
        const condition = item ? { ConditionExpression: 'v = :v', ExpressionAttributeValues: { ':v': version } } : { ConditionExpression: 'attribute_not_exists(pk)' };
        dayWrites.push(
          spans.length === 0 && item
            ? { Delete: { TableName: this.tableName, Key: key(userId, sk), ...condition } }
            : { Put: { TableName: this.tableName, Item: { ...key(userId, sk), entity: 'bookingDay', staffId, day, spans: storedSpans(spans), v: version + 1 }, ...condition } },
        );
      }
      const takesStaff = !!added && !unchanged;
      const items: TransactItem[] = [
        {
          Put: {
            TableName: this.tableName,
            Item: { ...key(userId, `${BOOKING}${next._id}`), gsi1pk: listPk(userId), gsi1sk: `${next.start}#${next._id}`, entity: 'booking', ...next },
            ...(before ? { ConditionExpression: 'version = :old', ExpressionAttributeValues: { ':old': before.version } } : { ConditionExpression: 'attribute_not_exists(pk)' }),
          },
        },
        ...(takesStaff
          ? [
              {
                Update: {
                  TableName: this.tableName,
                  Key: key(userId, `${STAFF}${next.staffId}`),
                  UpdateExpression: 'ADD bookingSeq :one',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeValues: { ':one': 1 },
                },
              } satisfies TransactItem,
            ]
          : []),
        ...(before ? [] : [{ Put: { TableName: this.tableName, Item: { ...key(userId, bookingCustomerSk(next.customer.phone, next._id)), entity: 'bookingCustomer', bookingId: next._id } } }]),
        ...dayWrites,
      ];
      // One attempt (not transactWrite's retries of the same items): after a conflict the versions
      // read are stale anyway, so the days are read again and the overlap checked afresh.
      let reasons: { code: string }[] | null;
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: items }));
        return 'ok';
      } catch (error) {
        reasons = cancellationReasons(error);
        if (!reasons && (error as { name?: string }).name !== 'TransactionConflictException') throw error;
      }
      const failed = reasons?.findIndex((r) => r.code === 'ConditionalCheckFailed') ?? -1;
      if (failed === 0) return 'changed';
      if (takesStaff && failed === 1) return 'staffGone';
      if (failed < 0 && reasons && !reasons.every((r) => r.code === 'TransactionConflict' || r.code === 'None')) throw new Error(`booking write cancelled: ${reasons.map((r) => r.code).join(',')}`);
      // A day item changed since it was read, or another transaction held one: read again.
      await sleep(Math.random() * Math.min(40, 4 * 2 ** Math.min(attempt, 4)));
    }
    return 'changed';
  }

  async setContact(userId: string, bookingId: string, contactId: string): Promise<void> {
    // A booking gone meanwhile has nothing to link.
    await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(userId, `${BOOKING}${bookingId}`),
          UpdateExpression: 'SET customer.contactId = :c',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':c': contactId },
        }),
      ),
    );
  }

  async list(userId: string, query: StoredListQuery): Promise<{ bookings: StoredBooking[]; more: boolean }> {
    const filters: string[] = [];
    const values: Item = {};
    const names: Record<string, string> = {};
    if (query.staffId) {
      filters.push('staffId = :staff');
      values[':staff'] = query.staffId;
    }
    if (query.status) {
      filters.push('#status = :status');
      values[':status'] = query.status;
      names['#status'] = 'status';
    }
    // After the cursor: every gsi1sk is `{ISO}#{id}` of one length, so `{after}!` is above it and below the next.
    const lower = query.after && `${query.after}!` > query.from ? `${query.after}!` : query.from;
    // A cursor past the range (another range's): nothing more (BETWEEN with its bounds reversed is refused).
    if (lower > query.to) return { bookings: [], more: false };
    const pages = queryPages(
      this.db,
      {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :gpk AND gsi1sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':gpk': listPk(userId), ':from': lower, ':to': query.to, ...values },
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
      },
      // Unfiltered: the page and one more (is there a next page?); filtered: pages of what the index holds until the page is full.
      filters.length > 0 ? undefined : query.limit + 1,
    );
    const out: StoredBooking[] = [];
    for await (const page of pages) {
      for (const item of page) {
        if (out.length === query.limit) return { bookings: out, more: true };
        out.push(fromBooking(item));
      }
    }
    return { bookings: out, more: false };
  }

  async ofCustomer(userId: string, phone: string): Promise<StoredBooking[]> {
    const refs = await queryItems(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
        ExpressionAttributeValues: { ':pk': userPk(userId), ':a': `BKCUST#${phone}#`, ':b': `BKCUST#${phone}#~` },
        ScanIndexForward: false,
        ProjectionExpression: 'bookingId',
      },
      200,
    );
    const items = await batchGetItems(
      this.db,
      this.tableName,
      refs.map((r) => key(userId, `${BOOKING}${str(r.bookingId)}`)),
    );
    return items.map(fromBooking);
  }

  // ---------------------------------------------------------------- helpers

  private async get(userId: string, sk: string): Promise<Item | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key(userId, sk), ConsistentRead: true }));
    return Item;
  }

  private prefixed(userId: string, prefix: string): Promise<Item[]> {
    // A range, not begins_with: DynamoDB Local walks the whole partition for begins_with.
    return queryItems(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': userPk(userId), ':a': prefix, ':b': `${prefix}~` },
      ConsistentRead: true,
    });
  }

  private async createNamed(userId: string, record: StoredService | StoredStaff, max: number, keys: NamedKeys): Promise<NamedWrite> {
    const failed = await failedAt(this.db, [
      countUpTo(this.tableName, key(userId, keys.count), max, `${keys.entity}Count`),
      this.putName(userId, keys, record),
      { Put: { TableName: this.tableName, Item: { ...key(userId, `${keys.prefix}${record._id}`), entity: keys.entity, nameKey: nameKeyOf(record.name), ...record }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ]);
    if (failed === null) return 'ok';
    return failed === 0 ? 'tooMany' : 'duplicateName';
  }

  private async replaceNamed(userId: string, before: StoredService | StoredStaff, next: StoredService | StoredStaff, keys: NamedKeys): Promise<NamedWrite> {
    const moves = nameKeyOf(before.name) !== nameKeyOf(next.name);
    // SET field by field (not a Put): the staff item's bookingSeq is the bookings' to keep.
    const fields = Object.entries({ ...next, nameKey: nameKeyOf(next.name) }).filter(([name]) => name !== '_id' && name !== 'createdAt');
    const failed = await failedAt(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: key(userId, `${keys.prefix}${before._id}`),
          UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND version = :old',
          ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
          ExpressionAttributeValues: { ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])), ':old': before.version },
        },
      },
      ...(moves ? [this.putName(userId, keys, next), this.deleteName(userId, keys, before)] : []),
    ]);
    if (failed === null) return 'ok';
    return failed === 1 ? 'duplicateName' : 'changed';
  }

  private removeNamed(userId: string, record: StoredService | StoredStaff, keys: NamedKeys, extraCondition?: string, extraValues: Item = {}): Promise<number | null> {
    return failedAt(this.db, [
      {
        Delete: {
          TableName: this.tableName,
          Key: key(userId, `${keys.prefix}${record._id}`),
          ConditionExpression: `version = :v${extraCondition ? ` AND ${extraCondition}` : ''}`,
          ExpressionAttributeValues: { ':v': record.version, ...extraValues },
        },
      },
      this.deleteName(userId, keys, record),
      countDown(this.tableName, key(userId, keys.count)),
    ]);
  }

  private putName(userId: string, keys: NamedKeys, record: { _id: string; name: string }): TransactItem {
    return {
      Put: {
        TableName: this.tableName,
        Item: { ...key(userId, `${keys.name}${nameKeyOf(record.name)}`), entity: `${keys.entity}Name`, id: record._id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  private deleteName(userId: string, keys: NamedKeys, record: { _id: string; name: string }): TransactItem {
    return {
      Delete: {
        TableName: this.tableName,
        Key: key(userId, `${keys.name}${nameKeyOf(record.name)}`),
        ConditionExpression: 'id = :id',
        ExpressionAttributeValues: { ':id': record._id },
      },
    };
  }
}

interface NamedKeys {
  prefix: string;
  name: string;
  count: string;
  entity: string;
}
const STAFF_KEYS: NamedKeys = { prefix: STAFF, name: 'BKSTAFFNAME#', count: 'BKCOUNT#STAFF', entity: 'bookingStaff' };
