/**
 * The agent's built-in booking tools (issue 30), offered when the agent's Bookings switch is on:
 * find_slots, book, find_my_bookings, reschedule, cancel_booking — over the bookings core
 * (domain/bookings/ports.ts Bookings), the same no-overlap rule as the owner's calendar.
 *
 * The customer is the channel's, never the model's: the phone comes from the turn (the WhatsApp
 * number, the caller id, the test chat's test customer), every booking is made for it, and a
 * booking of another phone is "not found". Changes need the customer's yes: book, reschedule and
 * cancel_booking take a required customer_confirmed that must be true (and the prompt tells the
 * model to read the slot back first). A slot taken between the offer and the booking answers
 * "no longer free" with the next free slots.
 *
 * Results are short English texts for the model (it answers in the customer's language); what
 * the customer hears are the slot labels in the business's language and zone. Codes the model
 * needs for the next call go in brackets, and the prompt says never to read them out.
 */
import { BOOKING_DEFAULTS, BOOKING_LIMITS, isCalendarDate, type Booking, type BookingService, type BookingSlot, type BookingStaff } from '../../../contract/bookings.js';
import { DomainError, NotFoundError } from '../../errors.js';
import type { ModelToolSpec } from '../../ai/ports.js';
import { slotLabel } from '../../bookings/labels.js';
import type { BookingActor, Bookings } from '../../bookings/ports.js';
import { addDays, clockOf, daysBetween, localOf } from '../../bookings/time.js';
import type { Channel } from './prompt.js';

export const FIND_SLOTS = 'find_slots';
export const BOOK = 'book';
export const FIND_MY_BOOKINGS = 'find_my_bookings';
export const RESCHEDULE = 'reschedule';
export const CANCEL_BOOKING = 'cancel_booking';

/** The channel's side of a turn with the booking tools (RunAgentInput.booking). */
export interface BookingTurn {
  bookings: Bookings;
  /** The customer's phone (E.164) as the channel knows it; null = unknown (a hidden caller id): nothing can be booked. */
  customerPhone: string | null;
  /** The name the channel knows (the WhatsApp profile name), a hint for the model; the booking's name is what the customer says. */
  customerName?: string | null;
  conversationId?: string | null;
  callId?: string | null;
  /** Awaited before a change (book, reschedule, cancel): false = the turn is not ours to act on (a streamed turn whose claim was refused). */
  gate?: () => Promise<boolean>;
}

/** What the tools of one turn work with: loaded once per turn (loadBookingContext). */
export interface BookingContext {
  turn: BookingTurn;
  userId: string;
  agentId: string;
  channel: Channel;
  /** 'es' or 'en' (labels and the prompt's calendar). */
  language: string;
  timeZone: string;
  /** Services the agent may book. */
  services: BookingService[];
  /** The customer's upcoming confirmed bookings (empty without a phone). */
  upcoming: Booking[];
  now: number;
  /** Staff, read when a tool first needs them. */
  staff?: Promise<BookingStaff[]>;
}

const str = (description: string) => ({ type: 'string', description });
const CONFIRMED = {
  type: 'boolean',
  description: 'true only after you read the details back to the customer and they clearly said yes in their last message',
};
const schema = (properties: Record<string, unknown>, required: string[]) => ({ type: 'object', properties, required, additionalProperties: false });

