/**
 * Response shapes of the public API as zod/mini schemas, for docs/openapi.json (scripts/openapi.ts).
 *
 * The contract declares responses as TypeScript interfaces (the request schemas are zod already).
 * Each schema here mirrors one interface, and the `Same<…>` checks at the bottom make
 * `npx tsc -p functions` fail when an interface and its schema drift apart (same keys, each
 * assignable to the other), so the document cannot silently describe a stale shape.
 */
import * as z from 'zod/mini';
import { API_KEY_PREFIX, API_KEY_PREFIX_LENGTH, type ApiKeyView, type CreatedApiKey } from '../src/contract/api-keys.js';
import type { ChatReply, ChatSource, ChatToolCall } from '../src/contract/agents.js';
import { CONTACT_ORIGINS, CONTACT_SOURCES, type Contact, type ContactListResponse, type ContactMetadata, type ContactPagination } from '../src/contract/contacts.js';
import {
  CALL_STATUSES,
  SUMMARY_METHODS,
  callSummarySchema,
  type CallLogPagination,
  type CallTurn,
  CONVERSATION_MODES,
  type SummaryDeliveryAttempt,
  type VoiceConversation,
  type VoiceConversationList,
  type VoiceConversationListItem,
} from '../src/contract/voice.js';
import { MESSAGE_SENDER_KINDS, MESSAGE_STATUSES, type ConversationMessage, type MessageMedia } from '../src/contract/whatsapp.js';
import { INTEGRATION_HEALTH_REASONS } from '../src/contract/integration-health.js';
import { MEDIA_FAILURE_REASONS, MEDIA_STATES, type AttachmentUploadTicket } from '../src/contract/whatsapp-media.js';
import { EMAIL_DELIVERY_STATES, EMAIL_FAILURE_REASONS, type EmailDelivery } from '../src/contract/email-delivery.js';
import {
  BOOKING_CHANNELS,
  BOOKING_STATUSES,
  STAFF_KINDS,
  type Booking,
  type BookingCustomer,
  type BookingList,
  type BookingService,
  type BookingSlot,
  type BookingStaff,
  type Closure,
  type TimeRange,
  type WeeklyHours,
} from '../src/contract/bookings.js';

/** Component schemas (output side); the id becomes #/components/schemas/{id}. */
export const responseRegistry = z.registry<{ id?: string; description?: string }>();

function component<S extends z.ZodMiniType>(id: string, description: string, schema: S): S {
  responseRegistry.add(schema, { id, description });
  return schema;
}
/** A property with a description (a fresh schema instance per call, so descriptions never leak). */
function described<S extends z.ZodMiniType>(description: string, schema: S): S {
  responseRegistry.add(schema, { description });
  return schema;
}

const isoTime = (description: string) => described(description, z.iso.datetime());

// ---------------------------------------------------------------------------------------------
// Contacts

export const contactMetadataSchema = component(
  'ContactMetadata',
  'Notes and tags of a contact (edited in the app).',
  z.object({
    notes: z.string(),
    tags: z.array(z.string()),
    importedAt: z.optional(isoTime('When a CSV import created the contact.')),
    importJobId: z.optional(described('The import job that created the contact: undoing that import deletes it.', z.string())),
    clientId: z.optional(z.string()),
  }),
);

