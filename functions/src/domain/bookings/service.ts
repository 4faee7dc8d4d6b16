/**
 * The bookings core (issue 30): settings, services, staff, free slots, and booking, moving and
 * cancelling — one set of rules for the owner, the agent and the API, over the BookingStore port
 * (which enforces "no overlap" in the database) and the contact directory.
 *
 * Rules by actor:
 * - Everybody: a start on a 5-minute step, not in the past, inside the staff member's opening
 *   hours (duration + buffer in one range), not on a closure, free (the store refuses an overlap).
 * - The agent and the API also keep the minimum notice, the "how far ahead" limit and the busy
 *   times of the connected Google Calendar; the owner may book any future free time inside the
 *   hours (a walk-in squeezed in at short notice, a date past the agent's horizon, over a private
 *   calendar entry they can see).
 * - The agent books only services bookable by the agent, always for the customer it is talking
 *   to (actor.customerPhone, from the channel), and sees or changes only that customer's bookings
 *   (anything else answers 404, like a missing one); it never sets completed / no-show.
 * - completed / no_show are the owner's marks, at any time (the page offers them once a booking
 *   has started); a cancelled booking is final except for its notes (book again instead).
 */
import {
  BOOKING_DEFAULTS,
  BOOKING_LIMITS,
  bookingCreateRequest,
  bookingMessages,
  bookingServiceRequest,
  bookingSettingsRequest,
  bookingStaffRequest,
  bookingUpdateRequest,
  isCalendarDate,
  type Booking,
  type BookingList,
  type BookingService,
  type BookingSettings,
  type BookingSlot,
  type BookingStaff,
  type Closure,
} from '../../contract/bookings.js';
import { mainTimeZoneOf } from '../../contract/time-zones.js';
import { isId, newId } from '../../lib/ids.js';
import { currencyForCountry } from '../billing/currency.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { bookableWindow, freeSlots, slotProblem, type SlotProblem } from './availability.js';
import { slotLabel } from './labels.js';
import type {
  BookingActor,
  BookingChange,
  BookingCustomerDirectory,
  BookingEvents,
  BookingListQuery,
  Bookings,
  BusyInterval,
  ExternalBusyTimes,
  SlotQuery,
} from './ports.js';
import { type BookingStore, type BusySpan, type StoredBooking, type StoredService, type StoredStaff } from './store.js';
import { addDays, daysBetween, iso, localInstant, localOf, parseStart } from './time.js';

const MINUTE = 60_000;

/** The account fields the core reads (profile): zone for the default settings, country for the currency, language for labels. */
export interface BookingAccount {
  timeZone?: string;
  country?: string;
  language?: string;
}

export interface BookingsDeps {
  store: BookingStore;
  /**
   * Finds or creates the booking's contact right after it is stored. Absent in the first-contact
   * functions (calls, chat, WhatsApp: the contacts service and libphonenumber are too heavy for
   * their bundles): the booking-events worker links the contact there (contactLinker in customers.ts).
   */
  customers?: BookingCustomerDirectory;
  /**
   * A typed phone read in the account's country: E.164, or null when it is not a phone
   * (toE164 of domain/contacts/text.ts). Absent: only an E.164 number is taken — the agent's
   * customer is the channel's number, E.164 already.
   */
  phone?(typed: string, country: string): string | null;
  account(userId: string): Promise<BookingAccount>;
  /** Told after each stored change; best effort (a failure is logged, never fails the change). */
  events?: BookingEvents;
  /** Google Calendar busy times; absent = none. */
  externalBusy?: ExternalBusyTimes;
  now?: () => number;
  onError?: (message: string, error: unknown) => void;
}

/** Validates with a contract schema: the first failing rule's message as a 400. */
function valid<T>(schema: { safeParse(input: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { message: string; path: readonly PropertyKey[] }[] } } }, input: unknown): T {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new ValidationError(issue?.message ?? bookingMessages.notObject, issue?.path.join('.') || undefined);
}

const withIds = (closures: readonly (Omit<Closure, '_id'> & { _id?: string | undefined })[]): Closure[] =>
  closures.map((c) => ({ _id: c._id || newId(), from: c.from, to: c.to, reason: c.reason }));