export const bookingToolSpecs: readonly ModelToolSpec[] = [
  {
    name: FIND_SLOTS,
    description:
      'Find the nearest free appointment times for a service (at most 5, soonest first). Use it before offering times: never offer a time it did not return.',
    parameters: schema(
      {
        service: str("The service, by its name as the business lists it (or its id)"),
        from: str('First day to look at, YYYY-MM-DD; turn what the customer says ("tomorrow", "next Tuesday") into a date using today\'s date'),
        to: str('Last day to look at, YYYY-MM-DD (the same as from for one day); absent = one week from `from`'),
        staff: str('Only with this staff member or room (name or id); absent = anyone who does the service'),
      },
      ['service', 'from'],
    ),
  },
  {
    name: BOOK,
    description:
      "Book an appointment for this customer (their phone is known from the channel). Only after the customer chose a time find_slots offered, you read it back (day, time, service, with whom) and they said yes.",
    parameters: schema(
      {
        start: str('The slot\'s start exactly as find_slots gave it (start=...)'),
        service: str('The service (name or id)'),
        staff: str('The staff member or room of the chosen slot (staff_id as find_slots gave it, or the name)'),
        customer_name: str("The customer's name, as they gave it"),
        customer_confirmed: CONFIRMED,
        notes: str('Anything the customer wants the business to know (optional)'),
      },
      ['start', 'service', 'customer_name', 'customer_confirmed'],
    ),
  },
  {
    name: FIND_MY_BOOKINGS,
    description: "This customer's upcoming appointments (found by their phone, known from the channel).",
    parameters: schema({}, []),
  },
  {
    name: RESCHEDULE,
    description:
      "Move one of this customer's appointments to another free time (find it with find_slots first). Only after you read the new time back and the customer said yes.",
    parameters: schema(
      {
        booking_id: str('The appointment, as find_my_bookings gave it (booking_id=...)'),
        start: str('The new start exactly as find_slots gave it'),
        staff: str('The staff member or room of the new slot (staff_id, or the name); absent = the same'),
        customer_confirmed: CONFIRMED,
      },
      ['booking_id', 'start', 'customer_confirmed'],
    ),
  },
  {
    name: CANCEL_BOOKING,
    description: "Cancel one of this customer's appointments. Only after you read it back and the customer said yes.",
    parameters: schema(
      {
        booking_id: str('The appointment, as find_my_bookings gave it (booking_id=...)'),
        customer_confirmed: CONFIRMED,
      },
      ['booking_id', 'customer_confirmed'],
    ),
  },
];

export const BOOKING_TOOLS: ReadonlySet<string> = new Set(bookingToolSpecs.map((s) => s.name));

/** Caller ids Twilio sends for a hidden number (anonymous, restricted, unavailable, blocked): no customer to book for. */
const HIDDEN_CALLER_IDS = new Set(['+266696687', '+86282452253', '+8656696', '+2562533']);

/**
 * The channel's phone as E.164 ('+' and 7 to 15 digits; a profile phone saved before issue 19 as
 * digits alone gets its '+'), or null: no phone, "anonymous", a hidden caller id.
 */
export function customerE164(phone: string | null | undefined): string | null {
  const compact = (phone ?? '').replace(/[\s().-]/g, '');
  const e164 = /^\+[1-9]\d{6,14}$/.test(compact) ? compact : /^[1-9]\d{6,14}$/.test(compact) ? `+${compact}` : null;
  return e164 && !HIDDEN_CALLER_IDS.has(e164) ? e164 : null;
}

// ------------------------------------------------------------------ time in words

/** The local date ("2026-12-01") and clock ("10:30") of an instant in the business's zone. */
export function localParts(at: number, zone: string): { date: string; clock: string } {
  const { date, minutes } = localOf(at, zone);
  return { date, clock: clockOf(minutes) };
}

/** "martes 1 de diciembre a las 10:30" / "Tuesday 1 December at 10:30", in the business's zone (the core's slot labels). */
export const whenLabel = (at: number, zone: string, language: string): string => slotLabel(at, language.slice(0, 2), zone);

const weekdayName = (date: string, language: string) =>
  new Intl.DateTimeFormat(language.toLowerCase().startsWith('es') ? 'es-ES' : 'en-GB', { timeZone: 'UTC', weekday: 'long' }).format(new Date(`${date}T12:00:00Z`));

// ------------------------------------------------------------------ context and prompt

/** Days of the prompt's little calendar (the model turns "el martes que viene" into a date with it). */
const CALENDAR_DAYS = 14;

/** The turn's booking context: the business's zone, its agent-bookable services, the customer's upcoming bookings. */
export async function loadBookingContext(input: {
  turn: BookingTurn;
  userId: string;
  agentId: string;
  channel: Channel;
  language: string;
  now: number;
}): Promise<BookingContext> {
  const { turn, userId } = input;
  const [settings, services, upcoming] = await Promise.all([
    turn.bookings.settings(userId),
    turn.bookings.listServices(userId),
    turn.customerPhone ? turn.bookings.ofCustomer(userId, turn.customerPhone, { upcomingOnly: true }) : Promise.resolve([]),
  ]);
  return {
    ...input,
    timeZone: settings.timeZone,
    services: services.filter((s) => s.bookableByAgent),
    upcoming: upcoming.filter((b) => b.status === 'confirmed'),
  };
}