export const contactSchema = component(
  'Contact',
  'A contact of the directory.',
  z.object({
    _id: z.string(),
    name: described('The whole name: first name and last name joined.', z.string()),
    firstName: described('The first name (a contact saved with one name has it all here).', z.string()),
    lastName: described("The last name(s), or ''.", z.string()),
    shortName: described('First word of the name (the WhatsApp short name for imported contacts).', z.string()),
    phoneNumber: described("E.164, e.g. +14155550123, or '' when the contact has no number.", z.string()),
    email: z.string(),
    customFields: z.record(z.string(), z.string()),
    source: described("'api' for contacts created with an API key.", z.enum(CONTACT_SOURCES)),
    origin: described("Where the contact came from: 'csv' (a file import), 'whatsapp', 'call', 'manual' or 'api'.", z.enum(CONTACT_ORIGINS)),
    isWAContact: z.boolean(),
    metadata: contactMetadataSchema,
    createdAt: isoTime('ISO 8601.'),
    updatedAt: isoTime('ISO 8601.'),
    optOut: described(
      'The customer asked for no reminders, confirmations or template messages (a stop word such as BAJA or STOP, or the owner marked it): when, and the word (or owner); null = they receive them.',
      z.optional(z.nullable(z.object({ at: isoTime('ISO 8601.'), keyword: z.string() }))),
    ),
  }),
);

export const contactPaginationSchema = component(
  'ContactPagination',
  'Where a page of contacts sits in the whole list.',
  z.object({
    currentPage: z.number(),
    totalPages: described('At least 1, even when there are no contacts.', z.number()),
    limit: z.number(),
    totalContacts: z.number(),
    hasPrevPage: z.boolean(),
    hasNextPage: z.boolean(),
  }),
);

export const contactListResponseSchema = component(
  'ContactListResponse',
  'GET /api/contacts: the page of contacts in `data`, its `pagination` beside it.',
  z.object({
    success: z.boolean(),
    data: z.array(contactSchema),
    pagination: contactPaginationSchema,
    searchTruncated: z.optional(described('Present and true when a search matched more than 1000 contacts: only the newest 1000 are searched.', z.boolean())),
    filterTruncated: z.optional(described('Present and true when a tag or custom-field filter looked at only the newest 10,000 contacts.', z.boolean())),
  }),
);

// ---------------------------------------------------------------------------------------------
// Agent chat

export const chatToolCallSchema = component(
  'ChatToolCall',
  'A tool the agent called while answering.',
  z.object({
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    result: described('What went back to the model: the response text (capped) or the error text.', z.string()),
    ok: z.boolean(),
    status: z.optional(described("HTTP status of a custom tool's response, when there was one.", z.number())),
    durationMs: z.number(),
  }),
);

export const chatSourceSchema = component(
  'ChatSource',
  'A knowledge excerpt (file or web page) the agent used.',
  z.object({
    name: described('File name, URL, or a knowledge entry\'s question.', z.string()),
    kind: z.enum(['file', 'url', 'entry']),
    sourceId: z.string(),
    score: described('Absolute relevance 0..1 of the passage to the question.', z.number()),
    excerpt: described('The passage of the chunk that matches the question best.', z.string()),
    highlights: described('[start, end) ranges of the excerpt holding the question\'s terms.', z.array(z.tuple([z.number(), z.number()]))),
    page: z.optional(described('1-based page of a PDF.', z.number())),
    section: z.optional(described('The heading path above the passage.', z.string())),
  }),
);

export const chatReplySchema = component(
  'ChatReply',
  "One agent turn: the reply and what the agent used.",
  z.object({
    reply: z.string(),
    agent: z.object({ _id: z.string(), name: z.string() }),
    timestamp: isoTime('ISO 8601.'),
    toolCalls: z.array(chatToolCallSchema),
    sources: z.array(chatSourceSchema),
    escalation: described('Set when the agent handed the conversation to a human.', z.nullable(z.object({ reason: z.string() }))),
    outbound: z.optional(
      described(
        'What the WhatsApp tools would send after the reply (issue 31): a file of the agent, or the business location.',
        z.array(
          z.union([
            z.object({ type: z.literal('file'), fileId: z.string(), fileName: z.string(), mimeType: z.string(), caption: z.optional(z.string()) }),
            z.object({ type: z.literal('location'), location: z.object({ name: z.string(), address: z.string(), latitude: z.number(), longitude: z.number() }) }),
          ]),
        ),
      ),
    ),
    choices: z.optional(
      described(
        'The options offer_choices would show under the reply: reply buttons (up to 3) or a list.',
        z.object({
          kind: z.enum(['buttons', 'list']),
          options: z.array(z.object({ id: z.string(), title: z.string(), description: z.optional(z.string()) })),
          buttonLabel: z.optional(z.string()),
        }),
      ),
    ),
  }),
);

