/**
 * A small in-memory bookings core for the booking tools' unit tests (the Bookings interface of
 * domain/bookings/ports.ts): one business in Europe/Madrid, staff open Monday to Friday 09:00–14:00,
 * 30-minute steps, no overlap per staff member, bookings by phone. What the real core decides
 * beyond that (notice, closures, DST) is its own tests' business.
 */
import type { Booking, BookingService, BookingSettings, BookingSlot, BookingStaff } from '../../../src/contract/bookings.js';
import { bookingMessages } from '../../../src/contract/bookings.js';
import { localParts, whenLabel } from '../../../src/domain/agents/runtime/booking-tools.js';
import type { BookingActor, Bookings, SlotQuery } from '../../../src/domain/bookings/ports.js';
import { ConflictError, NotFoundError, ValidationError } from '../../../src/domain/errors.js';

const ZONE = 'Europe/Madrid';
const MINUTE = 60_000;
const at = '2026-11-01T00:00:00.000Z';

export const service = (over: Partial<BookingService> = {}): BookingService => ({
  _id: 'svc1',
  name: 'Limpieza dental',
  durationMinutes: 30,
  bufferAfterMinutes: 0,
  priceCents: 4000,
  staffIds: ['st1', 'st2'],
  bookableByAgent: true,
  createdAt: at,
  updatedAt: at,
  ...over,
});

export const staff = (over: Partial<BookingStaff> = {}): BookingStaff => ({
  _id: 'st1',
  name: 'Dra. García',
  kind: 'person',
  weeklyHours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
  closures: [],
  googleCalendarIds: [],
  createdAt: at,
  updatedAt: at,
  ...over,
});

/** Local "YYYY-MM-DDTHH:mm" in Madrid (or an instant with its offset) as epoch ms; NaN when malformed. */
function parseStart(text: string): number {
  if (/(Z|[+-]\d{2}:\d{2})$/.test(text)) return Date.parse(text);
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(text);
  if (!m) return Number.NaN;
  for (const offset of [60, 120]) {
    const ms = Date.parse(`${m[1]}T${m[2]}:00Z`) - offset * MINUTE;
    const local = localParts(ms, ZONE);
    if (local.date === m[1] && local.clock === m[2]) return ms;
  }
  return Number.NaN;
}

export class MemoryBookings implements Bookings {
  services: BookingService[] = [service(), service({ _id: 'svc2', name: 'Revisión', durationMinutes: 20, staffIds: ['st1'] }), service({ _id: 'svc3', name: 'Cirugía', bookableByAgent: false })];
  people: BookingStaff[] = [staff(), staff({ _id: 'st2', name: 'Dr. Pérez' })];
  bookings: Booking[] = [];
  actors: BookingActor[] = [];
  private seq = 0;
  /** Makes the next read fail (the booking system unreachable). */
  failNext = false;

  constructor(private readonly now: () => number) {}

