/**
 * Ports of the conversations domain: WhatsApp conversations and their messages as stored.
 * Used by the inbound worker (domain/whatsapp/inbound.ts) and the API use cases
 * (domain/conversations/service.ts). Adapter: adapters/dynamo/conversations.ts, wired by
 * composition/conversations.ts (`conversationRepository()`, `messageRepository()`).
 * Key layout: adapters/dynamo/ACCESS-PATTERNS.md § WhatsApp.
 *
 * Ids: conversation ids are 26-character time-sortable ids (lib/ids.ts). A message id is
 * `{conversationId}-{26-char id}`: opaque for callers, but it names the conversation so a
 * message is read/deleted by id with one GetItem.
 */
import type { InboxSettings } from '../../contract/inbox.js';
import type { StoredMessageSender } from './sender.js';
import type { NoAnswerMarker, NoAnswerReason } from '../../contract/no-answer.js';
import type { MessageInteractive, MessageLocation } from '../../contract/whatsapp-media.js';
import type { WhatsAppTemplate } from '../../contract/whatsapp-templates.js';
import type {
  ConversationLastMessage,
  ConversationStats,
  ConversationStatus,
  Message,
  MessageMedia,
  MessageStats,
  MessageStatus,
  TimeFilter,
} from '../../contract/whatsapp.js';

// ---------------------------------------------------------------------------------------------
// Records

export interface ConversationAgentRef {
  _id: string;
  name: string;
  description: string;
  objective: string;
  priority: number;
}

export interface StoredConversation {
  id: string;
  status: ConversationStatus;
  notes: string;
  escalationReason: string;
  /** The customer's WhatsApp id (contacts[].wa_id, or user_id when Meta sends no wa_id). */
  customerWaId: string;
  /** E.164 of the customer, or '' when WhatsApp gave no phone number. */
  customerPhone: string;
  /** WhatsApp profile name (latest seen). */
  customerName: string;
  /** Linked contact, when one exists ('' after the contact was deleted). */
  contactId: string;
  /** Our business phone number id (Meta's metadata.phone_number_id) the customer wrote to. */
  phoneNumberId: string;
  lastMessage: ConversationLastMessage | null;
  lastAgent: ConversationAgentRef | null;
  /** ISO times. */
  createdAt: string;
  updatedAt: string;
  lastMessageAt: string;
  lastInboundAt: string | null;
  closedAt: string | null;
  escalatedAt: string | null;
  messageCount: number;
  /** ISO: when a person last replied or escalated (issue 17; absent on older items). */
  humanAt?: string | null;
  /** A person answers: the agent stays quiet (takeover.ts decides with the idle time; absent on older items). */
  aiPaused?: boolean;
  /** The team member (user id) it is assigned to; null/absent = unassigned. */
  assignee?: string | null;
  /** Customer messages since the owner last opened it (atomic ADD per inbound message); absent = 0. */
  unreadCount?: number;
  /** Ids of its customer messages that got no answer and wait for the answer action (issue 34, waiting.ts); absent = none. */
  noAnswerIds?: ReadonlySet<string>;
  /** Why the latest of them got none, and when (absent with noAnswerIds). */
  noAnswerReason?: NoAnswerReason;
  noAnswerAt?: string;
}

/** A message as stored: the API's Message with our own id, the contact always known, and bookkeeping. */
/** A message's media as stored: the view's fields and our copy's key (never sent to the browser). */
export interface StoredMessageMedia extends MessageMedia {
  /** Our copy in the uploads bucket (contract WHATSAPP_MEDIA_PREFIX…). */
  storedKey?: string;
}

export interface StoredMessage extends Omit<Message, '_id' | 'contactId' | 'media' | 'sender'> {
  /** `{conversationId}-{26-char id}` (time-ordered within the conversation). */
  id: string;
  media?: StoredMessageMedia;
  /** Issue 32: who sent a person's message (sender.ts), as of sending; absent on older and the agent's messages. */
  sender?: StoredMessageSender;
  contactId: string;
  /** ISO time stored. */
  createdAt: string;
  /** Retries of a failed outgoing message (POST /api/messages/{id}/retry). */
  retryCount?: number;
  /** A customer's message that got no answer (issue 34, waiting.ts): removed once it is answered. */
  noAnswer?: NoAnswerMarker;
  /** On a customer's message: the agent's reply to it once written (issue 34, whatsapp/agent-reply.ts ReplyDraft). */
  reply?: ReplyDraft;
}