// ---------------------------------------------------------------------------------------------
// Voice conversations (call logs)

export const callTurnSchema = component(
  'CallTurn',
  'One turn of a call transcript.',
  z.object({
    role: z.enum(['user', 'agent']),
    content: z.string(),
    at: isoTime('ISO 8601.'),
    confidence: described("Speech recognition confidence 0..1 for the caller's turns; null for the agent's.", z.nullable(z.number())),
    latency: z.optional(
      described(
        'Streamed calls: ms from the caller\'s words reaching the app to the first and the last text token sent.',
        z.object({ firstTokenMs: z.number(), lastTokenMs: z.number() }),
      ),
    ),
    interrupted: z.optional(described('The caller spoke over this agent turn; content is what they heard.', z.boolean())),
  }),
);

export const summaryDeliverySchema = component(
  'SummaryDeliveryAttempt',
  'One attempt to deliver the call summary.',
  z.object({
    method: z.enum(SUMMARY_METHODS),
    attempt: z.number(),
    at: isoTime('ISO 8601.'),
    ok: z.boolean(),
    status: z.optional(described('HTTP status of the webhook answer, when there was one.', z.number())),
    error: z.optional(z.string()),
  }),
);

export const emailDeliverySchema = component(
  'EmailDelivery',
  'Where the summary e-mail stands (issue 34): queued, being sent, sent, retrying while the e-mail service does not answer, or failed with the reason.',
  z.object({
    state: z.enum(EMAIL_DELIVERY_STATES),
    at: isoTime('When the state last changed (ISO 8601).'),
    tries: described('Requests to the e-mail service in this send so far.', z.number()),
    sentAt: z.optional(isoTime('When the e-mail service accepted it (ISO 8601).')),
    reason: z.optional(described("'failed': why; 'retrying': why the last try failed.", z.enum(EMAIL_FAILURE_REASONS))),
    resends: described('How many times the owner resent it (0 for the first send).', z.number()),
  }),
);

export const callSummaryComponent = component('CallSummary', 'The analysis of a finished call.', z.object({ ...callSummarySchema.shape }));

const callFields = {
  _id: z.string(),
  callSid: z.string(),
  status: z.enum(CALL_STATUSES),
  phoneNumber: described('The caller (E.164).', z.string()),
  internalNumber: described('The business number that was called.', z.string()),
  contact: z.nullable(z.object({ _id: z.nullable(z.string()), name: z.string(), phoneNumber: z.string() })),
  duration: described('Milliseconds (0 while the call is active).', z.number()),
  createdAt: isoTime('ISO 8601.'),
  endedAt: z.nullable(isoTime('ISO 8601; null while the call is active.')),
  voiceSettings: z.object({ name: z.string(), description: z.string(), language: z.string() }),
  summaryStatus: z.enum(['pending', 'completed', 'failed', 'skipped']),
  summaryError: z.optional(z.string()),
  agent: z.nullable(z.object({ _id: z.string(), name: z.string() })),
  escalated: z.boolean(),
  escalationReason: z.optional(z.string()),
  hasRecording: z.boolean(),
  recordingDeleted: z.optional(
    described("Issue 33: the recording was deleted when the account's retention for recordings ended, after `days` days.", z.object({ at: isoTime('ISO 8601.'), days: z.number() })),
  ),
  endReason: z.optional(z.enum(['goodbye', 'caller', 'max_duration', 'silence', 'usage_limit', 'error', 'forwarded', 'stale'])),
  conversationMode: described('streaming (ConversationRelay) or gather (the <Gather> loop).', z.enum(CONVERSATION_MODES)),
  latency: z.nullable(
    described('First-token latency of the streamed agent turns (ms), null without any.', z.object({ turns: z.number(), p50Ms: z.number(), p95Ms: z.number() })),
  ),
};

