/**
 * The `bookings` step of a person's erasure and export (issue 33): the bookings of their number
 * (ACCESS-PATTERNS.md "Bookings": `BKCUST#{e164}#{bookingId}` → `BOOKING#{id}`) and what follows
 * them ("What follows a booking's change").
 *
 * A booking is ANONYMISED, not deleted: its times, service, staff, status, price and its spans in
 * the busy-day items stay, so the calendar, the no-overlap rule and the figures hold. The customer
 * (name, phone, contact link), the notes and the links to the (erased) conversation and call are
 * removed and `customer.erased` set (the views show "Data erased" / "Datos borrados"), in one
 * UpdateItem conditioned on the version read — the bookings adapter's optimistic concurrency — and
 * with the version moved on, so an edit that read the booking before cannot write the customer back.
 *
 * Then what names them goes: the Google Calendar event AgentDesk wrote (its summary is the
 * customer's name), the reminder (pointer + hour item), the `BKMSG#` sends, the `BKMAIL#` owner
 * e-mails, the `BKCUST#` pointers and the number's `BKNUM#` timeline entries. The ids are remembered
 * on the job first, so a retry after the `BKCUST#` items went still finds the bookings.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '../../aws/dynamo-document.js';
import type { Booking } from '../../../contract/bookings.js';
import type { PersonDataCounts } from '../../../contract/privacy.js';
import type { ReminderStore } from '../../../domain/bookings/reminders.js';
import type { ExportWriter, PersonDataPart, PersonKey, StepContext, StepOutcome } from '../../../domain/privacy/ports.js';
import { batchDeleteKeys } from '../batch.js';
import { isConditionFailure } from '../conditions.js';
import { bookingNoticeSk } from '../booking-messages.js';
import { bookingCustomerSk } from '../bookings.js';
import { userPk } from '../keys.js';
import { queryItems } from '../query-items.js';

type Item = Record<string, unknown>;

export interface BookingsPartDeps {
  db: DynamoDBDocumentClient;
  tableName: string;
  reminders: Pick<ReminderStore, 'remove'>;
  /** Deletes the booking's Google event (composition: googleCalendar().deleteBookingEvent). */
  deleteGoogleEvent(accountId: string, bookingId: string): Promise<void>;
}

const ID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const str = (v: unknown) => (typeof v === 'string' ? v : '');
/** Rounds of read-and-write while the booking keeps changing under the erasure. */
const ANONYMISE_ATTEMPTS = 5;

/** The customer of an erased booking. */
export const ERASED_CUSTOMER = { name: '', phone: '', contactId: null, erased: true } as const;

/** The export's columns (bookings.csv), one row per booking. */
export const BOOKING_CSV_HEADER = ['id', 'start', 'end', 'timeZone', 'service', 'staff', 'status', 'channel', 'customerName', 'customerPhone', 'notes', 'price', 'currency', 'createdAt', 'cancelledAt'] as const;

export function bookingCsvRow(b: Booking): (string | number | null)[] {
  return [
    b._id,
    b.start,
    b.end,
    b.timeZone,
    b.serviceName,
    b.staffName,
    b.status,
    b.channel,
    b.customer.name,
    b.customer.phone,
    b.notes,
    b.priceCents === null ? null : b.priceCents / 100,
    b.currency,
    b.createdAt,
    b.cancelledAt,
  ];
}

/** The booking as the export shows it (no internal version or buffer). */
function exportedBooking(item: Item): Booking {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, entity: _e, version: _v, bufferAfterMinutes: _b, ...rest } = item;
  return rest as unknown as Booking;
}

export class DynamoBookingsPart implements PersonDataPart {
  readonly step = 'bookings' as const;

  constructor(private readonly deps: BookingsPartDeps) {}

  private bookingKey(accountId: string, id: string) {
    return { pk: userPk(accountId), sk: `BOOKING#${id}` };
  }

  /** The booking ids of the person's number, newest first. */
  private async idsOf(person: PersonKey): Promise<string[]> {
    if (!person.e164) return [];
    const items = await queryItems(this.deps.db, {
      TableName: this.deps.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': userPk(person.accountId), ':a': `BKCUST#${person.e164}#`, ':b': `BKCUST#${person.e164}#~` },
      ProjectionExpression: 'bookingId',
      ScanIndexForward: false,
      ConsistentRead: true,
    });
    return [...new Set(items.map((i) => str(i.bookingId)).filter((id) => ID_RE.test(id)))];
  }

