/**
 * WhatsApp contract (SPEC §2 Conversations + Messages, §3 Message/Conversation, §4, §5 WhatsApp
 * setup + escalation, §7 Messages/Conversations/Integrations, §8, §9). Browser-safe: no Node imports.
 */
import * as z from 'zod/mini';
import './zod-locale.js';
import { looksLikePhone } from './phone.js';
import type { IntegrationHealthReason } from './integration-health.js';
import type { ConversationNoAnswer, NoAnswerMarker } from './no-answer.js';
import type { OptOutState } from './privacy.js';
import type { InteractiveReply, MediaFailureReason, MediaState, MediaTranscript, MessageContactCard, MessageInteractive, MessageLocation } from './whatsapp-media.js';
import { MEDIA_LIMITS, mediaMessages, replyAttachment } from './whatsapp-media.js';

// ---------------------------------------------------------------------------------------------
// Integration (POST /api/integrations/whatsapp-business/setup, /test)

export { WHATSAPP_TEXT_LIMITS, whatsappMessages } from './whatsapp-messages.js';
import { WHATSAPP_TEXT_LIMITS, whatsappMessages } from './whatsapp-messages.js';

const required = (message: string, max = 500) =>
  z.string({ error: message }).check(z.trim(), z.minLength(1, message), z.maxLength(max));

/**
 * POST /api/integrations/whatsapp-business/setup. `appSecret` (beyond the spec's fields) verifies
 * X-Hub-Signature-256 of webhook deliveries. On an edit, '***' (or '') keeps a stored secret.
 */
export const whatsappSetupRequest = z.object({
  // The token travels in an Authorization header: only visible ASCII can (other characters made the call throw: 502).
  bearerToken: z._default(z.string().check(z.trim(), z.maxLength(1000), z.regex(/^[\x21-\x7e]*$/, whatsappMessages.bearerTokenInvalid)), ''),
  businessId: required(whatsappMessages.businessIdRequired, 64),
  phoneId: required(whatsappMessages.phoneIdRequired, 64),
  phoneNumber: z
    .string({ error: whatsappMessages.phoneNumberRequired })
    .check(
      z.trim(),
      z.minLength(1, whatsappMessages.phoneNumberRequired),
      // Typed as at home or with its country code: the server reads it in the account's country (issue 19).
      z.refine(looksLikePhone, whatsappMessages.phoneNumberInvalid),
    ),
  appSecret: z._default(z.string().check(z.trim(), z.maxLength(200)), ''),
});
export type WhatsAppSetupInput = z.infer<typeof whatsappSetupRequest>;

/** data of a successful setup (SPEC §7: webhookUrl and webhookVerifyToken, shown after setup). */
export interface WhatsAppSetupResult {
  webhookUrl: string;
  webhookVerifyToken: string;
}

// ---------------------------------------------------------------------------------------------
// Messages (SPEC §3 Message, §4, §7 Messages)

