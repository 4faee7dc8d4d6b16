/**
 * Bookings (issue 30): what the rest of the product calls (the owner's API, the public API, the
 * agent's built-in booking tools, the calendar feed, reminders) and the ports the core needs
 * besides its own storage. One service, one no-overlap rule for owner, agent and API alike.
 */
import type {
  Booking,
  BookingChannel,
  BookingCreateInput,
  BookingList,
  BookingService,
  BookingServiceInput,
  BookingSettings,
  BookingSettingsInput,
  BookingSlot,
  BookingStaff,
  BookingStaffInput,
  BookingStatus,
  BookingUpdateInput,
} from '../../contract/bookings.js';

/** Who is acting, and from where: stored on the booking; the agent may touch only its customer's bookings. */
export interface BookingActor {
  by: 'agent' | 'owner' | 'api';
  channel: BookingChannel;
  conversationId?: string | null;
  callId?: string | null;
  agentId?: string | null;
  /** The agent's customer (E.164, from the channel: the WhatsApp number or the caller id). Required when by = 'agent'. */
  customerPhone?: string;
}

export interface SlotQuery {
  serviceId: string;
  /** Local dates in the business's zone, inclusive ("2026-12-01"). */
  from: string;
  to: string;
  staffId?: string;
  limit?: number;
  /** The agent asks: services not bookable by the agent are refused. */
  forAgent?: boolean;
  /** The labels' language (the account's, or the call's). */
  language?: string;
}

export interface BookingListQuery {
  from: string;
  to: string;
  staffId?: string;
  status?: BookingStatus;
  cursor?: string;
  limit?: number;
}

/** What happened to a booking (after it is stored): confirmations, reminders, the owner's e-mail, Google Calendar. */
export interface BookingChange {
  kind: 'created' | 'moved' | 'cancelled' | 'status';
  booking: Booking;
  /** The booking before a move or a status change. */
  before?: Booking;
  actor: BookingActor;
}

/** Port: told after each stored change (a queue in production); must not throw into the caller's answer. */
export interface BookingEvents {
  changed(userId: string, change: BookingChange): Promise<void>;
}

/**
 * One consumer of booking changes (the booking-events worker runs each in turn): the customer's
 * WhatsApp confirmation and reminder, the owner's e-mail, Google Calendar, the dashboard's
 * outcome counters. A change may be handled twice (a queue retry): each listener is idempotent.
 */
export interface BookingChangeListener {
  name: string;
  /** `delivery.finalAttempt`: the queue's last try of this change (record a failure for good rather than throw). */
  handle(userId: string, change: BookingChange, delivery?: { finalAttempt: boolean }): Promise<void>;
}

/** A busy interval from outside AgentDesk (Google Calendar free/busy), epoch ms, end excluded. */
export interface BusyInterval {
  start: number;
  end: number;
}

/** Port: busy times of the owner's own calendars per staff member (Google Calendar); absent = none. */
export interface ExternalBusyTimes {
  busy(userId: string, staff: readonly BookingStaff[], from: Date, to: Date): Promise<Map<string, BusyInterval[]>>;
}

/** Port: the contact directory — the booking's customer found by phone, created when new (account's country format). */
export interface BookingCustomerDirectory {
  ensure(userId: string, customer: { name: string; phone: string }): Promise<{ contactId: string | null; phone: string }>;
}

/** The bookings core (domain/bookings/service.ts). Errors are the domain's (ValidationError → 400, NotFoundError → 404, ConflictError → 409). */
export interface Bookings {
  settings(userId: string): Promise<BookingSettings>;
  saveSettings(userId: string, input: BookingSettingsInput): Promise<BookingSettings>;

  listServices(userId: string): Promise<BookingService[]>;
  getService(userId: string, id: string): Promise<BookingService>;
  createService(userId: string, input: BookingServiceInput): Promise<BookingService>;
  updateService(userId: string, id: string, input: BookingServiceInput): Promise<BookingService>;
  deleteService(userId: string, id: string): Promise<void>;

  listStaff(userId: string): Promise<BookingStaff[]>;
  getStaff(userId: string, id: string): Promise<BookingStaff>;
  createStaff(userId: string, input: BookingStaffInput): Promise<BookingStaff>;
  updateStaff(userId: string, id: string, input: BookingStaffInput): Promise<BookingStaff>;
  /** Refused (ConflictError staffHasBookings) while the staff member has upcoming confirmed bookings. */
  deleteStaff(userId: string, id: string): Promise<void>;

  /** The nearest free slots, soonest first (at most limit). */
  findSlots(userId: string, query: SlotQuery): Promise<BookingSlot[]>;
  /** Books if the slot is free at write time (no overlap for the staff member, enforced by the database). */
  book(userId: string, input: BookingCreateInput, actor: BookingActor): Promise<Booking>;
  /** A move, a status, notes (PATCH); a move keeps the no-overlap rule. */
  update(userId: string, id: string, input: BookingUpdateInput, actor: BookingActor): Promise<Booking>;
  cancel(userId: string, id: string, actor: BookingActor): Promise<Booking>;
  /** With the agent as `actor`, only its customer's bookings (another's answers 404 like a missing one). */
  get(userId: string, id: string, actor?: BookingActor): Promise<Booking>;
  list(userId: string, query: BookingListQuery): Promise<BookingList>;
  /** A customer's bookings by phone (E.164), upcoming confirmed ones first; what find_my_bookings shows. */
  ofCustomer(userId: string, phone: string, options?: { upcomingOnly?: boolean }): Promise<Booking[]>;
}
