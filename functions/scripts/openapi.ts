/**
 * Generates docs/openapi.json (OpenAPI 3.1) for the public API: the manifest's 'userOrApiKey'
 * routes (reachable with an API key) and the /api/api-keys routes that manage the keys.
 *
 *   npm run openapi            writes docs/openapi.json
 *   npm run openapi -- --check exits 1 when docs/openapi.json is stale
 *
 * Request bodies and query strings come from the contract's zod schemas (`z.toJSONSchema`, input
 * side); response bodies from scripts/openapi-schemas.ts, whose schemas are type-checked against
 * the contract's interfaces. The operations come from the route manifest: a public route without
 * a description below makes this script (and the unit test) fail.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { chatRequest } from '../src/contract/agents.js';
import {
  BOOKING_DEFAULTS,
  BOOKING_LIMITS,
  BOOKING_STATUSES,
  availabilityQuery,
  bookingCreateRequest,
  bookingListQuery,
  bookingMessages,
  bookingUpdateRequest,
} from '../src/contract/bookings.js';
import { API_KEY_LIMITS, API_KEY_PREFIX, apiKeyMessages, createApiKeyRequest } from '../src/contract/api-keys.js';
import { CONTACT_PAGE_SIZES, CONTACT_SOURCES, DEFAULT_CONTACT_PAGE_SIZE, createContactRequest, listContactsQuery } from '../src/contract/contacts.js';
import { VOICE_LIMITS, listCallsQuery } from '../src/contract/voice.js';
import { humanReplyRequest, whatsappMessages } from '../src/contract/whatsapp.js';
import { MEDIA_LIMITS, attachmentUploadRequest, mediaMessages } from '../src/contract/whatsapp-media.js';
import { billingServerMessages } from '../src/domain/billing/messages.js';
import { routes, type RouteDef } from '../src/routes.js';
import {
  apiKeyViewSchema,
  attachmentUploadTicketSchema,
  bookingListSchema,
  bookingSchema,
  bookingServiceSchema,
  bookingSlotSchema,
  bookingStaffSchema,
  chatReplySchema,
  contactListResponseSchema,
  contactSchema,
  conversationMessageSchema,
  createdApiKeySchema,
  responseRegistry,
  voiceConversationListSchema,
  voiceConversationSchema,
} from './openapi-schemas.js';

export const OPENAPI_FILE = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Schemas

const requestRegistry = z.registry<{ id?: string; description?: string }>();
requestRegistry.add(createContactRequest, {
  id: 'CreateContactRequest',
  description:
    'A new contact. The phone number is normalised to E.164 (a number without a country prefix gets the default country). customFields: an object of text values or a list of {name, value}.',
});
requestRegistry.add(chatRequest, {
  id: 'ChatRequest',
  description: 'One message to the agent, with the conversation so far (oldest first; only the last 50 are used).',
});
requestRegistry.add(createApiKeyRequest, { id: 'CreateApiKeyRequest', description: 'A name to recognise the key by.' });
requestRegistry.add(humanReplyRequest, {
  id: 'ConversationReplyRequest',
  description: `The text sent to the customer (trimmed, up to 4096 characters), a file (\`attachment\`: the \`uploadId\` of POST …/attachments, after the file was uploaded), or both: the text is then the file's caption (up to ${MEDIA_LIMITS.captionChars} characters).`,
});
requestRegistry.add(attachmentUploadRequest, {
  id: 'AttachmentUploadRequest',
  description: 'The file to attach: its name (what the customer sees), its type (JPG or PNG images; PDF, Word, Excel or text documents) and its size in bytes.',
});
requestRegistry.add(bookingCreateRequest, {
  id: 'CreateBookingRequest',
  description:
    "A new booking. `start`: the business's local time (\"2026-12-01T10:30\") or an instant with its offset (\"2026-12-01T09:30:00Z\"), on a 5-minute step. Without `staffId` the first free staff member who does the service is booked. The customer's phone links the booking to the contact directory (a new number creates a contact; without a prefix it gets the account's country).",
});
requestRegistry.add(bookingUpdateRequest, {
  id: 'UpdateBookingRequest',
  description:
    'A change of a confirmed booking: a move (`start` and/or `staffId`, under the same rules as a new booking), a status (completed, no_show; cancelled is POST …/cancel), notes. At least one field.',
});

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** The registry's schemas as OpenAPI components ($refs between them, no $schema/$id). */
function components(registry: typeof requestRegistry, io: 'input' | 'output'): Record<string, Json> {
  const out = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    metadata: registry,
    uri: (id) => `#/components/schemas/${id}`,
    // Answers may gain fields: do not declare response objects closed.
    override: ({ jsonSchema }) => {
      if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
      // `format: date-time` says it; zod's long ISO regex only adds noise.
      if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
    },
  }) as { schemas: Record<string, Json> };
  return Object.fromEntries(
    Object.entries(out.schemas).map(([id, schema]) => {
      const { $schema: _schema, $id: _id, ...rest } = schema;
      return [id, rest];
    }),
  );
}