const toService = ({ version: _v, ...s }: StoredService, staffIds: ReadonlySet<string>): BookingService => ({ ...s, staffIds: s.staffIds.filter((id) => staffIds.has(id)) });
const toStaff = ({ version: _v, ...s }: StoredStaff): BookingStaff => s;
export const toBooking = ({ version: _v, bufferAfterMinutes: _b, ...b }: StoredBooking): Booking => b;

const SLOT_PROBLEM_ORDER: SlotProblem[] = ['busy', 'closed', 'outsideHours'];
/** Days findSlots reads first (the rest of the range only when they do not hold enough slots). */
const FIRST_WINDOW_DAYS = 7;
const E164 = /^\+[1-9]\d{6,14}$/;
const CURSOR_CONTENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[0-9A-Z]{26}$/;

export function createBookings(deps: BookingsDeps): Bookings {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  const report = (message: string, error: unknown) => deps.onError?.(message, error);

  async function settingsOf(userId: string): Promise<BookingSettings> {
    const stored = await store.settings(userId);
    if (stored) return stored;
    const account = await deps.account(userId);
    return {
      timeZone: account.timeZone || mainTimeZoneOf(account.country) || 'UTC',
      minNoticeMinutes: BOOKING_DEFAULTS.minNoticeMinutes,
      maxAdvanceDays: BOOKING_DEFAULTS.maxAdvanceDays,
      slotStepMinutes: BOOKING_DEFAULTS.slotStepMinutes,
      closures: [],
      remindersEnabled: BOOKING_DEFAULTS.remindersEnabled,
      reminderHours: BOOKING_DEFAULTS.reminderHours,
      confirmationTemplate: null,
      reminderTemplate: null,
      emailOwner: BOOKING_DEFAULTS.emailOwner,
      updatedAt: null,
    };
  }

  async function loadService(userId: string, id: string): Promise<StoredService> {
    // Ids are ours (ULIDs): anything else (2,000 characters, emoji) is not found without a read.
    const found = isId(id) ? await store.service(userId, id) : null;
    if (!found) throw new NotFoundError(bookingMessages.serviceNotFound);
    return found;
  }

  async function loadStaff(userId: string, id: string): Promise<StoredStaff> {
    const found = isId(id) ? await store.staffMember(userId, id) : null;
    if (!found) throw new NotFoundError(bookingMessages.staffNotFound);
    return found;
  }

  /** The agent sees only its customer's bookings: anything else is "not found". */
  function visibleTo(booking: StoredBooking | null, actor?: BookingActor): booking is StoredBooking {
    if (!booking) return false;
    return actor?.by !== 'agent' || (!!actor.customerPhone && booking.customer.phone === actor.customerPhone);
  }

  async function loadBooking(userId: string, id: string, actor?: BookingActor): Promise<StoredBooking> {
    const found = isId(id) ? await store.booking(userId, id) : null;
    if (!visibleTo(found, actor)) throw new NotFoundError(bookingMessages.notFound);
    return found;
  }

  async function tell(userId: string, change: BookingChange): Promise<void> {
    if (!deps.events) return;
    try {
      await deps.events.changed(userId, { ...change, booking: toBooking(change.booking as StoredBooking), ...(change.before ? { before: toBooking(change.before as StoredBooking) } : {}) });
    } catch (error) {
      report('booking change event failed', error);
    }
  }

  /** External busy times, best effort: a calendar that cannot be read blocks nothing (logged). */
  async function externalBusy(userId: string, staff: readonly StoredStaff[], from: number, to: number): Promise<Map<string, BusyInterval[]>> {
    if (!deps.externalBusy || staff.length === 0) return new Map();
    try {
      return await deps.externalBusy.busy(userId, staff.map(toStaff), new Date(from), new Date(to));
    } catch (error) {
      report('external busy times unavailable', error);
      return new Map();
    }
  }

  /** The service's staff who still exist, in the service's order. */
  async function staffOf(userId: string, service: StoredService, all?: readonly StoredStaff[]): Promise<StoredStaff[]> {
    const byId = new Map((all ?? (await store.staff(userId))).map((s) => [s._id, s]));
    return service.staffIds.map((id) => byId.get(id)).filter((s): s is StoredStaff => !!s);
  }

  /** The candidates for a booking or a slot search: the one asked for (who must do the service), else all who do it. */
  async function candidates(userId: string, service: StoredService, staffId: string | undefined, all?: readonly StoredStaff[]): Promise<StoredStaff[]> {
    const staff = await staffOf(userId, service, all);
    if (staffId !== undefined) {
      const chosen = staff.find((s) => s._id === staffId);
      if (chosen) return [chosen];
      if (!(all ?? (await store.staff(userId))).some((s) => s._id === staffId)) throw new NotFoundError(bookingMessages.staffNotFound);
      throw new ValidationError(bookingMessages.staffCannotDoService, 'staffId');
    }
    if (staff.length === 0) throw new ValidationError(bookingMessages.noStaffForService, 'serviceId');
    return staff;
  }

  /** The start of a booking or a move, checked against the rules that do not depend on the staff member. */
  function checkStart(text: string, settings: BookingSettings, actor: BookingActor): number {
    const start = parseStart(text, settings.timeZone);
    if (start === null) throw new ValidationError(bookingMessages.startInvalid, 'start');
    if (start % (5 * MINUTE) !== 0 || localOf(start, settings.timeZone).minutes % 5 !== 0) throw new ValidationError(bookingMessages.offStep, 'start');
    const at = now();
    if (start <= at) throw new ValidationError(bookingMessages.inPast, 'start');
    if (actor.by !== 'owner') {
      const { earliest, lastDate } = bookableWindow({ zone: settings.timeZone, now: at, minNoticeMinutes: settings.minNoticeMinutes, maxAdvanceDays: settings.maxAdvanceDays });
      if (start < earliest) throw new ValidationError(bookingMessages.tooSoon(settings.minNoticeMinutes), 'start');
      if (localOf(start, settings.timeZone).date > lastDate) throw new ValidationError(bookingMessages.tooFarAhead(settings.maxAdvanceDays), 'start');
    }
    return start;
  }

  /**
   * Writes `build(staff)` for the first candidate whose hours, closures and (for the agent and the
   * API) external calendar allow [start, start + occupied); the store refuses an overlap
   * atomically, and the next candidate is tried. The most telling refusal when none can.
   */
  async function place(
    userId: string,
    settings: BookingSettings,
    staff: readonly StoredStaff[],
    start: number,
    occupiedMinutes: number,
    actor: BookingActor,
    before: StoredBooking | null,
    build: (staff: StoredStaff) => StoredBooking,
  ): Promise<StoredBooking> {
    const end = start + occupiedMinutes * MINUTE;
    // One candidate: the write itself finds an overlap (one read fewer); several: their busy times pick the free one.
    const [busy, external] = await Promise.all([
      staff.length > 1 ? store.busy(userId, staff.map((s) => s._id), start, end) : Promise.resolve(new Map<string, BusySpan[]>()),
      actor.by === 'owner' ? Promise.resolve(new Map<string, BusyInterval[]>()) : externalBusy(userId, staff, start, end),
    ]);
    const problems = new Set<SlotProblem | 'external'>();
    for (const member of staff) {
      const own = (busy.get(member._id) ?? []).filter((s) => s.bookingId !== before?._id);
      const problem = slotProblem(member, start, occupiedMinutes, settings.timeZone, settings.closures, own);
      if (problem) {
        problems.add(problem);
        continue;
      }
      if ((external.get(member._id) ?? []).some((b) => b.start < end && b.end > start)) {
        problems.add('external');
        continue;
      }
      const next = build(member);
      const outcome = await store.writeBooking(userId, before, next);
      if (outcome === 'ok') return next;
      if (outcome === 'changed') throw new ConflictError(bookingMessages.changedMeanwhile);
      problems.add(outcome === 'overlap' ? 'busy' : 'closed');
    }
    if (problems.has('busy')) throw new ConflictError(bookingMessages.slotTaken);
    if (problems.has('external')) throw new ConflictError(bookingMessages.busyInCalendar);
    const worst = SLOT_PROBLEM_ORDER.find((p) => problems.has(p));
    throw new ValidationError(worst === 'closed' ? bookingMessages.closed : bookingMessages.outsideHours, 'start');
  }

  /**
   * The customer's phone as stored (E.164): the agent's customer is the one on the line (the
   * channel's number, never another phone the model wrote); a typed one is read in the account's country.
   */
  function customerPhone(input: { phone: string }, actor: BookingActor, account: BookingAccount): string {
    const typed = actor.by === 'agent' ? actor.customerPhone : input.phone;
    let phone: string | null = null;
    try {
      phone = !typed ? null : deps.phone ? deps.phone(typed, account.country || 'ZZ') : E164.test(typed.trim()) ? typed.trim() : null;
    } catch {
      phone = null;
    }
    if (!phone) throw new ValidationError(bookingMessages.customerPhoneInvalid, 'customer.phone');
    return phone;
  }

  /**
   * The booking's contact, found or created by phone AFTER the booking is stored: a request that
   * loses the slot creates no contact. Best effort: the booking keeps the name and phone anyway.
   */
  async function linkContact(userId: string, booking: StoredBooking): Promise<void> {
    if (!deps.customers) return;
    try {
      const { contactId } = await deps.customers.ensure(userId, { name: booking.customer.name, phone: booking.customer.phone });
      if (!contactId) return;
      await store.setContact(userId, booking._id, contactId);
      booking.customer = { ...booking.customer, contactId };
    } catch (error) {
      report('booking contact not linked', error);
    }
  }

  function checkDates(from: string, to: string, maxDays: number): void {
    if (!isCalendarDate(from) || !isCalendarDate(to) || to < from) throw new ValidationError(bookingMessages.rangeInvalid, 'from');
    if (daysBetween(from, to) + 1 > maxDays) throw new ValidationError(bookingMessages.rangeTooLong(maxDays), 'to');
  }

  const api: Bookings = {
    settings: settingsOf,

    async saveSettings(userId, input) {
      const parsed = valid(bookingSettingsRequest, input);
      const settings: BookingSettings = {
        ...parsed,
        slotStepMinutes: parsed.slotStepMinutes as BookingSettings['slotStepMinutes'],
        closures: withIds(parsed.closures),
        updatedAt: new Date(now()).toISOString(),
      };
      await store.saveSettings(userId, settings);
      return settings;
    },

    async listServices(userId) {
      const [services, staff] = await Promise.all([store.services(userId), store.staff(userId)]);
      const ids = new Set(staff.map((s) => s._id));
      return services.map((s) => toService(s, ids)).sort((a, b) => a.name.localeCompare(b.name, 'es', { sensitivity: 'base' }));
    },

    async getService(userId, id) {
      const [service, staff] = await Promise.all([loadService(userId, id), store.staff(userId)]);
      return toService(service, new Set(staff.map((s) => s._id)));
    },

    async createService(userId, input) {
      const parsed = valid(bookingServiceRequest, input);
      const staffIds = await checkedStaffIds(userId, parsed.staffIds);
      const at = new Date(now()).toISOString();
      const service: StoredService = { _id: newId(), ...parsed, staffIds, createdAt: at, updatedAt: at, version: 1 };
      const outcome = await store.createService(userId, service, BOOKING_LIMITS.servicesPerUser);
      if (outcome === 'tooMany') throw new ValidationError(bookingMessages.tooManyServices);
      if (outcome !== 'ok') throw new ConflictError(bookingMessages.serviceNameTaken, { field: 'name' });
      return toService(service, new Set(staffIds));
    },

    async updateService(userId, id, input) {
      const parsed = valid(bookingServiceRequest, input);
      const before = await loadService(userId, id);
      const staffIds = await checkedStaffIds(userId, parsed.staffIds);
      const next: StoredService = { ...before, ...parsed, staffIds, updatedAt: new Date(now()).toISOString(), version: before.version + 1 };
      const outcome = await store.replaceService(userId, before, next);
      if (outcome === 'duplicateName') throw new ConflictError(bookingMessages.serviceNameTaken, { field: 'name' });
      if (outcome === 'changed') throw new ConflictError(bookingMessages.changedMeanwhile);
      return toService(next, new Set(staffIds));
    },

    async deleteService(userId, id) {
      // Its bookings stay (they carry serviceName and price as booked).
      const service = await loadService(userId, id);
      if (!(await store.removeService(userId, service))) throw new ConflictError(bookingMessages.changedMeanwhile);
    },

    async listStaff(userId) {
      return (await store.staff(userId)).map(toStaff).sort((a, b) => a.name.localeCompare(b.name, 'es', { sensitivity: 'base' }));
    },

    async getStaff(userId, id) {
      return toStaff(await loadStaff(userId, id));
    },

    async createStaff(userId, input) {
      const parsed = valid(bookingStaffRequest, input);
      const at = new Date(now()).toISOString();
      const staff: StoredStaff = { _id: newId(), ...parsed, closures: withIds(parsed.closures), createdAt: at, updatedAt: at, version: 1 };
      const outcome = await store.createStaff(userId, staff, BOOKING_LIMITS.staffPerUser);
      if (outcome === 'tooMany') throw new ValidationError(bookingMessages.tooManyStaff);
      if (outcome !== 'ok') throw new ConflictError(bookingMessages.staffNameTaken, { field: 'name' });
      return toStaff(staff);
    },

    async updateStaff(userId, id, input) {
      const parsed = valid(bookingStaffRequest, input);
      const before = await loadStaff(userId, id);
      const next: StoredStaff = { ...before, ...parsed, closures: withIds(parsed.closures), updatedAt: new Date(now()).toISOString(), version: before.version + 1 };
      const outcome = await store.replaceStaff(userId, before, next);
      if (outcome === 'duplicateName') throw new ConflictError(bookingMessages.staffNameTaken, { field: 'name' });
      if (outcome === 'changed') throw new ConflictError(bookingMessages.changedMeanwhile);
      return toStaff(next);
    },

    async deleteStaff(userId, id) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const staff = await loadStaff(userId, id);
        const outcome = await store.removeStaff(userId, staff, now());
        if (outcome === 'ok') return;
        if (outcome !== 'changed') throw new ConflictError(bookingMessages.staffHasBookings(outcome.upcoming), { upcoming: outcome.upcoming });
      }
      throw new ConflictError(bookingMessages.changedMeanwhile);
    },

    async findSlots(userId, query: SlotQuery) {
      checkDates(query.from, query.to, BOOKING_LIMITS.availabilityDays);
      const [settings, service, account, allStaff] = await Promise.all([settingsOf(userId), loadService(userId, query.serviceId), deps.account(userId), store.staff(userId)]);
      if (query.forAgent && !service.bookableByAgent) throw new ValidationError(bookingMessages.notBookableByAgent, 'serviceId');
      const staff = await candidates(userId, service, query.staffId, allStaff);
      const zone = settings.timeZone;
      const limit = Math.max(1, Math.min(BOOKING_LIMITS.slots, Math.floor(query.limit ?? BOOKING_DEFAULTS.slots) || BOOKING_DEFAULTS.slots));
      const rules = { zone, now: now(), minNoticeMinutes: settings.minNoticeMinutes, maxAdvanceDays: settings.maxAdvanceDays };
      const { earliest, lastDate } = bookableWindow(rules);
      // Only the days the rules leave open are read (a past or too-far range reads nothing); the
      // first week first: most searches are answered by it, a full calendar reads the rest after.
      const firstDate = localOf(earliest, zone).date;
      const fromDate = query.from > firstDate ? query.from : firstDate;
      const toDate = query.to < lastDate ? query.to : lastDate;
      const occupied = (service.durationMinutes + service.bufferAfterMinutes) * MINUTE;
      const language = query.language ?? account.language;
      const out: BookingSlot[] = [];
      for (let windowFrom = fromDate; windowFrom <= toDate && out.length < limit; ) {
        const windowTo = out.length === 0 && windowFrom === fromDate && addDays(windowFrom, FIRST_WINDOW_DAYS - 1) < toDate ? addDays(windowFrom, FIRST_WINDOW_DAYS - 1) : toDate;
        const from = Math.max(localInstant(windowFrom, 0, zone), earliest);
        const to = localInstant(addDays(windowTo, 1), 0, zone) + occupied;
        const [busy, external] = await Promise.all([store.busy(userId, staff.map((s) => s._id), from, to), externalBusy(userId, staff, from, to)]);
        const slots = freeSlots({
          ...rules,
          slotStepMinutes: settings.slotStepMinutes,
          businessClosures: settings.closures,
          durationMinutes: service.durationMinutes,
          bufferAfterMinutes: service.bufferAfterMinutes,
          staff: staff.map(toStaff),
          busy: new Map(staff.map((s) => [s._id, [...(busy.get(s._id) ?? []), ...(external.get(s._id) ?? [])]])),
          from: windowFrom,
          to: windowTo,
          limit: limit - out.length,
        });
        for (const slot of slots) out.push({ start: iso(slot.start), end: iso(slot.end), staffId: slot.staffId, staffName: slot.staffName, label: slotLabel(slot.start, language, zone) });
        windowFrom = addDays(windowTo, 1);
      }
      return out;
    },

    async book(userId, input, actor) {
      const parsed = valid(bookingCreateRequest, input);
      const [settings, service, account, allStaff] = await Promise.all([settingsOf(userId), loadService(userId, parsed.serviceId), deps.account(userId), store.staff(userId)]);
      if (actor.by === 'agent' && !service.bookableByAgent) throw new ValidationError(bookingMessages.notBookableByAgent, 'serviceId');
      const start = checkStart(parsed.start, settings, actor);
      const staff = await candidates(userId, service, parsed.staffId, allStaff);
      const phone = customerPhone(parsed.customer, actor, account);
      const at = new Date(now()).toISOString();
      const id = newId();
      const booking = await place(userId, settings, staff, start, service.durationMinutes + service.bufferAfterMinutes, actor, null, (member) => ({
        _id: id,
        serviceId: service._id,
        serviceName: service.name,
        staffId: member._id,
        staffName: member.name,
        start: iso(start),
        end: iso(start + service.durationMinutes * MINUTE),
        timeZone: settings.timeZone,
        status: 'confirmed',
        customer: { name: parsed.customer.name, phone, contactId: null },
        channel: actor.channel,
        conversationId: actor.conversationId ?? null,
        callId: actor.callId ?? null,
        agentId: actor.agentId ?? null,
        bookedBy: actor.by,
        notes: parsed.notes,
        priceCents: service.priceCents,
        currency: currencyForCountry(account.country),
        createdAt: at,
        updatedAt: at,
        cancelledAt: null,
        version: 1,
        bufferAfterMinutes: service.bufferAfterMinutes,
      }));
      await linkContact(userId, booking);
      await tell(userId, { kind: 'created', booking, actor });
      return toBooking(booking);
    },

    async update(userId, id, input, actor) {
      const parsed = valid(bookingUpdateRequest, input);
      if (parsed.status === 'cancelled') {
        const cancelled = await api.cancel(userId, id, actor);
        if (parsed.notes === undefined || parsed.notes === cancelled.notes) return cancelled;
        return api.update(userId, id, { notes: parsed.notes }, actor);
      }
      const before = await loadBooking(userId, id, actor);
      const at = now();
      const stamp = { updatedAt: new Date(at).toISOString(), version: before.version + 1 };
      const moves = (parsed.start !== undefined && parsed.start !== before.start) || (parsed.staffId !== undefined && parsed.staffId !== before.staffId);
      const statusChanges = parsed.status !== undefined && parsed.status !== before.status;
      if (before.status === 'cancelled' && (moves || statusChanges)) throw new ValidationError(bookingMessages.notActive);
      if (statusChanges && actor.by === 'agent') throw new ValidationError(bookingMessages.statusInvalid, 'status');
      const notes = parsed.notes ?? before.notes;

      if (moves) {
        if (before.status !== 'confirmed' || Date.parse(before.start) <= at) throw new ValidationError(bookingMessages.notActive);
        if (statusChanges) throw new ValidationError(bookingMessages.statusInvalid, 'status');
        const settings = await settingsOf(userId);
        const start = parsed.start !== undefined ? checkStart(parsed.start, settings, actor) : Date.parse(before.start);
        const service = await store.service(userId, before.serviceId);
        if (actor.by === 'agent' && service && !service.bookableByAgent) throw new ValidationError(bookingMessages.notBookableByAgent, 'serviceId');
        const durationMinutes = (Date.parse(before.end) - Date.parse(before.start)) / MINUTE;
        // A deleted service keeps its bookings movable among the staff who held them.
        const staff = service ? await candidates(userId, service, parsed.staffId ?? before.staffId) : [await loadStaff(userId, parsed.staffId ?? before.staffId)];
        if (!service && staff[0]!._id !== before.staffId) throw new ValidationError(bookingMessages.staffCannotDoService, 'staffId');
        const after = await place(userId, settings, staff, start, durationMinutes + before.bufferAfterMinutes, actor, before, (member) => ({
          ...before,
          ...stamp,
          staffId: member._id,
          staffName: member.name,
          start: iso(start),
          end: iso(start + durationMinutes * MINUTE),
          timeZone: settings.timeZone,
          notes,
        }));
        await tell(userId, { kind: 'moved', booking: after, before, actor });
        return toBooking(after);
      }

      const after: StoredBooking = { ...before, ...stamp, status: parsed.status ?? before.status, notes };
      if (!statusChanges && notes === before.notes) return toBooking(before);
      const outcome = await store.writeBooking(userId, before, after);
      if (outcome === 'changed') throw new ConflictError(bookingMessages.changedMeanwhile);
      if (outcome !== 'ok') throw new ConflictError(bookingMessages.slotTaken);
      if (statusChanges) await tell(userId, { kind: 'status', booking: after, before, actor });
      return toBooking(after);
    },

    async cancel(userId, id, actor) {
      const before = await loadBooking(userId, id, actor);
      const at = now();
      if (before.status !== 'confirmed' || Date.parse(before.start) <= at) throw new ValidationError(bookingMessages.notActive);
      const iso_ = new Date(at).toISOString();
      const after: StoredBooking = { ...before, status: 'cancelled', cancelledAt: iso_, updatedAt: iso_, version: before.version + 1 };
      const outcome = await store.writeBooking(userId, before, after);
      if (outcome !== 'ok') throw new ConflictError(bookingMessages.changedMeanwhile);
      await tell(userId, { kind: 'cancelled', booking: after, before, actor });
      return toBooking(after);
    },

    async get(userId, id, actor?: BookingActor) {
      return toBooking(await loadBooking(userId, id, actor));
    },

    async list(userId, query: BookingListQuery): Promise<BookingList> {
      checkDates(query.from, query.to, BOOKING_LIMITS.listDays);
      let after: string | undefined;
      if (query.cursor !== undefined && query.cursor !== '') {
        after = Buffer.from(query.cursor, 'base64url').toString('utf8');
        if (!CURSOR_CONTENT.test(after)) throw new ValidationError(bookingMessages.rangeInvalid, 'cursor');
      }
      const limit = Math.max(1, Math.min(BOOKING_LIMITS.pageSize, Math.floor(query.limit ?? BOOKING_LIMITS.pageSize) || BOOKING_LIMITS.pageSize));
      const { timeZone } = await settingsOf(userId);
      const { bookings, more } = await store.list(userId, {
        from: iso(localInstant(query.from, 0, timeZone)),
        to: iso(localInstant(addDays(query.to, 1), 0, timeZone)),
        ...(after ? { after } : {}),
        ...(query.staffId ? { staffId: query.staffId } : {}),
        ...(query.status ? { status: query.status } : {}),
        limit,
      });
      const last = bookings.at(-1);
      return { bookings: bookings.map(toBooking), nextCursor: more && last ? Buffer.from(`${last.start}#${last._id}`).toString('base64url') : null };
    },

    async ofCustomer(userId, phone, options) {
      const at = now();
      const upcoming = (b: StoredBooking) => b.status === 'confirmed' && Date.parse(b.end) > at;
      const all = await store.ofCustomer(userId, phone);
      const first = all.filter(upcoming).sort((a, b) => a.start.localeCompare(b.start));
      const rest = options?.upcomingOnly ? [] : all.filter((b) => !upcoming(b)).sort((a, b) => b.start.localeCompare(a.start));
      return [...first, ...rest].map(toBooking);
    },
  };
  return api;

  async function checkedStaffIds(userId: string, ids: readonly string[]): Promise<string[]> {
    const known = new Set((await store.staff(userId)).map((s) => s._id));
    const unique = [...new Set(ids)];
    if (unique.some((id) => !known.has(id))) throw new ValidationError(bookingMessages.serviceStaffUnknown, 'staffIds');
    return unique;
  }
}
