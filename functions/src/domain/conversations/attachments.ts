/**
 * An owner's attachment to a reply from the inbox (issue 31): the browser uploads the file itself
 * to a staging key with a signed form (the file name kept beside it), then the reply names the
 * upload. The server checks the staged object again (storage enforces the form's size range and
 * type; a local or misbehaving store may not), reads it once (≤ 16 MB), keeps our copy under
 * the conversation (`whatsapp-media/{userId}/{conversationId}/{messageId}`, as customers' media),
 * and the channel uploads it to the provider and sends it. Channel-agnostic: the port below and
 * ReplyChannel.sendMedia.
 */
import { ATTACHMENT_STAGING_PREFIX, MEDIA_LIMITS, WHATSAPP_MEDIA_PREFIX, attachmentKindOf, mediaMessages } from '../../contract/whatsapp-media.js';
import type { PresignedPost } from '../agents/repository.js';
import { ValidationError } from '../errors.js';
import type { OutgoingMedia, StoredMessageMedia } from './ports.js';

/** What storage holds of a staged upload: its size and type as stored, and the file name it was uploaded with. */
export interface StagedAttachment {
  size: number;
  contentType: string;
  /** '' when the upload carried none (not one of ours). */
  fileName: string;
}

/** The uploads bucket as attachments use it (adapters/s3-attachments.ts; presigned requests only). */
export interface AttachmentStore {
  /** Where the browser POSTs the file: exactly `key`, this Content-Type, 1..maxBytes bytes, the file name kept beside it. */
  uploadRequest(key: string, options: { contentType: string; maxBytes: number; fileName: string }): Promise<PresignedPost>;
  /** HEAD of a staged upload; null when there is none (never uploaded, or expired). */
  staged(key: string): Promise<StagedAttachment | null>;
  /** The object's bytes (one copy); 'too_large' past maxBytes (nothing more is read); null when it is gone. */
  read(key: string, maxBytes: number): Promise<Uint8Array | 'too_large' | null>;
  /** Stores our copy (encrypted, tagged for retention like customers' media). */
  keep(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** The biggest attachment of any kind (the read bound of a stored copy sent again). */
export const ATTACHMENT_MAX_BYTES = Math.max(...Object.values(MEDIA_LIMITS.attachmentMaxBytes));

export const attachmentStagingKey = (userId: string, uploadId: string) => `${ATTACHMENT_STAGING_PREFIX}${userId}/${uploadId}`;
export const conversationMediaKey = (userId: string, conversationId: string, messageId: string) =>
  `${WHATSAPP_MEDIA_PREFIX}${userId}/${conversationId}/${messageId}`;

/** The file name as the customer sees it: its last path part, no control characters, at most 200 characters. */
export function attachmentFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return base.slice(0, 200);
}

/** The canonical MIME type (no parameters, lower case). */
const canonicalType = (mimeType: string) => mimeType.split(';')[0]?.trim().toLowerCase() ?? '';

/** The kind of an attachable type within its kind's size limit; a 400 with the contract's text otherwise. */
export function checkAttachment(mimeType: string, size: number): { kind: 'image' | 'document'; mimeType: string } {
  const kind = attachmentKindOf(mimeType);
  if (!kind) throw new ValidationError(mediaMessages.attachmentTypeInvalid, 'mimeType');
  if (!Number.isSafeInteger(size) || size < 1 || size > MEDIA_LIMITS.attachmentMaxBytes[kind]) throw new ValidationError(mediaMessages.attachmentTooLarge, 'size');
  return { kind, mimeType: canonicalType(mimeType) };
}

/** A staged upload read and checked again, ready to keep and send. */
export interface LoadedAttachment extends OutgoingMedia {
  stagingKey: string;
  size: number;
}

/** The staged upload of `uploadId`, checked (type, size, name) and read once; 400 attachmentNotUploaded when it is not there. */
export async function loadAttachment(store: AttachmentStore, userId: string, uploadId: string, caption: string): Promise<LoadedAttachment> {
  const stagingKey = attachmentStagingKey(userId, uploadId);
  const staged = await store.staged(stagingKey);
  const fileName = staged ? attachmentFileName(staged.fileName) : '';
  if (!staged || !fileName) throw new ValidationError(mediaMessages.attachmentNotUploaded, 'attachment');
  const { kind, mimeType } = checkAttachment(staged.contentType, staged.size);
  const bytes = await store.read(stagingKey, MEDIA_LIMITS.attachmentMaxBytes[kind]);
  // 'too_large': replaced by a bigger file since the HEAD.
  if (bytes === 'too_large') throw new ValidationError(mediaMessages.attachmentTooLarge, 'attachment');
  if (!bytes) throw new ValidationError(mediaMessages.attachmentNotUploaded, 'attachment');
  return { stagingKey, kind, bytes, mimeType, fileName, size: bytes.byteLength, ...(caption ? { caption } : {}) };
}

/** The message's media as stored once our copy is kept (state 'stored': nothing left to fetch). */
export function attachmentMedia(file: LoadedAttachment, storedKey: string): StoredMessageMedia {
  return {
    mimeType: file.mimeType,
    filename: file.fileName,
    ...(file.caption ? { caption: file.caption } : {}),
    size: file.size,
    storedKey,
    state: 'stored',
  };
}
