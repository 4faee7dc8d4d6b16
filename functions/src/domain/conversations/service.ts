/**
 * The conversations and messages API use cases (SPEC §2 Conversations + Messages, §4, §7, §8):
 * the board (overview by date filter, list, stats from counters), a conversation with its
 * messages, status/notes changes (status counters move in the repository's transaction),
 * escalation, delete (with its messages), a person's reply inside the 24-hour window, and the
 * Message Hub (list, stats from counters, latest, get, retry of a failed send, delete).
 * Plain functions over ports, channel-agnostic: replies go out through the ReplyChannels port
 * (WhatsApp implements it); the inbound worker (domain/whatsapp/inbound.ts) writes the rest.
 */
import {
  FREE_MESSAGE_WINDOW_MS,
  MESSAGE_STATUSES,
  whatsappMessages,
  type Conversation,
  type AssigneeFilterParam,
  type ConversationDateFilter,
  type ConversationDetail,
  type ConversationMessage,
  type ConversationOverview,
  type ConversationStats,
  type ConversationStatus,
  type ListMessagesQuery,
  type Message,
  type MessagePagination,
  type MessageStats,
  type MessageStatus,
  type ResumeAiResult,
  type TimeFilter,
} from '../../contract/whatsapp.js';
import {
  fillTemplate,
  TEMPLATE_MESSAGE_TYPE,
  templateMessages,
  type SendTemplateRequest,
  type WhatsAppTemplate,
} from '../../contract/whatsapp-templates.js';
import { INBOX_DEFAULTS } from '../../contract/inbox.js';
import { MEDIA_LIMITS, mediaMessages, type AttachmentUploadInput, type AttachmentUploadTicket } from '../../contract/whatsapp-media.js';
import { isIntegrationHealthReason } from '../../contract/integration-health.js';
import { distinct, emptyContactNames, type ContactName, type ContactNames } from '../contacts/names.js';
import { BadGatewayError, ConflictError, DomainError, NotFoundError, ValidationError } from '../errors.js';
import { takeoverView } from './takeover.js';
import { ATTACHMENT_MAX_BYTES, attachmentFileName, attachmentMedia, attachmentStagingKey, checkAttachment, conversationMediaKey, loadAttachment, type AttachmentStore } from './attachments.js';
import { mediaLinksOf, toConversationMessage, toDetailMessage, toMessage, type MediaLinks } from './message-view.js';
import { resolveSender, type MessageActor, type SenderDirectory, type StoredMessageSender } from './sender.js';
import type { LeftUnanswered } from './waiting.js';
import { optedOutError } from '../privacy/opt-outs.js';
import type { OptOuts } from '../privacy/ports.js';
import type { EscalationAlerts } from '../notifications/ports.js';
import type {
  AssigneeFilter,
  InboxSettingsRepository,
  ConversationPatch,
  ConversationRepository,
  MessageFailureDetail,
  MessageRepository,
  MessageUsage,
  ReplyChannel,
  ReplyChannels,
  StoredConversation,
  StoredMessage,
  StoredMessageMedia,
  OutgoingContent,
  OutgoingMedia,
} from './ports.js';

export interface ConversationServiceDeps {
  conversations: ConversationRepository;
  messages: MessageRepository;
  /** Owners' attachments to replies (issue 31: staged uploads and our copies); absent = replies carry no files. */
  attachments?: AttachmentStore;
  /** Where a person's replies go out (the user's WhatsApp number; composition/ wires it). */
  channels: ReplyChannels;
  usage: MessageUsage;
  /** The linked contacts' current directory names (issue 17: names stay true); absent = stored names. */
  contactNames?: ContactNames;
  /** The idle hours after which the AI takes a conversation back (issue 17); INBOX_DEFAULTS when absent. */
  inboxSettings?: Pick<InboxSettingsRepository, 'get'>;
  now?: () => Date;
  /** 26-character time-sortable id (lib/ids.ts newId). */
  newId: () => string;
  onError?: (message: string, error: unknown) => void;
  /** The owner's alert when a conversation is escalated (issue 17); never throws. Absent = no alert. */
  alerts?: EscalationAlerts;
  /**
   * How many conversations have messages waiting for an answer (issue 34, waiting.ts; absent = 0),
   * and "Return to AI"'s hand-over of what a person left unanswered (issue 29; absent = none).
   */
  waiting?: { count(userId: string): Promise<number>; answerLeft?(userId: string, conversation: StoredConversation): Promise<LeftUnanswered> };
  /** Presigned links to customers' media in our bucket (issue 31; local signing, no request); absent = no links. */
  mediaLinks?: MediaLinks;
  /**
   * The account's active members and API keys (issue 32): who a conversation may be assigned to,
   * and who sent a person's message. Absent = the account's owner alone (the account id), and
   * messages stored without a sender.
   */
  senders?: SenderDirectory;
  /** Issue 33: customers' opt-outs: a template to one is refused (409), the detail shows it; absent = none checked. */
  optOuts?: Pick<OptOuts, 'get'>;
}

