/**
 * Bookings (issue 30): the calendar AgentDesk keeps for a business — services, staff or rooms
 * with their weekly hours and closures, the booking rules, and the bookings themselves — that the
 * agent books, moves and cancels on WhatsApp, on the phone and in the test chat, and the owner
 * manages on the calendar page. Browser-safe: no Node imports.
 *
 * Times: a booking's start and end are stored in UTC (ISO 8601, `Z`) beside the business's IANA
 * time zone; opening hours and closures are local wall-clock times and dates in that zone, so a
 * 09:00 opening stays 09:00 across the DST changes. Every length is whole minutes, a multiple of
 * 5, and every start lies on a 5-minute boundary of the local clock.
 */
import * as z from 'zod/mini';
import './zod-locale.js';

export const BOOKING_LIMITS = {
  serviceName: 80,
  staffName: 80,
  closureReason: 120,
  notes: 1000,
  customerName: 120,
  /** As typed (spaces, a prefix or none): E.164 is at most 16. */
  customerPhone: 40,
  servicesPerUser: 100,
  staffPerUser: 50,
  /** Opening ranges in one weekday (morning and afternoon, a split shift…). */
  rangesPerDay: 6,
  /** Closures of the business, and of each staff member. */
  closures: 100,
  /** A closure covers at most this many days (a long leave is two closures). */
  closureDays: 366,
  minDurationMinutes: 5,
  /** A service with its buffer fits in one working day. */
  maxDurationMinutes: 720,
  maxBufferMinutes: 240,
  maxMinNoticeMinutes: 30 * 24 * 60,
  maxAdvanceDays: 365,
  slotSteps: [5, 10, 15, 30] as const,
  /** Slots one find_slots call or availability request returns at most. */
  slots: 20,
  /** Days one availability request may span (three months). */
  availabilityDays: 93,
  /** Days one bookings list request may span. */
  listDays: 93,
  pageSize: 100,
  reminderHours: { min: 1, max: 168 },
  /** Google calendars whose busy times count, per staff member or for the business. */
  googleCalendars: 10,
  /** Price in cents (of the account's currency). */
  maxPriceCents: 10_000_000,
} as const;

export const BOOKING_DEFAULTS = {
  minNoticeMinutes: 120,
  maxAdvanceDays: 60,
  slotStepMinutes: 15,
  reminderHours: 24,
  remindersEnabled: true,
  emailOwner: false,
  /** find_slots answers this many when the model does not say. */
  slots: 5,
} as const;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Local wall-clock range, "HH:mm"–"HH:mm", end after start (24:00 allowed as an end). */
export interface TimeRange {
  start: string;
  end: string;
}
export type WeeklyHours = Record<Weekday, TimeRange[]>;

/** Local dates, both included ("2026-12-24" to "2026-12-26"). */
export interface Closure {
  _id: string;
  from: string;
  to: string;
  reason: string;
}

export interface WhatsAppTemplateChoice {
  name: string;
  language: string;
}

/** GET/PUT /api/bookings/settings: the business's booking rules. */
export interface BookingSettings {
  /** IANA zone; defaults to the account's time zone. */
  timeZone: string;
  minNoticeMinutes: number;
  maxAdvanceDays: number;
  slotStepMinutes: (typeof BOOKING_LIMITS.slotSteps)[number];
  /** The business's own closures (holidays): no staff member is bookable then. */
  closures: Closure[];
  remindersEnabled: boolean;
  reminderHours: number;
  /** Approved templates for a confirmation or a reminder outside WhatsApp's 24-hour window; null = none (then not sent outside it). */
  confirmationTemplate: WhatsAppTemplateChoice | null;
  reminderTemplate: WhatsAppTemplateChoice | null;
  /** An e-mail to the owner for every booking the agent makes, moves or cancels. */
  emailOwner: boolean;
  updatedAt: string | null;
}