/**
 * The agent's reply to a customer's message, noted on that message while it is sent (issue 34):
 * a later try of the same job resumes it instead of asking the model again. `id` is the reply
 * (an outgoing message, pending until Meta takes it); `state` is what the last try knew:
 * 'sending' (the send was under way: found so by a later try, that try died mid-send and Meta may
 * have the reply) or 'retry' (Meta refused it for now: the same text may be sent again).
 */
export interface ReplyDraft {
  id: string;
  state: 'sending' | 'retry';
}

/** The fields of a customer's message the media pipeline may write (MessageRepository.updateMedia). */
export type MessageMediaUpdate = Partial<Pick<StoredMessage, 'media' | 'location' | 'contactCards'>>;

/** What a failed send keeps besides its text: the provider's code and our reason key (StoredMessage.errorCode / errorReason). */
export type MessageFailureDetail = Pick<StoredMessage, 'errorCode' | 'errorReason'>;

/** Forward-only order of delivery statuses; `failed` is allowed from pending and sent only. */
export const STATUS_RANK: Record<MessageStatus, number> = { pending: 0, sent: 1, delivered: 2, read: 3, failed: 1.5 };

/** Whether `to` may replace `from` (statuses never go backwards; read may arrive before delivered). */
export function statusCanMove(from: MessageStatus, to: MessageStatus): boolean {
  if (from === to) return false;
  if (to === 'failed') return from === 'pending' || from === 'sent';
  if (from === 'failed') return false;
  return STATUS_RANK[to] > STATUS_RANK[from];
}

/** Characters of a media message's transcript kept as the board card's preview (the card shows 100). */
export const LAST_MESSAGE_PREVIEW_CHARS = 200;

/**
 * What a message without text says on the board card (issue 31): a voice note's transcript, a
 * document's name, a place, a contact's name. The card puts the kind's word before it ("🎤 Nota de
 * voz"), so a voice note not transcribed yet previews as '' and shows just that word.
 */
export function previewOf(m: Pick<StoredMessage, 'body' | 'media' | 'location' | 'contactCards'>): string {
  const text =
    m.body ||
    m.media?.caption ||
    m.media?.transcript?.text ||
    m.media?.filename ||
    [m.location?.name, m.location?.address].filter(Boolean).join(', ') ||
    (m.contactCards ?? []).map((c) => c.name).filter(Boolean).join(', ');
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > LAST_MESSAGE_PREVIEW_CHARS ? `${trimmed.slice(0, LAST_MESSAGE_PREVIEW_CHARS - 1).trimEnd()}…` : trimmed;
}

/** A stored message as its conversation's lastMessage (the board card's preview; a text message's body as it is). */
export function lastMessageOf(m: StoredMessage): ConversationLastMessage {
  const body = m.body || previewOf(m);
  return { type: m.type, fromMe: m.fromMe, content: body, body, timestamp: m.timestamp, createdAt: m.createdAt };
}

// ---------------------------------------------------------------------------------------------
// Conversations

export interface CustomerRef {
  waId: string;
  /** E.164 or ''. */
  phone: string;
  name: string;
  contactId: string;
  /** Our phone_number_id the customer wrote to. */
  phoneNumberId: string;
}

export interface ConversationPatch {
  status?: ConversationStatus;
  notes?: string;
  escalationReason?: string;
  /** ISO; null clears. Set by the repository when status moves to/from closed unless given. */
  closedAt?: string | null;
  escalatedAt?: string | null;
  /** Takeover (takeover.ts): set by a person's action, aiPaused false returns it to the AI. */
  humanAt?: string | null;
  aiPaused?: boolean;
  /** User id or null (unassigned). */
  assignee?: string | null;
}

/** The board's assignee filter: a user id (theirs), null (unassigned); absent = all. */
export type AssigneeFilter = string | null;

