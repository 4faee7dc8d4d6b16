/**
 * The bookings core's storage port (adapters/dynamo/bookings.ts; an in-memory one in the unit
 * tests). The store owns the no-overlap rule: `writeBooking` refuses ('overlap') a booking whose
 * busy interval meets another of the same staff member, atomically with the write.
 */
import type { Booking, BookingService, BookingSettings, BookingStaff, BookingStatus } from '../../contract/bookings.js';

/** Records as stored: the contract's plus an optimistic-concurrency version. */
export type StoredService = BookingService & { version: number };
export type StoredStaff = BookingStaff & { version: number };
/** `bufferAfterMinutes`: the service's buffer when booked (the staff member is busy until end + buffer). */
export type StoredBooking = Booking & { version: number; bufferAfterMinutes: number };

/** One booking's busy interval in a staff member's calendar, epoch ms, end (with the buffer) excluded. */
export interface BusySpan {
  bookingId: string;
  start: number;
  end: number;
}

/** Whether a booking holds its staff member's time (a cancelled one does not; past completed/no-show ones still do, harmlessly). */
export const occupies = (b: Pick<Booking, 'status'>): boolean => b.status !== 'cancelled';
/** A stored booking's busy interval (with its buffer after). */
export const spanOf = (b: StoredBooking): BusySpan => ({
  bookingId: b._id,
  start: Date.parse(b.start),
  end: Date.parse(b.end) + b.bufferAfterMinutes * 60_000,
});

export type NamedWrite = 'ok' | 'tooMany' | 'duplicateName' | 'changed';
export type BookingWrite = 'ok' | 'overlap' | 'changed' | 'staffGone';
export type StaffRemoval = 'ok' | 'changed' | { upcoming: number };

export interface StoredListQuery {
  /** UTC ISO instants: bookings starting in [from, to). */
  from: string;
  to: string;
  /** The last listed booking's `${start}#${id}` (the cursor's content). */
  after?: string;
  staffId?: string;
  status?: BookingStatus;
  limit: number;
}

export interface BookingStore {
  settings(userId: string): Promise<BookingSettings | null>;
  saveSettings(userId: string, settings: BookingSettings): Promise<void>;

  services(userId: string): Promise<StoredService[]>;
  service(userId: string, id: string): Promise<StoredService | null>;
  /** With the per-user cap (count item) and the case-insensitive unique name, atomically. */
  createService(userId: string, service: StoredService, max: number): Promise<NamedWrite>;
  /** If still at `before.version`. */
  replaceService(userId: string, before: StoredService, next: StoredService): Promise<NamedWrite>;
  removeService(userId: string, service: StoredService): Promise<boolean>;

  staff(userId: string): Promise<StoredStaff[]>;
  staffMember(userId: string, id: string): Promise<StoredStaff | null>;
  createStaff(userId: string, staff: StoredStaff, max: number): Promise<NamedWrite>;
  replaceStaff(userId: string, before: StoredStaff, next: StoredStaff): Promise<NamedWrite>;
  /** Refused ({ upcoming }) while bookings of the staff member end after `now`; 'changed' when one was booked meanwhile. */
  removeStaff(userId: string, staff: StoredStaff, now: number): Promise<StaffRemoval>;

  /** The busy intervals of each staff member meeting [from, to) (epoch ms): O(staff × days) reads, not O(bookings). */
  busy(userId: string, staffIds: readonly string[], from: number, to: number): Promise<Map<string, BusySpan[]>>;
  booking(userId: string, id: string): Promise<StoredBooking | null>;
  /**
   * Creates (`before` null) or replaces a booking (if still at `before.version`), moving its busy
   * interval in the same transaction: 'overlap' when the new interval meets another booking of the
   * staff member, 'changed' when the booking changed meanwhile, 'staffGone' when the staff member
   * was deleted. Nothing is written unless 'ok'.
   */
  writeBooking(userId: string, before: StoredBooking | null, next: StoredBooking): Promise<BookingWrite>;
  /** Links the booking's customer to their contact (after the booking is stored). */
  setContact(userId: string, bookingId: string, contactId: string): Promise<void>;
  list(userId: string, query: StoredListQuery): Promise<{ bookings: StoredBooking[]; more: boolean }>;
  /** Every booking of a customer phone (E.164). */
  ofCustomer(userId: string, phone: string): Promise<StoredBooking[]>;
}
