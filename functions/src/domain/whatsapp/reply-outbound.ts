/**
 * What the agent sends with its reply (issue 31, AgentReply.outbound): each file and the business
 * location goes after the reply's text as its own outgoing message, in order. A file is read from
 * the uploads bucket by its key and uploaded to Meta's media endpoint first (the media id and our
 * copy's key are kept on the message, so a retry from the Message Hub sends it again).
 *
 * Each is one plan message, stored failed with the reason when it cannot go (the plan's limit, the
 * file gone, Meta's refusal). At most once: sent when the reply's send is over, never by a retry of
 * the job (a failed one waits for the owner's Retry), and a failure here never fails the reply.
 */
import { integrationHealthReasons } from '../../contract/integration-health.js';
import { mediaMessages } from '../../contract/whatsapp-media.js';
import { whatsappMessages } from '../../contract/whatsapp.js';
import type { FileMetaMedia } from '../agents/ports.js';
import type { ReplyOutbound } from '../agents/runtime/ports.js';
import { lastMessageOf, type ConversationRepository, type MessageFailureDetail, type MessageRepository, type MessageUsage, type StoredMessage } from '../conversations/ports.js';
import { LimitExceededError, PaymentRequiredError } from '../errors.js';
import { credentialFailureOf } from '../integrations/health.js';
import { sendFailureOf } from './graph-errors.js';
import { GraphMediaError, MediaTooLargeError } from './media/ports.js';
import { locationText, MEDIA_ID_DAYS, MediaNotSendableError, sendKindOf, sendStoredMessage, uploadMaxBytes, type StoredSendDeps } from './outbound-content.js';
import { GraphError, type WhatsAppCredentials } from './ports.js';

export interface ReplyOutboundDeps extends StoredSendDeps {
  conversations: Pick<ConversationRepository, 'touch'>;
  messages: Pick<MessageRepository, 'insertOutbound' | 'markSent' | 'markFailed'>;
  usage: MessageUsage;
  /** Keeps Meta's media id of an agent file's upload on the file (FileRecord.metaMedia); absent = every send uploads it. Never throws. */
  fileMedia?: { remember(userId: string, agentId: string, fileId: string, media: FileMetaMedia): Promise<void> };
  newId(now: number): string;
  now?: () => number;
  onError?: (message: string, error: unknown) => void;
}

/** Where the items go: the reply they follow (its conversation, sender and recipient fields are theirs too). */
export interface OutboundTarget {
  userId: string;
  credentials: WhatsAppCredentials;
  /** Meta's recipient (the customer's wa_id or BSUID). */
  to: string;
  /** The agent's reply just sent (or failed): the items are stored like it. */
  reply: StoredMessage;
  /** The answering agent and its files' last uploads to Meta (a fresh one from this number is sent by id, not uploaded again). */
  agentId?: string;
  uploaded?: (fileId: string) => FileMetaMedia | undefined;
}

/** Why an item was not sent, as stored on it (and whether the plan's message stays counted: Meta may have it). */
interface Failure {
  text: string;
  detail: MessageFailureDetail;
  counted: boolean;
}

/** A failure of an item's upload or send as the owner reads it. */
export function outboundFailureOf(error: unknown): Failure {
  if (error instanceof MediaNotSendableError) return { text: mediaMessages.outboundFileGone, detail: {}, counted: false };
  if (error instanceof MediaTooLargeError) return { text: mediaMessages.outboundFileTooLarge, detail: {}, counted: false };
  if (error instanceof GraphMediaError) {
    const refused = error.kind === 'auth' ? credentialFailureOf(new GraphError('auth', error.message, error.code)) : undefined;
    if (refused) return { text: integrationHealthReasons[refused.reason], detail: { errorCode: refused.code, errorReason: refused.reason }, counted: false };
    const code = error.code !== undefined ? { errorCode: String(error.code) } : {};
    return { text: error.kind === 'unavailable' ? whatsappMessages.graphTemporarilyUnavailable : error.message, detail: code, counted: false };
  }
  if (!(error instanceof GraphError)) return { text: whatsappMessages.graphUnavailable, detail: {}, counted: false };
  const code = error.code !== undefined ? { errorCode: String(error.code) } : {};
  const failure = sendFailureOf(error);
  if (failure === 'unknown') return { text: whatsappMessages.deliveryUnknown, detail: code, counted: true };
  if (failure === 'retry') return { text: whatsappMessages.graphTemporarilyUnavailable, detail: code, counted: false };
  const refused = credentialFailureOf(error);
  if (refused) return { text: integrationHealthReasons[refused.reason], detail: { errorCode: refused.code, errorReason: refused.reason }, counted: false };
  return { text: error.message, detail: code, counted: false };
}

const DAY_MS = 24 * 3600 * 1000;