/** What one stored message changes on its conversation. */
export interface ConversationActivity {
  lastMessage: ConversationLastMessage;
  /** Set when an agent replied. */
  lastAgent?: ConversationAgentRef;
  lastMessageAt: string;
  /** Set for a customer's message (the 24-hour window starts there). */
  lastInboundAt?: string;
  /** Added to messageCount (1 per stored message). */
  messageCountDelta: number;
  /** Refreshes the customer's profile name / contact link when known. */
  customerName?: string;
  contactId?: string;
  /** Added to unreadCount (1 per new customer message). */
  unreadDelta?: number;
  /** A person's reply: the time they acted, and the AI is paused (takeover.ts). */
  humanAt?: string;
}

export interface ConversationListInput {
  status?: ConversationStatus;
  /** Matches customer name, phone number, wa_id, notes and last message text (case/diacritics-insensitive). */
  search: string;
  offset: number;
  limit: number;
  assignee?: AssigneeFilter;
}

/** The inbox settings (issue 17; adapter: adapters/dynamo/inbox-settings.ts). */
export interface InboxSettingsRepository {
  /** The user's settings, INBOX_DEFAULTS when never saved. */
  get(userId: string): Promise<InboxSettings>;
  /** Replaces the whole object (validated by the caller); returns what is stored. */
  put(userId: string, settings: InboxSettings): Promise<InboxSettings>;
}

export interface ConversationRepository {
  /**
   * The customer's open conversation, or a new `active` one when the customer has none (or only
   * closed/archived ones). Safe under concurrency: the per-customer pointer is written with a
   * condition, so simultaneous messages of one customer end up in ONE conversation.
   * A `requires_human` conversation stays the open one (the agent stays silent in it).
   */
  findOrOpen(userId: string, customer: CustomerRef, now: string): Promise<{ conversation: StoredConversation; opened: boolean }>;
  get(userId: string, id: string): Promise<StoredConversation | null>;
  getMany(userId: string, ids: readonly string[]): Promise<StoredConversation[]>;
  /** Records a stored message on the conversation (last message, agent, times, count). Null if gone. */
  touch(userId: string, id: string, activity: ConversationActivity): Promise<StoredConversation | null>;
  /**
   * Updates status/notes/escalation; status counters move with the status in the same
   * transaction. `expectedStatus` makes it conditional (null when it did not match or the
   * conversation is gone).
   */
  update(userId: string, id: string, patch: ConversationPatch, now: string, expectedStatus?: ConversationStatus): Promise<StoredConversation | null>;
  /** requires_human with reason and escalatedAt (from any status); a person takes over (humanAt, aiPaused). Null if gone. */
  escalate(userId: string, id: string, reason: string, now: string): Promise<StoredConversation | null>;
  /** Newest activity first (lastMessageAt), with the filtered total. */
  page(userId: string, input: ConversationListInput): Promise<{ items: StoredConversation[]; total: number }>;
  /** Conversations of a status with lastMessageAt >= since, newest first, at most `limit`. */
  listActiveSince(userId: string, status: ConversationStatus, since: string, limit: number, assignee?: AssigneeFilter): Promise<StoredConversation[]>;
  /** unreadCount back to 0 (the owner opened it). */
  markRead(userId: string, id: string): Promise<void>;
  /** From the status counters (one GetItem). */
  stats(userId: string): Promise<ConversationStats>;
  /** Deletes the conversation, its messages (and their counters/wamid items) and its customer pointer. False if gone. */
  remove(userId: string, id: string): Promise<boolean>;
  /** Clears contactId on every conversation linked to the contact (contact deleted). */
  unlinkContact(userId: string, contactId: string): Promise<void>;
  /** Links the customer's conversations to a contact (after a WhatsApp import or a late contact creation). */
  linkContact(userId: string, waId: string, contactId: string): Promise<void>;
  /** Distinct customers that wrote to the user (one per wa_id), for "Import from WhatsApp". */
  customers(userId: string): AsyncIterable<Array<{ waId: string; phone: string; name: string; contactId: string }>>;
}

// ---------------------------------------------------------------------------------------------
// Messages

/**
 * Idempotency state of an inbound wamid: stored, a reply being produced, fully handled, or waiting
 * (issue 34: no answer could be sent; only the answer action takes it again, waiting.ts).
 */
export type InboundState = 'received' | 'replying' | 'handled' | 'waiting';

