/**
 * A stored message as the browser sees it (issue 31): the conversation's detail, the Message Hub's
 * list, latest and detail. What a customer's media became (state, failure, size, transcript,
 * document preview, pages) and what the message carries besides text (location, contact cards,
 * interactive options, the option tapped) go out; our copy's key never does. A stored copy gets a
 * presigned GET (MediaObjects.viewUrl: local signing, no request) valid
 * MEDIA_LIMITS.viewUrlSeconds; a document's link downloads it under its file name.
 */
import { MEDIA_LIMITS } from '../../contract/whatsapp-media.js';
import type { ConversationDetailMessage, ConversationMessage, Message, MessageMedia } from '../../contract/whatsapp.js';
import type { StoredMessage, StoredMessageMedia } from './ports.js';
import { senderView, storedSender } from './sender.js';

/**
 * The one thing the views need of our media copies: a presigned link, no request made (the
 * whatsapp media port MediaObjects.viewUrl, adapters/s3-media.ts, fits it).
 */
export interface MediaLinks {
  viewUrl(key: string, options: { seconds: number; fileName?: string; contentType?: string }): Promise<string>;
}

/** The media as shown: every field but our key; `url` only from our stored copy (a stale stored `url` is dropped). */
export function mediaView(media: StoredMessageMedia, url?: string): MessageMedia {
  const { storedKey: _key, url: _stale, ...shown } = media;
  return url ? { ...shown, url } : shown;
}

/** The issue-31 fields a message carries besides text and media (present only when set). */
function extras(m: StoredMessage): Pick<Message, 'location' | 'contactCards' | 'interactive' | 'interactiveReply'> {
  return {
    ...(m.location ? { location: m.location } : {}),
    ...(m.contactCards?.length ? { contactCards: m.contactCards } : {}),
    ...(m.interactive ? { interactive: m.interactive } : {}),
    ...(m.interactiveReply ? { interactiveReply: m.interactiveReply } : {}),
  };
}

/** Who sent a person's message (issue 32), only when what is stored is well-formed. */
function senderOf(m: StoredMessage): Pick<Message, 'sender'> {
  const sender = storedSender(m.sender);
  return sender ? { sender: senderView(sender) } : {};
}

/** The Message Hub's Message; `url` is the media's presigned link (mediaLinksOf). */
export function toMessage(m: StoredMessage, url?: string): Message {
  return {
    _id: m.id,
    waMessageId: m.waMessageId,
    conversationId: m.conversationId,
    ...(m.contactId ? { contactId: m.contactId } : {}),
    type: m.type,
    hasMedia: m.hasMedia,
    ...(m.media ? { media: mediaView(m.media, url) } : {}),
    fromMe: m.fromMe,
    to: m.to,
    from: m.from,
    phoneNumberId: m.phoneNumberId,
    status: m.status,
    timestamp: m.timestamp,
    body: m.body,
    ...(m.error ? { error: m.error } : {}),
    ...(m.errorCode ? { errorCode: m.errorCode } : {}),
    ...(m.errorReason ? { errorReason: m.errorReason } : {}),
    ...(m.agent ? { agent: m.agent } : {}),
    ...(m.sentBy ? { sentBy: m.sentBy } : {}),
    ...senderOf(m),
    ...extras(m),
  };
}

/** A conversation's message; `url` as toMessage. */
export function toConversationMessage(m: StoredMessage, url?: string): ConversationMessage {
  return {
    _id: m.id,
    fromMe: m.fromMe,
    type: m.type,
    body: m.body,
    content: m.body,
    timestamp: m.timestamp,
    status: m.status,
    hasMedia: m.hasMedia,
    ...(m.media ? { media: mediaView(m.media, url) } : {}),
    ...(m.error ? { error: m.error } : {}),
    ...(m.errorCode ? { errorCode: m.errorCode } : {}),
    ...(m.errorReason ? { errorReason: m.errorReason } : {}),
    ...(m.sentBy ? { sentBy: m.sentBy } : {}),
    ...senderOf(m),
    ...extras(m),
  };
}

/** A message of the conversation's detail: with the "no answer sent" marker of a customer's message (issue 34). */
export function toDetailMessage(m: StoredMessage, url?: string): ConversationDetailMessage {
  return { ...toConversationMessage(m, url), ...(m.noAnswer ? { noAnswer: m.noAnswer } : {}) };
}

/** Failures that leave no copy in our bucket (the media never arrived whole). */
const NOT_STORED: ReadonlySet<string> = new Set(['not_found', 'expired', 'too_large', 'checksum', 'download_failed']);

/**
 * Whether the message's media is in our bucket and may be linked: not while it is pending, not
 * when it never arrived; a copy whose understanding failed (not transcribed, a document too large
 * to read) is still ours to play or open, and so is an owner's attachment (issue 31).
 */
export function linkable(media: StoredMessageMedia | undefined): media is StoredMessageMedia & { storedKey: string } {
  if (!media?.storedKey || media.state === 'pending') return false;
  return !(media.state === 'failed' && (!media.failure || NOT_STORED.has(media.failure)));
}

/**
 * The presigned link of each message's stored media, by message id. Signing is local computation
 * (no S3 request); a link that cannot be made leaves that message without one rather than failing the read.
 */
export async function mediaLinksOf(
  links: MediaLinks | undefined,
  items: readonly StoredMessage[],
  onError: (message: string, error: unknown) => void = () => undefined,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!links) return found;
  await Promise.all(
    items.map(async (m) => {
      const media = m.media;
      if (!linkable(media)) return;
      try {
        const document = m.type === 'document';
        const url = await links.viewUrl(media.storedKey, {
          seconds: MEDIA_LIMITS.viewUrlSeconds,
          ...(media.mimeType ? { contentType: media.mimeType } : {}),
          // A document downloads under its own name; audio, images and video play inline.
          ...(document ? { fileName: media.filename || 'document' } : {}),
        });
        found.set(m.id, url);
      } catch (error) {
        onError('media link failed', error);
      }
    }),
  );
  return found;
}