export interface BookingService {
  _id: string;
  name: string;
  durationMinutes: number;
  bufferAfterMinutes: number;
  /** Cents of the account's currency; null = no price shown. */
  priceCents: number | null;
  /** Who can do it (staff or rooms); at least one. */
  staffIds: string[];
  /** false: only the owner books it (the agent does not offer it). */
  bookableByAgent: boolean;
  createdAt: string;
  updatedAt: string;
}

export const STAFF_KINDS = ['person', 'room'] as const;
export type StaffKind = (typeof STAFF_KINDS)[number];

export interface BookingStaff {
  _id: string;
  name: string;
  kind: StaffKind;
  weeklyHours: WeeklyHours;
  closures: Closure[];
  /** Google calendars (ids) whose busy times block this staff member (issue 30, Google Calendar connection). */
  googleCalendarIds: string[];
  createdAt: string;
  updatedAt: string;
}

export const BOOKING_STATUSES = ['confirmed', 'cancelled', 'completed', 'no_show'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const BOOKING_CHANNELS = ['whatsapp', 'voice', 'chat', 'dashboard', 'api'] as const;
export type BookingChannel = (typeof BOOKING_CHANNELS)[number];

export interface BookingCustomer {
  name: string;
  /** E.164, in the account's country format when written without a prefix. */
  phone: string;
  /** The contact directory entry (found by phone, created when new). */
  contactId: string | null;
  /**
   * Issue 33: the customer's data was erased at their request (name and phone are then ''): the
   * booking stays for the calendar and the figures; the app shows "Data erased" / "Datos borrados".
   */
  erased?: boolean;
}

export interface Booking {
  _id: string;
  serviceId: string;
  /** As when booked (a renamed or deleted service keeps its bookings readable). */
  serviceName: string;
  staffId: string;
  staffName: string;
  /** UTC ISO instants; end excludes the buffer. */
  start: string;
  end: string;
  timeZone: string;
  status: BookingStatus;
  customer: BookingCustomer;
  channel: BookingChannel;
  /** Where it was booked: the WhatsApp conversation or the call (null from the dashboard or the API). */
  conversationId: string | null;
  callId: string | null;
  agentId: string | null;
  bookedBy: 'agent' | 'owner' | 'api';
  notes: string;
  priceCents: number | null;
  currency: string;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
}

/**
 * What the customer was told about a booking on WhatsApp (issue 30, the booking-events worker):
 * each change's confirmation and the reminder, with how it ended. `reason` (not_sent) and `error`
 * (failed: WhatsApp's words) say why one did not go out; the UI words the reason.
 */
export const BOOKING_CUSTOMER_MESSAGE_KINDS = ['created', 'moved', 'cancelled', 'reminder'] as const;
export type BookingCustomerMessageKind = (typeof BOOKING_CUSTOMER_MESSAGE_KINDS)[number];
export const BOOKING_CUSTOMER_MESSAGE_REASONS = [
  /** No WhatsApp number connected. */
  'whatsapp_not_connected',
  /** The customer has no phone WhatsApp can reach. */
  'no_whatsapp_number',
  /** Outside the 24-hour window and no template chosen in the booking settings. */
  'no_template',
  /** The chosen template is not among the approved ones (deleted, renamed, paused) or needs other parameters. */
  'template_not_approved',
  /** The plan's messages are used up. */
  'plan_limit',
  /** Issue 33: the customer wrote a stop word ("BAJA", "STOP") or the owner marked them: no reminders or confirmations. */
  'opted_out',
] as const;
export type BookingCustomerMessageReason = (typeof BOOKING_CUSTOMER_MESSAGE_REASONS)[number];
export interface BookingCustomerMessage {
  kind: BookingCustomerMessageKind;
  state: 'sending' | 'sent' | 'not_sent' | 'failed';
  reason: BookingCustomerMessageReason | null;
  error: string | null;
  /** A free text inside the 24-hour window, else the chosen template. */
  via: 'text' | 'template' | null;
  conversationId: string | null;
  at: string;
}

/** A free slot (availability and find_slots). */
export interface BookingSlot {
  start: string;
  end: string;
  staffId: string;
  staffName: string;
  /** The slot in words, in the account's language and zone: "martes 3 de diciembre a las 10:30". */
  label: string;
}

export interface BookingList {
  bookings: Booking[];
  nextCursor: string | null;
}

/**
 * GET /api/bookings/calendar-feed: the private iCalendar feed URLs (a secret token each), the
 * business's first, then one per staff member. A feed URL is a credential: like an API key it is
 * shown whole only in the answer of POST (create or rotate); GET shows it masked.
 */
export interface CalendarFeed {
  /** null = no feed (never created or revoked); masked ("…/calendar-feeds/••••k3Zq") unless `masked` is false. */
  url: string | null;
  /** true in GET (the token's last 4 characters only); false in POST's answer, the one time it is shown whole. */
  masked: boolean;
  staffId: string | null;
  /** The staff member's name (null: the whole business). */
  staffName: string | null;
  createdAt: string | null;
}

export const bookingMessages = {
  notObject: 'Send a JSON object',
  unknownField: (name: string) => `Unknown field: ${name.length > 40 ? `${name.slice(0, 40)}…` : name}`,
  // settings
  timeZoneInvalid: 'Choose a valid time zone',
  minNoticeInvalid: `Minimum notice must be a whole number of minutes between 0 and ${BOOKING_LIMITS.maxMinNoticeMinutes}`,
  maxAdvanceInvalid: `How far ahead must be a whole number of days between 1 and ${BOOKING_LIMITS.maxAdvanceDays}`,
  slotStepInvalid: 'Slot step must be 5, 10, 15 or 30 minutes',
  reminderHoursInvalid: `Reminder time must be a whole number of hours between ${BOOKING_LIMITS.reminderHours.min} and ${BOOKING_LIMITS.reminderHours.max}`,
  templateInvalid: 'Choose an approved WhatsApp template',
  booleanInvalid: 'Must be true or false',
  settingsSaved: 'Booking settings saved',
  // hours and closures
  timeInvalid: 'Times must be written as HH:MM (00:00 to 24:00, in 5-minute steps)',
  rangeOrder: 'Each range must end after it starts',
  rangesOverlap: 'Opening ranges of one day must not overlap',
  tooManyRanges: `At most ${BOOKING_LIMITS.rangesPerDay} opening ranges a day`,
  dateInvalid: 'Dates must be written as YYYY-MM-DD',
  closureOrder: 'A closure must end on or after the day it starts',
  closureTooLong: `A closure covers at most ${BOOKING_LIMITS.closureDays} days`,
  closureReasonTooLong: `Reason must be ${BOOKING_LIMITS.closureReason} characters or less`,
  tooManyClosures: `At most ${BOOKING_LIMITS.closures} closures`,
  // services
  serviceNameRequired: 'Service name is required',
  serviceNameTooLong: `Service name must be ${BOOKING_LIMITS.serviceName} characters or less`,
  serviceNameTaken: 'A service with this name already exists',
  durationInvalid: `Duration must be a multiple of 5 minutes between ${BOOKING_LIMITS.minDurationMinutes} and ${BOOKING_LIMITS.maxDurationMinutes}`,
  bufferInvalid: `Buffer must be a multiple of 5 minutes between 0 and ${BOOKING_LIMITS.maxBufferMinutes}`,
  priceInvalid: 'Price must be a positive amount',
  serviceStaffRequired: 'Choose at least one staff member or room for this service',
  serviceStaffUnknown: 'One of the chosen staff members or rooms does not exist',
  tooManyServices: `You can have at most ${BOOKING_LIMITS.servicesPerUser} services`,
  serviceNotFound: 'Service not found',
  serviceCreated: 'Service created',
  serviceUpdated: 'Service updated',
  serviceDeleted: 'Service deleted',
  // staff
  staffNameRequired: 'Name is required',
  staffNameTooLong: `Name must be ${BOOKING_LIMITS.staffName} characters or less`,
  staffNameTaken: 'A staff member or room with this name already exists',
  staffKindInvalid: 'Choose person or room',
  tooManyStaff: `You can have at most ${BOOKING_LIMITS.staffPerUser} staff members and rooms`,
  staffNotFound: 'Staff member or room not found',
  staffHasBookings: (count: number | string) =>
    `This staff member has ${count} upcoming booking(s): move or cancel them before deleting`,
  staffCreated: 'Staff member saved',
  staffUpdated: 'Staff member updated',
  staffDeleted: 'Staff member deleted',
  // bookings
  startInvalid: 'Start must be a date and time (YYYY-MM-DDTHH:MM)',
  rangeInvalid: 'Give a from and a to date (YYYY-MM-DD), to on or after from',
  rangeTooLong: (days: number | string) => `Choose at most ${days} days at a time`,
  customerNameRequired: 'Customer name is required',
  customerNameTooLong: `Customer name must be ${BOOKING_LIMITS.customerName} characters or less`,
  customerPhoneInvalid: 'Enter a valid phone number',
  notesTooLong: `Notes must be ${BOOKING_LIMITS.notes} characters or less`,
  statusInvalid: 'Status must be confirmed, cancelled, completed or no-show',
  serviceRequired: 'Choose a service',
  staffCannotDoService: 'This staff member or room does not do this service',
  noStaffForService: 'No staff member or room can do this service yet',
  notBookableByAgent: 'This service is booked by the business only',
  inPast: 'This time has already passed',
  tooSoon: (minutes: number | string) => `Bookings need at least ${minutes} minutes' notice`,
  tooFarAhead: (days: number | string) => `Bookings can be made at most ${days} days ahead`,
  offStep: 'Start times must be on a 5-minute step',
  outsideHours: 'This time is outside the opening hours',
  closed: 'The business or this staff member is closed on that day',
  slotTaken: 'This time is no longer free: choose another one',
  busyInCalendar: 'This time is busy in the connected Google Calendar',
  notFound: 'Booking not found',
  notActive: 'This booking is cancelled or already past: it cannot be changed',
  created: 'Booking created',
  updated: 'Booking updated',
  cancelled: 'Booking cancelled',
  changedMeanwhile: 'This booking was changed at the same time: try again',
  // calendar feed and Google Calendar
  feedCreated: 'Calendar feed link created',
  feedRevoked: 'Calendar feed link revoked',
  feedNotFound: 'This calendar link does not exist or was revoked',
  googleNotConfigured: 'Google Calendar is not set up on this server',
  googleStateInvalid: 'This Google Calendar connection link has expired or was already used: connect again',
  googleFailed: 'Google Calendar could not be connected: please try again',
  googleSaved: 'Google Calendar choices saved',
  googleNotConnected: 'Google Calendar is not connected',
  googleConnected: 'Google Calendar connected',
  googleDisconnected: 'Google Calendar disconnected',
  googleDenied: 'Google Calendar was not connected: access was not granted',
  googleCalendarUnknown: 'One of the chosen calendars is not in the connected Google account',
} as const;

// ------------------------------------------------------------------ shared field checks

const clock = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;
/** Minutes since local midnight of "HH:mm" (24:00 = 1440); NaN when malformed. */
export function minutesOfClock(text: string): number {
  if (!clock.test(text)) return Number.NaN;
  const [h, m] = text.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar date "YYYY-MM-DD" (not 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  if (!isoDate.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

const strictError = (issue: { code?: string; keys?: string[] }) => {
  if (issue.code === 'unrecognized_keys') return bookingMessages.unknownField(issue.keys?.[0] ?? '');
  if (issue.code === 'invalid_type') return bookingMessages.notObject;
  return undefined;
};

const wholeIn = (min: number, max: number, step: number, message: string) =>
  z.number({ error: message }).check(z.refine((n) => Number.isInteger(n) && n >= min && n <= max && n % step === 0, message));

const rangeField = z
  .strictObject(
    {
      start: z.string({ error: bookingMessages.timeInvalid }).check(z.refine((t) => minutesOfClock(t) % 5 === 0 && minutesOfClock(t) < 1440, bookingMessages.timeInvalid)),
      end: z.string({ error: bookingMessages.timeInvalid }).check(z.refine((t) => minutesOfClock(t) % 5 === 0 && minutesOfClock(t) > 0, bookingMessages.timeInvalid)),
    },
    { error: strictError },
  )
  .check(z.refine((r) => minutesOfClock(r.end) > minutesOfClock(r.start), bookingMessages.rangeOrder));

const dayRanges = z.array(rangeField, { error: bookingMessages.timeInvalid }).check(
  z.maxLength(BOOKING_LIMITS.rangesPerDay, bookingMessages.tooManyRanges),
  z.refine((ranges) => {
    const sorted = [...ranges].sort((a, b) => minutesOfClock(a.start) - minutesOfClock(b.start));
    return sorted.every((r, i) => i === 0 || minutesOfClock(r.start) >= minutesOfClock(sorted[i - 1]!.end));
  }, bookingMessages.rangesOverlap),
);

export const weeklyHoursField = z.strictObject(Object.fromEntries(WEEKDAYS.map((d) => [d, dayRanges])) as Record<Weekday, typeof dayRanges>, {
  error: strictError,
});

const dayDiff = (from: string, to: string) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/** A closure as sent: its _id is kept when given (an edit), made by the server when absent. */
export const closureField = z
  .strictObject(
    {
      _id: z.optional(z.string().check(z.maxLength(40))),
      from: z.string({ error: bookingMessages.dateInvalid }).check(z.refine(isCalendarDate, bookingMessages.dateInvalid)),
      to: z.string({ error: bookingMessages.dateInvalid }).check(z.refine(isCalendarDate, bookingMessages.dateInvalid)),
      reason: z._default(z.string().check(z.trim(), z.maxLength(BOOKING_LIMITS.closureReason, bookingMessages.closureReasonTooLong)), ''),
    },
    { error: strictError },
  )
  .check(
    z.refine((c) => dayDiff(c.from, c.to) >= 0, bookingMessages.closureOrder),
    z.refine((c) => dayDiff(c.from, c.to) < BOOKING_LIMITS.closureDays, bookingMessages.closureTooLong),
  );
const closuresField = z.array(closureField, { error: bookingMessages.dateInvalid }).check(z.maxLength(BOOKING_LIMITS.closures, bookingMessages.tooManyClosures));

const templateChoice = z.nullable(
  z.strictObject(
    {
      name: z.string({ error: bookingMessages.templateInvalid }).check(z.trim(), z.minLength(1, bookingMessages.templateInvalid), z.maxLength(512, bookingMessages.templateInvalid)),
      language: z.string({ error: bookingMessages.templateInvalid }).check(z.regex(/^[a-z]{2,3}(?:_[A-Z]{2})?$/, bookingMessages.templateInvalid)),
    },
    { error: strictError },
  ),
);

/** A zone Intl knows (the runtime's tz database). */
export function isTimeZone(zone: string): boolean {
  if (!/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const bool = z.boolean({ error: bookingMessages.booleanInvalid });

/** PUT /api/bookings/settings: the whole object (updatedAt is the server's). */
export const bookingSettingsRequest = z.strictObject(
  {
    timeZone: z.string({ error: bookingMessages.timeZoneInvalid }).check(z.refine(isTimeZone, bookingMessages.timeZoneInvalid)),
    minNoticeMinutes: wholeIn(0, BOOKING_LIMITS.maxMinNoticeMinutes, 1, bookingMessages.minNoticeInvalid),
    maxAdvanceDays: wholeIn(1, BOOKING_LIMITS.maxAdvanceDays, 1, bookingMessages.maxAdvanceInvalid),
    slotStepMinutes: z.number({ error: bookingMessages.slotStepInvalid }).check(z.refine((n) => (BOOKING_LIMITS.slotSteps as readonly number[]).includes(n), bookingMessages.slotStepInvalid)),
    closures: closuresField,
    remindersEnabled: bool,
    reminderHours: wholeIn(BOOKING_LIMITS.reminderHours.min, BOOKING_LIMITS.reminderHours.max, 1, bookingMessages.reminderHoursInvalid),
    confirmationTemplate: templateChoice,
    reminderTemplate: templateChoice,
    emailOwner: bool,
  },
  { error: strictError },
);
export type BookingSettingsInput = z.infer<typeof bookingSettingsRequest>;

/** POST /api/bookings/services and PUT /api/bookings/services/{id} (the whole service). */
export const bookingServiceRequest = z.strictObject(
  {
    name: z
      .string({ error: bookingMessages.serviceNameRequired })
      .check(z.trim(), z.minLength(1, bookingMessages.serviceNameRequired), z.maxLength(BOOKING_LIMITS.serviceName, bookingMessages.serviceNameTooLong)),
    durationMinutes: wholeIn(BOOKING_LIMITS.minDurationMinutes, BOOKING_LIMITS.maxDurationMinutes, 5, bookingMessages.durationInvalid),
    bufferAfterMinutes: z._default(wholeIn(0, BOOKING_LIMITS.maxBufferMinutes, 5, bookingMessages.bufferInvalid), 0),
    priceCents: z._default(z.nullable(wholeIn(0, BOOKING_LIMITS.maxPriceCents, 1, bookingMessages.priceInvalid)), null),
    staffIds: z
      .array(z.string({ error: bookingMessages.serviceStaffUnknown }).check(z.maxLength(40, bookingMessages.serviceStaffUnknown)), { error: bookingMessages.serviceStaffRequired })
      .check(z.minLength(1, bookingMessages.serviceStaffRequired), z.maxLength(BOOKING_LIMITS.staffPerUser, bookingMessages.serviceStaffUnknown)),
    bookableByAgent: z._default(bool, true),
  },
  { error: strictError },
);
export type BookingServiceInput = z.infer<typeof bookingServiceRequest>;

/** POST /api/bookings/staff and PUT /api/bookings/staff/{id} (the whole record). */
export const bookingStaffRequest = z.strictObject(
  {
    name: z
      .string({ error: bookingMessages.staffNameRequired })
      .check(z.trim(), z.minLength(1, bookingMessages.staffNameRequired), z.maxLength(BOOKING_LIMITS.staffName, bookingMessages.staffNameTooLong)),
    kind: z._default(z.enum(STAFF_KINDS, { error: bookingMessages.staffKindInvalid }), 'person'),
    weeklyHours: weeklyHoursField,
    closures: z._default(closuresField, []),
    googleCalendarIds: z._default(
      z.array(z.string().check(z.minLength(1), z.maxLength(1024))).check(z.maxLength(BOOKING_LIMITS.googleCalendars, bookingMessages.googleCalendarUnknown)),
      [],
    ),
  },
  { error: strictError },
);
export type BookingStaffInput = z.infer<typeof bookingStaffRequest>;

/**
 * A start as sent: local wall-clock time in the business's zone ("2026-12-01T10:30") or an
 * instant with its offset ("2026-12-01T09:30:00Z", "…+01:00"). The domain turns it into UTC.
 */
export const startField = z
  .string({ error: bookingMessages.startInvalid })
  .check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})?$/, bookingMessages.startInvalid));

const customerField = z.strictObject(
  {
    name: z
      .string({ error: bookingMessages.customerNameRequired })
      .check(z.trim(), z.minLength(1, bookingMessages.customerNameRequired), z.maxLength(BOOKING_LIMITS.customerName, bookingMessages.customerNameTooLong)),
    phone: z.string({ error: bookingMessages.customerPhoneInvalid }).check(z.trim(), z.minLength(3, bookingMessages.customerPhoneInvalid), z.maxLength(BOOKING_LIMITS.customerPhone, bookingMessages.customerPhoneInvalid)),
  },
  { error: strictError },
);

const notesField = z.string({ error: bookingMessages.notesTooLong }).check(z.trim(), z.maxLength(BOOKING_LIMITS.notes, bookingMessages.notesTooLong));

/** POST /api/bookings (the owner, or the API with a key): staffId optional = the first free one who does the service. */
export const bookingCreateRequest = z.strictObject(
  {
    serviceId: z.string({ error: bookingMessages.serviceRequired }).check(z.minLength(1, bookingMessages.serviceRequired), z.maxLength(40, bookingMessages.serviceRequired)),
    staffId: z.optional(z.string({ error: bookingMessages.staffNotFound }).check(z.maxLength(40, bookingMessages.staffNotFound))),
    start: startField,
    customer: customerField,
    notes: z._default(notesField, ''),
  },
  { error: strictError },
);
export type BookingCreateInput = z.infer<typeof bookingCreateRequest>;

/** PATCH /api/bookings/{id}: a move (start and/or staff), a status, notes; at least one. */
export const bookingUpdateRequest = z
  .strictObject(
    {
      start: z.optional(startField),
      staffId: z.optional(z.string({ error: bookingMessages.staffNotFound }).check(z.maxLength(40, bookingMessages.staffNotFound))),
      status: z.optional(z.enum(BOOKING_STATUSES, { error: bookingMessages.statusInvalid })),
      notes: z.optional(notesField),
    },
    { error: strictError },
  )
  .check(z.refine((u) => Object.keys(u).length > 0, bookingMessages.notObject));
export type BookingUpdateInput = z.infer<typeof bookingUpdateRequest>;

/** GET /api/bookings/availability?serviceId=&from=&to=&staffId=&limit= (from/to local dates, inclusive). */
export const availabilityQuery = z.strictObject(
  {
    serviceId: z.string({ error: bookingMessages.serviceRequired }).check(z.minLength(1, bookingMessages.serviceRequired), z.maxLength(40, bookingMessages.serviceRequired)),
    from: z.string({ error: bookingMessages.rangeInvalid }).check(z.refine(isCalendarDate, bookingMessages.rangeInvalid)),
    to: z.string({ error: bookingMessages.rangeInvalid }).check(z.refine(isCalendarDate, bookingMessages.rangeInvalid)),
    staffId: z.optional(z.string().check(z.maxLength(40, bookingMessages.staffNotFound))),
    /** 1..BOOKING_LIMITS.slots (default BOOKING_DEFAULTS.slots). */
    limit: z.optional(z.string().check(z.regex(/^\d{1,2}$/))),
  },
  { error: strictError },
);

/** GET /api/bookings?from=&to=&staffId=&status=&cursor=&limit= (from/to local dates, inclusive). */
export const bookingListQuery = z.strictObject(
  {
    from: z.string({ error: bookingMessages.rangeInvalid }).check(z.refine(isCalendarDate, bookingMessages.rangeInvalid)),
    to: z.string({ error: bookingMessages.rangeInvalid }).check(z.refine(isCalendarDate, bookingMessages.rangeInvalid)),
    staffId: z.optional(z.string().check(z.maxLength(40, bookingMessages.staffNotFound))),
    status: z.optional(z.enum(BOOKING_STATUSES, { error: bookingMessages.statusInvalid })),
    cursor: z.optional(z.string().check(z.maxLength(400))),
    limit: z.optional(z.string().check(z.regex(/^\d{1,3}$/))),
  },
  { error: strictError },
);

/** POST /api/bookings/calendar-feed: create or rotate the feed of the business (null) or of a staff member. */
export const calendarFeedRequest = z.strictObject(
  { staffId: z.nullable(z.string({ error: bookingMessages.staffNotFound }).check(z.minLength(1, bookingMessages.staffNotFound), z.maxLength(40, bookingMessages.staffNotFound))) },
  { error: strictError },
);
/** DELETE /api/bookings/calendar-feed?staffId= (absent or empty: the business's feed). */
export const calendarFeedQuery = z.strictObject(
  { staffId: z.optional(z.string().check(z.maxLength(40, bookingMessages.staffNotFound))) },
  { error: strictError },
);