export function createReplyOutbound(deps: ReplyOutboundDeps) {
  const now = deps.now ?? Date.now;
  const onError = deps.onError ?? (() => undefined);

  /** The item as an outgoing message like the reply (pending, no Meta id yet). */
  function messageOf(target: OutboundTarget, item: ReplyOutbound): StoredMessage {
    const at = now();
    const time = new Date(at).toISOString();
    const { reply } = target;
    const base: StoredMessage = {
      id: `${reply.conversationId}-${deps.newId(at)}`,
      conversationId: reply.conversationId,
      waMessageId: '',
      contactId: reply.contactId,
      type: 'chat',
      hasMedia: false,
      fromMe: true,
      from: reply.from,
      to: reply.to,
      phoneNumberId: reply.phoneNumberId,
      status: 'pending',
      timestamp: time,
      body: '',
      ...(reply.agent ? { agent: reply.agent } : {}),
      sentBy: reply.sentBy ?? 'agent',
      createdAt: time,
    };
    if (item.type === 'location') return { ...base, type: 'location', body: locationText(item.location), location: { ...item.location } };
    return {
      ...base,
      type: sendKindOf(item.mimeType),
      hasMedia: true,
      body: item.caption ?? '',
      media: { mimeType: item.mimeType, filename: item.fileName, storedKey: item.s3Key, ...(item.caption ? { caption: item.caption } : {}) },
    };
  }

  /** Sends one item; never throws (a failure is stored on it). */
  async function sendOne(target: OutboundTarget, item: ReplyOutbound): Promise<void> {
    const { userId } = target;
    let message = messageOf(target, item);
    try {
      await deps.usage.reserve(userId, 'messages', 1);
    } catch (error) {
      if (!(error instanceof LimitExceededError) && !(error instanceof PaymentRequiredError)) throw error;
      const failed: StoredMessage = { ...message, status: 'failed', error: error instanceof LimitExceededError ? whatsappMessages.usageLimitReached : error.message };
      await deps.messages.insertOutbound(userId, failed);
      await touch(target, failed);
      return;
    }
    let counted = true;
    try {
      // A file goes to Meta's media endpoint first (unless this number uploaded it within Meta's
      // 30 days): its id is kept on the message (a retry sends it by id) and on the agent's file.
      if (item.type === 'file' && deps.mediaUpload) {
        const { phoneId } = target.credentials;
        const last = target.uploaded?.(item.fileId);
        const fresh = last && last.phoneId === phoneId && now() - Date.parse(last.at) < MEDIA_ID_DAYS * DAY_MS ? last.mediaId : undefined;
        let mediaId = fresh;
        if (!mediaId) {
          const bytes = await deps.mediaUpload.objects.get(item.s3Key, uploadMaxBytes(message.type));
          if (!bytes) throw new MediaNotSendableError('no_copy');
          ({ mediaId } = await deps.mediaUpload.client.upload(target.credentials, { bytes, mimeType: item.mimeType, fileName: item.fileName }));
          if (target.agentId) {
            await deps.fileMedia
              ?.remember(userId, target.agentId, item.fileId, { phoneId, mediaId, at: new Date(now()).toISOString() })
              .catch((error: unknown) => onError('The upload of an agent file to WhatsApp could not be noted on it', error));
          }
        }
        message = { ...message, media: { ...message.media, id: mediaId } };
      }
    } catch (error) {
      const failure = outboundFailureOf(error);
      onError('A file the agent sent could not be uploaded to WhatsApp: stored as failed', error);
      await deps.usage.release(userId, 'messages', 1);
      const failed: StoredMessage = { ...message, status: 'failed', error: failure.text, ...failure.detail };
      await deps.messages.insertOutbound(userId, failed);
      await touch(target, failed);
      return;
    }
    await deps.messages.insertOutbound(userId, message);
    try {
      const { messageId } = await sendStoredMessage(deps, target.credentials, target.to, message);
      await deps.messages.markSent(userId, message.id, messageId);
    } catch (error) {
      const failure = outboundFailureOf(error);
      counted = failure.counted;
      onError('WhatsApp did not take a file or location the agent sent: stored as failed', error);
      await deps.messages.markFailed(userId, message.id, failure.text, failure.detail);
    } finally {
      if (!counted) await deps.usage.release(userId, 'messages', 1);
      await touch(target, message);
    }
  }

  function touch(target: OutboundTarget, message: StoredMessage) {
    return deps.conversations.touch(target.userId, message.conversationId, { lastMessage: lastMessageOf(message), lastMessageAt: message.createdAt, messageCountDelta: 1 });
  }

  return {
    /** Sends the reply's items in order, each as its own message; never throws. */
    async send(target: OutboundTarget, items: readonly ReplyOutbound[] | undefined): Promise<void> {
      for (const item of items ?? []) {
        try {
          await sendOne(target, item);
        } catch (error) {
          onError('An item the agent sent with its reply could not be stored', error);
        }
      }
    },
  };
}

export type ReplyOutboundSender = ReturnType<typeof createReplyOutbound>;