/** The customer's number as their opt-out is kept (E.164). */
const customerNumberOf = (c: Pick<StoredConversation, 'customerPhone' | 'customerWaId'>): string => c.customerPhone || (c.customerWaId ? `+${c.customerWaId}` : '');

/** Cards per board column (the board shows the newest activity first). */
export const OVERVIEW_COLUMN_LIMIT = 100;
/** Messages returned with a conversation's detail (oldest first). */
export const DETAIL_MESSAGES_CAP = 1000;
export const LATEST_MESSAGES_DEFAULT = 10;
export const LATEST_MESSAGES_MAX = 50;

const CONVERSATION_ID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const MESSAGE_ID_RE = /^([0-9A-HJKMNP-TV-Z]{26})-[0-9A-HJKMNP-TV-Z]{26}$/;

// ---------------------------------------------------------------------------------------------
// Views

/** What the Conversation view needs beside the stored item: the inbox's idle hours and the time it is read at. */
export interface ConversationViewContext {
  aiResumeAfterHours: number;
  now: Date;
}

/** `directory` = the linked contact's current entry: its name names the conversation (the WhatsApp profile name stays in `profileName`). */
export function toConversation(
  c: StoredConversation,
  ctx: ConversationViewContext = { aiResumeAfterHours: INBOX_DEFAULTS.aiResumeAfterHours, now: new Date() },
  directory?: ContactName,
): Conversation {
  return {
    _id: c.id,
    status: c.status,
    notes: c.notes,
    escalationReason: c.escalationReason,
    contact: { _id: directory?.id ?? c.contactId, name: directory?.name || c.customerName || c.customerPhone || c.customerWaId, phoneNumber: c.customerPhone },
    customerWaId: c.customerWaId,
    profileName: c.customerName,
    ...takeoverView(c, ctx.aiResumeAfterHours, ctx.now),
    assignee: c.assignee ?? null,
    unreadCount: Math.max(0, c.unreadCount ?? 0),
    lastMessage: c.lastMessage,
    lastAgent: c.lastAgent,
    createdAt: c.createdAt,
    lastMessageAt: c.lastMessageAt,
    lastInboundAt: c.lastInboundAt,
    closedAt: c.closedAt,
    escalatedAt: c.escalatedAt,
    messageCount: c.messageCount,
    noAnswer: c.noAnswerIds?.size ? { reason: c.noAnswerReason ?? 'unavailable', at: c.noAnswerAt ?? c.lastMessageAt, count: c.noAnswerIds.size } : null,
  };
}

// toMessage, toConversationMessage and toDetailMessage live in message-view.ts (issue 31: media links, no stored keys).
export { toConversationMessage, toDetailMessage, toMessage } from './message-view.js';

// ---------------------------------------------------------------------------------------------
// Rules

/** Start (UTC) of the board's date filter: today, this week (from Monday) or this month. */
export function dateFilterStart(filter: ConversationDateFilter, now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (filter === 'this_month') return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  if (filter === 'this_week') {
    const sinceMonday = (day.getUTCDay() + 6) % 7;
    return new Date(day.getTime() - sinceMonday * 24 * 3600 * 1000);
  }
  return day;
}

/** Whether a free-text message may be sent: the customer wrote within the last 24 hours. */
export function insideWindow(lastInboundAt: string | null, now: Date): boolean {
  if (!lastInboundAt) return false;
  const at = Date.parse(lastInboundAt);
  return Number.isFinite(at) && now.getTime() - at < FREE_MESSAGE_WINDOW_MS;
}

/** SPEC §4: '' = any status; an unknown status is read as pending. */
export function statusFilter(raw: string): MessageStatus | '' {
  if (!raw) return '';
  return (MESSAGE_STATUSES as readonly string[]).includes(raw) ? (raw as MessageStatus) : 'pending';
}

/** The board's assignee filter as the repository's: me → the caller's person id (issue 32), none → null, all → undefined. */
export function assigneeFilter(memberId: string, param: AssigneeFilterParam): AssigneeFilter | undefined {
  return param === 'me' ? memberId : param === 'none' ? null : undefined;
}