  private check() {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('DynamoDB is down');
    }
  }

  async settings(): Promise<BookingSettings> {
    this.check();
    return {
      timeZone: ZONE,
      minNoticeMinutes: 0,
      maxAdvanceDays: 60,
      slotStepMinutes: 30,
      closures: [],
      remindersEnabled: true,
      reminderHours: 24,
      confirmationTemplate: null,
      reminderTemplate: null,
      emailOwner: false,
      updatedAt: null,
    };
  }
  saveSettings(): Promise<BookingSettings> {
    throw new Error('not used');
  }
  async listServices(): Promise<BookingService[]> {
    this.check();
    return this.services;
  }
  async getService(_u: string, id: string): Promise<BookingService> {
    const s = this.services.find((x) => x._id === id);
    if (!s) throw new NotFoundError(bookingMessages.serviceNotFound);
    return s;
  }
  createService(): Promise<BookingService> {
    throw new Error('not used');
  }
  updateService(): Promise<BookingService> {
    throw new Error('not used');
  }
  deleteService(): Promise<void> {
    throw new Error('not used');
  }
  async listStaff(): Promise<BookingStaff[]> {
    return this.people;
  }
  async getStaff(_u: string, id: string): Promise<BookingStaff> {
    const s = this.people.find((x) => x._id === id);
    if (!s) throw new NotFoundError(bookingMessages.staffNotFound);
    return s;
  }
  createStaff(): Promise<BookingStaff> {
    throw new Error('not used');
  }
  updateStaff(): Promise<BookingStaff> {
    throw new Error('not used');
  }
  deleteStaff(): Promise<void> {
    throw new Error('not used');
  }

  private free(staffId: string, start: number, end: number, except?: string): boolean {
    return !this.bookings.some((b) => b._id !== except && b.status === 'confirmed' && b.staffId === staffId && Date.parse(b.start) < end && start < Date.parse(b.end));
  }

  private open(start: number, minutes: number): boolean {
    const { date, clock } = localParts(start, ZONE);
    const day = new Date(`${date}T12:00:00Z`).getUTCDay();
    const end = localParts(start + minutes * MINUTE, ZONE);
    return day >= 1 && day <= 5 && clock >= '09:00' && end.date === date && end.clock <= '14:00' && /:(00|30)$/.test(clock);
  }

  async findSlots(_u: string, q: SlotQuery): Promise<BookingSlot[]> {
    const svc = await this.getService(_u, q.serviceId);
    if (q.forAgent && !svc.bookableByAgent) throw new ValidationError(bookingMessages.notBookableByAgent);
    const out: BookingSlot[] = [];
    const who = this.people.filter((p) => svc.staffIds.includes(p._id) && (!q.staffId || p._id === q.staffId));
    for (let day = Date.parse(`${q.from}T00:00:00Z`) - 2 * 3600_000; localParts(day, ZONE).date <= q.to && out.length < (q.limit ?? 5); day += 30 * MINUTE) {
      if (day <= this.now() || localParts(day, ZONE).date < q.from || !this.open(day, svc.durationMinutes)) continue;
      for (const p of who) {
        if (out.length >= (q.limit ?? 5)) break;
        const end = day + svc.durationMinutes * MINUTE;
        if (this.free(p._id, day, end)) out.push({ start: new Date(day).toISOString(), end: new Date(end).toISOString(), staffId: p._id, staffName: p.name, label: whenLabel(day, ZONE, q.language ?? 'es') });
      }
    }
    return out;
  }

  async book(userId: string, input: { serviceId: string; staffId?: string; start: string; customer: { name: string; phone: string }; notes?: string }, actor: BookingActor): Promise<Booking> {
    this.actors.push(actor);
    const svc = await this.getService(userId, input.serviceId);
    const start = parseStart(input.start);
    if (Number.isNaN(start)) throw new ValidationError(bookingMessages.startInvalid);
    if (start <= this.now()) throw new ValidationError(bookingMessages.inPast);
    if (!this.open(start, svc.durationMinutes)) throw new ValidationError(bookingMessages.outsideHours);
    const end = start + svc.durationMinutes * MINUTE;
    const who = this.people.filter((p) => svc.staffIds.includes(p._id) && (!input.staffId || p._id === input.staffId));
    const person = who.find((p) => this.free(p._id, start, end));
    if (!person) throw new ConflictError(bookingMessages.slotTaken);
    const b: Booking = {
      _id: `bk${++this.seq}`,
      serviceId: svc._id,
      serviceName: svc.name,
      staffId: person._id,
      staffName: person.name,
      start: new Date(start).toISOString(),
      end: new Date(end).toISOString(),
      timeZone: ZONE,
      status: 'confirmed',
      customer: { ...input.customer, contactId: null },
      channel: actor.channel,
      conversationId: actor.conversationId ?? null,
      callId: actor.callId ?? null,
      agentId: actor.agentId ?? null,
      bookedBy: actor.by,
      notes: input.notes ?? '',
      priceCents: svc.priceCents,
      currency: 'EUR',
      createdAt: at,
      updatedAt: at,
      cancelledAt: null,
    };
    this.bookings.push(b);
    return b;
  }

  async update(userId: string, id: string, input: { start?: string; staffId?: string }, actor: BookingActor): Promise<Booking> {
    this.actors.push(actor);
    const b = await this.get(userId, id);
    if (actor.by === 'agent' && b.customer.phone !== actor.customerPhone) throw new NotFoundError(bookingMessages.notFound);
    const start = input.start ? parseStart(input.start) : Date.parse(b.start);
    const minutes = (Date.parse(b.end) - Date.parse(b.start)) / MINUTE;
    if (!this.open(start, minutes)) throw new ValidationError(bookingMessages.outsideHours);
    const staffId = input.staffId ?? b.staffId;
    if (!this.free(staffId, start, start + minutes * MINUTE, b._id)) throw new ConflictError(bookingMessages.slotTaken);
    Object.assign(b, { start: new Date(start).toISOString(), end: new Date(start + minutes * MINUTE).toISOString(), staffId });
    return b;
  }

  async cancel(userId: string, id: string, actor: BookingActor): Promise<Booking> {
    this.actors.push(actor);
    const b = await this.get(userId, id);
    if (actor.by === 'agent' && b.customer.phone !== actor.customerPhone) throw new NotFoundError(bookingMessages.notFound);
    Object.assign(b, { status: 'cancelled', cancelledAt: at });
    return b;
  }

  async get(_u: string, id: string): Promise<Booking> {
    const b = this.bookings.find((x) => x._id === id);
    if (!b) throw new NotFoundError(bookingMessages.notFound);
    return b;
  }

  list(): Promise<{ bookings: Booking[]; nextCursor: string | null }> {
    throw new Error('not used');
  }

  async ofCustomer(_u: string, phone: string, options?: { upcomingOnly?: boolean }): Promise<Booking[]> {
    this.check();
    return this.bookings.filter((b) => b.customer.phone === phone && (!options?.upcomingOnly || (b.status === 'confirmed' && Date.parse(b.end) > this.now())));
  }
}