export const voiceConversationSchema = component(
  'VoiceConversation',
  'A call with its transcript, summary and summary deliveries.',
  z.object({
    ...callFields,
    messages: z.array(callTurnSchema),
    summary: z.nullable(callSummaryComponent),
    deliveries: z.array(summaryDeliverySchema),
    summaryEmail: z.optional(z.nullable(emailDeliverySchema)),
  }),
);

export const voiceConversationListItemSchema = component(
  'VoiceConversationListItem',
  'A call as listed (no transcript, summary or deliveries).',
  z.object({ ...callFields, messageCount: z.number() }),
);

export const callLogPaginationSchema = component(
  'CallLogPagination',
  'Where a page of calls sits in the whole list.',
  z.object({
    currentPage: z.number(),
    totalPages: described('0 when there are no calls.', z.number()),
    totalItems: z.number(),
    limit: z.number(),
  }),
);

export const voiceConversationListSchema = component(
  'VoiceConversationList',
  'A page of calls, newest first.',
  z.object({ conversations: z.array(voiceConversationListItemSchema), pagination: callLogPaginationSchema }),
);

// ---------------------------------------------------------------------------------------------
// WhatsApp conversations

export const messageMediaSchema = component(
  'MessageMedia',
  'The media of a WhatsApp message (ids as Meta gave them; url when it was copied to storage).',
  z.object({
    id: z.optional(z.string()),
    mimeType: z.optional(z.string()),
    sha256: z.optional(z.string()),
    caption: z.optional(z.string()),
    filename: z.optional(z.string()),
    url: z.optional(described('A presigned link to our copy (valid for an hour), when the media was stored.', z.string())),
    state: z.optional(described('pending: not fetched yet; stored: in our storage (and understood); failed: see failure.', z.enum(MEDIA_STATES))),
    failure: z.optional(described('Why the media could not be stored or understood (the message is kept).', z.enum(MEDIA_FAILURE_REASONS))),
    size: z.optional(described('Bytes of our copy.', z.number())),
    transcript: z.optional(
      z.object({
        text: z.string(),
        language: z.string(),
        durationSeconds: z.number(),
        truncated: z.optional(described('Only the first 10 minutes were transcribed.', z.boolean())),
      }),
    ),
    textPreview: z.optional(described('The start of a document’s text.', z.string())),
    pages: z.optional(z.number()),
  }),
);

const messageExtras = {
  location: z.optional(
    z.object({ latitude: z.number(), longitude: z.number(), name: z.optional(z.string()), address: z.optional(z.string()), url: z.optional(z.string()) }),
  ),
  contactCards: z.optional(z.array(z.object({ name: z.string(), phones: z.array(z.string()) }))),
  interactive: z.optional(
    z.object({
      kind: z.enum(['buttons', 'list']),
      options: z.array(z.object({ id: z.string(), title: z.string(), description: z.optional(z.string()) })),
      buttonLabel: z.optional(z.string()),
    }),
  ),
  interactiveReply: z.optional(described('The reply button or list row the customer tapped.', z.object({ id: z.string(), title: z.string() }))),
};