const bookingLine = (b: Booking, ctx: Pick<BookingContext, 'timeZone' | 'language'>) =>
  `- ${b.serviceName}, ${whenLabel(Date.parse(b.start), b.timeZone || ctx.timeZone, ctx.language)}, ${ctx.language.startsWith('es') ? 'con' : 'with'} ${b.staffName} [booking_id=${b._id}]`;

const serviceLine = (s: BookingService) => `- ${s.name} (${s.durationMinutes} min) [service_id=${s._id}]`;

/** The system prompt's booking section: today, the services, the customer's upcoming bookings, the confirmation rule. */
export function bookingPrompt(ctx: BookingContext): string {
  const today = localParts(ctx.now, ctx.timeZone);
  const days = Array.from({ length: CALENDAR_DAYS }, (_, i) => {
    const date = addDays(today.date, i);
    return `${weekdayName(date, ctx.language)} ${date}`;
  });
  const parts = [
    `Appointments: you can find free times and book, move and cancel this customer's appointments with ${FIND_SLOTS}, ${BOOK}, ${FIND_MY_BOOKINGS}, ${RESCHEDULE} and ${CANCEL_BOOKING}.`,
    `Now it is ${today.date} ${today.clock} in the business's time zone (${ctx.timeZone}). The next days: ${days.join(', ')}.`,
    ctx.services.length > 0
      ? `Services that can be booked:\n${ctx.services.map(serviceLine).join('\n')}`
      : 'No service can be booked yet: say that appointments are not available here for now.',
    'How to book: ask which service and roughly when; call find_slots and offer its times in words; when the customer chooses one, read it back ' +
      `(day, time, service, with whom) and ask them to confirm; call ${BOOK} with customer_confirmed=true only after they say yes. ` +
      `The same for ${RESCHEDULE} and ${CANCEL_BOOKING}: read the appointment back, and act only after a yes. Ask for the customer's name before booking if you do not know it. ` +
      "Never read out the codes in square brackets; they are for the tools. Never offer a time find_slots did not return.",
  ];
  if (!ctx.turn.customerPhone) {
    parts.push("The customer's phone number is unknown here, so nothing can be booked, moved or cancelled for them: offer free times, and say they can book by writing or calling from their own phone.");
  } else {
    if (ctx.turn.customerName?.trim()) parts.push(`The customer's profile name: ${ctx.turn.customerName.trim()} (ask if it is the name to book under).`);
    parts.push(
      ctx.upcoming.length > 0
        ? `This customer's upcoming appointments (a message like "I can't come" or "cancel" is most likely about one of them):\n${ctx.upcoming.map((b) => bookingLine(b, ctx)).join('\n')}`
        : 'This customer has no upcoming appointments.',
    );
  }
  return parts.join('\n');
}

// ------------------------------------------------------------------ the tools