/** Registry entries' ids, so operations only reference schemas that exist. */
function idOf(registry: typeof requestRegistry, schema: z.ZodMiniType): string {
  const id = registry.get(schema)?.id;
  if (!id) throw new Error('Schema is not a registered component');
  return id;
}

/** A query schema of the contract as OpenAPI query parameters (input side: the strings a client sends). */
function queryParameters(schema: z.ZodMiniObject, extra: Record<string, { description: string; schema?: Json }>): Json[] {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const more = extra[name];
    if (!more) throw new Error(`Describe the query parameter ${name}`);
    return {
      name,
      in: 'query',
      required: json.required?.includes(name) ?? false,
      description: more.description,
      schema: { ...property, ...more.schema },
    };
  });
}

const idParameter = (description: string) => ({ name: 'id', in: 'path', required: true, description, schema: { type: 'string' } });

// ---------------------------------------------------------------------------------------------
// Responses

const envelope = (data: Json, message?: string): Json => ({
  type: 'object',
  required: ['success', 'data'],
  properties: {
    success: { const: true },
    ...(message !== undefined ? { message: { type: 'string', examples: [message] } } : {}),
    data,
  },
});

const jsonContent = (schema: Json) => ({ 'application/json': { schema } });
const ok = (description: string, schema: Json) => ({ description, content: jsonContent(schema) });
const use = (name: string) => ({ $ref: `#/components/responses/${name}` });

const rateLimitHeaders = {
  'Retry-After': {
    description: 'Seconds until the key’s current window ends and requests are accepted again.',
    schema: { type: 'integer', minimum: 1 },
  },
};