export const conversationMessageSchema = component(
  'ConversationMessage',
  'A message of a WhatsApp conversation.',
  z.object({
    _id: z.string(),
    fromMe: described('True for the business’s messages (a person’s or the agent’s), false for the customer’s.', z.boolean()),
    type: described('chat, image, video, audio, ptt, document, sticker, template…', z.string()),
    body: z.string(),
    content: described('Same as body.', z.string()),
    timestamp: isoTime('ISO 8601.'),
    status: z.enum(MESSAGE_STATUSES),
    hasMedia: z.boolean(),
    media: z.optional(messageMediaSchema),
    error: z.optional(described('Why the send failed, written for a person.', z.string())),
    errorCode: z.optional(described('The provider’s code of a failed send, as it came (Meta: 190, 131047…).', z.string())),
    errorReason: z.optional(
      described('Set when the send failed because the integration’s credentials were refused: a reason key (the integration then needs attention).', z.enum(INTEGRATION_HEALTH_REASONS)),
    ),
    sentBy: z.optional(described('human: a person (the app or an API key); agent: the AI.', z.enum(['agent', 'human']))),
    sender: z.optional(
      described(
        'Who sent a person’s message (sentBy human), as of sending: a member of the account (their id and name) or an API key (its id and name). Absent on the agent’s, the customer’s and older messages.',
        z.object({ kind: z.enum(MESSAGE_SENDER_KINDS), _id: z.string(), name: z.string() }),
      ),
    ),
    ...messageExtras,
  }),
);

export const attachmentUploadTicketSchema = component(
  'AttachmentUploadTicket',
  'Where to upload a file attached to a reply: POST `fields` and then the file as `file` (multipart/form-data) to `url` before `expiresAt`. Storage refuses another type, more than `maxBytes` or another key. Then reply with `attachment: {uploadId}`.',
  z.object({
    uploadId: described('Names the upload in the reply’s `attachment`.', z.string()),
    kind: described('image: shown inline by WhatsApp; document: sent as a file with its name.', z.enum(['image', 'document'])),
    fileName: described('The file name the customer sees (as given, without a path).', z.string()),
    mimeType: z.string(),
    maxBytes: described('The largest file storage accepts for this upload (images 5 MB, documents 16 MB).', z.number()),
    url: described('The storage endpoint to POST the form to.', z.string()),
    fields: described('Form fields to send as they are, before the file.', z.record(z.string(), z.string())),
    expiresAt: isoTime('When the upload form stops being accepted.'),
  }),
);

// ---------------------------------------------------------------------------------------------
// API keys

export const apiKeyViewSchema = component(
  'ApiKey',
  'An API key as listed: never the key itself, only its first characters.',
  z.object({
    _id: z.string(),
    name: z.string(),
    prefix: described(`The first ${API_KEY_PREFIX_LENGTH} characters of the key (starts with ${API_KEY_PREFIX}).`, z.string()),
    createdAt: isoTime('ISO 8601.'),
    lastUsedAt: z.nullable(isoTime('ISO 8601 (updated at most once a minute); null until the key is first used.')),
  }),
);

export const createdApiKeySchema = component(
  'CreatedApiKey',
  'A new (or regenerated) key: the only time the full key is returned.',
  z.object({
    apiKey: apiKeyViewSchema,
    key: described(`The full key (${API_KEY_PREFIX} + 43 characters). Store it now: it cannot be shown again.`, z.string()),
  }),
);

// ---------------------------------------------------------------------------------------------
// Bookings (issue 30)

export const timeRangeSchema = component(
  'TimeRange',
  'Opening hours of one range, local wall-clock time of the business ("09:00"–"14:00"; 24:00 as an end is midnight).',
  z.object({ start: z.string(), end: z.string() }),
);

export const weeklyHoursSchema = component(
  'WeeklyHours',
  'Opening ranges per weekday (an empty list: closed that day).',
  z.object({
    mon: z.array(timeRangeSchema),
    tue: z.array(timeRangeSchema),
    wed: z.array(timeRangeSchema),
    thu: z.array(timeRangeSchema),
    fri: z.array(timeRangeSchema),
    sat: z.array(timeRangeSchema),
    sun: z.array(timeRangeSchema),
  }),
);

export const closureSchema = component(
  'Closure',
  'Closed days (holidays, leave): local dates of the business, both included.',
  z.object({ _id: z.string(), from: described('YYYY-MM-DD.', z.string()), to: described('YYYY-MM-DD (on or after from).', z.string()), reason: z.string() }),
);