const pagination = (page: number, limit: number, total: number): MessagePagination => ({
  currentPage: page,
  totalPages: Math.max(1, Math.ceil(total / limit)),
  totalMessages: total,
  limit,
});

/** The provider's code and reason key a channel put beside a refused send's message (issue 34: the failed message keeps them). */
function failureDetailOf(error: DomainError): MessageFailureDetail {
  const { errorCode, errorReason } = error.details ?? {};
  return {
    ...(typeof errorCode === 'string' ? { errorCode } : {}),
    ...(isIntegrationHealthReason(errorReason) ? { errorReason } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Service

export function createConversationService(deps: ConversationServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const onError = deps.onError ?? (() => undefined);

  async function loadConversation(userId: string, id: string): Promise<StoredConversation> {
    const found = CONVERSATION_ID_RE.test(id) ? await deps.conversations.get(userId, id) : null;
    if (!found) throw new NotFoundError(whatsappMessages.conversationNotFound);
    return found;
  }

  async function loadMessage(userId: string, id: string): Promise<StoredMessage> {
    const found = MESSAGE_ID_RE.test(id) ? await deps.messages.get(userId, id) : null;
    if (!found) throw new NotFoundError(whatsappMessages.messageNotFound);
    return found;
  }

  async function channelOrThrow(userId: string): Promise<ReplyChannel> {
    const channel = await deps.channels.forUser(userId);
    if (!channel) throw new ValidationError(whatsappMessages.notConnected);
    return channel;
  }

  /**
   * Sends a stored outgoing message (status pending) on the user's channel: the plan's usage is
   * reserved first and given back when the send fails; the message ends sent (with the channel's
   * message id) or failed (with the reason), and a failure is thrown as a clear 4xx/502 (issue 34:
   * 503 when WhatsApp is unavailable for now, 504 when it did not confirm the send; the message is
   * kept as failed either way, to be sent again with Retry). The send carries the message's id as
   * its reference (the channel's status reports name it).
   */
  async function deliver(
    userId: string,
    channel: ReplyChannel,
    message: StoredMessage,
    to: string,
    send: (to: string, reference: string) => Promise<{ messageId: string }> = (recipient, reference) => channel.sendText(recipient, message.body, { reference }),
  ): Promise<StoredMessage> {
    try {
      const { messageId } = await send(to, message.id);
      const sent = await deps.messages.markSent(userId, message.id, messageId);
      return sent ?? { ...message, status: 'sent', waMessageId: messageId };
    } catch (error) {
      await deps.usage.release(userId, 'messages').catch((e: unknown) => onError('usage release failed', e));
      const failure = error instanceof DomainError ? error : new BadGatewayError(whatsappMessages.graphUnavailable);
      if (!(error instanceof DomainError)) onError('WhatsApp send failed', error);
      await deps.messages.markFailed(userId, message.id, failure.message, failureDetailOf(failure)).catch((e: unknown) => onError('markFailed failed', e));
      throw failure;
    }
  }

  /**
   * Every send by a person (a free-text reply, a template): the plan's message reserved, the
   * message stored (sentBy human, pending) before the send so a failed send stays visible and
   * retryable, the conversation touched, then sent by `send` (default: its body as text).
   * The caller checked the window and the input; what a person's send changes beyond this (the
   * takeover) belongs here so both kinds of send do it.
   */
  async function sendAsHuman(
    userId: string,
    conversation: StoredConversation,
    channel: ReplyChannel,
    outgoing: {
      type: string;
      body: string;
      send?: (to: string, reference: string) => Promise<{ messageId: string }>;
      /** Who sends it (issue 32, sender.ts); absent when the service has no sender directory. */
      sender?: StoredMessageSender;
      /** A file sent (issue 31): our copy kept under the message's id before it is stored; dropped again when the message is not stored. */
      media?: { keep(messageId: string): Promise<StoredMessageMedia>; discard(media: StoredMessageMedia): Promise<void> };
    },
  ): Promise<StoredMessage> {
    await deps.usage.reserve(userId, 'messages');
    const timestamp = now().toISOString();
    const text = outgoing.body;
    const id = `${conversation.id}-${deps.newId()}`;
    let media: StoredMessageMedia | undefined;
    try {
      media = await outgoing.media?.keep(id);
    } catch (error) {
      await deps.usage.release(userId, 'messages').catch((e: unknown) => onError('usage release failed', e));
      throw error;
    }
    const message: StoredMessage = {
      id,
      conversationId: conversation.id,
      waMessageId: '',
      contactId: conversation.contactId,
      type: outgoing.type,
      hasMedia: media !== undefined,
      ...(media ? { media } : {}),
      fromMe: true,
      from: channel.phoneNumber,
      to: conversation.customerPhone || conversation.customerWaId,
      phoneNumberId: { id: channel.phoneNumberId, name: channel.phoneNumber },
      status: 'pending',
      timestamp,
      body: text,
      sentBy: 'human',
      ...(outgoing.sender ? { sender: outgoing.sender } : {}),
      createdAt: timestamp,
    };
    try {
      await deps.messages.insertOutbound(userId, message);
    } catch (error) {
      await deps.usage.release(userId, 'messages').catch((e: unknown) => onError('usage release failed', e));
      if (media) await outgoing.media?.discard(media).catch((e: unknown) => onError('attachment copy delete failed', e));
      throw error;
    }
    // A file without a caption previews as its name on the board card.
    const preview = text || media?.filename || '';
    await deps.conversations
      .touch(userId, conversation.id, {
        lastMessage: { type: outgoing.type === 'chat' ? 'text' : outgoing.type, fromMe: true, content: preview, body: preview, timestamp, createdAt: timestamp },
        lastMessageAt: timestamp,
        messageCountDelta: 1,
        // A person answered: the AI stays quiet on this conversation (takeover.ts).
        humanAt: timestamp,
      })
      .catch((e: unknown) => onError('conversation touch failed', e));
    return deliver(userId, channel, message, conversation.customerWaId || conversation.customerPhone, outgoing.send);
  }

  /**
   * A person's reply with a file (issue 31): the staged upload checked and read once, our copy
   * kept under the message (as customers' media), then uploaded to the channel and sent with the
   * text as its caption (a file alone is fine). A failed send keeps the message failed with our
   * copy, so Retry sends the file again; the staged upload is deleted once sent.
   */
  async function sendAttachment(
    userId: string,
    conversation: StoredConversation,
    channel: ReplyChannel,
    caption: string,
    uploadId: string,
    sender: StoredMessageSender | undefined,
  ): Promise<StoredMessage> {
    const { attachments } = deps;
    const { sendMedia } = channel;
    if (!attachments || !sendMedia) throw new ValidationError(whatsappMessages.graphUnavailable);
    if (caption.length > MEDIA_LIMITS.captionChars) throw new ValidationError(mediaMessages.captionTooLong, 'text');
    const file = await loadAttachment(attachments, userId, uploadId, caption);
    const sent = await sendAsHuman(userId, conversation, channel, {
      type: file.kind,
      body: caption,
      ...(sender ? { sender } : {}),
      media: {
        async keep(messageId) {
          const storedKey = conversationMediaKey(userId, conversation.id, messageId);
          await attachments.keep(storedKey, file.bytes, file.mimeType);
          return attachmentMedia(file, storedKey);
        },
        discard: (media) => (media.storedKey ? attachments.delete(media.storedKey) : Promise.resolve()),
      },
      send: (to, reference) => sendMedia.call(channel, to, file, { reference }),
    });
    // Sent: the staged upload has served (a failed send keeps it, so Send can be pressed again, as a text reply's draft stays).
    await attachments.delete(file.stagingKey).catch((e: unknown) => onError('staged attachment delete failed', e));
    return sent;
  }

  /** How a failed message is sent again: a person's file from our copy (issue 31), a location or buttons / a list in its own shape, anything else as its text. */
  function resendOf(channel: ReplyChannel, message: StoredMessage): ((to: string, reference: string) => Promise<{ messageId: string }>) | undefined {
    const { sendContent } = channel;
    const content: OutgoingContent | null =
      message.type === 'location' && message.location
        ? { type: 'location', location: message.location }
        : message.type === 'interactive' && message.interactive
          ? { type: 'interactive', body: message.body, interactive: message.interactive }
          : null;
    if (content && sendContent) return (to, reference) => sendContent.call(channel, to, content, { reference });
    const kind: OutgoingMedia['kind'] | null = message.type === 'image' ? 'image' : message.type === 'document' ? 'document' : null;
    const { attachments } = deps;
    const { sendMedia } = channel;
    const storedKey = message.media?.storedKey;
    if (!kind || !storedKey || !attachments || !sendMedia) return undefined;
    return async (to, reference) => {
      const bytes = await attachments.read(storedKey, ATTACHMENT_MAX_BYTES);
      if (!bytes || bytes === 'too_large') throw new ValidationError(mediaMessages.attachmentNotUploaded);
      const media = { kind, bytes, mimeType: message.media?.mimeType ?? 'application/octet-stream', fileName: message.media?.filename ?? 'file', ...(message.body ? { caption: message.body } : {}) };
      return sendMedia.call(channel, to, media, { reference });
    };
  }

  type View = (c: StoredConversation, directory?: ContactName) => Conversation;
  /** The Conversation view for the user's reads: takeover decided with their idle hours, now. */
  async function viewer(userId: string): Promise<View> {
    const settings = deps.inboxSettings ? await deps.inboxSettings.get(userId) : INBOX_DEFAULTS;
    const ctx: ConversationViewContext = { aiResumeAfterHours: settings.aiResumeAfterHours, now: now() };
    return (c, directory) => toConversation(c, ctx, directory);
  }

  /**
   * Conversations named by their contacts' current directory names (issue 17): one batch read per
   * page; a customer saved as a contact since is found by phone.
   */
  async function named(userId: string, list: readonly StoredConversation[], view: View | Promise<View>): Promise<Conversation[]> {
    const [found, toView] = await Promise.all([
      deps.contactNames && list.length
        ? deps.contactNames.lookup(userId, {
            ids: distinct(list.map((c) => c.contactId)),
            phones: distinct(list.filter((c) => !c.contactId).map((c) => c.customerPhone)),
          })
        : emptyContactNames(),
      view,
    ]);
    return list.map((c) => toView(c, (c.contactId ? found.byId.get(c.contactId) : undefined) ?? found.byPhone.get(c.customerPhone)));
  }
  const namedOne = async (userId: string, c: StoredConversation): Promise<Conversation> => (await named(userId, [c], viewer(userId)))[0]!;

  /** Presigned links of the messages' stored media (issue 31), by message id. */
  const linksOf = (items: readonly StoredMessage[]) => mediaLinksOf(deps.mediaLinks, items, onError);
  /** Messages as the Message Hub shows them, with their media links. */
  async function hubMessages(items: readonly StoredMessage[]): Promise<Message[]> {
    const links = await linksOf(items);
    return items.map((m) => toMessage(m, links.get(m.id)));
  }

  /** Messages named by their customer's contact (issue 29, the Message Hub): one batch read per page, by contact id, else by the customer's number. */
  async function namedMessages(userId: string, items: readonly StoredMessage[]): Promise<Message[]> {
    const customerOf = (m: StoredMessage) => (m.fromMe ? m.to : m.from);
    const [found, links] = await Promise.all([
      deps.contactNames && items.length
        ? deps.contactNames.lookup(userId, {
            ids: distinct(items.map((m) => m.contactId)),
            phones: distinct(items.filter((m) => !m.contactId).map(customerOf)),
          })
        : emptyContactNames(),
      linksOf(items),
    ]);
    return items.map((m) => {
      const entry = (m.contactId ? found.byId.get(m.contactId) : undefined) ?? found.byPhone.get(customerOf(m));
      const shown = toMessage(m, links.get(m.id));
      return entry?.name ? { ...shown, contact: { _id: entry.id, name: entry.name } } : shown;
    });
  }

  /** Whether `personId` is an active member of the account (issue 32); without a directory, only the owner is. */
  async function isActiveMember(accountId: string, personId: string): Promise<boolean> {
    if (!deps.senders) return personId === accountId;
    return (await deps.senders.members.get(accountId, personId)) !== null;
  }

  /** Who sends a person's message (issue 32): 403 for a member no longer active or a deleted key; undefined without a directory. */
  async function senderFor(userId: string, actor: MessageActor | undefined): Promise<StoredMessageSender | undefined> {
    return deps.senders && actor ? resolveSender(deps.senders, userId, actor) : undefined;
  }

  /** Applies a status/notes/assignee change, conditional on the status read (re-read on a concurrent change). */
  async function applyUpdate(userId: string, id: string, input: { status?: ConversationStatus; notes?: string; assignee?: string | null }) {
    // Issue 32: a conversation is assigned to an active member of the account (one read), or to nobody.
    if (input.assignee !== undefined && input.assignee !== null && !(await isActiveMember(userId, input.assignee))) {
      throw new ValidationError(whatsappMessages.assigneeInvalid, 'assignee');
    }
    for (let attempt = 0; ; attempt++) {
      const current = await loadConversation(userId, id);
      const patch: ConversationPatch = {};
      if (input.notes !== undefined) patch.notes = input.notes;
      if (input.assignee !== undefined && input.assignee !== (current.assignee ?? null)) patch.assignee = input.assignee;
      if (input.status !== undefined && input.status !== current.status) {
        patch.status = input.status;
        if (input.status === 'closed') patch.closedAt = now().toISOString();
        else if (current.status === 'closed') patch.closedAt = null;
      }
      if (patch.status === undefined && patch.notes === undefined && patch.assignee === undefined) return current;
      const updated = await deps.conversations.update(userId, id, patch, now().toISOString(), current.status);
      if (updated) return updated;
      if (attempt >= 2) throw new NotFoundError(whatsappMessages.conversationNotFound);
    }
  }

  return {
    // ---- conversations ----

    /** `me`: the caller's person id, what assignee=me means (issue 32; the account id for its owner). */
    async overview(userId: string, dateFilter: ConversationDateFilter, assignee: AssigneeFilterParam = 'all', me = userId): Promise<ConversationOverview> {
      const since = dateFilterStart(dateFilter, now()).toISOString();
      const view = viewer(userId);
      const filter = assigneeFilter(me, assignee);
      const column = (status: ConversationStatus) =>
        deps.conversations.listActiveSince(userId, status, since, OVERVIEW_COLUMN_LIMIT, filter).then((list) => named(userId, list, view));
      const [active, closed, requiresHuman, stats, waitingConversations] = await Promise.all([
        column('active'),
        column('closed'),
        column('requires_human'),
        deps.conversations.stats(userId),
        deps.waiting ? deps.waiting.count(userId) : 0,
      ]);
      return { conversationsByStatus: { active, closed, requires_human: requiresHuman }, stats, waitingConversations };
    },

    async list(userId: string, query: { status?: ConversationStatus; search: string; page: number; limit: number; assignee?: AssigneeFilterParam }, me = userId) {
      const filter = assigneeFilter(me, query.assignee ?? 'all');
      const [{ items, total }, toView] = await Promise.all([
        deps.conversations.page(userId, {
          ...(query.status ? { status: query.status } : {}),
          search: query.search,
          offset: (query.page - 1) * query.limit,
          limit: query.limit,
          ...(filter !== undefined ? { assignee: filter } : {}),
        }),
        viewer(userId),
      ]);
      return {
        data: await named(userId, items, toView),
        pagination: {
          currentPage: query.page,
          totalPages: Math.max(1, Math.ceil(total / query.limit)),
          totalConversations: total,
          limit: query.limit,
        },
      };
    },

    stats(userId: string): Promise<ConversationStats> {
      return deps.conversations.stats(userId);
    },

    /** The conversation with its messages; opening it clears its unread count. */
    async get(userId: string, id: string): Promise<ConversationDetail> {
      const conversation = await loadConversation(userId, id);
      const [messages, toView, , optOut] = await Promise.all([
        deps.messages.listByConversation(userId, id, DETAIL_MESSAGES_CAP),
        viewer(userId),
        (conversation.unreadCount ?? 0) > 0 ? deps.conversations.markRead(userId, id) : undefined,
        // Issue 33: whether the customer opted out (beside the other reads).
        deps.optOuts ? deps.optOuts.get(userId, customerNumberOf(conversation)) : undefined,
      ]);
      const [[shown], links] = await Promise.all([named(userId, [{ ...conversation, unreadCount: 0 }], toView), linksOf(messages)]);
      return {
        conversation: shown!,
        messages: messages.map((m) => toDetailMessage(m, links.get(m.id))),
        ...(deps.optOuts ? { optOut: optOut ?? null } : {}),
      };
    },

    async update(userId: string, id: string, input: { status?: ConversationStatus; notes?: string; assignee?: string | null }): Promise<Conversation> {
      return namedOne(userId, await applyUpdate(userId, id, input));
    },

    /**
     * "Return to AI": the agent answers the conversation again (an escalated one becomes active);
     * humanAt stays as when a person last acted. What the customer wrote after the last reply is
     * handed to the agent now (issue 29, waiting.ts answerLeft), and counted for the owner.
     */
    async resumeAi(userId: string, id: string): Promise<ResumeAiResult> {
      for (let attempt = 0; ; attempt++) {
        const current = await loadConversation(userId, id);
        const patch: ConversationPatch = { aiPaused: false };
        if (current.status === 'requires_human') patch.status = 'active';
        const updated = await deps.conversations.update(userId, id, patch, now().toISOString(), current.status);
        if (updated) {
          const left = deps.waiting?.answerLeft ? await deps.waiting.answerLeft(userId, updated) : { leftUnanswered: 0, answering: false };
          return { ...(await namedOne(userId, updated)), ...left };
        }
        if (attempt >= 2) throw new NotFoundError(whatsappMessages.conversationNotFound);
      }
    },

    async escalate(userId: string, id: string, reason: string): Promise<Conversation> {
      const trimmed = reason.trim();
      if (!trimmed) throw new ValidationError(whatsappMessages.escalationReasonRequired, 'reason');
      await loadConversation(userId, id);
      const updated = await deps.conversations.escalate(userId, id, trimmed, now().toISOString());
      if (!updated) throw new NotFoundError(whatsappMessages.conversationNotFound);
      const view = await namedOne(userId, updated);
      // The contact's directory name as the board shows it; once per escalation (keyed by escalatedAt).
      await deps.alerts?.escalated(userId, {
        kind: 'conversation_escalated',
        subjectId: id,
        contactName: view.contact.name || view.contact.phoneNumber || updated.customerName,
        reason: trimmed,
        occurrence: updated.escalatedAt ?? '',
        // Issue 32: the assignee alone is told; unassigned, every member.
        assignee: updated.assignee,
      });
      return view;
    },

    async remove(userId: string, id: string): Promise<void> {
      await loadConversation(userId, id);
      if (!(await deps.conversations.remove(userId, id))) throw new NotFoundError(whatsappMessages.conversationNotFound);
    },

    /**
     * A person's reply as the business: free text inside the 24-hour window (counted from the
     * customer's last message), refused outside it; stored (sentBy human) before the send so a
     * failed send stays visible and retryable.
     */
    async reply(userId: string, id: string, text: string, attachment?: { uploadId: string }, actor?: MessageActor): Promise<ConversationMessage> {
      const conversation = await loadConversation(userId, id);
      if (!insideWindow(conversation.lastInboundAt, now())) throw new ValidationError(whatsappMessages.windowClosed);
      const [channel, sender] = await Promise.all([channelOrThrow(userId), senderFor(userId, actor)]);
      if (!attachment) return toConversationMessage(await sendAsHuman(userId, conversation, channel, { type: 'chat', body: text, ...(sender ? { sender } : {}) }));
      return toConversationMessage(await sendAttachment(userId, conversation, channel, text, attachment.uploadId, sender));
    },

    /**
     * Step 1 of a reply with a file (issue 31): a signed form upload to the attachment's staging
     * key (its type, its kind's size limit and its file name fixed by the form), and its uploadId
     * for the reply. Refused early as the reply would be: a foreign conversation, the window closed.
     */
    async requestAttachmentUpload(userId: string, id: string, input: AttachmentUploadInput): Promise<AttachmentUploadTicket> {
      const conversation = await loadConversation(userId, id);
      if (!insideWindow(conversation.lastInboundAt, now())) throw new ValidationError(whatsappMessages.windowClosed);
      if (!deps.attachments) throw new ValidationError(whatsappMessages.graphUnavailable);
      const { kind, mimeType } = checkAttachment(input.mimeType, input.size);
      const fileName = attachmentFileName(input.fileName);
      if (!fileName) throw new ValidationError(mediaMessages.attachmentFileNameRequired, 'fileName');
      const uploadId = deps.newId();
      const maxBytes = MEDIA_LIMITS.attachmentMaxBytes[kind];
      const form = await deps.attachments.uploadRequest(attachmentStagingKey(userId, uploadId), { contentType: mimeType, maxBytes, fileName });
      return { uploadId, kind, fileName, mimeType, maxBytes, ...form };
    },

    /** The business's approved message templates (what a person may send once the 24-hour window closed). */
    async templates(userId: string): Promise<WhatsAppTemplate[]> {
      const channel = await channelOrThrow(userId);
      return channel.listTemplates ? channel.listTemplates() : [];
    },

    /**
     * A person's template message (issue 17): only when the 24-hour window is closed (inside it a
     * free-form reply is possible), the template among the approved ones and its parameters all
     * given. Stored like a reply (type 'template', the body its text filled) on the same path.
     */
    async sendTemplate(userId: string, id: string, input: SendTemplateRequest, actor?: MessageActor): Promise<ConversationMessage> {
      const conversation = await loadConversation(userId, id);
      if (insideWindow(conversation.lastInboundAt, now())) throw new ConflictError(templateMessages.windowOpen);
      const [channel, sender, optOut] = await Promise.all([
        channelOrThrow(userId),
        senderFor(userId, actor),
        deps.optOuts ? deps.optOuts.get(userId, customerNumberOf(conversation)) : null,
      ]);
      // Issue 33: the customer asked for no messages: refused with why, nothing sent.
      if (optOut) throw optedOutError(optOut);
      const { sendTemplate } = channel;
      const available = channel.listTemplates ? await channel.listTemplates() : [];
      const template = available.find((t) => t.name === input.name && t.language === input.language);
      if (!template || !sendTemplate) throw new ValidationError(templateMessages.templateNotFound, 'name');
      const parameters = input.parameters ?? [];
      if (parameters.length !== template.parameterCount) {
        throw new ValidationError(templateMessages.parameterCount(template.parameterCount, parameters.length), 'parameters');
      }
      const outgoing = { name: template.name, language: template.language, parameters, parameterNames: template.parameters };
      const body = fillTemplate(template.body, parameters);
      const sent = await sendAsHuman(userId, conversation, channel, {
        type: TEMPLATE_MESSAGE_TYPE,
        body,
        ...(sender ? { sender } : {}),
        send: (to, reference) => sendTemplate.call(channel, to, { ...outgoing, reference }),
      });
      return toConversationMessage(sent);
    },

    // ---- messages ----

    async listMessages(userId: string, query: ListMessagesQuery): Promise<{ data: Message[]; pagination: MessagePagination }> {
      const { items, total } = await deps.messages.page(userId, {
        page: query.page,
        limit: query.limit,
        search: query.search,
        status: statusFilter(query.status),
        ...(query.fromMe === '' ? {} : { fromMe: query.fromMe === 'true' }),
        timeFilter: query.timeFilter,
        now: now().toISOString(),
      });
      return { data: await namedMessages(userId, items), pagination: pagination(query.page, query.limit, total) };
    },

    messageStats(userId: string, timeFilter: TimeFilter): Promise<MessageStats> {
      return deps.messages.stats(userId, timeFilter, now().toISOString());
    },

    async latestMessages(userId: string, limit = LATEST_MESSAGES_DEFAULT): Promise<Message[]> {
      const bounded = Math.min(Math.max(1, Math.trunc(limit) || LATEST_MESSAGES_DEFAULT), LATEST_MESSAGES_MAX);
      return hubMessages(await deps.messages.latest(userId, bounded));
    },

    async getMessage(userId: string, id: string): Promise<Message> {
      const [shown] = await hubMessages([await loadMessage(userId, id)]);
      return shown!;
    },

    /** Sends a failed outgoing message again (same rules as a reply: window, connection, plan limit). */
    async retryMessage(userId: string, id: string): Promise<Message> {
      const message = await loadMessage(userId, id);
      if (!message.fromMe || message.status !== 'failed') throw new ValidationError(whatsappMessages.retryNotFailed);
      const conversation = await deps.conversations.get(userId, message.conversationId);
      if (!conversation) throw new NotFoundError(whatsappMessages.conversationNotFound);
      if (!insideWindow(conversation.lastInboundAt, now())) throw new ValidationError(whatsappMessages.windowClosed);
      const channel = await channelOrThrow(userId);
      await deps.usage.reserve(userId, 'messages');
      const pending = await deps.messages.beginRetry(userId, id).catch(async (error: unknown) => {
        await deps.usage.release(userId, 'messages').catch((e: unknown) => onError('usage release failed', e));
        throw error;
      });
      if (!pending) {
        // Retried (or deleted) by another request meanwhile.
        await deps.usage.release(userId, 'messages').catch((e: unknown) => onError('usage release failed', e));
        throw new ValidationError(whatsappMessages.retryNotFailed);
      }
      if (pending.sentBy === 'human') {
        // A person's message sent again from the Message Hub: they answer this conversation (takeover.ts).
        const at = now().toISOString();
        await deps.conversations
          .update(userId, conversation.id, { humanAt: at, aiPaused: true }, at)
          .catch((e: unknown) => onError('conversation takeover on retry failed', e));
      }
      return toMessage(await deliver(userId, channel, pending, conversation.customerWaId || conversation.customerPhone, resendOf(channel, pending)));
    },

    async removeMessage(userId: string, id: string): Promise<void> {
      await loadMessage(userId, id);
      if (!(await deps.messages.remove(userId, id))) throw new NotFoundError(whatsappMessages.messageNotFound);
    },
  };
}

export type ConversationService = ReturnType<typeof createConversationService>;