const sharedResponses: Record<string, Json> = {
  BadRequest: { description: 'Invalid input: `message` is the first failing rule, `field` the field.', content: jsonContent(ref('Error')) },
  Unauthorized: {
    description: `Answered before the route runs, with \`WWW-Authenticate: Bearer\`: an unknown, deleted or regenerated API key (\`{"success": false, "message": "${apiKeyMessages.invalid}"}\`), or no credentials or an expired or invalid sign-in token (\`{"message": "Unauthorized"}\`, as the gateway answers the app's routes).`,
    headers: { 'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } } },
    content: jsonContent({ anyOf: [ref('Error'), ref('GatewayError')] }),
  },
  SignInRequired: {
    description: 'No valid sign-in token. Answered by the gateway itself (`{"message": "Unauthorized"}`).',
    content: jsonContent(ref('GatewayError')),
  },
  Forbidden: {
    description: `An API key sent to a route outside the public API ("${apiKeyMessages.routeNotAllowed}"), or a limit of the plan was reached.`,
    content: jsonContent(ref('Error')),
  },
  NotFound: {
    description: 'Not found. Ids of other accounts answer 404 too, so they cannot be probed.',
    content: jsonContent(ref('Error')),
  },
  RateLimited: {
    description: `${apiKeyMessages.rateLimited}. Wait \`Retry-After\` seconds.`,
    headers: rateLimitHeaders,
    content: jsonContent(ref('Error')),
  },
  ServerError: { description: 'Unexpected server error (`message`: "Internal server error").', content: jsonContent(ref('Error')) },
  SubscriptionRequired: {
    description: `No active or trialing subscription (\`message\`: "${billingServerMessages.subscriptionRequired}"); nothing was done.`,
    content: jsonContent(ref('Error')),
  },
};

/** The error responses every public API operation can answer. */
const publicErrors = { '401': use('Unauthorized'), '403': use('Forbidden'), '429': use('RateLimited'), '500': use('ServerError') };
/** The key-management routes accept only the app's sign-in token (an API key there answers 403). */
const signedInErrors = {
  '401': use('SignInRequired'),
  '403': {
    description: `An API key was sent ("${apiKeyMessages.routeNotAllowed}"): keys cannot manage keys.`,
    content: jsonContent(ref('Error')),
  },
  '500': use('ServerError'),
};

// ---------------------------------------------------------------------------------------------
// Operations

type PublicRouteKey =
  | 'POST /api/agents/chat'
  | 'POST /api/agents/{id}/chat'
  | 'GET /api/contacts'
  | 'POST /api/contacts'
  | 'GET /api/voice-conversations'
  | 'GET /api/voice-conversations/{id}'
  | 'POST /api/conversations/{id}/messages'
  | 'POST /api/conversations/{id}/attachments'
  | 'GET /api/bookings/services'
  | 'GET /api/bookings/staff'
  | 'GET /api/bookings/availability'
  | 'GET /api/bookings'
  | 'POST /api/bookings'
  | 'GET /api/bookings/{id}'
  | 'PATCH /api/bookings/{id}'
  | 'POST /api/bookings/{id}/cancel'
  | 'GET /api/api-keys'
  | 'POST /api/api-keys'
  | 'PUT /api/api-keys/{id}/regenerate'
  | 'DELETE /api/api-keys/{id}';

const chatErrors = {
  '400': {
    description:
      'Invalid message, no enabled agent ("No enabled agent to answer. Enable an agent first."), the ChatGPT integration not connected, or the OpenAI key or model rejected.',
    content: jsonContent(ref('Error')),
  },
  '429': {
    description: `${apiKeyMessages.rateLimited} (with \`Retry-After\`), or OpenAI is rate limiting the account's OpenAI key (no \`Retry-After\`).`,
    headers: rateLimitHeaders,
    content: jsonContent(ref('Error')),
  },
  '502': { description: 'The AI model could not be reached.', content: jsonContent(ref('Error')) },
  '504': { description: 'The AI model took too long (a reply is bounded by about 25 seconds).', content: jsonContent(ref('Error')) },
};

// Bookings (issue 30). Examples: a Spanish clinic (Europe/Madrid).

const exampleBooking = {
  _id: '01JF3Q8Z6X0M4R7T2K9B5N1C8D',
  serviceId: '01JF3PZ1AB2CD3EF4GH5JK6MN7',
  serviceName: 'Limpieza dental',
  staffId: '01JF3PX9QR8ST7UV6WX5YZ4AB3',
  staffName: 'Dra. García',
  start: '2026-12-01T09:30:00.000Z',
  end: '2026-12-01T10:00:00.000Z',
  timeZone: 'Europe/Madrid',
  status: 'confirmed',
  customer: { name: 'Lucía Fernández', phone: '+34612345678', contactId: '01JF3Q8Z6X0M4R7T2K9B5N1C8E' },
  channel: 'api',
  conversationId: null,
  callId: null,
  agentId: null,
  bookedBy: 'api',
  notes: 'Primera visita',
  priceCents: 4500,
  currency: 'EUR',
  createdAt: '2026-11-28T12:00:00.000Z',
  updatedAt: '2026-11-28T12:00:00.000Z',
  cancelledAt: null,
};

const exampleSlot = {
  start: '2026-12-01T09:30:00.000Z',
  end: '2026-12-01T10:00:00.000Z',
  staffId: '01JF3PX9QR8ST7UV6WX5YZ4AB3',
  staffName: 'Dra. García',
  label: 'martes 1 de diciembre a las 10:30',
};

const exampleService = {
  _id: '01JF3PZ1AB2CD3EF4GH5JK6MN7',
  name: 'Limpieza dental',
  durationMinutes: 30,
  bufferAfterMinutes: 10,
  priceCents: 4500,
  staffIds: ['01JF3PX9QR8ST7UV6WX5YZ4AB3'],
  bookableByAgent: true,
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-20T08:00:00.000Z',
};

const morningAndAfternoon = [
  { start: '09:00', end: '14:00' },
  { start: '16:00', end: '20:00' },
];
const exampleStaff = {
  _id: '01JF3PX9QR8ST7UV6WX5YZ4AB3',
  name: 'Dra. García',
  kind: 'person',
  weeklyHours: { mon: morningAndAfternoon, tue: morningAndAfternoon, wed: morningAndAfternoon, thu: morningAndAfternoon, fri: [{ start: '09:00', end: '15:00' }], sat: [], sun: [] },
  closures: [{ _id: '01JF3PY0CL05UR3S0000000001', from: '2026-12-24', to: '2026-12-26', reason: 'Navidad' }],
  googleCalendarIds: [],
  createdAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-20T08:00:00.000Z',
};

const bookingData = (description: string, message?: string): Json => ({
  description,
  content: { 'application/json': { schema: envelope(ref(idOf(responseRegistry, bookingSchema)), message), example: { success: true, ...(message ? { message } : {}), data: exampleBooking } } },
});

const bookingRules = [
  bookingMessages.inPast,
  bookingMessages.tooSoon('N'),
  bookingMessages.tooFarAhead('N'),
  bookingMessages.outsideHours,
  bookingMessages.closed,
  bookingMessages.staffCannotDoService,
  bookingMessages.notBookableByAgent,
  bookingMessages.busyInCalendar,
]
  .map((m) => `"${m}"`)
  .join(', ');

const bookingIdParameter = idParameter('The booking id (`_id`).');

const chatBody = { required: true, content: jsonContent(ref(idOf(requestRegistry, chatRequest))) };

const operations: Record<PublicRouteKey, Json> = {
  'POST /api/agents/chat': {
    operationId: 'chat',
    tags: ['Agents'],
    summary: 'Chat with the answering agent',
    description:
      "One turn of the agent that answers for the account: the highest-priority enabled agent (ties: the oldest). It uses the agent's knowledge (files, web pages) and custom tools, and the account's ChatGPT integration. Stateless: send the earlier turns in `messages`.",
    requestBody: chatBody,
    responses: { '200': ok('The reply.', envelope(ref(idOf(responseRegistry, chatReplySchema)))), ...publicErrors, ...chatErrors },
  },
  'POST /api/agents/{id}/chat': {
    operationId: 'chatWithAgent',
    tags: ['Agents'],
    summary: 'Chat with one agent',
    description: 'Like `POST /api/agents/chat`, with a chosen agent (enabled or not).',
    parameters: [idParameter('The agent id.')],
    requestBody: chatBody,
    responses: {
      '200': ok('The reply.', envelope(ref(idOf(responseRegistry, chatReplySchema)))),
      ...publicErrors,
      ...chatErrors,
      '404': use('NotFound'),
    },
  },
  'GET /api/contacts': {
    operationId: 'listContacts',
    tags: ['Contacts'],
    summary: 'List contacts',
    description: 'A page of contacts, newest first, with the pagination beside `data`.',
    parameters: queryParameters(listContactsQuery, {
      page: { description: '1-based page number.' },
      limit: {
        description: `Page size: one of ${CONTACT_PAGE_SIZES.join(', ')}.`,
        schema: { enum: CONTACT_PAGE_SIZES.map(String), default: String(DEFAULT_CONTACT_PAGE_SIZE) },
      },
      search: { description: 'Words (or their beginnings) of the name or e-mail, or digits of the phone number; every word must match.' },
      source: { description: 'Only contacts of this source; empty for all.', schema: { enum: ['', ...CONTACT_SOURCES] } },
      tag: { description: 'Only contacts carrying this tag (whole tag, case- and accent-insensitive); empty for all.' },
      field: { description: 'Only contacts having this custom field (name case- and accent-insensitive); empty for all.' },
      value: { description: 'With `field`: only contacts whose field has this value (whole text, case- and accent-insensitive). Without `field`: 400.' },
    }),
    responses: {
      '200': ok('A page of contacts.', ref(idOf(responseRegistry, contactListResponseSchema))),
      '400': use('BadRequest'),
      ...publicErrors,
    },
  },
  'POST /api/contacts': {
    operationId: 'createContact',
    tags: ['Contacts'],
    summary: 'Create a contact',
    description:
      "Counts toward the plan's contact limit. A contact created with an API key has `source` 'api' (with the sign-in token: 'manual').",
    requestBody: { required: true, content: jsonContent(ref(idOf(requestRegistry, createContactRequest))) },
    responses: {
      '201': ok('Created.', envelope(ref(idOf(responseRegistry, contactSchema)), 'Contact added successfully')),
      '400': use('BadRequest'),
      ...publicErrors,
      '402': { description: 'No active subscription.', content: jsonContent(ref('Error')) },
      '409': {
        description: 'A contact with this phone number exists (`existingContactId`).',
        content: jsonContent(ref('DuplicateContactError')),
      },
    },
  },
  'GET /api/voice-conversations': {
    operationId: 'listCalls',
    tags: ['Voice conversations'],
    summary: 'List calls',
    description: 'A page of inbound calls, newest first (no transcripts).',
    parameters: queryParameters(listCallsQuery, {
      page: { description: '1-based page number.', schema: { default: '1', pattern: '^[1-9][0-9]*$' } },
      limit: { description: 'Page size, 1 to 100.', schema: { default: String(VOICE_LIMITS.pageSize), pattern: '^[1-9][0-9]*$' } },
      search: { description: "Digits of the caller's or the business number (other characters are ignored)." },
    }),
    responses: {
      '200': ok('A page of calls.', envelope(ref(idOf(responseRegistry, voiceConversationListSchema)))),
      '400': use('BadRequest'),
      ...publicErrors,
    },
  },
  'POST /api/conversations/{id}/messages': {
    operationId: 'replyToConversation',
    tags: ['WhatsApp conversations'],
    summary: 'Reply to a WhatsApp conversation as a person',
    description:
      "Sends a text, a file (an image or a document uploaded first with POST …/attachments) or both to the customer from the account's WhatsApp number, as a person of the business (sentBy human). It pauses the AI on the conversation (the agent does not answer the customer's next messages) until the owner returns it to the AI in the app or the inbox's idle time (aiResumeAfterHours, default 12) passes. Only inside WhatsApp's 24-hour window counted from the customer's last message. Counts toward the plan's monthly messages.",
    parameters: [idParameter('The conversation id.')],
    requestBody: { required: true, content: jsonContent(ref(idOf(requestRegistry, humanReplyRequest))) },
    responses: {
      '201': ok('Sent.', envelope(ref(idOf(responseRegistry, conversationMessageSchema)), whatsappMessages.replySent)),
      '400': {
        description: `Invalid text, the 24-hour window closed ("${whatsappMessages.windowClosed}"), WhatsApp not connected ("${whatsappMessages.notConnected}"), or an attachment that is not there ("${mediaMessages.attachmentNotUploaded}"), of another type or too large ("${mediaMessages.attachmentTooLarge}"). With an attachment the message is "${mediaMessages.attachmentSent}".`,
        content: jsonContent(ref('Error')),
      },
      '402': { description: 'No active subscription.', content: jsonContent(ref('Error')) },
      ...publicErrors,
      '403': {
        description: "The plan's monthly message limit is reached, or an API key was sent where keys are not accepted.",
        content: jsonContent(ref('Error')),
      },
      '404': use('NotFound'),
      '502': { description: 'WhatsApp could not be reached.', content: jsonContent(ref('Error')) },
      '503': {
        description: `WhatsApp is temporarily unavailable ("${whatsappMessages.graphTemporarilyUnavailable}"): the message was not sent and is kept as failed; send it again later. \`errorCode\` is Meta's code; Retry-After when Meta gave one.`,
        content: jsonContent(ref('Error')),
      },
      '504': {
        description: `WhatsApp did not confirm the send in time ("${whatsappMessages.deliveryUnknown}"): it may have reached the customer, so it is not sent again by itself.`,
        content: jsonContent(ref('Error')),
      },
    },
  },
  'POST /api/conversations/{id}/attachments': {
    operationId: 'requestConversationAttachmentUpload',
    tags: ['WhatsApp conversations'],
    summary: 'Upload a file to attach to a reply',
    description: `The first step of a reply with a file: answers a signed form to upload the file straight to storage (a multipart/form-data POST of \`fields\`, then the file as \`file\`, to \`url\`, within an hour). Then POST …/messages with \`attachment: {uploadId}\`: the file is checked again, kept with the conversation, uploaded to WhatsApp and sent (a document with its file name). Images: JPG or PNG up to ${MEDIA_LIMITS.attachmentMaxBytes.image / 1024 / 1024} MB; documents: PDF, Word, Excel or text up to ${MEDIA_LIMITS.attachmentMaxBytes.document / 1024 / 1024} MB. Only inside WhatsApp's 24-hour window. An upload never sent is deleted after a day.`,
    parameters: [idParameter('The conversation id.')],
    requestBody: { required: true, content: jsonContent(ref(idOf(requestRegistry, attachmentUploadRequest))) },
    responses: {
      '201': ok('The upload form.', envelope(ref(idOf(responseRegistry, attachmentUploadTicketSchema)))),
      '400': {
        description: `A type that cannot be attached ("${mediaMessages.attachmentTypeInvalid}"), too large ("${mediaMessages.attachmentTooLarge}"), no file name, or the 24-hour window closed ("${whatsappMessages.windowClosed}").`,
        content: jsonContent(ref('Error')),
      },
      ...publicErrors,
      '404': use('NotFound'),
    },
  },
  'GET /api/voice-conversations/{id}': {
    operationId: 'getCall',
    tags: ['Voice conversations'],
    summary: 'Get a call',
    description: 'One call with its transcript, summary and summary deliveries.',
    parameters: [idParameter('The call id (`_id` of the list).')],
    responses: {
      '200': ok(
        'The call.',
        envelope({
          type: 'object',
          required: ['conversation'],
          properties: { conversation: ref(idOf(responseRegistry, voiceConversationSchema)) },
        }),
      ),
      ...publicErrors,
      '404': use('NotFound'),
    },
  },
  'GET /api/bookings/services': {
    operationId: 'listBookingServices',
    tags: ['Bookings'],
    summary: 'List services',
    description: 'The services of the account by name: their `_id` is the `serviceId` that availability and bookings take.',
    responses: {
      '200': {
        description: 'The services.',
        content: { 'application/json': { schema: envelope({ type: 'array', items: ref(idOf(responseRegistry, bookingServiceSchema)) }), example: { success: true, data: [exampleService] } } },
      },
      ...publicErrors,
    },
  },
  'GET /api/bookings/staff': {
    operationId: 'listBookingStaff',
    tags: ['Bookings'],
    summary: 'List staff and rooms',
    description: 'The staff members and rooms of the account by name, with their weekly hours (local times of the business) and closures: their `_id` is the `staffId` that availability and bookings take.',
    responses: {
      '200': {
        description: 'The staff members and rooms.',
        content: { 'application/json': { schema: envelope({ type: 'array', items: ref(idOf(responseRegistry, bookingStaffSchema)) }), example: { success: true, data: [exampleStaff] } } },
      },
      ...publicErrors,
    },
  },
  'GET /api/bookings/availability': {
    operationId: 'findSlots',
    tags: ['Bookings'],
    summary: 'Find free slots',
    description: `The nearest free times for a service between two local dates of the business, soonest first: inside the staff's weekly hours, outside closures and other bookings (with the service's buffer), after the minimum notice and within how far ahead bookings are taken, on the slot step of the booking settings. At most ${BOOKING_LIMITS.availabilityDays} days per request.`,
    parameters: queryParameters(availabilityQuery, {
      serviceId: { description: 'The service (`_id` of GET /api/bookings/services).' },
      from: { description: 'First local date (YYYY-MM-DD), included.', schema: { format: 'date', examples: ['2026-12-01'] } },
      to: { description: `Last local date (YYYY-MM-DD), included; at most ${BOOKING_LIMITS.availabilityDays} days after from.`, schema: { format: 'date', examples: ['2026-12-15'] } },
      staffId: { description: 'Only this staff member or room; absent: everyone who does the service.' },
      limit: { description: `Slots to answer, 1 to ${BOOKING_LIMITS.slots}.`, schema: { default: String(BOOKING_DEFAULTS.slots) } },
    }),
    responses: {
      '200': {
        description: 'The free slots (an empty list: none in those days).',
        content: { 'application/json': { schema: envelope({ type: 'array', items: ref(idOf(responseRegistry, bookingSlotSchema)) }), example: { success: true, data: [exampleSlot] } } },
      },
      '400': {
        description: `Invalid query: "${bookingMessages.rangeInvalid}", "${bookingMessages.rangeTooLong(BOOKING_LIMITS.availabilityDays)}", "${bookingMessages.noStaffForService}", "${bookingMessages.staffCannotDoService}"…`,
        content: jsonContent(ref('Error')),
      },
      ...publicErrors,
      '404': { description: `"${bookingMessages.serviceNotFound}" or "${bookingMessages.staffNotFound}".`, content: jsonContent(ref('Error')) },
    },
  },
  'GET /api/bookings': {
    operationId: 'listBookings',
    tags: ['Bookings'],
    summary: 'List bookings',
    description: `The bookings starting between two local dates of the business, soonest first, ${BOOKING_LIMITS.pageSize} at most per page (then \`nextCursor\`). At most ${BOOKING_LIMITS.listDays} days per request.`,
    parameters: queryParameters(bookingListQuery, {
      from: { description: 'First local date (YYYY-MM-DD), included.', schema: { format: 'date', examples: ['2026-12-01'] } },
      to: { description: `Last local date (YYYY-MM-DD), included; at most ${BOOKING_LIMITS.listDays} days after from.`, schema: { format: 'date', examples: ['2026-12-31'] } },
      staffId: { description: 'Only this staff member or room.' },
      status: { description: `Only bookings with this status: ${BOOKING_STATUSES.join(', ')}.` },
      cursor: { description: '`nextCursor` of the previous page.' },
      limit: { description: `Page size, 1 to ${BOOKING_LIMITS.pageSize}.`, schema: { default: String(BOOKING_LIMITS.pageSize) } },
    }),
    responses: {
      '200': {
        description: 'A page of bookings.',
        content: { 'application/json': { schema: envelope(ref(idOf(responseRegistry, bookingListSchema))), example: { success: true, data: { bookings: [exampleBooking], nextCursor: null } } } },
      },
      '400': use('BadRequest'),
      ...publicErrors,
    },
  },
  'POST /api/bookings': {
    operationId: 'createBooking',
    tags: ['Bookings'],
    summary: 'Book a slot',
    description:
      "Books the time if it is free when written: two bookings of one staff member never overlap (the database refuses the second, whoever makes it: the owner, the agent or the API). With an API key the booking settings' minimum notice and how far ahead apply (the owner in the app may book any future time), and so do the busy times of a connected Google Calendar. A booking made with an API key has `bookedBy` and `channel` 'api'.",
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: ref(idOf(requestRegistry, bookingCreateRequest)),
          example: { serviceId: exampleService._id, staffId: exampleStaff._id, start: '2026-12-01T10:30', customer: { name: 'Lucía Fernández', phone: '612 345 678' }, notes: 'Primera visita' },
        },
      },
    },
    responses: {
      '201': bookingData('Booked.', bookingMessages.created),
      '400': { description: `Invalid input, or a time the rules refuse: ${bookingRules}.`, content: jsonContent(ref('Error')) },
      ...publicErrors,
      '404': { description: `"${bookingMessages.serviceNotFound}" or "${bookingMessages.staffNotFound}".`, content: jsonContent(ref('Error')) },
      '409': { description: `The time was taken meanwhile ("${bookingMessages.slotTaken}"): ask for availability again.`, content: jsonContent(ref('Error')) },
    },
  },
  'GET /api/bookings/{id}': {
    operationId: 'getBooking',
    tags: ['Bookings'],
    summary: 'Get a booking',
    parameters: [bookingIdParameter],
    responses: { '200': bookingData('The booking.'), ...publicErrors, '404': use('NotFound') },
  },
  'PATCH /api/bookings/{id}': {
    operationId: 'updateBooking',
    tags: ['Bookings'],
    summary: 'Move or change a booking',
    description: 'A move keeps the no-overlap rule and the booking rules of a new booking. Only confirmed, upcoming bookings can be moved or change status; notes can always be changed.',
    parameters: [bookingIdParameter],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: ref(idOf(requestRegistry, bookingUpdateRequest)), example: { start: '2026-12-02T17:00', notes: 'Cambiada a la tarde' } } },
    },
    responses: {
      '200': bookingData('Changed.', bookingMessages.updated),
      '400': {
        description: `Invalid input, a time the rules refuse (${bookingRules}), or a move or status change of a cancelled or past booking ("${bookingMessages.notActive}").`,
        content: jsonContent(ref('Error')),
      },
      ...publicErrors,
      '404': use('NotFound'),
      '409': {
        description: `The new time is taken ("${bookingMessages.slotTaken}"), or the booking was changed at the same time ("${bookingMessages.changedMeanwhile}").`,
        content: jsonContent(ref('Error')),
      },
    },
  },
  'POST /api/bookings/{id}/cancel': {
    operationId: 'cancelBooking',
    tags: ['Bookings'],
    summary: 'Cancel a booking',
    description: 'The time is free again at once. The booking stays, with status cancelled.',
    parameters: [bookingIdParameter],
    responses: {
      '200': bookingData('Cancelled.', bookingMessages.cancelled),
      '400': { description: `Already cancelled, or past ("${bookingMessages.notActive}").`, content: jsonContent(ref('Error')) },
      ...publicErrors,
      '404': use('NotFound'),
      '409': { description: `Changed at the same time ("${bookingMessages.changedMeanwhile}"): read it again.`, content: jsonContent(ref('Error')) },
    },
  },
  'GET /api/api-keys': {
    operationId: 'listApiKeys',
    tags: ['API keys'],
    summary: 'List API keys',
    description: 'The account’s keys (never the keys themselves). Signed-in users only: an API key cannot manage keys.',
    responses: { '200': ok('The keys.', envelope({ type: 'array', items: ref(idOf(responseRegistry, apiKeyViewSchema)) })), ...signedInErrors },
  },
  'POST /api/api-keys': {
    operationId: 'createApiKey',
    tags: ['API keys'],
    summary: 'Create an API key',
    description: `The full key is in the answer and never again (only its SHA-256 and first characters are stored). At most ${API_KEY_LIMITS.perUser} keys per account.`,
    requestBody: { required: true, content: jsonContent(ref(idOf(requestRegistry, createApiKeyRequest))) },
    responses: {
      '201': ok('Created.', envelope(ref(idOf(responseRegistry, createdApiKeySchema)), apiKeyMessages.created)),
      '400': use('BadRequest'),
      ...signedInErrors,
      '403': {
        description: `"${apiKeyMessages.tooMany}", or an API key was sent ("${apiKeyMessages.routeNotAllowed}").`,
        content: jsonContent(ref('Error')),
      },
    },
  },
  'PUT /api/api-keys/{id}/regenerate': {
    operationId: 'regenerateApiKey',
    tags: ['API keys'],
    summary: 'Regenerate an API key',
    description: 'A new secret for the same key id and name; the old key stops working at once.',
    parameters: [idParameter('The key id.')],
    responses: {
      '200': ok('The new key.', envelope(ref(idOf(responseRegistry, createdApiKeySchema)), apiKeyMessages.regenerated)),
      ...signedInErrors,
      '404': use('NotFound'),
    },
  },
  'DELETE /api/api-keys/{id}': {
    operationId: 'deleteApiKey',
    tags: ['API keys'],
    summary: 'Delete an API key',
    description: 'The key stops working at once.',
    parameters: [idParameter('The key id.')],
    responses: {
      '200': ok('Deleted.', {
        type: 'object',
        required: ['success', 'message'],
        properties: { success: { const: true }, message: { type: 'string', examples: [apiKeyMessages.deleted] } },
      }),
      ...signedInErrors,
      '404': use('NotFound'),
    },
  },
};