export const bookingServiceSchema = component(
  'BookingService',
  'What a customer books (a consultation, a haircut…): its length, price and who can do it. `_id` is the `serviceId` of availability and bookings.',
  z.object({
    _id: z.string(),
    name: z.string(),
    durationMinutes: described('Length of a booking, a multiple of 5.', z.number()),
    bufferAfterMinutes: described('Time kept free after each booking (cleaning, notes); not part of the booking.', z.number()),
    priceCents: described("Cents of the account's currency; null when no price is shown.", z.nullable(z.number())),
    staffIds: described('The staff members or rooms that can do it.', z.array(z.string())),
    bookableByAgent: described('false: only the business books it (the agent does not offer it).', z.boolean()),
    createdAt: isoTime('ISO 8601.'),
    updatedAt: isoTime('ISO 8601.'),
  }),
);

export const bookingStaffSchema = component(
  'BookingStaff',
  'A staff member or a room with its weekly hours and closures. `_id` is the `staffId` of availability and bookings.',
  z.object({
    _id: z.string(),
    name: z.string(),
    kind: z.enum(STAFF_KINDS),
    weeklyHours: weeklyHoursSchema,
    closures: z.array(closureSchema),
    googleCalendarIds: described('Google calendars whose busy times block this staff member.', z.array(z.string())),
    createdAt: isoTime('ISO 8601.'),
    updatedAt: isoTime('ISO 8601.'),
  }),
);

export const bookingSlotSchema = component(
  'BookingSlot',
  'A free time: send its `start` (and `staffId`) to POST /api/bookings to book it.',
  z.object({
    start: isoTime('UTC instant (ISO 8601, Z).'),
    end: isoTime('UTC instant; the service buffer is not included.'),
    staffId: z.string(),
    staffName: z.string(),
    label: described("The slot in words, in the account's language and time zone.", z.string()),
  }),
);

export const bookingCustomerSchema = component(
  'BookingCustomer',
  'Who the booking is for, linked to the contact directory by phone number.',
  z.object({
    name: z.string(),
    phone: described("E.164; a number sent without a prefix gets the account's country.", z.string()),
    contactId: described('The contact (found by phone, created when new); null when none.', z.nullable(z.string())),
    erased: z.optional(
      described("True when the customer's data was erased at their request: name and phone are empty; the booking stays for the calendar and the figures.", z.boolean()),
    ),
  }),
);

export const bookingSchema = component(
  'Booking',
  'An appointment.',
  z.object({
    _id: z.string(),
    serviceId: z.string(),
    serviceName: described('As when booked.', z.string()),
    staffId: z.string(),
    staffName: described('As when booked.', z.string()),
    start: isoTime('UTC instant (ISO 8601, Z).'),
    end: isoTime('UTC instant; the service buffer is not included.'),
    timeZone: described('The business’s IANA time zone (e.g. Europe/Madrid): the local time is start in this zone.', z.string()),
    status: z.enum(BOOKING_STATUSES),
    customer: bookingCustomerSchema,
    channel: described('Where it was booked.', z.enum(BOOKING_CHANNELS)),
    conversationId: described('The WhatsApp conversation it came from, or null.', z.nullable(z.string())),
    callId: described('The call it came from, or null.', z.nullable(z.string())),
    agentId: z.nullable(z.string()),
    bookedBy: described("'api' for bookings made with an API key.", z.enum(['agent', 'owner', 'api'])),
    notes: z.string(),
    priceCents: z.nullable(z.number()),
    currency: z.string(),
    createdAt: isoTime('ISO 8601.'),
    updatedAt: isoTime('ISO 8601.'),
    cancelledAt: z.nullable(isoTime('ISO 8601; null unless cancelled.')),
  }),
);