export interface InboundInsertResult {
  /** False when this wamid was already stored (Meta redelivered it). */
  isNew: boolean;
  /** The stored message (the earlier one for a duplicate). */
  message: StoredMessage;
  state: InboundState;
}

export type StatusUpdateResult = 'updated' | 'stale' | 'unknown';

/** Who takes the reply of an inbound wamid, until when (see claimReply). */
export interface ReplyClaim {
  owner: string;
  /** Epoch ms. */
  now: number;
  leaseMs: number;
}

export interface MessageListInput {
  page: number;
  limit: number;
  search: string;
  /** '' = any. */
  status: MessageStatus | '';
  fromMe?: boolean;
  timeFilter: TimeFilter;
  /** ISO "now" the time filter is counted from. */
  now: string;
}

export interface MessageRepository {
  /**
   * Stores an inbound message and claims its wamid in ONE conditional transaction (state
   * `received`, TTL 30 days; `replying` held by `claim.owner` when a claim is given, so a new
   * message is stored and claimed for the reply in one write), counting it in the per-day
   * counters. A redelivered wamid is not stored again: the earlier message and its claim state
   * come back with isNew false.
   */
  insertInbound(userId: string, message: StoredMessage, claim?: ReplyClaim): Promise<InboundInsertResult>;
  /**
   * Takes the right to reply to an inbound wamid: from `received`, or from `replying` when the
   * lease (`leaseMs`) expired or `owner` already holds it (the SQS retry of the same job). False
   * when another worker holds it or the reply is done.
   */
  claimReply(userId: string, waMessageId: string, owner: string, now: number, leaseMs: number): Promise<boolean>;
  /** Marks the inbound wamid handled (replied, or no reply was due). */
  finishInbound(userId: string, waMessageId: string): Promise<void>;
  /** Notes the agent's reply on the customer's message `messageId` (StoredMessage.reply); nothing when the message is gone. */
  noteReply(userId: string, messageId: string, reply: ReplyDraft): Promise<void>;
  /**
   * Writes what the media pipeline learnt of a customer's message (issue 31, whatsapp/media/fetch.ts):
   * its media (replaced whole: state, size, storedKey, failure, transcript…), location or contact
   * cards, and nothing else, in one conditional update of the message item. Returns the updated
   * message; null when it is gone (or is not a customer's message).
   */
  updateMedia(userId: string, messageId: string, update: MessageMediaUpdate): Promise<StoredMessage | null>;
  /**
   * Stores an outgoing message (usually status pending, waMessageId '') with its counters.
   * `replyTo`: the customer's message it answers, which notes it as its reply (ReplyDraft, state
   * 'sending') in the same transaction: the reply is never stored without the note, nor the note
   * without the reply.
   */
  insertOutbound(userId: string, message: StoredMessage, options?: { replyTo?: string }): Promise<void>;
  /**
   * Our own send outcome: pending → sent with Meta's wamid (also indexes the wamid for status
   * webhooks), or → failed with an error. Returns the updated message, null if gone.
   */
  markSent(userId: string, id: string, waMessageId: string): Promise<StoredMessage | null>;
  /** `detail`: the provider's code and, for refused credentials, the reason key (issue 34), stored beside the text. */
  markFailed(userId: string, id: string, error: string, detail?: MessageFailureDetail): Promise<StoredMessage | null>;
  /**
   * Meta reported a send we never got the answer to (issue 34: its status webhook names the
   * message by our reference, apply-status.ts): an outgoing message still without a wamid, pending
   * or failed, becomes sent with it (the error cleared, the wamid indexed). Null when there is no
   * such message (unknown, or it has a wamid already).
   */
  adoptSend(userId: string, id: string, waMessageId: string): Promise<StoredMessage | null>;
  /**
   * A Meta status webhook for an outgoing wamid: moves forward only (statusCanMove), counters
   * follow. `unknown` when the wamid is not ours/indexed, `stale` when it would go backwards.
   */
  updateStatusByWamid(userId: string, waMessageId: string, status: MessageStatus, error?: string): Promise<StatusUpdateResult>;
  /** The last `limit` messages of a conversation, oldest first (model history, detail view). */
  recent(userId: string, conversationId: string, limit: number): Promise<StoredMessage[]>;
  /** Every message of a conversation, oldest first, at most `cap`. */
  listByConversation(userId: string, conversationId: string, cap: number): Promise<StoredMessage[]>;
  /** Message Hub list, newest first: totals from counters when unfiltered, else from a bounded scan of the time range. */
  page(userId: string, input: MessageListInput): Promise<{ items: StoredMessage[]; total: number }>;
  /** From the per-day / all-time counters: at most 31 items in one BatchGet. */
  stats(userId: string, timeFilter: TimeFilter, now: string): Promise<MessageStats>;
  /** Newest messages of the user (all conversations). */
  latest(userId: string, limit: number): Promise<StoredMessage[]>;
  get(userId: string, id: string): Promise<StoredMessage | null>;
  /** Deletes one message (counters decremented). False if gone. */
  remove(userId: string, id: string): Promise<boolean>;
  /**
   * Retry bookkeeping for a failed outgoing message: failed → pending, error cleared,
   * retryCount + 1 (conditional on status failed). Null when not found or not failed.
   */
  beginRetry(userId: string, id: string): Promise<StoredMessage | null>;
  /**
   * Adapters that batch their counter writes (the inbound worker's: one ADD per counter item per
   * delivery instead of one per write) write them now. Callers that use it await it before they
   * finish; absent = counters are written with each write.
   */
  flushCounters?(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Outbound: the plan's messages and the channel a reply goes out on

/** The plan-limit primitive (domain/billing/usage.ts) for sends: a person's reply or an agent's. */
export interface MessageUsage {
  reserve(userId: string, action: 'messages', amount?: number): Promise<number>;
  release(userId: string, action: 'messages', amount?: number): Promise<void>;
}

/**
 * A user's connected business number on a messaging channel, ready to send from. Conversations
 * knows no channel: WhatsApp implements this (domain/whatsapp/reply-channel.ts), composition/
 * wires it.
 */
export interface ReplyChannel {
  /** The business number (E.164) the reply is sent from; stored as the message's `from`. */
  phoneNumber: string;
  /** The channel's id of that number; stored as the message's `phoneNumberId.id`. */
  phoneNumberId: string;
  /**
   * Sends a text and resolves to the channel's message id. A send the channel refused is thrown
   * as the DomainError the user should read (its message is stored on the failed message);
   * anything else thrown is unexpected (logged, answered 502). `reference`: our message's id,
   * echoed in the channel's status reports.
   */
  sendText(to: string, text: string, options?: { reference?: string }): Promise<{ messageId: string }>;
  /** The approved message templates a person may send when the 24-hour window is closed (issue 17); absent = none. */
  listTemplates?(): Promise<WhatsAppTemplate[]>;
  /** Sends a template with its body parameters (errors as sendText's). */
  sendTemplate?(to: string, template: OutgoingTemplate): Promise<{ messageId: string }>;
  /** Uploads a file to the channel and sends it (issue 31: an owner's attachment; errors as sendText's); absent = the channel sends no files. */
  sendMedia?(to: string, media: OutgoingMedia, options?: { reference?: string }): Promise<{ messageId: string }>;
  /** Sends a location or reply buttons / a list (issue 31: a failed one of the agent's, sent again in its own shape; errors as sendText's); absent = as text. */
  sendContent?(to: string, content: OutgoingContent, options?: { reference?: string }): Promise<{ messageId: string }>;
}

/** What a message carries besides text and files (issue 31): a location, or a text with reply buttons or a list. */
export type OutgoingContent = { type: 'location'; location: MessageLocation } | { type: 'interactive'; body: string; interactive: MessageInteractive };

/** A file a person sends (issue 31): an image shown inline or a document sent as a file, with an optional caption. */
export interface OutgoingMedia {
  kind: 'image' | 'document';
  bytes: Uint8Array;
  mimeType: string;
  fileName: string;
  caption?: string;
}

export interface OutgoingTemplate {
  name: string;
  language: string;
  /** In the template's placeholder order. */
  parameters: string[];
  /** The placeholders ('1', '2'… or names), same order. */
  parameterNames: string[];
  /** Our id of the message, echoed in the channel's status reports (a send whose answer was lost; issue 34). */
  reference?: string;
}

export interface ReplyChannels {
  /** The user's active channel, or null when it is not connected. */
  forUser(userId: string): Promise<ReplyChannel | null>;
}