export interface BookingToolOutcome {
  ok: boolean;
  text: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const fold = (s: string) => s.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/** One of `items` by id, exact name, or a name containing the words (accents and case ignored); ambiguous or none → null. */
function pick<T extends { _id: string; name: string }>(items: readonly T[], wanted: string): T | null {
  const byId = items.find((i) => i._id === wanted);
  if (byId) return byId;
  const w = fold(wanted);
  const exact = items.filter((i) => fold(i.name) === w);
  if (exact.length === 1) return exact[0]!;
  const partial = items.filter((i) => fold(i.name).includes(w) || w.includes(fold(i.name)));
  return partial.length === 1 ? partial[0]! : null;
}

const actorOf = (ctx: BookingContext): BookingActor => ({
  by: 'agent',
  channel: ctx.channel,
  conversationId: ctx.turn.conversationId ?? null,
  callId: ctx.turn.callId ?? null,
  agentId: ctx.agentId,
  customerPhone: ctx.turn.customerPhone ?? undefined,
});

const slotLine = (s: BookingSlot, ctx: BookingContext) => {
  const { date, clock } = localParts(Date.parse(s.start), ctx.timeZone);
  return `- ${s.label}, ${ctx.language.startsWith('es') ? 'con' : 'with'} ${s.staffName} [start=${date}T${clock} staff_id=${s.staffId}]`;
};

const NO_PHONE = "Not done: the customer's phone number is unknown on this channel, so nothing can be booked, moved or cancelled for them. Tell them they can book by writing or calling from their own phone.";
const CONFIRM_FIRST = (what: string) =>
  `Not done: the customer has not confirmed. Read ${what} back to the customer and ask them to confirm; call again with customer_confirmed=true only after they say yes.`;
const missing = (names: string[]) => `Missing required parameter${names.length > 1 ? 's' : ''}: ${names.join(', ')}.`;

/** Runs one booking tool call. Never throws: every failure is a text the model can act on. */
export async function runBookingTool(ctx: BookingContext, name: string, args: Record<string, unknown>): Promise<BookingToolOutcome> {
  try {
    switch (name) {
      case FIND_SLOTS:
        return await findSlots(ctx, args);
      case BOOK:
        return await book(ctx, args);
      case FIND_MY_BOOKINGS:
        return await findMine(ctx);
      case RESCHEDULE:
        return await reschedule(ctx, args);
      case CANCEL_BOOKING:
        return await cancel(ctx, args);
      default:
        return { ok: false, text: `Unknown tool ${name}.` };
    }
  } catch (error) {
    // The core's own refusals are texts for the customer's situation; anything else is ours.
    if (error instanceof DomainError && error.status < 500) return { ok: false, text: `Not done: ${error.message}.` };
    return { ok: false, text: 'The booking system could not be reached just now. Apologise and offer to try again in a moment, or to pass the customer to a person.' };
  }
}

function serviceOf(ctx: BookingContext, wanted: string): { service: BookingService } | { error: string } {
  const service = wanted ? pick(ctx.services, wanted) : null;
  if (service) return { service };
  if (ctx.services.length === 0) return { error: 'No service can be booked yet. Tell the customer appointments are not available here for now.' };
  return { error: `No single service matches "${wanted}". The services are: ${ctx.services.map((s) => s.name).join(', ')}. Ask the customer which one.` };
}

async function staffOf(ctx: BookingContext, wanted: string, service: BookingService): Promise<{ staffId?: string } | { error: string }> {
  if (!wanted) return {};
  ctx.staff ??= ctx.turn.bookings.listStaff(ctx.userId);
  const all = (await ctx.staff).filter((s) => service.staffIds.includes(s._id));
  const found = pick(all, wanted);
  if (found) return { staffId: found._id };
  return { error: `Nobody called "${wanted}" does ${service.name}. Who does it: ${all.map((s) => s.name).join(', ') || 'nobody yet'}.` };
}

/** Free slots from `from` (today at the earliest) for `days` days. */
async function slotsFrom(ctx: BookingContext, service: BookingService, from: string, to: string, staffId?: string): Promise<BookingSlot[]> {
  return ctx.turn.bookings.findSlots(ctx.userId, {
    serviceId: service._id,
    from,
    to,
    ...(staffId ? { staffId } : {}),
    limit: BOOKING_DEFAULTS.slots,
    forAgent: true,
    language: ctx.language,
  });
}

/** The next free slots of a service from a day on (the "no longer free" fallback). */
async function nextSlots(ctx: BookingContext, service: BookingService, fromDate: string, staffId?: string): Promise<string> {
  const today = localParts(ctx.now, ctx.timeZone).date;
  const from = fromDate < today ? today : fromDate;
  const slots = await slotsFrom(ctx, service, from, addDays(from, 13), staffId).catch(() => [] as BookingSlot[]);
  return slots.length > 0
    ? `The nearest free times now:\n${slots.map((s) => slotLine(s, ctx)).join('\n')}\nOffer these to the customer.`
    : 'There are no free times in the next two weeks: offer to look at other days.';
}

async function findSlots(ctx: BookingContext, args: Record<string, unknown>): Promise<BookingToolOutcome> {
  const wanted = text(args.service);
  let from = text(args.from);
  const absent = [!wanted && 'service', !from && 'from'].filter((n): n is string => Boolean(n));
  if (absent.length > 0) return { ok: false, text: missing(absent) };
  let to = text(args.to) || '';
  if (!isCalendarDate(from) || (to !== '' && !isCalendarDate(to))) return { ok: false, text: 'Invalid dates: write from and to as YYYY-MM-DD.' };
  const found = serviceOf(ctx, wanted);
  if ('error' in found) return { ok: false, text: found.error };
  const staff = await staffOf(ctx, text(args.staff), found.service);
  if ('error' in staff) return { ok: false, text: staff.error };
  const today = localParts(ctx.now, ctx.timeZone).date;
  if (to === '') to = addDays(from, 6);
  if (to < today) return { ok: false, text: `Those days have passed: today is ${today}.` };
  if (from < today) from = today;
  if (to < from) [from, to] = [to, from];
  if (daysBetween(from, to) >= BOOKING_LIMITS.availabilityDays) to = addDays(from, BOOKING_LIMITS.availabilityDays - 1);
  const slots = await slotsFrom(ctx, found.service, from, to, staff.staffId);
  const service = `${found.service.name} (${found.service.durationMinutes} min)`;
  if (slots.length === 0) {
    return { ok: true, text: `No free times for ${service} from ${from} to ${to}. ${await nextSlots(ctx, found.service, addDays(to, 1), staff.staffId)}` };
  }
  return {
    ok: true,
    text: `Free times for ${service} [service_id=${found.service._id}], soonest first:\n${slots.map((s) => slotLine(s, ctx)).join('\n')}\nOffer them in words; book only after the customer chose one and confirmed it.`,
  };
}

/** The customer's own booking by id (another phone's booking is "not found", as an unknown id). */
async function ownBooking(ctx: BookingContext, id: string): Promise<Booking | null> {
  if (!id || !ctx.turn.customerPhone) return null;
  const mine = await ctx.turn.bookings.ofCustomer(ctx.userId, ctx.turn.customerPhone, { upcomingOnly: true });
  return mine.find((b) => b._id === id) ?? null;
}

const NOT_FOUND = `No appointment of this customer has that booking_id. Call ${FIND_MY_BOOKINGS} to see their appointments.`;

async function allowed(ctx: BookingContext): Promise<boolean> {
  return ctx.turn.gate ? ctx.turn.gate() : true;
}

const confirmed = (args: Record<string, unknown>) => args.customer_confirmed === true || args.customer_confirmed === 'true';

async function book(ctx: BookingContext, args: Record<string, unknown>): Promise<BookingToolOutcome> {
  const start = text(args.start);
  const wanted = text(args.service);
  const name = text(args.customer_name);
  const absent = [!start && 'start', !wanted && 'service', !name && 'customer_name'].filter((n): n is string => Boolean(n));
  if (absent.length > 0) return { ok: false, text: `${missing(absent)}${!name ? " Ask the customer for their name." : ''}` };
  if (!ctx.turn.customerPhone) return { ok: false, text: NO_PHONE };
  if (!confirmed(args)) return { ok: false, text: CONFIRM_FIRST('the day, time and service') };
  const found = serviceOf(ctx, wanted);
  if ('error' in found) return { ok: false, text: found.error };
  const staff = await staffOf(ctx, text(args.staff), found.service);
  if ('error' in staff) return { ok: false, text: staff.error };
  if (!(await allowed(ctx))) return { ok: false, text: 'Not done: this turn was interrupted.' };
  try {
    const booking = await ctx.turn.bookings.book(
      ctx.userId,
      {
        serviceId: found.service._id,
        ...(staff.staffId ? { staffId: staff.staffId } : {}),
        start,
        customer: { name, phone: ctx.turn.customerPhone },
        notes: text(args.notes).slice(0, BOOKING_LIMITS.notes),
      },
      actorOf(ctx),
    );
    ctx.upcoming = [...ctx.upcoming, booking];
    return { ok: true, text: `Booked: ${booking.serviceName}, ${whenLabel(Date.parse(booking.start), booking.timeZone, ctx.language)}, with ${booking.staffName}, for ${booking.customer.name} [booking_id=${booking._id}]. Tell the customer it is booked.` };
  } catch (error) {
    return refusedChange(ctx, error, found.service, start, staff.staffId);
  }
}

/** A refused book or move: the reason, and the next free slots when the time itself was the problem. */
async function refusedChange(ctx: BookingContext, error: unknown, service: BookingService, start: string, staffId?: string): Promise<BookingToolOutcome> {
  if (!(error instanceof DomainError) || error.status >= 500 || error instanceof NotFoundError) throw error;
  const day = /^\d{4}-\d{2}-\d{2}/.exec(start)?.[0] ?? localParts(ctx.now, ctx.timeZone).date;
  const reason = error.status === 409 ? 'That time is no longer free.' : `Not done: ${error.message}.`;
  return { ok: false, text: `${reason} ${await nextSlots(ctx, service, isCalendarDate(day) ? day : localParts(ctx.now, ctx.timeZone).date, staffId)}` };
}

async function findMine(ctx: BookingContext): Promise<BookingToolOutcome> {
  if (!ctx.turn.customerPhone) return { ok: false, text: NO_PHONE };
  const mine = (await ctx.turn.bookings.ofCustomer(ctx.userId, ctx.turn.customerPhone, { upcomingOnly: true })).filter((b) => b.status === 'confirmed');
  if (mine.length === 0) return { ok: true, text: 'This customer has no upcoming appointments.' };
  return { ok: true, text: `This customer's upcoming appointments:\n${mine.map((b) => bookingLine(b, ctx)).join('\n')}` };
}

async function reschedule(ctx: BookingContext, args: Record<string, unknown>): Promise<BookingToolOutcome> {
  const id = text(args.booking_id);
  const start = text(args.start);
  const absent = [!id && 'booking_id', !start && 'start'].filter((n): n is string => Boolean(n));
  if (absent.length > 0) return { ok: false, text: missing(absent) };
  if (!ctx.turn.customerPhone) return { ok: false, text: NO_PHONE };
  const booking = await ownBooking(ctx, id);
  if (!booking) return { ok: false, text: NOT_FOUND };
  if (!confirmed(args)) return { ok: false, text: CONFIRM_FIRST('the appointment and its new day and time') };
  const service = ctx.services.find((s) => s._id === booking.serviceId);
  let staffId: string | undefined;
  if (text(args.staff) && service) {
    const staff = await staffOf(ctx, text(args.staff), service);
    if ('error' in staff) return { ok: false, text: staff.error };
    staffId = staff.staffId;
  }
  if (!(await allowed(ctx))) return { ok: false, text: 'Not done: this turn was interrupted.' };
  try {
    const moved = await ctx.turn.bookings.update(ctx.userId, booking._id, { start, ...(staffId ? { staffId } : {}) }, actorOf(ctx));
    ctx.upcoming = ctx.upcoming.map((b) => (b._id === moved._id ? moved : b));
    return { ok: true, text: `Moved: ${moved.serviceName} is now ${whenLabel(Date.parse(moved.start), moved.timeZone, ctx.language)}, with ${moved.staffName} [booking_id=${moved._id}]. Tell the customer.` };
  } catch (error) {
    if (!service) throw error;
    return refusedChange(ctx, error, service, start, staffId);
  }
}

async function cancel(ctx: BookingContext, args: Record<string, unknown>): Promise<BookingToolOutcome> {
  const id = text(args.booking_id);
  if (!id) return { ok: false, text: missing(['booking_id']) };
  if (!ctx.turn.customerPhone) return { ok: false, text: NO_PHONE };
  const booking = await ownBooking(ctx, id);
  if (!booking) return { ok: false, text: NOT_FOUND };
  if (!confirmed(args)) return { ok: false, text: CONFIRM_FIRST('the appointment to cancel (service, day and time)') };
  if (!(await allowed(ctx))) return { ok: false, text: 'Not done: this turn was interrupted.' };
  const cancelled = await ctx.turn.bookings.cancel(ctx.userId, booking._id, actorOf(ctx));
  ctx.upcoming = ctx.upcoming.filter((b) => b._id !== cancelled._id);
  return { ok: true, text: `Cancelled: ${cancelled.serviceName}, ${whenLabel(Date.parse(cancelled.start), cancelled.timeZone, ctx.language)}. Tell the customer it is cancelled.` };
}