export const bookingListSchema = component(
  'BookingList',
  'A page of bookings, soonest first.',
  z.object({
    bookings: z.array(bookingSchema),
    nextCursor: described('Send it as `cursor` for the next page; null on the last page.', z.nullable(z.string())),
  }),
);

// ---------------------------------------------------------------------------------------------
// Errors

export const errorSchema = component(
  'Error',
  'Every error answered by the API functions.',
  z.object({
    success: z.literal(false),
    message: described('A sentence written for a person (safe to show).', z.string()),
    field: z.optional(described('400 only: the request field that failed validation.', z.string())),
  }),
);

export const duplicateContactSchema = component(
  'DuplicateContactError',
  '409: a contact with the same phone number exists.',
  z.object({ success: z.literal(false), message: z.string(), existingContactId: z.string() }),
);

export const gatewayErrorSchema = component(
  'GatewayError',
  'An answer of the gateway itself (e.g. 401 on a sign-in-only route without a valid token), before any function runs.',
  z.object({ message: z.string(), success: z.optional(z.literal(false)) }),
);

// ---------------------------------------------------------------------------------------------
// Compile-time checks: schema and contract interface describe the same shape.

type Same<A, B> = [keyof A] extends [keyof B]
  ? [keyof B] extends [keyof A]
    ? [A] extends [B]
      ? [B] extends [A]
        ? true
        : false
      : false
    : false
  : false;
type Check<T extends true> = T;

export type SchemaChecks = [
  Check<Same<z.infer<typeof contactMetadataSchema>, ContactMetadata>>,
  Check<Same<z.infer<typeof messageMediaSchema>, MessageMedia>>,
  Check<Same<z.infer<typeof conversationMessageSchema>, ConversationMessage>>,
  Check<Same<z.infer<typeof attachmentUploadTicketSchema>, AttachmentUploadTicket>>,
  Check<Same<z.infer<typeof contactSchema>, Contact>>,
  Check<Same<z.infer<typeof contactPaginationSchema>, ContactPagination>>,
  Check<Same<z.infer<typeof contactListResponseSchema>, ContactListResponse>>,
  Check<Same<z.infer<typeof chatToolCallSchema>, ChatToolCall>>,
  Check<Same<z.infer<typeof chatSourceSchema>, ChatSource>>,
  Check<Same<z.infer<typeof chatReplySchema>, ChatReply>>,
  Check<Same<z.infer<typeof callTurnSchema>, CallTurn>>,
  Check<Same<z.infer<typeof summaryDeliverySchema>, SummaryDeliveryAttempt>>,
  Check<Same<z.infer<typeof emailDeliverySchema>, EmailDelivery>>,
  Check<Same<z.infer<typeof voiceConversationSchema>, VoiceConversation>>,
  Check<Same<z.infer<typeof voiceConversationListItemSchema>, VoiceConversationListItem>>,
  Check<Same<z.infer<typeof callLogPaginationSchema>, CallLogPagination>>,
  Check<Same<z.infer<typeof voiceConversationListSchema>, VoiceConversationList>>,
  Check<Same<z.infer<typeof apiKeyViewSchema>, ApiKeyView>>,
  Check<Same<z.infer<typeof createdApiKeySchema>, CreatedApiKey>>,
  Check<Same<z.infer<typeof timeRangeSchema>, TimeRange>>,
  Check<Same<z.infer<typeof weeklyHoursSchema>, WeeklyHours>>,
  Check<Same<z.infer<typeof closureSchema>, Closure>>,
  Check<Same<z.infer<typeof bookingServiceSchema>, BookingService>>,
  Check<Same<z.infer<typeof bookingStaffSchema>, BookingStaff>>,
  Check<Same<z.infer<typeof bookingSlotSchema>, BookingSlot>>,
  Check<Same<z.infer<typeof bookingCustomerSchema>, BookingCustomer>>,
  Check<Same<z.infer<typeof bookingSchema>, Booking>>,
  Check<Same<z.infer<typeof bookingListSchema>, BookingList>>,
];
