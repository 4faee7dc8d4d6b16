/**
 * An in-memory BookingStore for the core's unit tests: the DynamoDB adapter's semantics (caps,
 * unique names case-insensitively, versions, no overlap per staff member checked atomically with
 * the write — trivially, in one JavaScript turn) without a database.
 */
import type { BookingSettings } from '../../../src/contract/bookings.js';
import {
  occupies,
  spanOf,
  type BookingStore,
  type BookingWrite,
  type BusySpan,
  type NamedWrite,
  type StaffRemoval,
  type StoredBooking,
  type StoredListQuery,
  type StoredService,
  type StoredStaff,
} from '../../../src/domain/bookings/store.js';

const nameKey = (name: string) => name.trim().normalize('NFC').toLocaleLowerCase('es');
const clone = <T>(v: T): T => structuredClone(v);

export class MemoryBookingStore implements BookingStore {
  readonly settingsOf = new Map<string, BookingSettings>();
  readonly servicesOf = new Map<string, Map<string, StoredService>>();
  readonly staffOf = new Map<string, Map<string, StoredStaff>>();
  readonly bookingsOf = new Map<string, Map<string, StoredBooking>>();
  /** Calls per method (the tests check what a call reads). */
  readonly calls: Record<string, number> = {};

  private count(name: string) {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
  }
  private of<T>(maps: Map<string, Map<string, T>>, userId: string): Map<string, T> {
    let m = maps.get(userId);
    if (!m) maps.set(userId, (m = new Map()));
    return m;
  }

  async settings(userId: string) {
    return clone(this.settingsOf.get(userId) ?? null);
  }
  async saveSettings(userId: string, settings: BookingSettings) {
    this.settingsOf.set(userId, clone(settings));
  }

  private create<T extends { _id: string; name: string }>(m: Map<string, T>, record: T, max: number): NamedWrite {
    if (m.size >= max) return 'tooMany';
    if ([...m.values()].some((r) => nameKey(r.name) === nameKey(record.name))) return 'duplicateName';
    m.set(record._id, clone(record));
    return 'ok';
  }
  private replace<T extends { _id: string; name: string; version: number }>(m: Map<string, T>, before: T, next: T): NamedWrite {
    if (m.get(before._id)?.version !== before.version) return 'changed';
    if ([...m.values()].some((r) => r._id !== before._id && nameKey(r.name) === nameKey(next.name))) return 'duplicateName';
    m.set(next._id, clone(next));
    return 'ok';
  }

  async services(userId: string) {
    return clone([...this.of(this.servicesOf, userId).values()]);
  }
  async service(userId: string, id: string) {
    return clone(this.of(this.servicesOf, userId).get(id) ?? null);
  }
  async createService(userId: string, s: StoredService, max: number) {
    return this.create(this.of(this.servicesOf, userId), s, max);
  }
  async replaceService(userId: string, before: StoredService, next: StoredService) {
    return this.replace(this.of(this.servicesOf, userId), before, next);
  }
  async removeService(userId: string, s: StoredService) {
    return this.of(this.servicesOf, userId).delete(s._id);
  }

  async staff(userId: string) {
    return clone([...this.of(this.staffOf, userId).values()]);
  }
  async staffMember(userId: string, id: string) {
    return clone(this.of(this.staffOf, userId).get(id) ?? null);
  }
  async createStaff(userId: string, s: StoredStaff, max: number) {
    return this.create(this.of(this.staffOf, userId), s, max);
  }
  async replaceStaff(userId: string, before: StoredStaff, next: StoredStaff) {
    return this.replace(this.of(this.staffOf, userId), before, next);
  }
  async removeStaff(userId: string, s: StoredStaff, now: number): Promise<StaffRemoval> {
    const upcoming = [...this.of(this.bookingsOf, userId).values()].filter((b) => b.staffId === s._id && occupies(b) && spanOf(b).end > now).length;
    if (upcoming > 0) return { upcoming };
    return this.of(this.staffOf, userId).delete(s._id) ? 'ok' : 'changed';
  }

  async busy(userId: string, staffIds: readonly string[], from: number, to: number) {
    this.count('busy');
    const out = new Map<string, BusySpan[]>(staffIds.map((id) => [id, []]));
    for (const b of this.of(this.bookingsOf, userId).values()) {
      const span = spanOf(b);
      if (occupies(b) && out.has(b.staffId) && span.start < to && span.end > from) out.get(b.staffId)!.push(span);
    }
    return out;
  }
  async booking(userId: string, id: string) {
    return clone(this.of(this.bookingsOf, userId).get(id) ?? null);
  }
  async writeBooking(userId: string, before: StoredBooking | null, next: StoredBooking): Promise<BookingWrite> {
    this.count('writeBooking');
    const m = this.of(this.bookingsOf, userId);
    const stored = m.get(next._id);
    if (before ? stored?.version !== before.version : stored) return 'changed';
    if (occupies(next)) {
      if (!this.of(this.staffOf, userId).has(next.staffId) && !(before && before.staffId === next.staffId && occupies(before))) return 'staffGone';
      const span = spanOf(next);
      for (const other of m.values()) {
        if (other._id === next._id || other.staffId !== next.staffId || !occupies(other)) continue;
        const o = spanOf(other);
        if (o.start < span.end && o.end > span.start) return 'overlap';
      }
    }
    m.set(next._id, clone(next));
    return 'ok';
  }
  async setContact(userId: string, bookingId: string, contactId: string) {
    const b = this.of(this.bookingsOf, userId).get(bookingId);
    if (b) b.customer.contactId = contactId;
  }
  async list(userId: string, q: StoredListQuery) {
    const all = [...this.of(this.bookingsOf, userId).values()]
      .filter((b) => b.start >= q.from && b.start < q.to && (!q.staffId || b.staffId === q.staffId) && (!q.status || b.status === q.status))
      .map((b) => ({ b, k: `${b.start}#${b._id}` }))
      .filter(({ k }) => !q.after || k > q.after)
      .sort((a, b) => (a.k < b.k ? -1 : 1));
    return { bookings: clone(all.slice(0, q.limit).map(({ b }) => b)), more: all.length > q.limit };
  }
  async ofCustomer(userId: string, phone: string) {
    return clone([...this.of(this.bookingsOf, userId).values()].filter((b) => b.customer.phone === phone));
  }
}