/** The routes this document describes, in manifest order. */
export function documentedRoutes(): readonly RouteDef[] {
  return routes.filter((r) => r.auth === 'userOrApiKey' || r.group === 'api-keys');
}

const apiKeySecurity = [{ apiKeyBearer: [] }, { apiKeyHeader: [] }, { cognitoJwt: [] }];
const signedInSecurity = [{ cognitoJwt: [] }];

export function buildOpenApi(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of documentedRoutes()) {
    const key = `${route.method} ${route.path}`;
    const operation = operations[key as PublicRouteKey];
    if (!operation) throw new Error(`No OpenAPI description for ${key}: add it to functions/scripts/openapi.ts`);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      ...operation,
      // The manifest's paid-feature flag: the HTTP layer answers 402 before the route runs.
      ...((route as RouteDef).requires === 'subscription'
        ? { responses: { ...(operation.responses as Json), '402': use('SubscriptionRequired') } }
        : {}),
      security: route.auth === 'userOrApiKey' ? apiKeySecurity : signedInSecurity,
    };
  }
  const described = new Set(documentedRoutes().map((r) => `${r.method} ${r.path}`));
  const extra = Object.keys(operations).filter((k) => !described.has(k));
  if (extra.length) throw new Error(`Described but not public in the manifest: ${extra.join(', ')}`);

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'AgentDesk public API',
      version: '1.0.0',
      description: [
        'Chat with your agents, manage contacts, read call logs and book appointments from your own code.',
        '',
        `Authenticate with an API key (Settings → API keys in the app): \`Authorization: Bearer ${API_KEY_PREFIX}…\` or \`x-api-key: ${API_KEY_PREFIX}…\`. ` +
          'The app’s sign-in token works on the same routes. An API key on any other route answers 403.',
        '',
        `Each key may make ${API_KEY_LIMITS.requestsPerWindow} requests per ${API_KEY_LIMITS.windowSeconds} seconds (fixed window); beyond that 429 with \`Retry-After\`.`,
        '',
        'Every JSON answer is `{success, data, message}`; errors are `{success: false, message}`. See docs/API.md.',
      ].join('\n'),
    },
    servers: [
      { url: 'https://{host}', description: 'Your deployment (the app’s address)', variables: { host: { default: 'app.example.com' } } },
      { url: 'http://localhost:3000', description: 'Local runtime (npm start)' },
    ],
    tags: [
      { name: 'Agents', description: 'Talk to an agent.' },
      { name: 'Contacts', description: 'The contact directory.' },
      { name: 'Voice conversations', description: 'Call logs of the voice agent.' },
      { name: 'WhatsApp conversations', description: 'Reply to customers as a person (it pauses the AI on the conversation).' },
      { name: 'Bookings', description: "Appointments in the calendar AgentDesk keeps: free slots, book, move, cancel (times in UTC, the business's hours in its time zone)." },
      { name: 'API keys', description: 'Manage keys (signed-in users in the app; not reachable with an API key).' },
    ],
    paths,
    components: {
      securitySchemes: {
        apiKeyBearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: `API key (${API_KEY_PREFIX}…)`,
          description: `An API key as a bearer token: \`Authorization: Bearer ${API_KEY_PREFIX}…\`.`,
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key in the `x-api-key` header.' },
        cognitoJwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The app’s sign-in access token (Amazon Cognito), as the web app sends it.',
        },
      },
      schemas: { ...components(requestRegistry, 'input'), ...components(responseRegistry, 'output') },
      responses: sharedResponses,
    },
  };
}

export function renderOpenApi(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}

function main() {
  const text = renderOpenApi();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(OPENAPI_FILE, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== text) {
      console.error('docs/openapi.json is stale: run npm run openapi');
      process.exit(1);
    }
    console.log('docs/openapi.json is up to date');
    return;
  }
  writeFileSync(OPENAPI_FILE, text);
  console.log(`Wrote ${OPENAPI_FILE}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) main();