  private async read(accountId: string, id: string): Promise<Item | null> {
    const { Item } = await this.deps.db.send(new GetCommand({ TableName: this.deps.tableName, Key: this.bookingKey(accountId, id), ConsistentRead: true }));
    return Item ?? null;
  }

  private isErased = (item: Item) => (item.customer as Item | undefined)?.erased === true;

  async count(person: PersonKey): Promise<Partial<PersonDataCounts>> {
    const items = await Promise.all((await this.idsOf(person)).map((id) => this.read(person.accountId, id)));
    return { bookings: items.filter((i) => i && !this.isErased(i)).length };
  }

  /** True when this run anonymised it; false when it was already (or is gone). */
  private async anonymise(accountId: string, id: string): Promise<boolean> {
    for (let attempt = 0; attempt < ANONYMISE_ATTEMPTS; attempt++) {
      const item = await this.read(accountId, id);
      if (!item || this.isErased(item)) return false;
      const version = typeof item.version === 'number' ? item.version : 0;
      try {
        await this.deps.db.send(
          new UpdateCommand({
            TableName: this.deps.tableName,
            Key: this.bookingKey(accountId, id),
            UpdateExpression: 'SET customer = :c, notes = :empty, conversationId = :null, callId = :null, version = :next',
            ConditionExpression: 'attribute_exists(pk) AND version = :old',
            ExpressionAttributeValues: { ':c': ERASED_CUSTOMER, ':empty': '', ':null': null, ':next': version + 1, ':old': version },
          }),
        );
        return true;
      } catch (error) {
        // Changed since it was read (a move, a status): read it again.
        if (!isConditionFailure(error)) throw error;
      }
    }
    throw new Error(`Booking ${id} kept changing during the erasure; retried later`);
  }

  /** A prefix's items of the account's partition (keys only). */
  private async keysBetween(accountId: string, from: string, to: string): Promise<Item[]> {
    const items = await queryItems(this.deps.db, {
      TableName: this.deps.tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :a AND :b',
      ExpressionAttributeValues: { ':pk': userPk(accountId), ':a': from, ':b': to },
      ProjectionExpression: 'pk, sk',
      ConsistentRead: true,
    });
    return items.map((i) => ({ pk: i.pk, sk: i.sk }));
  }

  async erase(person: PersonKey, ctx: StepContext): Promise<StepOutcome> {
    const counts = { bookings: 0 };
    const found = await this.idsOf(person);
    if (found.length > 0) await ctx.remember('booking', found);
    const ids = [...new Set([...found, ...(await ctx.remembered('booking'))])].filter((id) => ID_RE.test(id)).sort();
    const pk = userPk(person.accountId);
    for (const id of ids) {
      if (ctx.shouldYield()) return { counts, done: false };
      // The event first: its summary names the customer, and the booking left in AgentDesk names nobody.
      await this.deps.deleteGoogleEvent(person.accountId, id);
      if (await this.anonymise(person.accountId, id)) counts.bookings++;
      await this.deps.reminders.remove(person.accountId, id);
      const [sends, notices] = await Promise.all([
        this.keysBetween(person.accountId, `BKMSG#${id}#`, `BKMSG#${id}#~`),
        this.keysBetween(person.accountId, bookingNoticeSk(`${id}_`), bookingNoticeSk(`${id}_~`)),
      ]);
      await batchDeleteKeys(this.deps.db, this.deps.tableName, [...sends, ...notices, ...(person.e164 ? [{ pk, sk: bookingCustomerSk(person.e164, id) }] : [])], 2);
      await ctx.progress(counts.bookings);
    }
    if (person.e164) {
      // The number's booking timeline (issue 30): every entry is this person's.
      await batchDeleteKeys(this.deps.db, this.deps.tableName, await this.keysBetween(person.accountId, `BKNUM#${person.e164}#`, `BKNUM#${person.e164}#~`), 2);
    }
    return { counts, done: true };
  }

  async export(person: PersonKey, out: ExportWriter): Promise<StepOutcome> {
    const items = (await Promise.all((await this.idsOf(person)).map((id) => this.read(person.accountId, id)))).filter((i): i is Item => !!i && !this.isErased(i));
    if (items.length === 0) return { counts: { bookings: 0 }, done: true };
    const bookings = items.map(exportedBooking).sort((a, b) => a.start.localeCompare(b.start));
    await out.json('bookings/bookings.json', bookings);
    await out.csv('bookings/bookings.csv', [[...BOOKING_CSV_HEADER], ...bookings.map(bookingCsvRow)]);
    return { counts: { bookings: bookings.length }, done: true };
  }
}
