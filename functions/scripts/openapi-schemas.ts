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
import { MESSAGE_STATUSES, type ConversationMessage, type MessageMedia } from '../src/contract/whatsapp.js';
import { INTEGRATION_HEALTH_REASONS } from '../src/contract/integration-health.js';
import { EMAIL_DELIVERY_STATES, EMAIL_FAILURE_REASONS, type EmailDelivery } from '../src/contract/email-delivery.js';

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
    url: z.optional(z.string()),
  }),
);

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
];