export const MESSAGE_TYPES = ['chat', 'image', 'video', 'audio', 'ptt', 'document', 'sticker', 'location', 'contacts', 'interactive'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number] | (string & {});
export const MESSAGE_STATUSES = ['pending', 'sent', 'delivered', 'read', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
/** SPEC §4: today, lastWeek, lastMonth; anything else is all time. Messages default: lastWeek. */
export const TIME_FILTERS = ['today', 'lastWeek', 'lastMonth', 'all'] as const;
export type TimeFilter = (typeof TIME_FILTERS)[number];
export const MESSAGES_PAGE_SIZE = 20;

export interface MessageMedia {
  /** WhatsApp media id. */
  id?: string;
  mimeType?: string;
  sha256?: string;
  caption?: string;
  filename?: string;
  /** Presigned link when the media was copied to our storage (set on the way out, never stored). */
  url?: string;
  // Issue 31 (contract/whatsapp-media.ts): the customer's media fetched, stored and understood.
  /** How far the worker got; absent on messages stored before issue 31 (and on outgoing media sent by link). */
  state?: MediaState;
  /** Why it could not be stored or understood (the message itself is kept). */
  failure?: MediaFailureReason;
  /** Bytes of our copy. */
  size?: number;
  /** A voice note or audio as text. */
  transcript?: MediaTranscript;
  /** A document's text, its first MEDIA_LIMITS.documentPreviewChars (the agent read up to documentTextChars at the time). */
  textPreview?: string;
  /** Pages of a PDF, when known. */
  pages?: number;
}

export interface Message {
  _id: string;
  /** WhatsApp message id (wamid…). */
  waMessageId: string;
  conversationId: string;
  contactId?: string;
  type: MessageType;
  hasMedia: boolean;
  media?: MessageMedia;
  fromMe: boolean;
  /** E.164 or WhatsApp id of the customer (outgoing) / our number (incoming). */
  to: string;
  from: string;
  /** SPEC §3: the sending phone number, as {name}. */
  phoneNumberId: { id: string; name: string };
  status: MessageStatus;
  /** ISO time. */
  timestamp: string;
  body: string;
  /** Why a send failed (Meta's error, or the plan limit), written for the user. */
  error?: string;
  /** The provider's code of a failed send (Meta '190', '131047'…), kept as it came (issue 34). */
  errorCode?: string;
  /** A failed send's reason as a key the UI translates, when the integration's credentials were refused (contract/integration-health.ts). */
  errorReason?: IntegrationHealthReason;
  /** Outgoing replies written by an agent. */
  agent?: { _id: string; name: string };
  /** Outgoing replies written by a person in the dashboard. */
  sentBy?: 'agent' | 'human';
  /** Issue 32: who sent a person's message (sentBy 'human'), as of sending; absent on older messages. */
  sender?: MessageSender;
  /** The customer's entry in the contacts directory, when there is one (issue 29: the Message Hub names them); GET /api/messages. */
  contact?: { _id: string; name: string };
  // Issue 31: what a message carries besides text and media.
  /** type 'location': a customer's shared location, or the business's location sent by the agent. */
  location?: MessageLocation;
  /** type 'contacts': the contact cards a customer shared. */
  contactCards?: MessageContactCard[];
  /** type 'interactive' (outgoing): reply buttons or a list sent with `body`. */
  interactive?: MessageInteractive;
  /** An inbound button or list reply: the option tapped (its title is `body`). */
  interactiveReply?: InteractiveReply;
}

export interface MessagePagination {
  currentPage: number;
  totalPages: number;
  totalMessages: number;
  limit: number;
}

/** GET /api/messages: `pagination` beside `data`. */
export interface MessageListResponse {
  success: boolean;
  data: Message[];
  pagination: MessagePagination;
}

export interface MessageStats {
  totalMessages: number;
  sentMessages: number;
  receivedMessages: number;
  mediaMessages: number;
  statusBreakdown: { pending: number; sent: number; delivered: number; read: number; failed: number };
  typeBreakdown: { chat: number; image: number; video: number; audio: number; document: number; sticker: number };
}

const pageParam = z._default(
  z.pipe(z.string(), z.transform(Number)).check(z.refine((n) => Number.isInteger(n) && n >= 1, whatsappMessages.pageInvalid)),
  1,
);
const limitParam = (fallback: number) =>
  z._default(
    z.pipe(z.string(), z.transform(Number)).check(z.refine((n) => Number.isInteger(n) && n >= 1 && n <= 100, whatsappMessages.limitInvalid)),
    fallback,
  );
/** Unknown values mean all time (SPEC §4). */
const timeFilterParam = (fallback: TimeFilter) =>
  z._default(
    z.pipe(
      z.string(),
      z.transform((v): TimeFilter => ((TIME_FILTERS as readonly string[]).includes(v) ? (v as TimeFilter) : 'all')),
    ),
    fallback,
  );

/** GET /api/messages query. */
export const listMessagesQuery = z.object({
  page: pageParam,
  limit: limitParam(MESSAGES_PAGE_SIZE),
  search: z._default(z.string().check(z.trim(), z.maxLength(WHATSAPP_TEXT_LIMITS.search)), ''),
  /** '' = any; unknown statuses are treated as pending (SPEC §4). */
  status: z._default(z.string().check(z.trim()), ''),
  /** 'true' | 'false' | '' (any). */
  fromMe: z._default(z.enum(['true', 'false', '']), ''),
  timeFilter: timeFilterParam('lastWeek'),
});
export type ListMessagesQuery = z.infer<typeof listMessagesQuery>;

export const messageStatsQuery = z.object({ timeFilter: timeFilterParam('lastWeek') });

// ---------------------------------------------------------------------------------------------
// Conversations (SPEC §3 Conversation, §4, §7 Conversations)

export const CONVERSATION_STATUSES = ['active', 'closed', 'requires_human', 'archived'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
/** GET /api/conversations/overview dateFilter: omitted = today. */
export const CONVERSATION_DATE_FILTERS = ['today', 'this_week', 'this_month'] as const;
export type ConversationDateFilter = (typeof CONVERSATION_DATE_FILTERS)[number];
/** SPEC §9: free-message window. */
export const FREE_MESSAGE_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface ConversationLastMessage {
  type: string;
  fromMe: boolean;
  content: string;
  body: string;
  timestamp: string;
  createdAt: string;
}

/** Who answers the customer now (issue 17): the agent, or a person who took over. */
export type ConversationResponder = 'ai' | 'human';

export interface Conversation {
  _id: string;
  status: ConversationStatus;
  notes: string;
  escalationReason: string;
  /**
   * name: the contact's current directory name (read at read time), else the WhatsApp profile
   * name, else the number. phoneNumber: E.164, or '' for a customer known only by a WhatsApp
   * username (BSUID) — shown as "WhatsApp user", with no "Open WhatsApp".
   */
  contact: { _id: string; name: string; phoneNumber: string };
  /** The customer's WhatsApp id (wa_id, or the BSUID when Meta sends no wa_id), which can differ from the phone number's digits. */
  customerWaId: string;
  /** The customer's WhatsApp profile name (a secondary line next to the directory name; '' when none). */
  profileName: string;
  /**
   * 'human' from a person's reply (board, API) or an escalation until the owner returns it to the
   * AI or the inbox's idle time passes (InboxSettings.aiResumeAfterHours); the agent does not
   * answer meanwhile.
   */
  answeredBy: ConversationResponder;
  /** ISO: when a person last acted (replied or escalated) while answering; null when the AI answers. */
  humanSince: string | null;
  /** ISO: when the AI takes the conversation back on its own; null when the AI answers. */
  aiResumesAt: string | null;
  /** The member (their person id, contract/team.ts Member._id) the conversation is assigned to; null = unassigned. */
  assignee: string | null;
  /** Customer messages since the owner last opened the conversation (GET /api/conversations/{id} clears it). */
  unreadCount: number;
  lastMessage: ConversationLastMessage | null;
  lastAgent: { _id: string; name: string; description: string; objective: string; priority: number } | null;
  createdAt: string;
  lastMessageAt: string;
  /**
   * When the customer last wrote, as Meta stamps the message (issue 29: not when its delivery
   * reached us; never later than it was stored): the 24-hour window is counted from it.
   */
  lastInboundAt: string | null;
  closedAt: string | null;
  escalatedAt: string | null;
  messageCount: number;
  /** Customer messages that got no answer (the model was unavailable, issue 34), waiting for "Answer waiting messages"; null when none. */
  noAnswer?: ConversationNoAnswer | null;
}

/**
 * POST /api/conversations/{id}/resume-ai data (issue 29): the conversation, and the customer's
 * messages a person left unanswered (those after the last reply) — the AI answers them now,
 * once, unless the 24-hour window has closed or the conversation is closed.
 */
export interface ResumeAiResult extends Conversation {
  /** The customer's messages after the last reply when it was returned (0: none). */
  leftUnanswered: number;
  /** Whether the AI is answering them now (false: none, already being answered, the window closed, or closed). */
  answering: boolean;
}

export interface ConversationStats {
  total: number;
  active: number;
  requiresHuman: number;
  closed: number;
  archived: number;
}

/** GET /api/conversations/overview data. */
export interface ConversationOverview {
  conversationsByStatus: { active: Conversation[]; closed: Conversation[]; requires_human: Conversation[] };
  stats: ConversationStats;
  /** Conversations of the account with messages waiting for an answer (issue 34), whatever the date filter. */
  waitingConversations?: number;
}

export interface ConversationMessage {
  _id: string;
  fromMe: boolean;
  type: string;
  body: string;
  content: string;
  timestamp: string;
  status: MessageStatus;
  hasMedia: boolean;
  media?: MessageMedia;
  error?: string;
  errorCode?: string;
  errorReason?: IntegrationHealthReason;
  sentBy?: 'agent' | 'human';
  /** Issue 32: as Message. */
  sender?: MessageSender;
  /** Issue 31: as Message. */
  location?: MessageLocation;
  contactCards?: MessageContactCard[];
  interactive?: MessageInteractive;
  interactiveReply?: InteractiveReply;
}

/** A message as a conversation's detail shows it: a customer's message that got no answer carries the marker (issue 34). */
export interface ConversationDetailMessage extends ConversationMessage {
  noAnswer?: NoAnswerMarker;
}

/** GET /api/conversations/{id} data. */
export interface ConversationDetail {
  conversation: Conversation;
  messages: ConversationDetailMessage[];
  /**
   * Issue 33: the customer asked for no reminders or templates (a stop word such as BAJA); null =
   * they receive them. A free-form reply inside the 24-hour window stays possible either way.
   */
  optOut?: OptOutState | null;
}

/**
 * Who sent a person's message (issue 32): a member of the account (their person id and their name
 * when they sent it), or an API key of the account (its id and name: an external system's reply).
 */
export interface MessageSender {
  kind: 'member' | 'apiKey';
  _id: string;
  name: string;
}
export const MESSAGE_SENDER_KINDS = ['member', 'apiKey'] as const;
/** Longest sender name kept (a profile's or a key's name is shorter; a longer one is cut). */
export const MESSAGE_SENDER_NAME_MAX = 120;

/**
 * The board's assignee filter (issue 17): me = assigned to the caller (the person, issue 32), none = unassigned, all
 * (or omitted) = every conversation.
 */
export const ASSIGNEE_FILTERS = ['me', 'none', 'all'] as const;
export type AssigneeFilterParam = (typeof ASSIGNEE_FILTERS)[number];
const assigneeParam = z._default(z.enum(ASSIGNEE_FILTERS, { error: whatsappMessages.assigneeFilterInvalid }), 'all');

export const overviewQuery = z.object({
  assignee: assigneeParam,
  dateFilter: z._default(
    z.pipe(
      z.string(),
      z.transform((v): ConversationDateFilter => ((CONVERSATION_DATE_FILTERS as readonly string[]).includes(v) ? (v as ConversationDateFilter) : 'today')),
    ),
    'today',
  ),
});

/** GET /api/conversations query. */
export const listConversationsQuery = z.object({
  status: z.optional(z.enum(CONVERSATION_STATUSES, { error: whatsappMessages.statusInvalid })),
  search: z._default(z.string().check(z.trim(), z.maxLength(WHATSAPP_TEXT_LIMITS.search)), ''),
  page: pageParam,
  limit: limitParam(50),
  assignee: assigneeParam,
});

/** PUT /api/conversations/{id}. Notes trimmed on save (SPEC §5). */
export const updateConversationRequest = z.object({
  status: z.optional(z.enum(CONVERSATION_STATUSES, { error: whatsappMessages.statusInvalid })),
  notes: z.optional(z.string().check(z.trim(), z.maxLength(WHATSAPP_TEXT_LIMITS.notes, whatsappMessages.notesTooLong))),
  /** A member's person id or null (the service checks they are an active member of the caller's account). */
  assignee: z.optional(z.nullable(z.string({ error: whatsappMessages.assigneeInvalid }).check(z.maxLength(128, whatsappMessages.assigneeInvalid)))),
});

/** POST /api/conversations/{id}/escalate. */
export const escalateRequest = z.object({
  reason: z
    .string({ error: whatsappMessages.escalationReasonRequired })
    .check(
      z.trim(),
      z.minLength(1, whatsappMessages.escalationReasonRequired),
      z.maxLength(500, whatsappMessages.escalationReasonTooLong),
    ),
});

/**
 * POST /api/conversations/{id}/messages: a person replies as the business (beyond the spec's modal).
 * With `attachment` (issue 31: an upload from POST …/attachments) the text is the file's caption
 * (≤ MEDIA_LIMITS.captionChars) and may be empty.
 */
export const humanReplyRequest = z
  .object({
    text: z._default(z.string({ error: whatsappMessages.replyRequired }).check(z.trim(), z.maxLength(4096, whatsappMessages.replyTooLong)), ''),
    attachment: z.optional(replyAttachment),
  })
  .check(
    z.refine((r) => r.text.length > 0 || r.attachment !== undefined, { message: whatsappMessages.replyRequired, path: ['text'] }),
    z.refine((r) => r.attachment === undefined || r.text.length <= MEDIA_LIMITS.captionChars, { message: mediaMessages.captionTooLong, path: ['text'] }),
  );

/** POST /api/contacts/import-whatsapp data. */
export interface WhatsAppImportResult {
  imported: number;
  skipped: number;
}
